from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.get_citation_as_of_basis import GetCitationAsOfBasis
from ...models.get_citation_response_200 import GetCitationResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    citation_id: str,
    *,
    as_of: str | Unset = UNSET,
    as_of_basis: GetCitationAsOfBasis | Unset = GetCitationAsOfBasis.IMPORTED,
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
        "url": "/citations/{citation_id}".format(
            citation_id=quote(str(citation_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | GetCitationResponse200 | None:
    if response.status_code == 200:
        response_200 = GetCitationResponse200.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | GetCitationResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetCitationAsOfBasis | Unset = GetCitationAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetCitationResponse200]:
    """Resolve a citation

     The primary row behind a number: value as published, unit, dimensions, flags with their meanings,
    the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page,
    licence, origin), the line and column of the original file, how to verify it by hand, and, if a
    later import revised the value, the citation that supersedes it. A region's citation (`kind`
    `classification`) resolves to its row of the bundled classification file (its SHA-256 and line),
    each field with its column and the source the row names for it, or how it follows from the code; a
    dataset's snapshot citation (`kind` `snapshot`) to the snapshot and its source. Citations resolve
    forever.

    Args:
        citation_id (str):
        as_of (str | Unset):
        as_of_basis (GetCitationAsOfBasis | Unset):  Default: GetCitationAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetCitationResponse200]
    """

    kwargs = _get_kwargs(
        citation_id=citation_id,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetCitationAsOfBasis | Unset = GetCitationAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetCitationResponse200 | None:
    """Resolve a citation

     The primary row behind a number: value as published, unit, dimensions, flags with their meanings,
    the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page,
    licence, origin), the line and column of the original file, how to verify it by hand, and, if a
    later import revised the value, the citation that supersedes it. A region's citation (`kind`
    `classification`) resolves to its row of the bundled classification file (its SHA-256 and line),
    each field with its column and the source the row names for it, or how it follows from the code; a
    dataset's snapshot citation (`kind` `snapshot`) to the snapshot and its source. Citations resolve
    forever.

    Args:
        citation_id (str):
        as_of (str | Unset):
        as_of_basis (GetCitationAsOfBasis | Unset):  Default: GetCitationAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetCitationResponse200
    """

    return sync_detailed(
        citation_id=citation_id,
        client=client,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetCitationAsOfBasis | Unset = GetCitationAsOfBasis.IMPORTED,
) -> Response[Any | ErrorEnvelope | GetCitationResponse200]:
    """Resolve a citation

     The primary row behind a number: value as published, unit, dimensions, flags with their meanings,
    the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page,
    licence, origin), the line and column of the original file, how to verify it by hand, and, if a
    later import revised the value, the citation that supersedes it. A region's citation (`kind`
    `classification`) resolves to its row of the bundled classification file (its SHA-256 and line),
    each field with its column and the source the row names for it, or how it follows from the code; a
    dataset's snapshot citation (`kind` `snapshot`) to the snapshot and its source. Citations resolve
    forever.

    Args:
        citation_id (str):
        as_of (str | Unset):
        as_of_basis (GetCitationAsOfBasis | Unset):  Default: GetCitationAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | GetCitationResponse200]
    """

    kwargs = _get_kwargs(
        citation_id=citation_id,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    as_of: str | Unset = UNSET,
    as_of_basis: GetCitationAsOfBasis | Unset = GetCitationAsOfBasis.IMPORTED,
) -> Any | ErrorEnvelope | GetCitationResponse200 | None:
    """Resolve a citation

     The primary row behind a number: value as published, unit, dimensions, flags with their meanings,
    the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page,
    licence, origin), the line and column of the original file, how to verify it by hand, and, if a
    later import revised the value, the citation that supersedes it. A region's citation (`kind`
    `classification`) resolves to its row of the bundled classification file (its SHA-256 and line),
    each field with its column and the source the row names for it, or how it follows from the code; a
    dataset's snapshot citation (`kind` `snapshot`) to the snapshot and its source. Citations resolve
    forever.

    Args:
        citation_id (str):
        as_of (str | Unset):
        as_of_basis (GetCitationAsOfBasis | Unset):  Default: GetCitationAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | GetCitationResponse200
    """

    return (
        await asyncio_detailed(
            citation_id=citation_id,
            client=client,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
