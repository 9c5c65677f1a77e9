from enum import StrEnum


class BriefingGeneratorName(StrEnum):
    DETERMINISTIC = "deterministic"
    MODEL = "model"

    def __str__(self) -> str:
        return str(self.value)
