from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.briefing_request import BriefingRequest
from ...models.create_briefing_response_201 import CreateBriefingResponse201
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    *,
    body: BriefingRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/briefings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateBriefingResponse201 | ErrorEnvelope | None:
    if response.status_code == 201:
        response_201 = CreateBriefingResponse201.from_dict(response.json())

        return response_201

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
) -> Response[CreateBriefingResponse201 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: BriefingRequest,
) -> Response[CreateBriefingResponse201 | ErrorEnvelope]:
    """AI briefing for a region

     Institutional tier. Writes a briefing about the region and stores it for the account (201).
    regintel's own writer is deterministic and offline: for each headline series of the briefing's
    topics it states the region's latest value, its change over about five periods, and for every type
    but `profile_summary` its rank among the regions of its parent, the gap to its parent and to its
    country (for totals such as population: its share of each) and the EU figure where the data has
    them. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`,
    `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers).
    Series without a value for the region are named in `not_covered`. Every number in the text (periods
    of the cited rows aside) is the `display` of a claim, written exactly so: `direct` claims cite the
    row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation`
    (`percent_change`, `difference`, `share`, `rank`, `count`) and its formula. Where the text must say
    more than the number, `reads` gives the words ("2.1 % more", "2 from the top"). Before a briefing is
    stored, a verifier re-reads the text: every number must be a claim's display followed by its
    `reads`, whose direction word (more, above; less, below) must agree with the inputs; periods of the
    cited rows count as periods after in/since/from/to/until/between/and/a; every claim is recomputed
    from the cited rows with the rounding shown; `verification` reports it. It checks the numbers and
    the words bound to them, not the rest of the prose. A text that fails is never stored or shown.
    Where the operator has configured a model server, the model rewrites the prose from the writer's
    text and claims; its text passes the same verifier and more strictly (no digits inside words, no
    number words, no look-alike digits or invisible characters; it may leave claims out, and `claims`
    then lists only those it states), and `generator.name` is `model`; a text that fails, a model error
    or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond). Costs 10
    requests against rate limits (the operator may change this with --route-weight).

    Args:
        body (BriefingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateBriefingResponse201 | ErrorEnvelope]
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
    body: BriefingRequest,
) -> CreateBriefingResponse201 | ErrorEnvelope | None:
    """AI briefing for a region

     Institutional tier. Writes a briefing about the region and stores it for the account (201).
    regintel's own writer is deterministic and offline: for each headline series of the briefing's
    topics it states the region's latest value, its change over about five periods, and for every type
    but `profile_summary` its rank among the regions of its parent, the gap to its parent and to its
    country (for totals such as population: its share of each) and the EU figure where the data has
    them. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`,
    `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers).
    Series without a value for the region are named in `not_covered`. Every number in the text (periods
    of the cited rows aside) is the `display` of a claim, written exactly so: `direct` claims cite the
    row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation`
    (`percent_change`, `difference`, `share`, `rank`, `count`) and its formula. Where the text must say
    more than the number, `reads` gives the words ("2.1 % more", "2 from the top"). Before a briefing is
    stored, a verifier re-reads the text: every number must be a claim's display followed by its
    `reads`, whose direction word (more, above; less, below) must agree with the inputs; periods of the
    cited rows count as periods after in/since/from/to/until/between/and/a; every claim is recomputed
    from the cited rows with the rounding shown; `verification` reports it. It checks the numbers and
    the words bound to them, not the rest of the prose. A text that fails is never stored or shown.
    Where the operator has configured a model server, the model rewrites the prose from the writer's
    text and claims; its text passes the same verifier and more strictly (no digits inside words, no
    number words, no look-alike digits or invisible characters; it may leave claims out, and `claims`
    then lists only those it states), and `generator.name` is `model`; a text that fails, a model error
    or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond). Costs 10
    requests against rate limits (the operator may change this with --route-weight).

    Args:
        body (BriefingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateBriefingResponse201 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: BriefingRequest,
) -> Response[CreateBriefingResponse201 | ErrorEnvelope]:
    """AI briefing for a region

     Institutional tier. Writes a briefing about the region and stores it for the account (201).
    regintel's own writer is deterministic and offline: for each headline series of the briefing's
    topics it states the region's latest value, its change over about five periods, and for every type
    but `profile_summary` its rank among the regions of its parent, the gap to its parent and to its
    country (for totals such as population: its share of each) and the EU figure where the data has
    them. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`,
    `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers).
    Series without a value for the region are named in `not_covered`. Every number in the text (periods
    of the cited rows aside) is the `display` of a claim, written exactly so: `direct` claims cite the
    row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation`
    (`percent_change`, `difference`, `share`, `rank`, `count`) and its formula. Where the text must say
    more than the number, `reads` gives the words ("2.1 % more", "2 from the top"). Before a briefing is
    stored, a verifier re-reads the text: every number must be a claim's display followed by its
    `reads`, whose direction word (more, above; less, below) must agree with the inputs; periods of the
    cited rows count as periods after in/since/from/to/until/between/and/a; every claim is recomputed
    from the cited rows with the rounding shown; `verification` reports it. It checks the numbers and
    the words bound to them, not the rest of the prose. A text that fails is never stored or shown.
    Where the operator has configured a model server, the model rewrites the prose from the writer's
    text and claims; its text passes the same verifier and more strictly (no digits inside words, no
    number words, no look-alike digits or invisible characters; it may leave claims out, and `claims`
    then lists only those it states), and `generator.name` is `model`; a text that fails, a model error
    or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond). Costs 10
    requests against rate limits (the operator may change this with --route-weight).

    Args:
        body (BriefingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateBriefingResponse201 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: BriefingRequest,
) -> CreateBriefingResponse201 | ErrorEnvelope | None:
    """AI briefing for a region

     Institutional tier. Writes a briefing about the region and stores it for the account (201).
    regintel's own writer is deterministic and offline: for each headline series of the briefing's
    topics it states the region's latest value, its change over about five periods, and for every type
    but `profile_summary` its rank among the regions of its parent, the gap to its parent and to its
    country (for totals such as population: its share of each) and the EU figure where the data has
    them. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`,
    `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers).
    Series without a value for the region are named in `not_covered`. Every number in the text (periods
    of the cited rows aside) is the `display` of a claim, written exactly so: `direct` claims cite the
    row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation`
    (`percent_change`, `difference`, `share`, `rank`, `count`) and its formula. Where the text must say
    more than the number, `reads` gives the words ("2.1 % more", "2 from the top"). Before a briefing is
    stored, a verifier re-reads the text: every number must be a claim's display followed by its
    `reads`, whose direction word (more, above; less, below) must agree with the inputs; periods of the
    cited rows count as periods after in/since/from/to/until/between/and/a; every claim is recomputed
    from the cited rows with the rounding shown; `verification` reports it. It checks the numbers and
    the words bound to them, not the rest of the prose. A text that fails is never stored or shown.
    Where the operator has configured a model server, the model rewrites the prose from the writer's
    text and claims; its text passes the same verifier and more strictly (no digits inside words, no
    number words, no look-alike digits or invisible characters; it may leave claims out, and `claims`
    then lists only those it states), and `generator.name` is `model`; a text that fails, a model error
    or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond). Costs 10
    requests against rate limits (the operator may change this with --route-weight).

    Args:
        body (BriefingRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateBriefingResponse201 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
