from enum import StrEnum


class CorrelationMatrixBasis(StrEnum):
    CROSS_SECTION = "cross_section"
    TIME_SERIES = "time_series"

    def __str__(self) -> str:
        return str(self.value)
