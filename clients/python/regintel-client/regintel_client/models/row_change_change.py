from enum import StrEnum


class RowChangeChange(StrEnum):
    ADDED = "added"
    REVISED = "revised"

    def __str__(self) -> str:
        return str(self.value)
