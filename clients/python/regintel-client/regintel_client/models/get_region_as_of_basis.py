from enum import StrEnum


class GetRegionAsOfBasis(StrEnum):
    IMPORTED = "imported"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
