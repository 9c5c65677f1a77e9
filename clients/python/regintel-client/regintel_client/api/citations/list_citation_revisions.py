from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_citation_revisions_response_200 import ListCitationRevisionsResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    citation_id: str,
    *,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/citations/{citation_id}/revisions".format(
            citation_id=quote(str(citation_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | ListCitationRevisionsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListCitationRevisionsResponse200.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | ListCitationRevisionsResponse200]:
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
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | ListCitationRevisionsResponse200]:
    """A figure's revisions

     Every value the observation behind a citation (its dataset's series, region and period) has had, in
    order of time: each value (or withdrawal) with its flags, its citation, the snapshot that wrote it
    with its import and publication times, and the stretches of time it was current in. Eurostat keeps
    no past versions of its data; this list is what this installation saw.

    Args:
        citation_id (str):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListCitationRevisionsResponse200]
    """

    kwargs = _get_kwargs(
        citation_id=citation_id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
) -> Any | ErrorEnvelope | ListCitationRevisionsResponse200 | None:
    """A figure's revisions

     Every value the observation behind a citation (its dataset's series, region and period) has had, in
    order of time: each value (or withdrawal) with its flags, its citation, the snapshot that wrote it
    with its import and publication times, and the stretches of time it was current in. Eurostat keeps
    no past versions of its data; this list is what this installation saw.

    Args:
        citation_id (str):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListCitationRevisionsResponse200
    """

    return sync_detailed(
        citation_id=citation_id,
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | ListCitationRevisionsResponse200]:
    """A figure's revisions

     Every value the observation behind a citation (its dataset's series, region and period) has had, in
    order of time: each value (or withdrawal) with its flags, its citation, the snapshot that wrote it
    with its import and publication times, and the stretches of time it was current in. Eurostat keeps
    no past versions of its data; this list is what this installation saw.

    Args:
        citation_id (str):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | ListCitationRevisionsResponse200]
    """

    kwargs = _get_kwargs(
        citation_id=citation_id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    citation_id: str,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
) -> Any | ErrorEnvelope | ListCitationRevisionsResponse200 | None:
    """A figure's revisions

     Every value the observation behind a citation (its dataset's series, region and period) has had, in
    order of time: each value (or withdrawal) with its flags, its citation, the snapshot that wrote it
    with its import and publication times, and the stretches of time it was current in. Eurostat keeps
    no past versions of its data; this list is what this installation saw.

    Args:
        citation_id (str):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | ListCitationRevisionsResponse200
    """

    return (
        await asyncio_detailed(
            citation_id=citation_id,
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
