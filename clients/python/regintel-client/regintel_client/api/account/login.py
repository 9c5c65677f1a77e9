from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.login_request import LoginRequest
from ...models.login_response_200 import LoginResponse200
from ...types import Response


def _get_kwargs(
    *,
    body: LoginRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/auth/login",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | LoginResponse200 | None:
    if response.status_code == 200:
        response_200 = LoginResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = ErrorEnvelope.from_dict(response.json())

        return response_408

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
) -> Response[ErrorEnvelope | LoginResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Response[ErrorEnvelope | LoginResponse200]:
    """Sign in

     Email and password (argon2id) give a session token (HS256 JWT, 15 minutes) for `Authorization:
    Bearer`, used by the account area and the account API. A wrong email and a wrong password answer
    alike. After 5 failures for an email from one client address, further attempts from there answer 429
    for a doubling wait (up to 15 minutes); after 100 failures for an email from anywhere, every attempt
    does. Successful logins are limited per account (30 an hour by default, `account-logins`).

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | LoginResponse200]
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
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> ErrorEnvelope | LoginResponse200 | None:
    """Sign in

     Email and password (argon2id) give a session token (HS256 JWT, 15 minutes) for `Authorization:
    Bearer`, used by the account area and the account API. A wrong email and a wrong password answer
    alike. After 5 failures for an email from one client address, further attempts from there answer 429
    for a doubling wait (up to 15 minutes); after 100 failures for an email from anywhere, every attempt
    does. Successful logins are limited per account (30 an hour by default, `account-logins`).

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | LoginResponse200
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> Response[ErrorEnvelope | LoginResponse200]:
    """Sign in

     Email and password (argon2id) give a session token (HS256 JWT, 15 minutes) for `Authorization:
    Bearer`, used by the account area and the account API. A wrong email and a wrong password answer
    alike. After 5 failures for an email from one client address, further attempts from there answer 429
    for a doubling wait (up to 15 minutes); after 100 failures for an email from anywhere, every attempt
    does. Successful logins are limited per account (30 an hour by default, `account-logins`).

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | LoginResponse200]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: LoginRequest,
) -> ErrorEnvelope | LoginResponse200 | None:
    """Sign in

     Email and password (argon2id) give a session token (HS256 JWT, 15 minutes) for `Authorization:
    Bearer`, used by the account area and the account API. A wrong email and a wrong password answer
    alike. After 5 failures for an email from one client address, further attempts from there answer 429
    for a doubling wait (up to 15 minutes); after 100 failures for an email from anywhere, every attempt
    does. Successful logins are limited per account (30 an hour by default, `account-logins`).

    Args:
        body (LoginRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | LoginResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
