from enum import StrEnum


class ExportDatasetAsOfBasis(StrEnum):
    IMPORTED = "imported"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
