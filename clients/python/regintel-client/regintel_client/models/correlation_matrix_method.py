from enum import StrEnum


class CorrelationMatrixMethod(StrEnum):
    PEARSON = "pearson"
    SPEARMAN = "spearman"

    def __str__(self) -> str:
        return str(self.value)
