from enum import StrEnum


class CorrelationMatrixCellsItemStatus(StrEnum):
    CONSTANT_INPUT = "constant_input"
    INSUFFICIENT_DATA = "insufficient_data"
    NOT_COMPUTABLE = "not_computable"
    OK = "ok"

    def __str__(self) -> str:
        return str(self.value)
