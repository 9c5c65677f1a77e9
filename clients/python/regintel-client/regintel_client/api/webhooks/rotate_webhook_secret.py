from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.rotate_webhook_secret_response_200 import RotateWebhookSecretResponse200
from ...types import Response


def _get_kwargs(
    webhook_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks/{webhook_id}/rotate-secret".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | RotateWebhookSecretResponse200 | None:
    if response.status_code == 200:
        response_200 = RotateWebhookSecretResponse200.from_dict(response.json())

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
) -> Response[ErrorEnvelope | RotateWebhookSecretResponse200]:
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
) -> Response[ErrorEnvelope | RotateWebhookSecretResponse200]:
    """Rotate a webhook endpoint's signing secret

     Returns the new secret once. For 24 hours (`previous_secret_expires_at`) every delivery carries two
    signatures in `webhook-signature`, by the new secret and by the previous one, so a receiver can
    switch without losing a delivery. Another rotation within those 24 hours answers 409 `conflict`.

    Args:
        webhook_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | RotateWebhookSecretResponse200]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | RotateWebhookSecretResponse200 | None:
    """Rotate a webhook endpoint's signing secret

     Returns the new secret once. For 24 hours (`previous_secret_expires_at`) every delivery carries two
    signatures in `webhook-signature`, by the new secret and by the previous one, so a receiver can
    switch without losing a delivery. Another rotation within those 24 hours answers 409 `conflict`.

    Args:
        webhook_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | RotateWebhookSecretResponse200
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorEnvelope | RotateWebhookSecretResponse200]:
    """Rotate a webhook endpoint's signing secret

     Returns the new secret once. For 24 hours (`previous_secret_expires_at`) every delivery carries two
    signatures in `webhook-signature`, by the new secret and by the previous one, so a receiver can
    switch without losing a delivery. Another rotation within those 24 hours answers 409 `conflict`.

    Args:
        webhook_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | RotateWebhookSecretResponse200]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | RotateWebhookSecretResponse200 | None:
    """Rotate a webhook endpoint's signing secret

     Returns the new secret once. For 24 hours (`previous_secret_expires_at`) every delivery carries two
    signatures in `webhook-signature`, by the new secret and by the previous one, so a receiver can
    switch without losing a delivery. Another rotation within those 24 hours answers 409 `conflict`.

    Args:
        webhook_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | RotateWebhookSecretResponse200
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
        )
    ).parsed
