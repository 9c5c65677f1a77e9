from enum import StrEnum


class ClaimOperation(StrEnum):
    COUNT = "count"
    DIFFERENCE = "difference"
    PERCENT_CHANGE = "percent_change"
    RANK = "rank"
    SHARE = "share"

    def __str__(self) -> str:
        return str(self.value)
