from enum import StrEnum


class ClaimOperation(StrEnum):
    COUNT = "count"
    DIFFERENCE = "difference"
    INDEX_CHANGE = "index_change"
    PERCENT_CHANGE = "percent_change"
    RANK = "rank"
    RANK_FROM_BOTTOM = "rank_from_bottom"
    RATIO = "ratio"
    SHARE = "share"

    def __str__(self) -> str:
        return str(self.value)
