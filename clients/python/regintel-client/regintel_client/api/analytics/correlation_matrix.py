from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.correlation_matrix_as_of_basis import CorrelationMatrixAsOfBasis
from ...models.correlation_matrix_method import CorrelationMatrixMethod
from ...models.correlation_matrix_response_200 import CorrelationMatrixResponse200
from ...models.correlation_matrix_transform import CorrelationMatrixTransform
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    nuts_code: str,
    level: int | Unset = UNSET,
    method: CorrelationMatrixMethod | Unset = CorrelationMatrixMethod.PEARSON,
    datasets: str | Unset = UNSET,
    series: str | Unset = UNSET,
    period: str | Unset = UNSET,
    transform: CorrelationMatrixTransform | Unset = CorrelationMatrixTransform.NONE,
    min_n: int | Unset = 8,
    as_of: str | Unset = UNSET,
    as_of_basis: CorrelationMatrixAsOfBasis | Unset = CorrelationMatrixAsOfBasis.IMPORTED,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["nuts_code"] = nuts_code

    params["level"] = level

    json_method: str | Unset = UNSET
    if not isinstance(method, Unset):
        json_method = method.value

    params["method"] = json_method

    params["datasets"] = datasets

    params["series"] = series

    params["period"] = period

    json_transform: str | Unset = UNSET
    if not isinstance(transform, Unset):
        json_transform = transform.value

    params["transform"] = json_transform

    params["min_n"] = min_n

    params["as_of"] = as_of

    json_as_of_basis: str | Unset = UNSET
    if not isinstance(as_of_basis, Unset):
        json_as_of_basis = as_of_basis.value

    params["as_of_basis"] = json_as_of_basis

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/intelligence/correlations/matrix",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CorrelationMatrixResponse200 | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CorrelationMatrixResponse200.from_dict(response.json())

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
) -> Response[Any | CorrelationMatrixResponse200 | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    nuts_code: str,
    level: int | Unset = UNSET,
    method: CorrelationMatrixMethod | Unset = CorrelationMatrixMethod.PEARSON,
    datasets: str | Unset = UNSET,
    series: str | Unset = UNSET,
    period: str | Unset = UNSET,
    transform: CorrelationMatrixTransform | Unset = CorrelationMatrixTransform.NONE,
    min_n: int | Unset = 8,
    as_of: str | Unset = UNSET,
    as_of_basis: CorrelationMatrixAsOfBasis | Unset = CorrelationMatrixAsOfBasis.IMPORTED,
) -> Response[Any | CorrelationMatrixResponse200 | ErrorEnvelope]:
    """Correlation matrix for a region

     Any API key or session. Correlates one series of each of several datasets pairwise. For a region
    with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out; by
    default the next level down, or the first level below it with at least `min_n` regions of one NUTS
    edition, said in the `level_lowered` caveat): each variable is taken at `period` when given, else at
    the latest period at which at least half of the subregions of the dataset's NUTS edition, and at
    least `min_n`, have a usable value (failing that, the period where most do), named in
    `variables[].period`. For a region without subregions it is over time: the periods both series have,
    each series only after its last break in series (flag b; the flagged value is left out too, as
    producers mark a break on either side of it). A variable's series is the dataset's headline series,
    or the one `series` names; across regions, a dataset whose headline series is a total (persons,
    million euro) gives its rate series instead (per inhabitant, per area or a share; never a growth
    rate, an index or national currency; `series_choice`: `rate_instead_of_total`), and a dataset of
    totals only is left out unless named in `datasets`. Each cell holds r, n, the two-sided p-value
    (Student's t with n-2 degrees of freedom, as scipy.stats computes it), a 95 % interval (Fisher's z;
    for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson) and `leave_one_out` (the
    range of r with each pair left out, and the pair that moves it most); below `min_n` pairs a cell has
    status `insufficient_data` and no r, and a value or sum that is not a finite number gives
    `not_computable` with a `reason`, never a number. Values are scaled by their largest magnitude
    before they are summed, so figures up to about 1e300 give the right r. `inputs` lists every value
    used, as published, with its citation, so any cell can be recomputed (with `transform=log`, from the
    natural logarithms of the values); `regions_dropped` says why a subregion (or, over time, a period)
    was left out of a variable. `caveats` name what the method cannot show (ecological inference,
    trending series, unadjusted p-values) and give figures where the inputs give pause:
    `flagged_values_dropped` (flags remove a tenth or more of a variable's regions: r with and without
    them for each cell concerned), `influential_points` (one region moves r by more than 0.2), `small_n`
    (10 to 29 pairs) and `few_pairs` (fewer than 10), `stale_variable` (a period more than 3 years
    before the newest), `totals_not_rates`, `totals_left_out`, `different_periods`,
    `mixed_nuts_editions`, and over time `break_in_series` and `current_prices`. Leave-one-out ranges
    cost n² steps a cell for Spearman: past 4,000,000 steps in a matrix the remaining cells go without,
    counted in `influential_points_unchecked`. The caller's private datasets take part like public ones.
    Cost: 5 requests. Costs 5 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        nuts_code (str):
        level (int | Unset):
        method (CorrelationMatrixMethod | Unset):  Default: CorrelationMatrixMethod.PEARSON.
        datasets (str | Unset):
        series (str | Unset):
        period (str | Unset):
        transform (CorrelationMatrixTransform | Unset):  Default: CorrelationMatrixTransform.NONE.
        min_n (int | Unset):  Default: 8.
        as_of (str | Unset):
        as_of_basis (CorrelationMatrixAsOfBasis | Unset):  Default:
            CorrelationMatrixAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CorrelationMatrixResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        nuts_code=nuts_code,
        level=level,
        method=method,
        datasets=datasets,
        series=series,
        period=period,
        transform=transform,
        min_n=min_n,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    nuts_code: str,
    level: int | Unset = UNSET,
    method: CorrelationMatrixMethod | Unset = CorrelationMatrixMethod.PEARSON,
    datasets: str | Unset = UNSET,
    series: str | Unset = UNSET,
    period: str | Unset = UNSET,
    transform: CorrelationMatrixTransform | Unset = CorrelationMatrixTransform.NONE,
    min_n: int | Unset = 8,
    as_of: str | Unset = UNSET,
    as_of_basis: CorrelationMatrixAsOfBasis | Unset = CorrelationMatrixAsOfBasis.IMPORTED,
) -> Any | CorrelationMatrixResponse200 | ErrorEnvelope | None:
    """Correlation matrix for a region

     Any API key or session. Correlates one series of each of several datasets pairwise. For a region
    with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out; by
    default the next level down, or the first level below it with at least `min_n` regions of one NUTS
    edition, said in the `level_lowered` caveat): each variable is taken at `period` when given, else at
    the latest period at which at least half of the subregions of the dataset's NUTS edition, and at
    least `min_n`, have a usable value (failing that, the period where most do), named in
    `variables[].period`. For a region without subregions it is over time: the periods both series have,
    each series only after its last break in series (flag b; the flagged value is left out too, as
    producers mark a break on either side of it). A variable's series is the dataset's headline series,
    or the one `series` names; across regions, a dataset whose headline series is a total (persons,
    million euro) gives its rate series instead (per inhabitant, per area or a share; never a growth
    rate, an index or national currency; `series_choice`: `rate_instead_of_total`), and a dataset of
    totals only is left out unless named in `datasets`. Each cell holds r, n, the two-sided p-value
    (Student's t with n-2 degrees of freedom, as scipy.stats computes it), a 95 % interval (Fisher's z;
    for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson) and `leave_one_out` (the
    range of r with each pair left out, and the pair that moves it most); below `min_n` pairs a cell has
    status `insufficient_data` and no r, and a value or sum that is not a finite number gives
    `not_computable` with a `reason`, never a number. Values are scaled by their largest magnitude
    before they are summed, so figures up to about 1e300 give the right r. `inputs` lists every value
    used, as published, with its citation, so any cell can be recomputed (with `transform=log`, from the
    natural logarithms of the values); `regions_dropped` says why a subregion (or, over time, a period)
    was left out of a variable. `caveats` name what the method cannot show (ecological inference,
    trending series, unadjusted p-values) and give figures where the inputs give pause:
    `flagged_values_dropped` (flags remove a tenth or more of a variable's regions: r with and without
    them for each cell concerned), `influential_points` (one region moves r by more than 0.2), `small_n`
    (10 to 29 pairs) and `few_pairs` (fewer than 10), `stale_variable` (a period more than 3 years
    before the newest), `totals_not_rates`, `totals_left_out`, `different_periods`,
    `mixed_nuts_editions`, and over time `break_in_series` and `current_prices`. Leave-one-out ranges
    cost n² steps a cell for Spearman: past 4,000,000 steps in a matrix the remaining cells go without,
    counted in `influential_points_unchecked`. The caller's private datasets take part like public ones.
    Cost: 5 requests. Costs 5 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        nuts_code (str):
        level (int | Unset):
        method (CorrelationMatrixMethod | Unset):  Default: CorrelationMatrixMethod.PEARSON.
        datasets (str | Unset):
        series (str | Unset):
        period (str | Unset):
        transform (CorrelationMatrixTransform | Unset):  Default: CorrelationMatrixTransform.NONE.
        min_n (int | Unset):  Default: 8.
        as_of (str | Unset):
        as_of_basis (CorrelationMatrixAsOfBasis | Unset):  Default:
            CorrelationMatrixAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CorrelationMatrixResponse200 | ErrorEnvelope
    """

    return sync_detailed(
        client=client,
        nuts_code=nuts_code,
        level=level,
        method=method,
        datasets=datasets,
        series=series,
        period=period,
        transform=transform,
        min_n=min_n,
        as_of=as_of,
        as_of_basis=as_of_basis,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    nuts_code: str,
    level: int | Unset = UNSET,
    method: CorrelationMatrixMethod | Unset = CorrelationMatrixMethod.PEARSON,
    datasets: str | Unset = UNSET,
    series: str | Unset = UNSET,
    period: str | Unset = UNSET,
    transform: CorrelationMatrixTransform | Unset = CorrelationMatrixTransform.NONE,
    min_n: int | Unset = 8,
    as_of: str | Unset = UNSET,
    as_of_basis: CorrelationMatrixAsOfBasis | Unset = CorrelationMatrixAsOfBasis.IMPORTED,
) -> Response[Any | CorrelationMatrixResponse200 | ErrorEnvelope]:
    """Correlation matrix for a region

     Any API key or session. Correlates one series of each of several datasets pairwise. For a region
    with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out; by
    default the next level down, or the first level below it with at least `min_n` regions of one NUTS
    edition, said in the `level_lowered` caveat): each variable is taken at `period` when given, else at
    the latest period at which at least half of the subregions of the dataset's NUTS edition, and at
    least `min_n`, have a usable value (failing that, the period where most do), named in
    `variables[].period`. For a region without subregions it is over time: the periods both series have,
    each series only after its last break in series (flag b; the flagged value is left out too, as
    producers mark a break on either side of it). A variable's series is the dataset's headline series,
    or the one `series` names; across regions, a dataset whose headline series is a total (persons,
    million euro) gives its rate series instead (per inhabitant, per area or a share; never a growth
    rate, an index or national currency; `series_choice`: `rate_instead_of_total`), and a dataset of
    totals only is left out unless named in `datasets`. Each cell holds r, n, the two-sided p-value
    (Student's t with n-2 degrees of freedom, as scipy.stats computes it), a 95 % interval (Fisher's z;
    for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson) and `leave_one_out` (the
    range of r with each pair left out, and the pair that moves it most); below `min_n` pairs a cell has
    status `insufficient_data` and no r, and a value or sum that is not a finite number gives
    `not_computable` with a `reason`, never a number. Values are scaled by their largest magnitude
    before they are summed, so figures up to about 1e300 give the right r. `inputs` lists every value
    used, as published, with its citation, so any cell can be recomputed (with `transform=log`, from the
    natural logarithms of the values); `regions_dropped` says why a subregion (or, over time, a period)
    was left out of a variable. `caveats` name what the method cannot show (ecological inference,
    trending series, unadjusted p-values) and give figures where the inputs give pause:
    `flagged_values_dropped` (flags remove a tenth or more of a variable's regions: r with and without
    them for each cell concerned), `influential_points` (one region moves r by more than 0.2), `small_n`
    (10 to 29 pairs) and `few_pairs` (fewer than 10), `stale_variable` (a period more than 3 years
    before the newest), `totals_not_rates`, `totals_left_out`, `different_periods`,
    `mixed_nuts_editions`, and over time `break_in_series` and `current_prices`. Leave-one-out ranges
    cost n² steps a cell for Spearman: past 4,000,000 steps in a matrix the remaining cells go without,
    counted in `influential_points_unchecked`. The caller's private datasets take part like public ones.
    Cost: 5 requests. Costs 5 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        nuts_code (str):
        level (int | Unset):
        method (CorrelationMatrixMethod | Unset):  Default: CorrelationMatrixMethod.PEARSON.
        datasets (str | Unset):
        series (str | Unset):
        period (str | Unset):
        transform (CorrelationMatrixTransform | Unset):  Default: CorrelationMatrixTransform.NONE.
        min_n (int | Unset):  Default: 8.
        as_of (str | Unset):
        as_of_basis (CorrelationMatrixAsOfBasis | Unset):  Default:
            CorrelationMatrixAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CorrelationMatrixResponse200 | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        nuts_code=nuts_code,
        level=level,
        method=method,
        datasets=datasets,
        series=series,
        period=period,
        transform=transform,
        min_n=min_n,
        as_of=as_of,
        as_of_basis=as_of_basis,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    nuts_code: str,
    level: int | Unset = UNSET,
    method: CorrelationMatrixMethod | Unset = CorrelationMatrixMethod.PEARSON,
    datasets: str | Unset = UNSET,
    series: str | Unset = UNSET,
    period: str | Unset = UNSET,
    transform: CorrelationMatrixTransform | Unset = CorrelationMatrixTransform.NONE,
    min_n: int | Unset = 8,
    as_of: str | Unset = UNSET,
    as_of_basis: CorrelationMatrixAsOfBasis | Unset = CorrelationMatrixAsOfBasis.IMPORTED,
) -> Any | CorrelationMatrixResponse200 | ErrorEnvelope | None:
    """Correlation matrix for a region

     Any API key or session. Correlates one series of each of several datasets pairwise. For a region
    with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out; by
    default the next level down, or the first level below it with at least `min_n` regions of one NUTS
    edition, said in the `level_lowered` caveat): each variable is taken at `period` when given, else at
    the latest period at which at least half of the subregions of the dataset's NUTS edition, and at
    least `min_n`, have a usable value (failing that, the period where most do), named in
    `variables[].period`. For a region without subregions it is over time: the periods both series have,
    each series only after its last break in series (flag b; the flagged value is left out too, as
    producers mark a break on either side of it). A variable's series is the dataset's headline series,
    or the one `series` names; across regions, a dataset whose headline series is a total (persons,
    million euro) gives its rate series instead (per inhabitant, per area or a share; never a growth
    rate, an index or national currency; `series_choice`: `rate_instead_of_total`), and a dataset of
    totals only is left out unless named in `datasets`. Each cell holds r, n, the two-sided p-value
    (Student's t with n-2 degrees of freedom, as scipy.stats computes it), a 95 % interval (Fisher's z;
    for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson) and `leave_one_out` (the
    range of r with each pair left out, and the pair that moves it most); below `min_n` pairs a cell has
    status `insufficient_data` and no r, and a value or sum that is not a finite number gives
    `not_computable` with a `reason`, never a number. Values are scaled by their largest magnitude
    before they are summed, so figures up to about 1e300 give the right r. `inputs` lists every value
    used, as published, with its citation, so any cell can be recomputed (with `transform=log`, from the
    natural logarithms of the values); `regions_dropped` says why a subregion (or, over time, a period)
    was left out of a variable. `caveats` name what the method cannot show (ecological inference,
    trending series, unadjusted p-values) and give figures where the inputs give pause:
    `flagged_values_dropped` (flags remove a tenth or more of a variable's regions: r with and without
    them for each cell concerned), `influential_points` (one region moves r by more than 0.2), `small_n`
    (10 to 29 pairs) and `few_pairs` (fewer than 10), `stale_variable` (a period more than 3 years
    before the newest), `totals_not_rates`, `totals_left_out`, `different_periods`,
    `mixed_nuts_editions`, and over time `break_in_series` and `current_prices`. Leave-one-out ranges
    cost n² steps a cell for Spearman: past 4,000,000 steps in a matrix the remaining cells go without,
    counted in `influential_points_unchecked`. The caller's private datasets take part like public ones.
    Cost: 5 requests. Costs 5 requests against rate limits (the operator may change this with --route-
    weight).

    Args:
        nuts_code (str):
        level (int | Unset):
        method (CorrelationMatrixMethod | Unset):  Default: CorrelationMatrixMethod.PEARSON.
        datasets (str | Unset):
        series (str | Unset):
        period (str | Unset):
        transform (CorrelationMatrixTransform | Unset):  Default: CorrelationMatrixTransform.NONE.
        min_n (int | Unset):  Default: 8.
        as_of (str | Unset):
        as_of_basis (CorrelationMatrixAsOfBasis | Unset):  Default:
            CorrelationMatrixAsOfBasis.IMPORTED.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CorrelationMatrixResponse200 | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            nuts_code=nuts_code,
            level=level,
            method=method,
            datasets=datasets,
            series=series,
            period=period,
            transform=transform,
            min_n=min_n,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )
    ).parsed
