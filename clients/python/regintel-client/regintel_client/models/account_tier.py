from enum import StrEnum


class AccountTier(StrEnum):
    INSTITUTIONAL = "institutional"
    PROFESSIONAL = "professional"

    def __str__(self) -> str:
        return str(self.value)
