from enum import StrEnum


class DerivedKind(StrEnum):
    DIFFERENCE = "difference"
    RATIO = "ratio"

    def __str__(self) -> str:
        return str(self.value)
