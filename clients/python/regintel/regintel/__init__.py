"""regintel: European regional statistics, every number cited to its primary row.

    from regintel import Client
    with Client("https://stats.example.org/api/v1/regional", api_key="sk_service_...") as api:
        profile = api.profile("DE21")
        df = profile.to_dataframe()
"""

__version__ = "0.1.0"

from .answers import Answer, ComparisonAnswer, MatrixAnswer, ProfileAnswer  # noqa: E402
from .client import Client  # noqa: E402
from .errors import (  # noqa: E402
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    RateLimitedError,
    RegintelError,
    ServerError,
    TransportError,
)
from .webhooks import WebhookEvent, WebhookVerificationError, verify_webhook  # noqa: E402

__all__ = [
    "Answer",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ComparisonAnswer",
    "ConflictError",
    "ForbiddenError",
    "MatrixAnswer",
    "NotFoundError",
    "ProfileAnswer",
    "RateLimitedError",
    "RegintelError",
    "ServerError",
    "TransportError",
    "WebhookEvent",
    "WebhookVerificationError",
    "verify_webhook",
]
