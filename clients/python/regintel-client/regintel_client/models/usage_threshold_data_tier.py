from enum import StrEnum


class UsageThresholdDataTier(StrEnum):
    INSTITUTIONAL = "institutional"
    PROFESSIONAL = "professional"

    def __str__(self) -> str:
        return str(self.value)
