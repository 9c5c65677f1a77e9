from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.update_webhook import UpdateWebhook
from ...models.update_webhook_response_200 import UpdateWebhookResponse200
from ...types import Response


def _get_kwargs(
    webhook_id: str,
    *,
    body: UpdateWebhook,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/webhooks/{webhook_id}".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | UpdateWebhookResponse200 | None:
    if response.status_code == 200:
        response_200 = UpdateWebhookResponse200.from_dict(response.json())

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
) -> Response[ErrorEnvelope | UpdateWebhookResponse200]:
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
    body: UpdateWebhook,
) -> Response[ErrorEnvelope | UpdateWebhookResponse200]:
    """Change a webhook endpoint

     Any of `url` (checked as at registration), `event_types`, `description` and `status`. `status:
    enabled` re-enables a disabled endpoint with its breaker as it was (the breaker belongs to the
    receiver at the URL: a new `url` starts a closed one); an endpoint disabled because its receiver
    answered 410 Gone is enabled again only with a new `url` (409 `conflict` otherwise), and for 30 days
    no endpoint of the account may name the URL that answered 410 (409). Deliveries still pending resume
    (replay events since a time for those given up). `status: disabled` stops deliveries: events while
    it is disabled are not queued for it (replay them after enabling it), and pending ones wait.

    Args:
        webhook_id (str):
        body (UpdateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | UpdateWebhookResponse200]
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
    body: UpdateWebhook,
) -> ErrorEnvelope | UpdateWebhookResponse200 | None:
    """Change a webhook endpoint

     Any of `url` (checked as at registration), `event_types`, `description` and `status`. `status:
    enabled` re-enables a disabled endpoint with its breaker as it was (the breaker belongs to the
    receiver at the URL: a new `url` starts a closed one); an endpoint disabled because its receiver
    answered 410 Gone is enabled again only with a new `url` (409 `conflict` otherwise), and for 30 days
    no endpoint of the account may name the URL that answered 410 (409). Deliveries still pending resume
    (replay events since a time for those given up). `status: disabled` stops deliveries: events while
    it is disabled are not queued for it (replay them after enabling it), and pending ones wait.

    Args:
        webhook_id (str):
        body (UpdateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | UpdateWebhookResponse200
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
    body: UpdateWebhook,
) -> Response[ErrorEnvelope | UpdateWebhookResponse200]:
    """Change a webhook endpoint

     Any of `url` (checked as at registration), `event_types`, `description` and `status`. `status:
    enabled` re-enables a disabled endpoint with its breaker as it was (the breaker belongs to the
    receiver at the URL: a new `url` starts a closed one); an endpoint disabled because its receiver
    answered 410 Gone is enabled again only with a new `url` (409 `conflict` otherwise), and for 30 days
    no endpoint of the account may name the URL that answered 410 (409). Deliveries still pending resume
    (replay events since a time for those given up). `status: disabled` stops deliveries: events while
    it is disabled are not queued for it (replay them after enabling it), and pending ones wait.

    Args:
        webhook_id (str):
        body (UpdateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | UpdateWebhookResponse200]
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
    body: UpdateWebhook,
) -> ErrorEnvelope | UpdateWebhookResponse200 | None:
    """Change a webhook endpoint

     Any of `url` (checked as at registration), `event_types`, `description` and `status`. `status:
    enabled` re-enables a disabled endpoint with its breaker as it was (the breaker belongs to the
    receiver at the URL: a new `url` starts a closed one); an endpoint disabled because its receiver
    answered 410 Gone is enabled again only with a new `url` (409 `conflict` otherwise), and for 30 days
    no endpoint of the account may name the URL that answered 410 (409). Deliveries still pending resume
    (replay events since a time for those given up). `status: disabled` stops deliveries: events while
    it is disabled are not queued for it (replay them after enabling it), and pending ones wait.

    Args:
        webhook_id (str):
        body (UpdateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | UpdateWebhookResponse200
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
            body=body,
        )
    ).parsed
