from enum import StrEnum


class BriefingVerificationStatus(StrEnum):
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
