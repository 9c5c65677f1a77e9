from enum import StrEnum


class CorrelationMatrixRegionsDroppedItemReason(StrEnum):
    BEFORE_BREAK = "before_break"
    BREAK_IN_SERIES = "break_in_series"
    CONFIDENTIAL = "confidential"
    FLAGGED = "flagged"
    MISSING = "missing"
    NON_POSITIVE = "non_positive"

    def __str__(self) -> str:
        return str(self.value)
