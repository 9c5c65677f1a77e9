from enum import StrEnum


class WebhookResentSending(StrEnum):
    NOW = "now"
    UNDER_WAY = "under_way"
    WHEN_THE_BREAKER_ALLOWS = "when_the_breaker_allows"

    def __str__(self) -> str:
        return str(self.value)
