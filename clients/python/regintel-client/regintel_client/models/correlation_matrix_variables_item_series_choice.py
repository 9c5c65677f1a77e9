from enum import StrEnum


class CorrelationMatrixVariablesItemSeriesChoice(StrEnum):
    HEADLINE = "headline"
    RATE_INSTEAD_OF_TOTAL = "rate_instead_of_total"
    REQUESTED = "requested"

    def __str__(self) -> str:
        return str(self.value)
