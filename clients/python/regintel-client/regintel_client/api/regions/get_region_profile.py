from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.get_region_profile_as_of_basis import GetRegionProfileAsOfBasis
from ...models.get_region_profile_response_200 import GetRegionProfileResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    region_code: str,
    *,
    as_of: str | Unset = UNSET,
    as_of_basis: GetRegionProfileAsOfBasis | Unset = GetRegionProfileAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["as_of"] = as_of

    json_as_of_basis: str | Unset = UNSET
    if not isinstance(as_of_basis, Unset):
        json_as_of_basis = as_of_basis.value

    params["as_of_basis"] = json_as_of_basis

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/regions/{region_code}/profile".format(
            region_code=quote(str(region_code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | GetRegionProfileResponse200 | None:
    if response.status_code == 200:
        response_200 = GetRegionProfileResponse200.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | GetRegionProfileResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    region_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetRegionProfileAsOfBasis | Unset = GetRegionProfileAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetRegionProfileResponse200]:
    """Region profile

     The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with
    its latest value and full history. Every value carries a citation that resolves through `GET
    /citations/{citation_id}`; flags are explained; warnings say where the code or a dataset's NUTS
    edition calls for care.

    Args:
        region_code (str):
        as_of (str | Unset):
        as_of_basis (GetRegionProfileAsOfBasis | Unset):  Default:
            GetRegionProfileAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetRegionProfileResponse200]
    """

    kwargs = _get_kwargs(
        region_code=region_code,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    region_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetRegionProfileAsOfBasis | Unset = GetRegionProfileAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetRegionProfileResponse200 | None:
    """Region profile

     The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with
    its latest value and full history. Every value carries a citation that resolves through `GET
    /citations/{citation_id}`; flags are explained; warnings say where the code or a dataset's NUTS
    edition calls for care.

    Args:
        region_code (str):
        as_of (str | Unset):
        as_of_basis (GetRegionProfileAsOfBasis | Unset):  Default:
            GetRegionProfileAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetRegionProfileResponse200
    """

    return sync_detailed(
        region_code=region_code,
        client=client,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    region_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetRegionProfileAsOfBasis | Unset = GetRegionProfileAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetRegionProfileResponse200]:
    """Region profile

     The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with
    its latest value and full history. Every value carries a citation that resolves through `GET
    /citations/{citation_id}`; flags are explained; warnings say where the code or a dataset's NUTS
    edition calls for care.

    Args:
        region_code (str):
        as_of (str | Unset):
        as_of_basis (GetRegionProfileAsOfBasis | Unset):  Default:
            GetRegionProfileAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetRegionProfileResponse200]
    """

    kwargs = _get_kwargs(
        region_code=region_code,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    region_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetRegionProfileAsOfBasis | Unset = GetRegionProfileAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetRegionProfileResponse200 | None:
    """Region profile

     The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with
    its latest value and full history. Every value carries a citation that resolves through `GET
    /citations/{citation_id}`; flags are explained; warnings say where the code or a dataset's NUTS
    edition calls for care.

    Args:
        region_code (str):
        as_of (str | Unset):
        as_of_basis (GetRegionProfileAsOfBasis | Unset):  Default:
            GetRegionProfileAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetRegionProfileResponse200
    """

    return (
        await asyncio_detailed(
            region_code=region_code,
            client=client,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
