from enum import StrEnum


class GetDatasetAsOfBasis(StrEnum):
    IMPORTED = "imported"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
