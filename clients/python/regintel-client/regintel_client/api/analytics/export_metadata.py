from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.csvw_metadata import CsvwMetadata
from ...models.error_envelope import ErrorEnvelope
from ...models.export_metadata_as_of_basis import ExportMetadataAsOfBasis
from ...types import UNSET, Response, Unset


def _get_kwargs(
    dataset_code: str,
    *,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportMetadataAsOfBasis | Unset = ExportMetadataAsOfBasis.IMPORTED,
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
        "url": "/export/bulk/{dataset_code}.csv-metadata.json".format(
            dataset_code=quote(str(dataset_code), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CsvwMetadata | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CsvwMetadata.from_dict(response.json())

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | CsvwMetadata | ErrorEnvelope]:
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
    as_of: str | Unset = UNSET,
    as_of_basis: ExportMetadataAsOfBasis | Unset = ExportMetadataAsOfBasis.IMPORTED,
) -> Response[Any | CsvwMetadata | ErrorEnvelope]:
    """CSV on the Web description of a dataset's export

     Institutional tier. The W3C CSVW metadata (https://www.w3.org/TR/tabular-metadata/) of
    `/export/bulk/{dataset_code}.csv`: each column's name, title, datatype and meaning (dimension codes
    with their labels), the dataset's title, publisher, source and licence, the latest snapshot, the
    units and flags used, and the number of rows of the whole export. With `as_of`, those of the export
    as of then, whose `url` carries the same moment, and `notes[0].as_of` as the answers' `meta.as_of`.

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (ExportMetadataAsOfBasis | Unset):  Default: ExportMetadataAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CsvwMetadata | ErrorEnvelope]
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
    client: AuthenticatedClient,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportMetadataAsOfBasis | Unset = ExportMetadataAsOfBasis.IMPORTED,
) -> Any | CsvwMetadata | ErrorEnvelope | None:
    """CSV on the Web description of a dataset's export

     Institutional tier. The W3C CSVW metadata (https://www.w3.org/TR/tabular-metadata/) of
    `/export/bulk/{dataset_code}.csv`: each column's name, title, datatype and meaning (dimension codes
    with their labels), the dataset's title, publisher, source and licence, the latest snapshot, the
    units and flags used, and the number of rows of the whole export. With `as_of`, those of the export
    as of then, whose `url` carries the same moment, and `notes[0].as_of` as the answers' `meta.as_of`.

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (ExportMetadataAsOfBasis | Unset):  Default: ExportMetadataAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CsvwMetadata | ErrorEnvelope
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
    client: AuthenticatedClient,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportMetadataAsOfBasis | Unset = ExportMetadataAsOfBasis.IMPORTED,
) -> Response[Any | CsvwMetadata | ErrorEnvelope]:
    """CSV on the Web description of a dataset's export

     Institutional tier. The W3C CSVW metadata (https://www.w3.org/TR/tabular-metadata/) of
    `/export/bulk/{dataset_code}.csv`: each column's name, title, datatype and meaning (dimension codes
    with their labels), the dataset's title, publisher, source and licence, the latest snapshot, the
    units and flags used, and the number of rows of the whole export. With `as_of`, those of the export
    as of then, whose `url` carries the same moment, and `notes[0].as_of` as the answers' `meta.as_of`.

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (ExportMetadataAsOfBasis | Unset):  Default: ExportMetadataAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CsvwMetadata | ErrorEnvelope]
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
    client: AuthenticatedClient,
    as_of: str | Unset = UNSET,
    as_of_basis: ExportMetadataAsOfBasis | Unset = ExportMetadataAsOfBasis.IMPORTED,
) -> Any | CsvwMetadata | ErrorEnvelope | None:
    """CSV on the Web description of a dataset's export

     Institutional tier. The W3C CSVW metadata (https://www.w3.org/TR/tabular-metadata/) of
    `/export/bulk/{dataset_code}.csv`: each column's name, title, datatype and meaning (dimension codes
    with their labels), the dataset's title, publisher, source and licence, the latest snapshot, the
    units and flags used, and the number of rows of the whole export. With `as_of`, those of the export
    as of then, whose `url` carries the same moment, and `notes[0].as_of` as the answers' `meta.as_of`.

    Args:
        dataset_code (str):
        as_of (str | Unset):
        as_of_basis (ExportMetadataAsOfBasis | Unset):  Default: ExportMetadataAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CsvwMetadata | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            dataset_code=dataset_code,
            client=client,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
