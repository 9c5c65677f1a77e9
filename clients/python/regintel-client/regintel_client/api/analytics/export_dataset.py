from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.export_dataset_as_of_basis import ExportDatasetAsOfBasis
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset_code: str,
    *,
    country: str | Unset = UNSET,
    level: int | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportDatasetAsOfBasis | Unset = ExportDatasetAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["country"] = country

    params["level"] = level

    params["from"] = from_

    params["to"] = to

    params["as_of"] = as_of

    json_as_of_basis: str | Unset = UNSET
    if not isinstance(as_of_basis, Unset):
        json_as_of_basis = as_of_basis.value

    params["as_of_basis"] = json_as_of_basis

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/export/bulk/{dataset_code}.csv".format(
            dataset_code=quote(str(dataset_code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorEnvelope | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorEnvelope | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    level: int | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportDatasetAsOfBasis | Unset = ExportDatasetAsOfBasis.IMPORTED,
) -> Response[ErrorEnvelope | str]:
    """Bulk CSV export of a dataset

     Institutional tier. Every current observation of the dataset the account can see, or those of one
    `country`, one `level` and the periods from `from` to `to` (both included), one CSV row each with
    its region's name and NUTS level and its `citation_id`. Streamed as it is read (chunked; a failure
    mid-way aborts the connection rather than ending the body early), gzip-coded for clients that accept
    it, and offered as `<dataset_code>.csv` (`Content-Disposition: attachment`). The columns are
    described in CSV on the Web terms at `/export/bulk/{dataset_code}.csv-metadata.json`. Text cells
    starting with = + - @ are prefixed with ' so spreadsheets do not run them. One export per account at
    a time (a second answers 429 `account-exports`) and at most 4 in all by default (more answer 503
    with Retry-After). A client that takes no data for the send timeout (30 s by default), or takes
    under 32 KiB/s of CSV on average after the first 30 s, is cut off. With `as_of`, the rows current
    then. Costs 20 requests against rate limits (the operator may change this with --route-weight).

    Args:
        dataset_code (str):
        country (str | Unset):
        level (int | Unset):
        from_ (str | Unset):
        to (str | Unset):
        as_of (str | Unset):
        as_of_basis (ExportDatasetAsOfBasis | Unset):  Default: ExportDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        country=country,
        level=level,
        from_=from_,
        to=to,
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
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    level: int | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportDatasetAsOfBasis | Unset = ExportDatasetAsOfBasis.IMPORTED,
) -> ErrorEnvelope | str | None:
    """Bulk CSV export of a dataset

     Institutional tier. Every current observation of the dataset the account can see, or those of one
    `country`, one `level` and the periods from `from` to `to` (both included), one CSV row each with
    its region's name and NUTS level and its `citation_id`. Streamed as it is read (chunked; a failure
    mid-way aborts the connection rather than ending the body early), gzip-coded for clients that accept
    it, and offered as `<dataset_code>.csv` (`Content-Disposition: attachment`). The columns are
    described in CSV on the Web terms at `/export/bulk/{dataset_code}.csv-metadata.json`. Text cells
    starting with = + - @ are prefixed with ' so spreadsheets do not run them. One export per account at
    a time (a second answers 429 `account-exports`) and at most 4 in all by default (more answer 503
    with Retry-After). A client that takes no data for the send timeout (30 s by default), or takes
    under 32 KiB/s of CSV on average after the first 30 s, is cut off. With `as_of`, the rows current
    then. Costs 20 requests against rate limits (the operator may change this with --route-weight).

    Args:
        dataset_code (str):
        country (str | Unset):
        level (int | Unset):
        from_ (str | Unset):
        to (str | Unset):
        as_of (str | Unset):
        as_of_basis (ExportDatasetAsOfBasis | Unset):  Default: ExportDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | str
    """

    return sync_detailed(
        dataset_code=dataset_code,
        client=client,
        country=country,
        level=level,
        from_=from_,
        to=to,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    level: int | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportDatasetAsOfBasis | Unset = ExportDatasetAsOfBasis.IMPORTED,
) -> Response[ErrorEnvelope | str]:
    """Bulk CSV export of a dataset

     Institutional tier. Every current observation of the dataset the account can see, or those of one
    `country`, one `level` and the periods from `from` to `to` (both included), one CSV row each with
    its region's name and NUTS level and its `citation_id`. Streamed as it is read (chunked; a failure
    mid-way aborts the connection rather than ending the body early), gzip-coded for clients that accept
    it, and offered as `<dataset_code>.csv` (`Content-Disposition: attachment`). The columns are
    described in CSV on the Web terms at `/export/bulk/{dataset_code}.csv-metadata.json`. Text cells
    starting with = + - @ are prefixed with ' so spreadsheets do not run them. One export per account at
    a time (a second answers 429 `account-exports`) and at most 4 in all by default (more answer 503
    with Retry-After). A client that takes no data for the send timeout (30 s by default), or takes
    under 32 KiB/s of CSV on average after the first 30 s, is cut off. With `as_of`, the rows current
    then. Costs 20 requests against rate limits (the operator may change this with --route-weight).

    Args:
        dataset_code (str):
        country (str | Unset):
        level (int | Unset):
        from_ (str | Unset):
        to (str | Unset):
        as_of (str | Unset):
        as_of_basis (ExportDatasetAsOfBasis | Unset):  Default: ExportDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        country=country,
        level=level,
        from_=from_,
        to=to,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    country: str | Unset = UNSET,
    level: int | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportDatasetAsOfBasis | Unset = ExportDatasetAsOfBasis.IMPORTED,
) -> ErrorEnvelope | str | None:
    """Bulk CSV export of a dataset

     Institutional tier. Every current observation of the dataset the account can see, or those of one
    `country`, one `level` and the periods from `from` to `to` (both included), one CSV row each with
    its region's name and NUTS level and its `citation_id`. Streamed as it is read (chunked; a failure
    mid-way aborts the connection rather than ending the body early), gzip-coded for clients that accept
    it, and offered as `<dataset_code>.csv` (`Content-Disposition: attachment`). The columns are
    described in CSV on the Web terms at `/export/bulk/{dataset_code}.csv-metadata.json`. Text cells
    starting with = + - @ are prefixed with ' so spreadsheets do not run them. One export per account at
    a time (a second answers 429 `account-exports`) and at most 4 in all by default (more answer 503
    with Retry-After). A client that takes no data for the send timeout (30 s by default), or takes
    under 32 KiB/s of CSV on average after the first 30 s, is cut off. With `as_of`, the rows current
    then. Costs 20 requests against rate limits (the operator may change this with --route-weight).

    Args:
        dataset_code (str):
        country (str | Unset):
        level (int | Unset):
        from_ (str | Unset):
        to (str | Unset):
        as_of (str | Unset):
        as_of_basis (ExportDatasetAsOfBasis | Unset):  Default: ExportDatasetAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | str
    """

    return (
        await asyncio_detailed(
            dataset_code=dataset_code,
            client=client,
            country=country,
            level=level,
            from_=from_,
            to=to,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
