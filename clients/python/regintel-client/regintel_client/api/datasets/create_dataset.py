from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_dataset import CreateDataset
from ...models.create_dataset_response_201 import CreateDatasetResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    *,
    body: CreateDataset,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/datasets",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateDatasetResponse201 | ErrorEnvelope | None:
    if response.status_code == 201:
        response_201 = CreateDatasetResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 408:
        response_408 = ErrorEnvelope.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

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
) -> Response[CreateDatasetResponse201 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateDataset,
) -> Response[CreateDatasetResponse201 | ErrorEnvelope]:
    """Create a private dataset

     A dataset only the calling account sees: code, title, unit and up to 32 dimension names (not the
    names the CSV format gives a meaning: geo, dataset_code, nuts_code, nuts_level, time, value, unit,
    flags, conf_status, src_line). Load its data with `PUT /datasets/{dataset_code}/data`. It then
    appears in this account's profiles, comparisons, dataset lists and citations, and nowhere else. An
    account has at most 100 private datasets (409 `conflict`).

    Args:
        body (CreateDataset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateDatasetResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateDataset,
) -> CreateDatasetResponse201 | ErrorEnvelope | None:
    """Create a private dataset

     A dataset only the calling account sees: code, title, unit and up to 32 dimension names (not the
    names the CSV format gives a meaning: geo, dataset_code, nuts_code, nuts_level, time, value, unit,
    flags, conf_status, src_line). Load its data with `PUT /datasets/{dataset_code}/data`. It then
    appears in this account's profiles, comparisons, dataset lists and citations, and nowhere else. An
    account has at most 100 private datasets (409 `conflict`).

    Args:
        body (CreateDataset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateDatasetResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateDataset,
) -> Response[CreateDatasetResponse201 | ErrorEnvelope]:
    """Create a private dataset

     A dataset only the calling account sees: code, title, unit and up to 32 dimension names (not the
    names the CSV format gives a meaning: geo, dataset_code, nuts_code, nuts_level, time, value, unit,
    flags, conf_status, src_line). Load its data with `PUT /datasets/{dataset_code}/data`. It then
    appears in this account's profiles, comparisons, dataset lists and citations, and nowhere else. An
    account has at most 100 private datasets (409 `conflict`).

    Args:
        body (CreateDataset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateDatasetResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateDataset,
) -> CreateDatasetResponse201 | ErrorEnvelope | None:
    """Create a private dataset

     A dataset only the calling account sees: code, title, unit and up to 32 dimension names (not the
    names the CSV format gives a meaning: geo, dataset_code, nuts_code, nuts_level, time, value, unit,
    flags, conf_status, src_line). Load its data with `PUT /datasets/{dataset_code}/data`. It then
    appears in this account's profiles, comparisons, dataset lists and citations, and nowhere else. An
    account has at most 100 private datasets (409 `conflict`).

    Args:
        body (CreateDataset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateDatasetResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
