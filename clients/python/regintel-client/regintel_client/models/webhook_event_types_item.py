from enum import StrEnum


class WebhookEventTypesItem(StrEnum):
    API_KEY_CREATED = "api_key.created"
    API_KEY_REVOKED = "api_key.revoked"
    BRIEFING_CREATED = "briefing.created"
    DATASET_UPDATED = "dataset.updated"
    USAGE_THRESHOLD = "usage.threshold"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
