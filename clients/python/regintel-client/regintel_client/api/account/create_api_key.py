from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_api_key import CreateApiKey
from ...models.create_api_key_response_201 import CreateApiKeyResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    *,
    body: CreateApiKey,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/account/api-keys",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateApiKeyResponse201 | ErrorEnvelope | None:
    if response.status_code == 201:
        response_201 = CreateApiKeyResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

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
) -> Response[CreateApiKeyResponse201 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateApiKey,
) -> Response[CreateApiKeyResponse201 | ErrorEnvelope]:
    """Create an API key

     Returns the key (`sk_service_` + key id + secret + checksum) once, uncompressed and with `Cache-
    Control: no-store`; only its HMAC is stored. Professional accounts hold 1 active key, institutional
    10; one more answers 409 `key_limit_reached`. An account creates at most 10 keys an hour by default
    (429, `account-key-creations`).

    Args:
        body (CreateApiKey):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateApiKeyResponse201 | ErrorEnvelope]
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
    body: CreateApiKey,
) -> CreateApiKeyResponse201 | ErrorEnvelope | None:
    """Create an API key

     Returns the key (`sk_service_` + key id + secret + checksum) once, uncompressed and with `Cache-
    Control: no-store`; only its HMAC is stored. Professional accounts hold 1 active key, institutional
    10; one more answers 409 `key_limit_reached`. An account creates at most 10 keys an hour by default
    (429, `account-key-creations`).

    Args:
        body (CreateApiKey):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateApiKeyResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateApiKey,
) -> Response[CreateApiKeyResponse201 | ErrorEnvelope]:
    """Create an API key

     Returns the key (`sk_service_` + key id + secret + checksum) once, uncompressed and with `Cache-
    Control: no-store`; only its HMAC is stored. Professional accounts hold 1 active key, institutional
    10; one more answers 409 `key_limit_reached`. An account creates at most 10 keys an hour by default
    (429, `account-key-creations`).

    Args:
        body (CreateApiKey):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateApiKeyResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateApiKey,
) -> CreateApiKeyResponse201 | ErrorEnvelope | None:
    """Create an API key

     Returns the key (`sk_service_` + key id + secret + checksum) once, uncompressed and with `Cache-
    Control: no-store`; only its HMAC is stored. Professional accounts hold 1 active key, institutional
    10; one more answers 409 `key_limit_reached`. An account creates at most 10 keys an hour by default
    (429, `account-key-creations`).

    Args:
        body (CreateApiKey):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateApiKeyResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
