from enum import StrEnum


class BriefingRequestBriefingType(StrEnum):
    DEMOGRAPHY = "demography"
    ECONOMY = "economy"
    HEALTH = "health"
    LABOUR_MARKET = "labour_market"
    PEER_COMPARISON = "peer_comparison"
    PROFILE_SUMMARY = "profile_summary"

    def __str__(self) -> str:
        return str(self.value)
