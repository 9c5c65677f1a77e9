from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.compare_regions_as_of_basis import CompareRegionsAsOfBasis
from ...models.compare_regions_response_200 import CompareRegionsResponse200
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    regions: str,
    dataset: str,
    period: str | Unset = UNSET,
    unit: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: CompareRegionsAsOfBasis | Unset = CompareRegionsAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["regions"] = regions

    params["dataset"] = dataset

    params["period"] = period

    params["unit"] = unit

    params["as_of"] = as_of

    json_as_of_basis: str | Unset = UNSET
    if not isinstance(as_of_basis, Unset):
        json_as_of_basis = as_of_basis.value

    params["as_of_basis"] = json_as_of_basis

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/compare",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CompareRegionsResponse200 | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CompareRegionsResponse200.from_dict(response.json())

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
) -> Response[Any | CompareRegionsResponse200 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    regions: str,
    dataset: str,
    period: str | Unset = UNSET,
    unit: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: CompareRegionsAsOfBasis | Unset = CompareRegionsAsOfBasis.IMPORTED,
) -> Response[Any | CompareRegionsResponse200 | ErrorEnvelope]:
    """Compare regions

     One series of one dataset for 2 to 50 regions: each region's series, its value at the latest period
    all regions have (or at `period`), its rank, and differences and ratios against the first region,
    each with the citations of its inputs. Warnings flag different NUTS levels or editions, missing
    values and flagged values (b, p, e, u, c, d, r). The series is the dataset's headline series; any
    further query parameter named after a dimension of the dataset (or `unit`) selects another value of
    it, e.g. `sex=F`.

    Args:
        regions (str):
        dataset (str):
        period (str | Unset):
        unit (str | Unset):
        as_of (str | Unset):
        as_of_basis (CompareRegionsAsOfBasis | Unset):  Default: CompareRegionsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CompareRegionsResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        regions=regions,
        dataset=dataset,
        period=period,
        unit=unit,
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
    regions: str,
    dataset: str,
    period: str | Unset = UNSET,
    unit: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: CompareRegionsAsOfBasis | Unset = CompareRegionsAsOfBasis.IMPORTED,
) -> Any | CompareRegionsResponse200 | ErrorEnvelope | None:
    """Compare regions

     One series of one dataset for 2 to 50 regions: each region's series, its value at the latest period
    all regions have (or at `period`), its rank, and differences and ratios against the first region,
    each with the citations of its inputs. Warnings flag different NUTS levels or editions, missing
    values and flagged values (b, p, e, u, c, d, r). The series is the dataset's headline series; any
    further query parameter named after a dimension of the dataset (or `unit`) selects another value of
    it, e.g. `sex=F`.

    Args:
        regions (str):
        dataset (str):
        period (str | Unset):
        unit (str | Unset):
        as_of (str | Unset):
        as_of_basis (CompareRegionsAsOfBasis | Unset):  Default: CompareRegionsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CompareRegionsResponse200 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        regions=regions,
        dataset=dataset,
        period=period,
        unit=unit,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    regions: str,
    dataset: str,
    period: str | Unset = UNSET,
    unit: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: CompareRegionsAsOfBasis | Unset = CompareRegionsAsOfBasis.IMPORTED,
) -> Response[Any | CompareRegionsResponse200 | ErrorEnvelope]:
    """Compare regions

     One series of one dataset for 2 to 50 regions: each region's series, its value at the latest period
    all regions have (or at `period`), its rank, and differences and ratios against the first region,
    each with the citations of its inputs. Warnings flag different NUTS levels or editions, missing
    values and flagged values (b, p, e, u, c, d, r). The series is the dataset's headline series; any
    further query parameter named after a dimension of the dataset (or `unit`) selects another value of
    it, e.g. `sex=F`.

    Args:
        regions (str):
        dataset (str):
        period (str | Unset):
        unit (str | Unset):
        as_of (str | Unset):
        as_of_basis (CompareRegionsAsOfBasis | Unset):  Default: CompareRegionsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CompareRegionsResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        regions=regions,
        dataset=dataset,
        period=period,
        unit=unit,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    regions: str,
    dataset: str,
    period: str | Unset = UNSET,
    unit: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: CompareRegionsAsOfBasis | Unset = CompareRegionsAsOfBasis.IMPORTED,
) -> Any | CompareRegionsResponse200 | ErrorEnvelope | None:
    """Compare regions

     One series of one dataset for 2 to 50 regions: each region's series, its value at the latest period
    all regions have (or at `period`), its rank, and differences and ratios against the first region,
    each with the citations of its inputs. Warnings flag different NUTS levels or editions, missing
    values and flagged values (b, p, e, u, c, d, r). The series is the dataset's headline series; any
    further query parameter named after a dimension of the dataset (or `unit`) selects another value of
    it, e.g. `sex=F`.

    Args:
        regions (str):
        dataset (str):
        period (str | Unset):
        unit (str | Unset):
        as_of (str | Unset):
        as_of_basis (CompareRegionsAsOfBasis | Unset):  Default: CompareRegionsAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CompareRegionsResponse200 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            regions=regions,
            dataset=dataset,
            period=period,
            unit=unit,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
