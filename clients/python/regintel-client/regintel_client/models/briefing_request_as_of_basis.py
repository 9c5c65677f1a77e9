from enum import StrEnum


class BriefingRequestAsOfBasis(StrEnum):
    IMPORTED = "imported"
    PUBLISHED = "published"

    def __str__(self) -> str:
        return str(self.value)
