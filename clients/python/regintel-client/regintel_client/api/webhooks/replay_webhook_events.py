from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.replay_webhook_events import ReplayWebhookEvents
from ...models.replay_webhook_events_response_202 import ReplayWebhookEventsResponse202
from ...types import Response


def _get_kwargs(
    webhook_id: str,
    *,
    body: ReplayWebhookEvents,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/{webhook_id}/replay".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | ReplayWebhookEventsResponse202 | None:
    if response.status_code == 202:
        response_202 = ReplayWebhookEventsResponse202.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = ErrorEnvelope.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorEnvelope.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorEnvelope.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | ReplayWebhookEventsResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookEvents,
) -> Response[ErrorEnvelope | ReplayWebhookEventsResponse202]:
    """Send every event since a time again

     Schedules a new delivery to this endpoint of every event since `since` (within the last 30 days)
    that the account received or would have received by the endpoint's current subscription (not test
    events), oldest first, whose delivery to the endpoint failed or never was; events it received are
    sent again only with `include_delivered: true`; deliveries still pending are left as they are. At
    most 1,000 events a call: `complete: false` says to call again, an hour later, with `since` =
    `resume_from`. At most one replay an hour per destination URL of the account (whichever endpoint
    names it, and whether or not it found events): before, 429 `rate_limit_exceeded` with `Retry-After`
    and `details.violated_policies` `["endpoint-replays"]`. Replayed deliveries go after the account's
    new events; every delivery of an account goes at most 10 a second (bursts of 20) to one destination
    address (the one its host resolves to, whatever names lead there). A disabled endpoint answers 409
    `conflict`. Costs 10 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        webhook_id (str):
        body (ReplayWebhookEvents):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ReplayWebhookEventsResponse202]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookEvents,
) -> ErrorEnvelope | ReplayWebhookEventsResponse202 | None:
    """Send every event since a time again

     Schedules a new delivery to this endpoint of every event since `since` (within the last 30 days)
    that the account received or would have received by the endpoint's current subscription (not test
    events), oldest first, whose delivery to the endpoint failed or never was; events it received are
    sent again only with `include_delivered: true`; deliveries still pending are left as they are. At
    most 1,000 events a call: `complete: false` says to call again, an hour later, with `since` =
    `resume_from`. At most one replay an hour per destination URL of the account (whichever endpoint
    names it, and whether or not it found events): before, 429 `rate_limit_exceeded` with `Retry-After`
    and `details.violated_policies` `["endpoint-replays"]`. Replayed deliveries go after the account's
    new events; every delivery of an account goes at most 10 a second (bursts of 20) to one destination
    address (the one its host resolves to, whatever names lead there). A disabled endpoint answers 409
    `conflict`. Costs 10 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        webhook_id (str):
        body (ReplayWebhookEvents):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ReplayWebhookEventsResponse202
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookEvents,
) -> Response[ErrorEnvelope | ReplayWebhookEventsResponse202]:
    """Send every event since a time again

     Schedules a new delivery to this endpoint of every event since `since` (within the last 30 days)
    that the account received or would have received by the endpoint's current subscription (not test
    events), oldest first, whose delivery to the endpoint failed or never was; events it received are
    sent again only with `include_delivered: true`; deliveries still pending are left as they are. At
    most 1,000 events a call: `complete: false` says to call again, an hour later, with `since` =
    `resume_from`. At most one replay an hour per destination URL of the account (whichever endpoint
    names it, and whether or not it found events): before, 429 `rate_limit_exceeded` with `Retry-After`
    and `details.violated_policies` `["endpoint-replays"]`. Replayed deliveries go after the account's
    new events; every delivery of an account goes at most 10 a second (bursts of 20) to one destination
    address (the one its host resolves to, whatever names lead there). A disabled endpoint answers 409
    `conflict`. Costs 10 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        webhook_id (str):
        body (ReplayWebhookEvents):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ReplayWebhookEventsResponse202]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookEvents,
) -> ErrorEnvelope | ReplayWebhookEventsResponse202 | None:
    """Send every event since a time again

     Schedules a new delivery to this endpoint of every event since `since` (within the last 30 days)
    that the account received or would have received by the endpoint's current subscription (not test
    events), oldest first, whose delivery to the endpoint failed or never was; events it received are
    sent again only with `include_delivered: true`; deliveries still pending are left as they are. At
    most 1,000 events a call: `complete: false` says to call again, an hour later, with `since` =
    `resume_from`. At most one replay an hour per destination URL of the account (whichever endpoint
    names it, and whether or not it found events): before, 429 `rate_limit_exceeded` with `Retry-After`
    and `details.violated_policies` `["endpoint-replays"]`. Replayed deliveries go after the account's
    new events; every delivery of an account goes at most 10 a second (bursts of 20) to one destination
    address (the one its host resolves to, whatever names lead there). A disabled endpoint answers 409
    `conflict`. Costs 10 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        webhook_id (str):
        body (ReplayWebhookEvents):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ReplayWebhookEventsResponse202
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            body=body,
        )
    ).parsed
