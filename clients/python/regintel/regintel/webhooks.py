"""Receiving regintel's webhooks: `verify_webhook` checks a delivery's Standard Webhooks 1.0
signature (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md)
against the endpoint's secret and returns the event, its `data` typed by the event's `type`."""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regintel_client.models import (
    ApiKeyEventData,
    BriefingCreatedData,
    DatasetUpdatedData,
    UsageThresholdData,
    WebhookTestData,
)

SECRET_PREFIX = "whsec_"
# How far a delivery's timestamp may be from now, in seconds: older ones may be replays.
TOLERANCE_SECONDS = 300

EventData = DatasetUpdatedData | BriefingCreatedData | ApiKeyEventData | UsageThresholdData | WebhookTestData

_DATA_BY_TYPE: dict[str, Any] = {
    "dataset.updated": DatasetUpdatedData,
    "briefing.created": BriefingCreatedData,
    "api_key.created": ApiKeyEventData,
    "api_key.revoked": ApiKeyEventData,
    "usage.threshold": UsageThresholdData,
    "webhook.test": WebhookTestData,
}


class WebhookVerificationError(ValueError):
    """The delivery is not signed by the secret, is too old or too new, or is malformed: answer
    it with a 4xx and do not act on it."""


@dataclass(frozen=True)
class WebhookEvent:
    """A verified event. `id` is the same on every attempt to deliver it: deduplicate on it
    (delivery is at least once). `data` is typed by `type`; an event type this package does not
    know yet keeps its `data` as a dict."""

    id: str
    type: str
    timestamp: datetime.datetime
    api_version: str
    data: EventData | dict[str, Any]


def _header(headers: Mapping[str, str], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    raise WebhookVerificationError(f"the delivery has no {name} header")


def _key(secret: str) -> bytes:
    try:
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except binascii.Error as bad:
        raise ValueError("the secret is not a webhook secret (whsec_<base64>)") from bad
    # An empty key is one anybody can sign with: a secret read from an unset variable.
    if not key:
        raise ValueError("the webhook secret is empty")
    return key


def verify_webhook(
    body: bytes | str,
    headers: Mapping[str, str],
    secret: str,
    *,
    now: float | None = None,
    tolerance: int = TOLERANCE_SECONDS,
) -> WebhookEvent:
    """The event a delivery carries, once its signature holds.

    `body` is the raw request body, as received (not parsed and serialised again); `headers`
    the request's headers (any case); `secret` the endpoint's `whsec_...` secret. While a
    rotated secret is in its grace period a delivery carries a signature by each: either
    verifies. Raises `WebhookVerificationError` otherwise."""
    raw = body.encode() if isinstance(body, str) else body
    message_id = _header(headers, "webhook-id")
    stamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        sent = int(stamp)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from None
    if abs((time.time() if now is None else now) - sent) > tolerance:
        raise WebhookVerificationError("webhook-timestamp is too far from now: a replay, or a clock adrift")
    mac = hmac.new(_key(secret), f"{message_id}.{stamp}.".encode() + raw, hashlib.sha256)
    expected = base64.b64encode(mac.digest())
    given = [s.removeprefix("v1,") for s in signatures.split() if s.startswith("v1,")]
    # Each compared in constant time, and all of them, whichever matches.
    matched = [hmac.compare_digest(expected, g.encode()) for g in given]
    if not any(matched):
        raise WebhookVerificationError("no signature of the delivery is by this secret")
    try:
        event = json.loads(raw)
        data = event["data"]
        kind = str(event["type"])
        model = _DATA_BY_TYPE.get(kind)
        return WebhookEvent(
            id=str(event["id"]),
            type=kind,
            timestamp=datetime.datetime.fromisoformat(str(event["timestamp"])),
            api_version=str(event["api_version"]),
            data=model.from_dict(data) if model else data,
        )
    except (ValueError, KeyError, TypeError) as bad:
        raise WebhookVerificationError(f"the signed body is not an event: {bad}") from bad
