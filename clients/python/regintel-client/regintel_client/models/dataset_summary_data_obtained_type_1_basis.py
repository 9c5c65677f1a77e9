from enum import StrEnum


class DatasetSummaryDataObtainedType1Basis(StrEnum):
    DOWNLOADED = "downloaded"
    NO_LATER_THAN = "no_later_than"

    def __str__(self) -> str:
        return str(self.value)
