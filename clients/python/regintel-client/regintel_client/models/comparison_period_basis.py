from enum import StrEnum


class ComparisonPeriodBasis(StrEnum):
    LATEST_COMMON = "latest_common"
    LATEST_EACH = "latest_each"
    REQUESTED = "requested"

    def __str__(self) -> str:
        return str(self.value)
