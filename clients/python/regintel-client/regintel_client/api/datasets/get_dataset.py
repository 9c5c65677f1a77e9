from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.get_dataset_as_of_basis import GetDatasetAsOfBasis
from ...models.get_dataset_response_200 import GetDatasetResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset_code: str,
    *,
    as_of: str | Unset = UNSET,
    as_of_basis: GetDatasetAsOfBasis | Unset = GetDatasetAsOfBasis.IMPORTED,
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
        "url": "/datasets/{dataset_code}".format(
            dataset_code=quote(str(dataset_code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | GetDatasetResponse200 | None:
    if response.status_code == 200:
        response_200 = GetDatasetResponse200.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | GetDatasetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetDatasetAsOfBasis | Unset = GetDatasetAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetDatasetResponse200]:
    """One dataset

     As in the list, plus every series (unit and dimension values) with its coverage, its newest 10
    snapshots (imports, newest first; `snapshot_count` says how many it has, `GET
    /datasets/{dataset_code}/snapshots` pages them all), and the source with its licence. As of a
    moment, its series, counts, periods and snapshots as they were then (a series without rows then is
    left out).

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (GetDatasetAsOfBasis | Unset):  Default: GetDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetDatasetResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetDatasetAsOfBasis | Unset = GetDatasetAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetDatasetResponse200 | None:
    """One dataset

     As in the list, plus every series (unit and dimension values) with its coverage, its newest 10
    snapshots (imports, newest first; `snapshot_count` says how many it has, `GET
    /datasets/{dataset_code}/snapshots` pages them all), and the source with its licence. As of a
    moment, its series, counts, periods and snapshots as they were then (a series without rows then is
    left out).

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (GetDatasetAsOfBasis | Unset):  Default: GetDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetDatasetResponse200
    """

    return sync_detailed(
        dataset_code=dataset_code,
        client=client,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetDatasetAsOfBasis | Unset = GetDatasetAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetDatasetResponse200]:
    """One dataset

     As in the list, plus every series (unit and dimension values) with its coverage, its newest 10
    snapshots (imports, newest first; `snapshot_count` says how many it has, `GET
    /datasets/{dataset_code}/snapshots` pages them all), and the source with its licence. As of a
    moment, its series, counts, periods and snapshots as they were then (a series without rows then is
    left out).

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (GetDatasetAsOfBasis | Unset):  Default: GetDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetDatasetResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetDatasetAsOfBasis | Unset = GetDatasetAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetDatasetResponse200 | None:
    """One dataset

     As in the list, plus every series (unit and dimension values) with its coverage, its newest 10
    snapshots (imports, newest first; `snapshot_count` says how many it has, `GET
    /datasets/{dataset_code}/snapshots` pages them all), and the source with its licence. As of a
    moment, its series, counts, periods and snapshots as they were then (a series without rows then is
    left out).

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (GetDatasetAsOfBasis | Unset):  Default: GetDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetDatasetResponse200
    """

    return (
        await asyncio_detailed(
            dataset_code=dataset_code,
            client=client,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
