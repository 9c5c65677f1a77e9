"""Every answer that is not a success raises a `RegintelError`, subclassed by what went wrong,
with the fields of the API's error envelope (`code`, `status`, `message`, `request_id`,
`details`)."""

from __future__ import annotations

import datetime
import json
from email.utils import parsedate_to_datetime
from typing import Any

import httpx


class RegintelError(Exception):
    """An answer other than a success, or a call the client refused before sending.

    `code` is the API's error code (`not_found`, `rate_limit_exceeded`, ...), `status` the HTTP
    status, `request_id` the id to quote to the operator, `details` what the API adds (the
    parameter at fault, the violated limit, ...)."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: int,
        request_id: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.details: dict[str, Any] = details or {}

    def __str__(self) -> str:
        quoted = f", request {self.request_id}" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{quoted}"


class BadRequestError(RegintelError):
    """400: a parameter or body the API refused; `details` names it."""


class AuthenticationError(RegintelError):
    """401: no credential, or one the API does not accept."""


class ForbiddenError(RegintelError):
    """403: the credential may not do this (`insufficient_tier`: the account's tier is too low)."""


class NotFoundError(RegintelError):
    """404: no such region, dataset, citation or briefing, or none this account may see."""


class ConflictError(RegintelError):
    """409: the request conflicts with the current state."""


class RateLimitedError(RegintelError):
    """429: a limit was reached. `retry_after` is the wait in seconds the API asked for."""

    def __init__(self, message: str, *, retry_after: float | None = None, **fields: Any) -> None:
        super().__init__(message, **fields)
        self.retry_after = retry_after


class ServerError(RegintelError):
    """5xx: the server could not answer (503 `unavailable`: try again later)."""


class TransportError(RegintelError):
    """The server could not be reached or did not answer in time (`status` 0)."""


_BY_STATUS: dict[int, type[RegintelError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
}


def retry_after(response: httpx.Response) -> float | None:
    """The `Retry-After` header in seconds (it is a number of seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    # Against the server's clock when its Date says it, else this machine's.
    try:
        now = parsedate_to_datetime(response.headers.get("date", ""))
    except (TypeError, ValueError):
        now = datetime.datetime.now(datetime.timezone.utc)
    if now.tzinfo is None:
        now = datetime.datetime.now(datetime.timezone.utc)
    return max(0.0, (when - now).total_seconds())


def from_response(response: httpx.Response) -> RegintelError:
    """The error an unsuccessful answer stands for: from its envelope when it has one, else from
    its status (a proxy's page, say)."""
    error: dict[str, Any] = {}
    try:
        body = json.loads(response.content)
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            error = body["error"]
    except ValueError:
        pass
    status = response.status_code
    fields: dict[str, Any] = {
        "code": str(error.get("code") or f"http_{status}"),
        "status": status,
        "request_id": error.get("request_id") or response.headers.get("x-request-id"),
        "details": error.get("details") if isinstance(error.get("details"), dict) else None,
    }
    message = str(error.get("message") or response.reason_phrase or "unexpected answer")
    if status == 429:
        return RateLimitedError(message, retry_after=retry_after(response), **fields)
    kind = _BY_STATUS.get(status, ServerError if status >= 500 else RegintelError)
    return kind(message, **fields)
