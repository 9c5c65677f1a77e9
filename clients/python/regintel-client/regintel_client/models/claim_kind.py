from enum import StrEnum


class ClaimKind(StrEnum):
    DERIVED = "derived"
    DIRECT = "direct"

    def __str__(self) -> str:
        return str(self.value)
