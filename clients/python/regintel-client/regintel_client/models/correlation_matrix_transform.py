from enum import StrEnum


class CorrelationMatrixTransform(StrEnum):
    LOG = "log"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
