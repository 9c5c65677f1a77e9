from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_datasets_as_of_basis import ListDatasetsAsOfBasis
from ...models.list_datasets_response_200 import ListDatasetsResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetsAsOfBasis | Unset = ListDatasetsAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params["as_of"] = as_of

    json_as_of_basis: str | Unset = UNSET
    if not isinstance(as_of_basis, Unset):
        json_as_of_basis = as_of_basis.value

    params["as_of_basis"] = json_as_of_basis

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/datasets",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | ListDatasetsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListDatasetsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

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
) -> Response[Any | ErrorEnvelope | ListDatasetsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetsAsOfBasis | Unset = ListDatasetsAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | ListDatasetsResponse200]:
    """List datasets

     Every dataset the caller can see, in code order: title, topic, units, dimensions, the headline
    series profiles show, periods covered, number of current observations and the latest snapshot. As of
    a moment: the datasets held then, with their series, periods, counts and latest snapshot as they
    were.

    Args:
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetsAsOfBasis | Unset):  Default: ListDatasetsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListDatasetsResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetsAsOfBasis | Unset = ListDatasetsAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | ListDatasetsResponse200 | None:
    """List datasets

     Every dataset the caller can see, in code order: title, topic, units, dimensions, the headline
    series profiles show, periods covered, number of current observations and the latest snapshot. As of
    a moment: the datasets held then, with their series, periods, counts and latest snapshot as they
    were.

    Args:
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetsAsOfBasis | Unset):  Default: ListDatasetsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListDatasetsResponse200
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetsAsOfBasis | Unset = ListDatasetsAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | ListDatasetsResponse200]:
    """List datasets

     Every dataset the caller can see, in code order: title, topic, units, dimensions, the headline
    series profiles show, periods covered, number of current observations and the latest snapshot. As of
    a moment: the datasets held then, with their series, periods, counts and latest snapshot as they
    were.

    Args:
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetsAsOfBasis | Unset):  Default: ListDatasetsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListDatasetsResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetsAsOfBasis | Unset = ListDatasetsAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | ListDatasetsResponse200 | None:
    """List datasets

     Every dataset the caller can see, in code order: title, topic, units, dimensions, the headline
    series profiles show, periods covered, number of current observations and the latest snapshot. As of
    a moment: the datasets held then, with their series, periods, counts and latest snapshot as they
    were.

    Args:
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetsAsOfBasis | Unset):  Default: ListDatasetsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListDatasetsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
