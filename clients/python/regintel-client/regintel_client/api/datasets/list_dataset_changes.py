from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_dataset_changes_as_of_basis import ListDatasetChangesAsOfBasis
from ...models.list_dataset_changes_response_200 import ListDatasetChangesResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset_code: str,
    *,
    since_snapshot: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetChangesAsOfBasis | Unset = ListDatasetChangesAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["since_snapshot"] = since_snapshot

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
        "url": "/datasets/{dataset_code}/changes".format(
            dataset_code=quote(str(dataset_code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | ListDatasetChangesResponse200 | None:
    if response.status_code == 200:
        response_200 = ListDatasetChangesResponse200.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | ListDatasetChangesResponse200]:
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
    since_snapshot: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetChangesAsOfBasis | Unset = ListDatasetChangesAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | ListDatasetChangesResponse200]:
    """A dataset's changes

     Every row the dataset's snapshots (imports and uploads) after `since_snapshot` wrote, or all its
    snapshots' without it, in import order: each added, revised or withdrawn row with its snapshot,
    region, period, unit, dimensions, value as published and, for a revision, the value and citation it
    replaces. A `dataset.updated` event whose `changes` are not complete links here. No `total`: an
    import may write millions of rows. As of a moment, what its snapshots by then wrote.

    Args:
        dataset_code (str):
        since_snapshot (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetChangesAsOfBasis | Unset):  Default:
            ListDatasetChangesAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListDatasetChangesResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        since_snapshot=since_snapshot,
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
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    since_snapshot: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetChangesAsOfBasis | Unset = ListDatasetChangesAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | ListDatasetChangesResponse200 | None:
    """A dataset's changes

     Every row the dataset's snapshots (imports and uploads) after `since_snapshot` wrote, or all its
    snapshots' without it, in import order: each added, revised or withdrawn row with its snapshot,
    region, period, unit, dimensions, value as published and, for a revision, the value and citation it
    replaces. A `dataset.updated` event whose `changes` are not complete links here. No `total`: an
    import may write millions of rows. As of a moment, what its snapshots by then wrote.

    Args:
        dataset_code (str):
        since_snapshot (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetChangesAsOfBasis | Unset):  Default:
            ListDatasetChangesAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListDatasetChangesResponse200
    """

    return sync_detailed(
        dataset_code=dataset_code,
        client=client,
        since_snapshot=since_snapshot,
        limit=limit,
        cursor=cursor,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    since_snapshot: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetChangesAsOfBasis | Unset = ListDatasetChangesAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | ListDatasetChangesResponse200]:
    """A dataset's changes

     Every row the dataset's snapshots (imports and uploads) after `since_snapshot` wrote, or all its
    snapshots' without it, in import order: each added, revised or withdrawn row with its snapshot,
    region, period, unit, dimensions, value as published and, for a revision, the value and citation it
    replaces. A `dataset.updated` event whose `changes` are not complete links here. No `total`: an
    import may write millions of rows. As of a moment, what its snapshots by then wrote.

    Args:
        dataset_code (str):
        since_snapshot (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetChangesAsOfBasis | Unset):  Default:
            ListDatasetChangesAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListDatasetChangesResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        since_snapshot=since_snapshot,
        limit=limit,
        cursor=cursor,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset_code: str,
    *,
    client: AuthenticatedClient | Client,
    since_snapshot: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ListDatasetChangesAsOfBasis | Unset = ListDatasetChangesAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | ListDatasetChangesResponse200 | None:
    """A dataset's changes

     Every row the dataset's snapshots (imports and uploads) after `since_snapshot` wrote, or all its
    snapshots' without it, in import order: each added, revised or withdrawn row with its snapshot,
    region, period, unit, dimensions, value as published and, for a revision, the value and citation it
    replaces. A `dataset.updated` event whose `changes` are not complete links here. No `total`: an
    import may write millions of rows. As of a moment, what its snapshots by then wrote.

    Args:
        dataset_code (str):
        since_snapshot (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        as_of (str | Unset):
        as_of_basis (ListDatasetChangesAsOfBasis | Unset):  Default:
            ListDatasetChangesAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListDatasetChangesResponse200
    """

    return (
        await asyncio_detailed(
            dataset_code=dataset_code,
            client=client,
            since_snapshot=since_snapshot,
            limit=limit,
            cursor=cursor,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
