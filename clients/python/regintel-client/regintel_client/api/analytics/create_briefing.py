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
    regintel's own writer is deterministic and offline and follows the rules of docs/analysis.md: for
    each headline series of the briefing's topics it states the region's latest value (with its flags
    spelled out, `at current prices` for money at current prices, and `the latest available` when more
    than 3 years older than the briefing's newest period) and its change over five years (for data
    within the year, from the same quarter, half or month a year before), never across a break in series
    (a value flagged b between or at either end): it then compares only within the stretch after the
    break, or says no comparable change exists, and lists the break in `breaks`; nor from or to a value
    of low reliability or a confidential one, which it says. An index (unit such as `I15`) reads as
    growth since its base year. Every type but `profile_summary` ranks the region among the regions of
    its NUTS level in its country ("Of the 38 NUTS 2 regions of Deutschland, ...", counted in the NUTS
    edition the dataset uses) and among the EU member states' regions of that level where the data cover
    at least 80 % of them (a country among the member states, or all countries), and among its parent's
    other children only when at least three are of the dataset's NUTS edition (a region not of the
    edition a group is counted in is not ranked in it; only regions of the classification are peers);
    ranks say their direction (`highest`, `second-lowest`) and ties name the tied regions; values of low
    reliability (flag u) or confidential are left out of ranks and named, and a region whose own value
    is so is neither ranked nor compared. It gives the gap to its parent (unless the region is its only
    child, or the parent is alone at its level in its country), its country (unless the region is alone
    at its level there) and the EU (the EU aggregate itself is set against nothing) (for totals such as
    population: the region's share; past twice as high: `9.7 times`); across countries, money in euro is
    compared in purchasing power standards where the dataset holds them, and otherwise said not to be
    adjusted for price levels. Types: `profile_summary` (every topic, latest values and change),
    `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every
    topic, against the peers). A type with no figure for the region is refused: 422 `validation_failed`
    with `details.errors[0].pointer` `#/briefing_type` and `details.available_types`, the types that
    have figures for it (costing 1 request, not 10). Series of the type without a value for the region
    are named in `not_covered`. Every number in the text (periods of the cited rows in a date position
    aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value
    they are; `derived` claims give their `inputs` (each a cited value), the `operation` and its
    formula; a rank's display is its phrase (`second-highest`). Each claim carries in `flags` the flags
    of every value in its window (its rows, and for a change the values between them). Where the text
    must say more than the number, `reads` gives the words ("2.1 % more", "9.7 times"). Before a
    briefing is stored, a verifier re-reads the text, finding numbers on characters (a digit after a
    non-breaking space, a currency sign or a dash is a number): every number must be a claim's display
    followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs;
    every rank phrase must be a rank claim; a cited period counts as a period only in a date position
    (after in/since/from/to/until/between/and/for, never before % or a unit); every claim is recomputed
    from the cited rows with the rounding shown, must carry every flag of the rows it cites, and may
    carry only flags its cited rows have; a name or title excuses digits only where it stands whole and
    they are no claim; `verification` reports it. It checks the numbers and the words bound to them, not
    the rest of the prose. A text that fails is never stored or shown. Where the operator has configured
    a model server, the model rewrites the prose from the writer's text and claims; titles of an
    account's own datasets reach it only as quoted data in a message of their own (the fact sheet names
    them `[[Q1]]`, ...); its text passes the same verifier and more strictly (outside names ASCII only,
    typographic quotes aside; no digits inside words; no number, ordinal, rank or superlative words; no
    % or comparing word after a number but as its claim's `reads`, and no verb of change before a number
    whose claim reads no direction; each rank phrase takes a rank claim of its own; a cited year after
    in/since/... is a date only before punctuation, a number or a word such as and, the, it, was; and
    the digits of an account's own titles count; it may leave claims out, and `claims` then lists only
    those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout
    leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    `generator.version` is the writer's version (2; briefings stored by version 1 stay as they were
    written). Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).
    Costs 10 requests against rate limits (the operator may change this with --route-weight).

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
    regintel's own writer is deterministic and offline and follows the rules of docs/analysis.md: for
    each headline series of the briefing's topics it states the region's latest value (with its flags
    spelled out, `at current prices` for money at current prices, and `the latest available` when more
    than 3 years older than the briefing's newest period) and its change over five years (for data
    within the year, from the same quarter, half or month a year before), never across a break in series
    (a value flagged b between or at either end): it then compares only within the stretch after the
    break, or says no comparable change exists, and lists the break in `breaks`; nor from or to a value
    of low reliability or a confidential one, which it says. An index (unit such as `I15`) reads as
    growth since its base year. Every type but `profile_summary` ranks the region among the regions of
    its NUTS level in its country ("Of the 38 NUTS 2 regions of Deutschland, ...", counted in the NUTS
    edition the dataset uses) and among the EU member states' regions of that level where the data cover
    at least 80 % of them (a country among the member states, or all countries), and among its parent's
    other children only when at least three are of the dataset's NUTS edition (a region not of the
    edition a group is counted in is not ranked in it; only regions of the classification are peers);
    ranks say their direction (`highest`, `second-lowest`) and ties name the tied regions; values of low
    reliability (flag u) or confidential are left out of ranks and named, and a region whose own value
    is so is neither ranked nor compared. It gives the gap to its parent (unless the region is its only
    child, or the parent is alone at its level in its country), its country (unless the region is alone
    at its level there) and the EU (the EU aggregate itself is set against nothing) (for totals such as
    population: the region's share; past twice as high: `9.7 times`); across countries, money in euro is
    compared in purchasing power standards where the dataset holds them, and otherwise said not to be
    adjusted for price levels. Types: `profile_summary` (every topic, latest values and change),
    `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every
    topic, against the peers). A type with no figure for the region is refused: 422 `validation_failed`
    with `details.errors[0].pointer` `#/briefing_type` and `details.available_types`, the types that
    have figures for it (costing 1 request, not 10). Series of the type without a value for the region
    are named in `not_covered`. Every number in the text (periods of the cited rows in a date position
    aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value
    they are; `derived` claims give their `inputs` (each a cited value), the `operation` and its
    formula; a rank's display is its phrase (`second-highest`). Each claim carries in `flags` the flags
    of every value in its window (its rows, and for a change the values between them). Where the text
    must say more than the number, `reads` gives the words ("2.1 % more", "9.7 times"). Before a
    briefing is stored, a verifier re-reads the text, finding numbers on characters (a digit after a
    non-breaking space, a currency sign or a dash is a number): every number must be a claim's display
    followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs;
    every rank phrase must be a rank claim; a cited period counts as a period only in a date position
    (after in/since/from/to/until/between/and/for, never before % or a unit); every claim is recomputed
    from the cited rows with the rounding shown, must carry every flag of the rows it cites, and may
    carry only flags its cited rows have; a name or title excuses digits only where it stands whole and
    they are no claim; `verification` reports it. It checks the numbers and the words bound to them, not
    the rest of the prose. A text that fails is never stored or shown. Where the operator has configured
    a model server, the model rewrites the prose from the writer's text and claims; titles of an
    account's own datasets reach it only as quoted data in a message of their own (the fact sheet names
    them `[[Q1]]`, ...); its text passes the same verifier and more strictly (outside names ASCII only,
    typographic quotes aside; no digits inside words; no number, ordinal, rank or superlative words; no
    % or comparing word after a number but as its claim's `reads`, and no verb of change before a number
    whose claim reads no direction; each rank phrase takes a rank claim of its own; a cited year after
    in/since/... is a date only before punctuation, a number or a word such as and, the, it, was; and
    the digits of an account's own titles count; it may leave claims out, and `claims` then lists only
    those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout
    leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    `generator.version` is the writer's version (2; briefings stored by version 1 stay as they were
    written). Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).
    Costs 10 requests against rate limits (the operator may change this with --route-weight).

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
    regintel's own writer is deterministic and offline and follows the rules of docs/analysis.md: for
    each headline series of the briefing's topics it states the region's latest value (with its flags
    spelled out, `at current prices` for money at current prices, and `the latest available` when more
    than 3 years older than the briefing's newest period) and its change over five years (for data
    within the year, from the same quarter, half or month a year before), never across a break in series
    (a value flagged b between or at either end): it then compares only within the stretch after the
    break, or says no comparable change exists, and lists the break in `breaks`; nor from or to a value
    of low reliability or a confidential one, which it says. An index (unit such as `I15`) reads as
    growth since its base year. Every type but `profile_summary` ranks the region among the regions of
    its NUTS level in its country ("Of the 38 NUTS 2 regions of Deutschland, ...", counted in the NUTS
    edition the dataset uses) and among the EU member states' regions of that level where the data cover
    at least 80 % of them (a country among the member states, or all countries), and among its parent's
    other children only when at least three are of the dataset's NUTS edition (a region not of the
    edition a group is counted in is not ranked in it; only regions of the classification are peers);
    ranks say their direction (`highest`, `second-lowest`) and ties name the tied regions; values of low
    reliability (flag u) or confidential are left out of ranks and named, and a region whose own value
    is so is neither ranked nor compared. It gives the gap to its parent (unless the region is its only
    child, or the parent is alone at its level in its country), its country (unless the region is alone
    at its level there) and the EU (the EU aggregate itself is set against nothing) (for totals such as
    population: the region's share; past twice as high: `9.7 times`); across countries, money in euro is
    compared in purchasing power standards where the dataset holds them, and otherwise said not to be
    adjusted for price levels. Types: `profile_summary` (every topic, latest values and change),
    `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every
    topic, against the peers). A type with no figure for the region is refused: 422 `validation_failed`
    with `details.errors[0].pointer` `#/briefing_type` and `details.available_types`, the types that
    have figures for it (costing 1 request, not 10). Series of the type without a value for the region
    are named in `not_covered`. Every number in the text (periods of the cited rows in a date position
    aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value
    they are; `derived` claims give their `inputs` (each a cited value), the `operation` and its
    formula; a rank's display is its phrase (`second-highest`). Each claim carries in `flags` the flags
    of every value in its window (its rows, and for a change the values between them). Where the text
    must say more than the number, `reads` gives the words ("2.1 % more", "9.7 times"). Before a
    briefing is stored, a verifier re-reads the text, finding numbers on characters (a digit after a
    non-breaking space, a currency sign or a dash is a number): every number must be a claim's display
    followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs;
    every rank phrase must be a rank claim; a cited period counts as a period only in a date position
    (after in/since/from/to/until/between/and/for, never before % or a unit); every claim is recomputed
    from the cited rows with the rounding shown, must carry every flag of the rows it cites, and may
    carry only flags its cited rows have; a name or title excuses digits only where it stands whole and
    they are no claim; `verification` reports it. It checks the numbers and the words bound to them, not
    the rest of the prose. A text that fails is never stored or shown. Where the operator has configured
    a model server, the model rewrites the prose from the writer's text and claims; titles of an
    account's own datasets reach it only as quoted data in a message of their own (the fact sheet names
    them `[[Q1]]`, ...); its text passes the same verifier and more strictly (outside names ASCII only,
    typographic quotes aside; no digits inside words; no number, ordinal, rank or superlative words; no
    % or comparing word after a number but as its claim's `reads`, and no verb of change before a number
    whose claim reads no direction; each rank phrase takes a rank claim of its own; a cited year after
    in/since/... is a date only before punctuation, a number or a word such as and, the, it, was; and
    the digits of an account's own titles count; it may leave claims out, and `claims` then lists only
    those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout
    leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    `generator.version` is the writer's version (2; briefings stored by version 1 stay as they were
    written). Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).
    Costs 10 requests against rate limits (the operator may change this with --route-weight).

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
    regintel's own writer is deterministic and offline and follows the rules of docs/analysis.md: for
    each headline series of the briefing's topics it states the region's latest value (with its flags
    spelled out, `at current prices` for money at current prices, and `the latest available` when more
    than 3 years older than the briefing's newest period) and its change over five years (for data
    within the year, from the same quarter, half or month a year before), never across a break in series
    (a value flagged b between or at either end): it then compares only within the stretch after the
    break, or says no comparable change exists, and lists the break in `breaks`; nor from or to a value
    of low reliability or a confidential one, which it says. An index (unit such as `I15`) reads as
    growth since its base year. Every type but `profile_summary` ranks the region among the regions of
    its NUTS level in its country ("Of the 38 NUTS 2 regions of Deutschland, ...", counted in the NUTS
    edition the dataset uses) and among the EU member states' regions of that level where the data cover
    at least 80 % of them (a country among the member states, or all countries), and among its parent's
    other children only when at least three are of the dataset's NUTS edition (a region not of the
    edition a group is counted in is not ranked in it; only regions of the classification are peers);
    ranks say their direction (`highest`, `second-lowest`) and ties name the tied regions; values of low
    reliability (flag u) or confidential are left out of ranks and named, and a region whose own value
    is so is neither ranked nor compared. It gives the gap to its parent (unless the region is its only
    child, or the parent is alone at its level in its country), its country (unless the region is alone
    at its level there) and the EU (the EU aggregate itself is set against nothing) (for totals such as
    population: the region's share; past twice as high: `9.7 times`); across countries, money in euro is
    compared in purchasing power standards where the dataset holds them, and otherwise said not to be
    adjusted for price levels. Types: `profile_summary` (every topic, latest values and change),
    `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every
    topic, against the peers). A type with no figure for the region is refused: 422 `validation_failed`
    with `details.errors[0].pointer` `#/briefing_type` and `details.available_types`, the types that
    have figures for it (costing 1 request, not 10). Series of the type without a value for the region
    are named in `not_covered`. Every number in the text (periods of the cited rows in a date position
    aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value
    they are; `derived` claims give their `inputs` (each a cited value), the `operation` and its
    formula; a rank's display is its phrase (`second-highest`). Each claim carries in `flags` the flags
    of every value in its window (its rows, and for a change the values between them). Where the text
    must say more than the number, `reads` gives the words ("2.1 % more", "9.7 times"). Before a
    briefing is stored, a verifier re-reads the text, finding numbers on characters (a digit after a
    non-breaking space, a currency sign or a dash is a number): every number must be a claim's display
    followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs;
    every rank phrase must be a rank claim; a cited period counts as a period only in a date position
    (after in/since/from/to/until/between/and/for, never before % or a unit); every claim is recomputed
    from the cited rows with the rounding shown, must carry every flag of the rows it cites, and may
    carry only flags its cited rows have; a name or title excuses digits only where it stands whole and
    they are no claim; `verification` reports it. It checks the numbers and the words bound to them, not
    the rest of the prose. A text that fails is never stored or shown. Where the operator has configured
    a model server, the model rewrites the prose from the writer's text and claims; titles of an
    account's own datasets reach it only as quoted data in a message of their own (the fact sheet names
    them `[[Q1]]`, ...); its text passes the same verifier and more strictly (outside names ASCII only,
    typographic quotes aside; no digits inside words; no number, ordinal, rank or superlative words; no
    % or comparing word after a number but as its claim's `reads`, and no verb of change before a number
    whose claim reads no direction; each rank phrase takes a rank claim of its own; a cited year after
    in/since/... is a date only before punctuation, a number or a word such as and, the, it, was; and
    the digits of an account's own titles count; it may leave claims out, and `claims` then lists only
    those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout
    leaves the deterministic text in place, with `generator.fallback_reason` saying why.
    `generator.version` is the writer's version (2; briefings stored by version 1 stay as they were
    written). Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).
    Costs 10 requests against rate limits (the operator may change this with --route-weight).

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
