from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.resend_webhook_delivery_response_202 import ResendWebhookDeliveryResponse202
from ...types import Response


def _get_kwargs(
    delivery_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/deliveries/{delivery_id}/resend".format(
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | ResendWebhookDeliveryResponse202 | None:
    if response.status_code == 202:
        response_202 = ResendWebhookDeliveryResponse202.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

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
) -> Response[ErrorEnvelope | ResendWebhookDeliveryResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    delivery_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorEnvelope | ResendWebhookDeliveryResponse202]:
    """Send a delivery again

     Sends a delivery now: a pending one (waiting for a retry) with its attempts so far, a delivered or
    failed one again from its first attempt (the same event, the same `webhook-id`). The endpoint's
    circuit breaker still decides: while it is open, the answer says `sending: when_the_breaker_allows`
    and until when. Another account's delivery answers 404; a delivery to a disabled endpoint 409
    `conflict`.

    Args:
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ResendWebhookDeliveryResponse202]
    """

    kwargs = _get_kwargs(
        delivery_id=delivery_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    delivery_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | ResendWebhookDeliveryResponse202 | None:
    """Send a delivery again

     Sends a delivery now: a pending one (waiting for a retry) with its attempts so far, a delivered or
    failed one again from its first attempt (the same event, the same `webhook-id`). The endpoint's
    circuit breaker still decides: while it is open, the answer says `sending: when_the_breaker_allows`
    and until when. Another account's delivery answers 404; a delivery to a disabled endpoint 409
    `conflict`.

    Args:
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ResendWebhookDeliveryResponse202
    """

    return sync_detailed(
        delivery_id=delivery_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    delivery_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorEnvelope | ResendWebhookDeliveryResponse202]:
    """Send a delivery again

     Sends a delivery now: a pending one (waiting for a retry) with its attempts so far, a delivered or
    failed one again from its first attempt (the same event, the same `webhook-id`). The endpoint's
    circuit breaker still decides: while it is open, the answer says `sending: when_the_breaker_allows`
    and until when. Another account's delivery answers 404; a delivery to a disabled endpoint 409
    `conflict`.

    Args:
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ResendWebhookDeliveryResponse202]
    """

    kwargs = _get_kwargs(
        delivery_id=delivery_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    delivery_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | ResendWebhookDeliveryResponse202 | None:
    """Send a delivery again

     Sends a delivery now: a pending one (waiting for a retry) with its attempts so far, a delivered or
    failed one again from its first attempt (the same event, the same `webhook-id`). The endpoint's
    circuit breaker still decides: while it is open, the answer says `sending: when_the_breaker_allows`
    and until when. Another account's delivery answers 404; a delivery to a disabled endpoint 409
    `conflict`.

    Args:
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ResendWebhookDeliveryResponse202
    """

    return (
        await asyncio_detailed(
            delivery_id=delivery_id,
            client=client,
        )
    ).parsed
