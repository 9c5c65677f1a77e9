from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: str,
    *,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/webhooks/{webhook_id}/deliveries".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | ListWebhookDeliveriesResponse200 | None:
    if response.status_code == 200:
        response_200 = ListWebhookDeliveriesResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

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
) -> Response[ErrorEnvelope | ListWebhookDeliveriesResponse200]:
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
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorEnvelope | ListWebhookDeliveriesResponse200]:
    """An endpoint's deliveries and every attempt

     Newest first, each with its status (`pending`, `delivered`, `failed`) and its latest 20 attempts:
    time, the receiver's status code (null when there was no answer), latency and error. Deliveries are
    kept 30 days from when their schedule began (the event, or the resend or replay of a delivered or
    failed delivery).

    Args:
        webhook_id (str):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ListWebhookDeliveriesResponse200]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorEnvelope | ListWebhookDeliveriesResponse200 | None:
    """An endpoint's deliveries and every attempt

     Newest first, each with its status (`pending`, `delivered`, `failed`) and its latest 20 attempts:
    time, the receiver's status code (null when there was no answer), latency and error. Deliveries are
    kept 30 days from when their schedule began (the event, or the resend or replay of a delivered or
    failed delivery).

    Args:
        webhook_id (str):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ListWebhookDeliveriesResponse200
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorEnvelope | ListWebhookDeliveriesResponse200]:
    """An endpoint's deliveries and every attempt

     Newest first, each with its status (`pending`, `delivered`, `failed`) and its latest 20 attempts:
    time, the receiver's status code (null when there was no answer), latency and error. Deliveries are
    kept 30 days from when their schedule began (the event, or the resend or replay of a delivered or
    failed delivery).

    Args:
        webhook_id (str):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | ListWebhookDeliveriesResponse200]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorEnvelope | ListWebhookDeliveriesResponse200 | None:
    """An endpoint's deliveries and every attempt

     Newest first, each with its status (`pending`, `delivered`, `failed`) and its latest 20 attempts:
    time, the receiver's status code (null when there was no answer), latency and error. Deliveries are
    kept 30 days from when their schedule began (the event, or the resend or replay of a delivered or
    failed delivery).

    Args:
        webhook_id (str):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | ListWebhookDeliveriesResponse200
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
