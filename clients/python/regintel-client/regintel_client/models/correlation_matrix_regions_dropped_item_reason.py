from enum import StrEnum


class CorrelationMatrixRegionsDroppedItemReason(StrEnum):
    CONFIDENTIAL = "confidential"
    FLAGGED = "flagged"
    MISSING = "missing"

    def __str__(self) -> str:
        return str(self.value)
