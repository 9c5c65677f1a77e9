from enum import StrEnum


class UsageTier(StrEnum):
    INSTITUTIONAL = "institutional"
    PROFESSIONAL = "professional"

    def __str__(self) -> str:
        return str(self.value)
