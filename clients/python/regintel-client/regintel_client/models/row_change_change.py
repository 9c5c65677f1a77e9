from enum import StrEnum


class RowChangeChange(StrEnum):
    ADDED = "added"
    REVISED = "revised"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
