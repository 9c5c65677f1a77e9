from enum import StrEnum


class ErrorCode(StrEnum):
    CONFLICT = "conflict"
    FORBIDDEN = "forbidden"
    INSUFFICIENT_TIER = "insufficient_tier"
    INTERNAL = "internal"
    INVALID_CREDENTIAL = "invalid_credential"
    INVALID_PARAMETER = "invalid_parameter"
    INVALID_REQUEST = "invalid_request"
    KEY_LIMIT_REACHED = "key_limit_reached"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    MISSING_CREDENTIAL = "missing_credential"
    NOT_FOUND = "not_found"
    NOT_HELD_YET = "not_held_yet"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    REQUEST_TIMEOUT = "request_timeout"
    UNAVAILABLE = "unavailable"
    UNKNOWN_DATASET = "unknown_dataset"
    UNKNOWN_REGION = "unknown_region"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    VALIDATION_FAILED = "validation_failed"
    WEBHOOK_URL_NOT_ALLOWED = "webhook_url_not_allowed"

    def __str__(self) -> str:
        return str(self.value)
