from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.put_dataset_data_response_200 import PutDatasetDataResponse200
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    dataset_code: str,
    *,
    body: File,
    strict_regions: bool | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    params: dict[str, Any] = {}

    params["strict_regions"] = strict_regions

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/datasets/{dataset_code}/data".format(
            dataset_code=quote(str(dataset_code), safe=""),
        ),
        "params": params,
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PutDatasetDataResponse200 | None:
    if response.status_code == 200:
        response_200 = PutDatasetDataResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

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
) -> Response[ErrorEnvelope | PutDatasetDataResponse200]:
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
    body: File,
    strict_regions: bool | Unset = UNSET,
) -> Response[ErrorEnvelope | PutDatasetDataResponse200]:
    """Load a private dataset's data

     A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the
    `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The
    full form of regintel's data/ directory is accepted as it is. The whole body is validated before
    anything is written; every problem is listed with its line and reason (422 `validation_failed`,
    `details.errors`; past 100, `details.errors_not_listed` counts the rest), and a header naming its
    columns `region`, `year`, `GEO` and the like is told the names to use. A unit in lower case is read
    in capitals (`pc` is `PC`), and a region code in another case than a known code is that code (`de21`
    is `DE21`). A code of no known region becomes a region of the account's own, which the answer names
    in `new_regions` with up to five known codes within two edits of it (a typo of `DE22` is not lost
    unnoticed); with `strict_regions` such a code is refused instead, naming its line. The load is a
    snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one
    body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy
    answers 503), and the body must arrive within the body timeout (408).

    Args:
        dataset_code (str):
        strict_regions (bool | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PutDatasetDataResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        body=body,
        strict_regions=strict_regions,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    body: File,
    strict_regions: bool | Unset = UNSET,
) -> ErrorEnvelope | PutDatasetDataResponse200 | None:
    """Load a private dataset's data

     A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the
    `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The
    full form of regintel's data/ directory is accepted as it is. The whole body is validated before
    anything is written; every problem is listed with its line and reason (422 `validation_failed`,
    `details.errors`; past 100, `details.errors_not_listed` counts the rest), and a header naming its
    columns `region`, `year`, `GEO` and the like is told the names to use. A unit in lower case is read
    in capitals (`pc` is `PC`), and a region code in another case than a known code is that code (`de21`
    is `DE21`). A code of no known region becomes a region of the account's own, which the answer names
    in `new_regions` with up to five known codes within two edits of it (a typo of `DE22` is not lost
    unnoticed); with `strict_regions` such a code is refused instead, naming its line. The load is a
    snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one
    body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy
    answers 503), and the body must arrive within the body timeout (408).

    Args:
        dataset_code (str):
        strict_regions (bool | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PutDatasetDataResponse200
    """

    return sync_detailed(
        dataset_code=dataset_code,
        client=client,
        body=body,
        strict_regions=strict_regions,
    ).parsed


async def asyncio_detailed(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    body: File,
    strict_regions: bool | Unset = UNSET,
) -> Response[ErrorEnvelope | PutDatasetDataResponse200]:
    """Load a private dataset's data

     A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the
    `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The
    full form of regintel's data/ directory is accepted as it is. The whole body is validated before
    anything is written; every problem is listed with its line and reason (422 `validation_failed`,
    `details.errors`; past 100, `details.errors_not_listed` counts the rest), and a header naming its
    columns `region`, `year`, `GEO` and the like is told the names to use. A unit in lower case is read
    in capitals (`pc` is `PC`), and a region code in another case than a known code is that code (`de21`
    is `DE21`). A code of no known region becomes a region of the account's own, which the answer names
    in `new_regions` with up to five known codes within two edits of it (a typo of `DE22` is not lost
    unnoticed); with `strict_regions` such a code is refused instead, naming its line. The load is a
    snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one
    body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy
    answers 503), and the body must arrive within the body timeout (408).

    Args:
        dataset_code (str):
        strict_regions (bool | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PutDatasetDataResponse200]
    """

    kwargs = _get_kwargs(
        dataset_code=dataset_code,
        body=body,
        strict_regions=strict_regions,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    dataset_code: str,
    *,
    client: AuthenticatedClient,
    body: File,
    strict_regions: bool | Unset = UNSET,
) -> ErrorEnvelope | PutDatasetDataResponse200 | None:
    """Load a private dataset's data

     A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the
    `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The
    full form of regintel's data/ directory is accepted as it is. The whole body is validated before
    anything is written; every problem is listed with its line and reason (422 `validation_failed`,
    `details.errors`; past 100, `details.errors_not_listed` counts the rest), and a header naming its
    columns `region`, `year`, `GEO` and the like is told the names to use. A unit in lower case is read
    in capitals (`pc` is `PC`), and a region code in another case than a known code is that code (`de21`
    is `DE21`). A code of no known region becomes a region of the account's own, which the answer names
    in `new_regions` with up to five known codes within two edits of it (a typo of `DE22` is not lost
    unnoticed); with `strict_regions` such a code is refused instead, naming its line. The load is a
    snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one
    body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy
    answers 503), and the body must arrive within the body timeout (408).

    Args:
        dataset_code (str):
        strict_regions (bool | Unset):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PutDatasetDataResponse200
    """

    return (
        await asyncio_detailed(
            dataset_code=dataset_code,
            client=client,
            body=body,
            strict_regions=strict_regions,
        )
    ).parsed
