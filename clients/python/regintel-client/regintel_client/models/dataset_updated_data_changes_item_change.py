from enum import StrEnum


class DatasetUpdatedDataChangesItemChange(StrEnum):
    ADDED = "added"
    REVISED = "revised"

    def __str__(self) -> str:
        return str(self.value)
