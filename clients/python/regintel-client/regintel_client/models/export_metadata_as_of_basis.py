from enum import StrEnum


class ExportMetadataAsOfBasis(StrEnum):
    IMPORTED = "imported"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
