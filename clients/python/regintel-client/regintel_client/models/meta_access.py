from enum import StrEnum


class MetaAccess(StrEnum):
    ACCOUNT = "account"
    PUBLIC = "public"

    def __str__(self) -> str:
        return str(self.value)
