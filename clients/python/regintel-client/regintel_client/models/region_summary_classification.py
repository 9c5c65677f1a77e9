from enum import StrEnum


class RegionSummaryClassification(StrEnum):
    AGGREGATE = "aggregate"
    HISTORICAL = "historical"
    NUTS = "NUTS"
    NUTS2016_UK = "NUTS2016_UK"
    SR = "SR"

    def __str__(self) -> str:
        return str(self.value)
