from enum import StrEnum


class SourceCitationRefKind(StrEnum):
    CLASSIFICATION = "classification"
    SNAPSHOT = "snapshot"

    def __str__(self) -> str:
        return str(self.value)
