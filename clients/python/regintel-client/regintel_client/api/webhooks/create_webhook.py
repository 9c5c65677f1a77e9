from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook import CreateWebhook
from ...models.create_webhook_response_201 import CreateWebhookResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    *,
    body: CreateWebhook,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateWebhookResponse201 | ErrorEnvelope | None:
    if response.status_code == 201:
        response_201 = CreateWebhookResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

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
) -> Response[CreateWebhookResponse201 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
) -> Response[CreateWebhookResponse201 | ErrorEnvelope]:
    """Register a webhook endpoint

     API key or session token. `url` must be `https://` (plain `http://` only to hosts or ranges the
    operator allows), and every address its host resolves to must be public or allowed by the operator's
    egress policy, else 422 `webhook_url_not_allowed` (the same message whether the host does not
    resolve, does not resolve within 5 s, or leads inside); it is checked again before every delivery.
    The host is looked up before the request takes its turn on the server: at most 16 lookups run at
    once (503 `unavailable` beyond) and one per account (409 `conflict` while the account's previous one
    is unanswered). `event_types` names at least one of the events in the `webhooks` section of this
    document. The answer carries the signing `secret` (`whsec_` + base64 of 32 random bytes) once,
    uncompressed and with `Cache-Control: no-store`; regintel keeps it encrypted. Deliveries are signed
    as Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature:
    v1,<base64>`). An account registers at most 20 endpoints (409 `conflict`).

    Args:
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
) -> CreateWebhookResponse201 | ErrorEnvelope | None:
    """Register a webhook endpoint

     API key or session token. `url` must be `https://` (plain `http://` only to hosts or ranges the
    operator allows), and every address its host resolves to must be public or allowed by the operator's
    egress policy, else 422 `webhook_url_not_allowed` (the same message whether the host does not
    resolve, does not resolve within 5 s, or leads inside); it is checked again before every delivery.
    The host is looked up before the request takes its turn on the server: at most 16 lookups run at
    once (503 `unavailable` beyond) and one per account (409 `conflict` while the account's previous one
    is unanswered). `event_types` names at least one of the events in the `webhooks` section of this
    document. The answer carries the signing `secret` (`whsec_` + base64 of 32 random bytes) once,
    uncompressed and with `Cache-Control: no-store`; regintel keeps it encrypted. Deliveries are signed
    as Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature:
    v1,<base64>`). An account registers at most 20 endpoints (409 `conflict`).

    Args:
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
) -> Response[CreateWebhookResponse201 | ErrorEnvelope]:
    """Register a webhook endpoint

     API key or session token. `url` must be `https://` (plain `http://` only to hosts or ranges the
    operator allows), and every address its host resolves to must be public or allowed by the operator's
    egress policy, else 422 `webhook_url_not_allowed` (the same message whether the host does not
    resolve, does not resolve within 5 s, or leads inside); it is checked again before every delivery.
    The host is looked up before the request takes its turn on the server: at most 16 lookups run at
    once (503 `unavailable` beyond) and one per account (409 `conflict` while the account's previous one
    is unanswered). `event_types` names at least one of the events in the `webhooks` section of this
    document. The answer carries the signing `secret` (`whsec_` + base64 of 32 random bytes) once,
    uncompressed and with `Cache-Control: no-store`; regintel keeps it encrypted. Deliveries are signed
    as Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature:
    v1,<base64>`). An account registers at most 20 endpoints (409 `conflict`).

    Args:
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
) -> CreateWebhookResponse201 | ErrorEnvelope | None:
    """Register a webhook endpoint

     API key or session token. `url` must be `https://` (plain `http://` only to hosts or ranges the
    operator allows), and every address its host resolves to must be public or allowed by the operator's
    egress policy, else 422 `webhook_url_not_allowed` (the same message whether the host does not
    resolve, does not resolve within 5 s, or leads inside); it is checked again before every delivery.
    The host is looked up before the request takes its turn on the server: at most 16 lookups run at
    once (503 `unavailable` beyond) and one per account (409 `conflict` while the account's previous one
    is unanswered). `event_types` names at least one of the events in the `webhooks` section of this
    document. The answer carries the signing `secret` (`whsec_` + base64 of 32 random bytes) once,
    uncompressed and with `Cache-Control: no-store`; regintel keeps it encrypted. Deliveries are signed
    as Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature:
    v1,<base64>`). An account registers at most 20 endpoints (409 `conflict`).

    Args:
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
