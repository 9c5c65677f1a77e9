"""`Client`: regintel's API for a data user. Requests are made from the generated client's
descriptions of each operation (`regintel_client.api`) and answers parsed into its typed models;
this layer adds what a data user expects: errors raised, waits honoured, lists paged through,
figures as DataFrames, exports streamed."""

from __future__ import annotations

import csv
import datetime
import ssl
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote

import httpx
from regintel_client import AuthenticatedClient
from regintel_client import Client as GeneratedClient
from regintel_client.api.analytics import (
    correlation_matrix,
    create_briefing,
    get_briefing,
    list_briefings,
)
from regintel_client.api.citations import get_citation, list_citation_revisions
from regintel_client.api.datasets import get_dataset, list_dataset_changes, list_dataset_snapshots, list_datasets
from regintel_client.api.regions import compare_regions, get_region, get_region_profile, list_regions
from regintel_client.api.webhooks import list_webhook_deliveries, list_webhooks
from regintel_client.models import (
    Briefing,
    BriefingListItem,
    BriefingRequest,
    BriefingRequestAsOfBasis,
    BriefingRequestBriefingType,
    CitationDetail,
    CitationRevision,
    CitedSnapshot,
    ClassificationCitation,
    CompareRegionsAsOfBasis,
    CompareRegionsResponse200,
    CorrelationMatrixAsOfBasis,
    CorrelationMatrixMethod,
    CorrelationMatrixResponse200,
    CorrelationMatrixTransform,
    CreateBriefingResponse201,
    DatasetChange,
    DatasetDetail,
    DatasetSummary,
    ExportDatasetAsOfBasis,
    GetBriefingResponse200,
    GetCitationAsOfBasis,
    GetCitationResponse200,
    GetDatasetAsOfBasis,
    GetDatasetResponse200,
    GetRegionAsOfBasis,
    GetRegionProfileAsOfBasis,
    GetRegionProfileResponse200,
    GetRegionResponse200,
    ListBriefingsResponse200,
    ListCitationRevisionsResponse200,
    ListDatasetChangesAsOfBasis,
    ListDatasetChangesResponse200,
    ListDatasetSnapshotsAsOfBasis,
    ListDatasetSnapshotsResponse200,
    ListDatasetsAsOfBasis,
    ListDatasetsResponse200,
    ListRegionsAsOfBasis,
    ListRegionsResponse200,
    ListWebhookDeliveriesResponse200,
    ListWebhooksResponse200,
    RegionDetail,
    RegionSummary,
    SnapshotCitation,
    Webhook,
    WebhookDelivery,
)
from regintel_client.types import UNSET, Unset

from . import __version__
from .answers import Answer, ComparisonAnswer, MatrixAnswer, ProfileAnswer
from .errors import AuthenticationError, RegintelError, TransportError, from_response, retry_after
from .frames import pandas_module

if TYPE_CHECKING:
    import pandas

E = TypeVar("E", bound=Enum)
M = TypeVar("M")

# Statuses that say "not now" rather than "no": a GET is sent again after the wait they ask for.
RETRIED_STATUSES = frozenset({429, 503})
# Rows of an export per DataFrame of `export_frames`, unless asked otherwise.
EXPORT_CHUNK_ROWS = 50_000


def _listed(values: str | Sequence[str]) -> str:
    """A list as the API takes it, comma-separated (a string passes as it is)."""
    if isinstance(values, str):
        return values
    return ",".join(values)


def _enum(kind: type[E], value: str | E, name: str) -> E:
    """A plain string accepted where the API takes one of an enum's values."""
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(repr(member.value) for member in kind)
        raise ValueError(f"{name} must be one of {allowed}, not {value!r}") from None


def _given(value: M | None) -> M | Unset:
    return UNSET if value is None else value


Moment = str | datetime.date | datetime.datetime
"""A moment to read as of: an RFC 3339 string or a date (`"2026-03-01"`, the end of that day UTC),
a `datetime.date`, or a timezone-aware `datetime.datetime`."""


def _moment(value: Moment | None) -> str | Unset:
    """`as_of` as the API takes it; a naive datetime is refused rather than guessed at."""
    if value is None:
        return UNSET
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            raise ValueError("as_of: give a timezone-aware datetime (or a date, or an RFC 3339 string)")
        return value.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _basis(kind: type[E], value: str | None) -> E | Unset:
    return UNSET if value is None else _enum(kind, value, "as_of_basis")


def _lines(chunks: Iterable[str]) -> Iterator[str]:
    """Text cut into lines at each `\\n` only (CSV's line end; `str.splitlines` would also cut
    at characters a CSV writer leaves unquoted), each keeping its line end, as the csv module
    reads them (a quoted field may hold a line break). Linear in the text, however long a line."""
    pending: list[str] = []
    for chunk in chunks:
        *ended, rest = chunk.split("\n")
        for part in ended:
            pending.append(part)
            yield "".join(pending) + "\n"
            pending = []
        if rest:
            pending.append(rest)
    if pending:
        yield "".join(pending)


class Client:
    """regintel's API at `base_url` (e.g. `https://stats.example.org/api/v1/regional`).

    - `api_key`: an account's key (`sk_service_...`); None reads public data as an anonymous
      caller, limited per address.
    - `timeout`: seconds to wait for the server at each step (connect, each read).
    - `retries`: how many times a GET answered 429 or 503 is sent again, after the wait its
      `Retry-After` asks for (1, 2, 4, ... seconds when it asks none). A wait longer than
      `max_retry_wait` seconds is not waited: the error is raised with its `retry_after`.
      Requests that change something (creating a briefing) are never sent twice.
    - `verify`: True (httpx's default: certifi's certificate authorities, or the file that
      `SSL_CERT_FILE` names), the path of a CA file (the demo's `demo-cert.pem`, an
      institution's CA), an `ssl.SSLContext`, or False (never outside a test).
    - `sleep`: how a wait is waited (a test may record the waits instead).

    Every call raises a `regintel.RegintelError` subclass when the API does not answer with a
    success. Use as a context manager, or call `close()`, to release its connections."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        max_retry_wait: float = 60.0,
        verify: bool | str | Path | ssl.SSLContext = True,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must be 0 or more")
        if isinstance(verify, (str, Path)):
            # A context, not a path: httpx deprecates `verify=<path>`.
            verify = ssl.create_default_context(cafile=str(verify))
        options: dict[str, Any] = {
            "timeout": httpx.Timeout(timeout),
            "verify_ssl": verify,
            "headers": {"User-Agent": f"regintel-python/{__version__}"},
            "httpx_args": {"transport": transport} if transport else {},
        }
        self._generated: AuthenticatedClient | GeneratedClient = (
            AuthenticatedClient(base_url=base_url, token=api_key, **options)
            if api_key
            else GeneratedClient(base_url=base_url, **options)
        )
        self._retries = retries
        self._max_retry_wait = max_retry_wait
        self._sleep = sleep

    @property
    def generated(self) -> AuthenticatedClient | GeneratedClient:
        """The generated client this one sends with, for an operation this one has no method
        for (`regintel_client.api...sync_detailed(client=...)`); it raises no errors itself.
        Its repr shows the API key: never log it."""
        return self._generated

    def close(self) -> None:
        """Closes the client's connections; it makes no request afterwards."""
        self._generated.get_httpx_client().close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The requests.

    def _wait_before_retry(self, response: httpx.Response, attempt: int) -> float | None:
        """How long to wait before sending a GET again, or None when it is not to be sent."""
        if response.status_code not in RETRIED_STATUSES or attempt >= self._retries:
            return None
        asked = retry_after(response)
        wait = float(2**attempt) if asked is None else asked
        return wait if wait <= self._max_retry_wait else None

    def _send(self, request: Mapping[str, Any], *, idempotent: bool, stream: bool = False) -> httpx.Response:
        """`request` (an operation's `_get_kwargs`) sent, and again after the asked wait while a
        GET is answered 429 or 503; a success, or its error raised. A streamed response is
        returned open: the caller closes it."""
        http = self._generated.get_httpx_client()
        attempt = 0
        while True:
            try:
                response = http.send(http.build_request(**request), stream=stream)
            except httpx.TimeoutException as timeout:
                raise TransportError(f"no answer in time: {timeout}", code="timeout", status=0) from timeout
            except httpx.TransportError as failed:
                raise TransportError(f"the server could not be reached: {failed}", code="transport", status=0) from failed
            if response.is_success:
                return response
            if stream:
                response.read()
                response.close()
            wait = self._wait_before_retry(response, attempt) if idempotent else None
            if wait is None:
                raise from_response(response)
            self._sleep(wait)
            attempt += 1

    def _get(self, request: Mapping[str, Any], parse: Callable[[Mapping[str, Any]], M]) -> M:
        return parse(self._send(request, idempotent=True).json())

    def _pages(self, request: Callable[[str | Unset], Mapping[str, Any]], parse: Callable[[Mapping[str, Any]], Any]) -> Iterator[Any]:
        """Every item of a paged list, page after page (`meta.next_cursor`); a next page that was
        read already (a server that pages in a circle) raises instead of looping for ever."""
        cursor: str | Unset = UNSET
        read: set[str] = set()
        while True:
            page = self._get(request(cursor), parse)
            yield from page.data
            if not page.meta.next_cursor:
                return
            if page.meta.next_cursor in read or page.meta.next_cursor == cursor:
                raise RegintelError("the list's next page is a page already read", code="paging", status=0)
            if isinstance(cursor, str):
                read.add(cursor)
            cursor = page.meta.next_cursor

    def _authenticated(self) -> AuthenticatedClient:
        if not isinstance(self._generated, AuthenticatedClient):
            raise AuthenticationError(
                "this call needs an account's API key: Client(base_url, api_key=...)",
                code="missing_credential",
                status=401,
            )
        return self._generated

    # Regions.

    def regions(
        self,
        *,
        level: int | None = None,
        country: str | None = None,
        q: str | None = None,
        page_size: int = 100,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> Iterator[RegionSummary]:
        """Every region matching: of a NUTS `level`, in a `country`, or whose name or code
        matches `q`; all pages. The regions are the running release's at any `as_of`."""
        basis = _basis(ListRegionsAsOfBasis, as_of_basis)
        return self._pages(
            lambda cursor: list_regions._get_kwargs(
                level=_given(level),
                country=_given(country),
                q=_given(q),
                limit=page_size,
                cursor=cursor,
                as_of=_moment(as_of),
                as_of_basis=basis,
            ),
            ListRegionsResponse200.from_dict,
        )

    def region(self, code: str, *, as_of: Moment | None = None, as_of_basis: str | None = None) -> Answer[RegionDetail]:
        """A region: its name, level, NUTS editions, parent and children. `as_of` (and
        `as_of_basis`, "imported" or "published"): as this server answered at that moment,
        `meta.as_of` saying which snapshots were read."""
        request = get_region._get_kwargs(
            code, as_of=_moment(as_of), as_of_basis=_basis(GetRegionAsOfBasis, as_of_basis)
        )
        answer = self._get(request, GetRegionResponse200.from_dict)
        return Answer(answer.data, answer.meta)

    def profile(self, code: str, *, as_of: Moment | None = None, as_of_basis: str | None = None) -> ProfileAnswer:
        """A region's profile: each headline indicator with its history and latest value, every
        value cited. `.to_dataframe()` gives one row per indicator and period. `as_of`: the
        profile as it stood then (see `region`)."""
        request = get_region_profile._get_kwargs(
            code, as_of=_moment(as_of), as_of_basis=_basis(GetRegionProfileAsOfBasis, as_of_basis)
        )
        answer = self._get(request, GetRegionProfileResponse200.from_dict)
        return ProfileAnswer(answer.data, answer.meta)

    def compare(
        self,
        regions: str | Sequence[str],
        dataset: str,
        *,
        period: str | None = None,
        unit: str | None = None,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> ComparisonAnswer:
        """One dataset's headline series (or `unit`) across `regions` (a list, or
        comma-separated), ranked, at the latest period they share or `period`. `as_of`: the
        comparison as it stood then (see `region`)."""
        request = compare_regions._get_kwargs(
            regions=_listed(regions),
            dataset=dataset,
            period=_given(period),
            unit=_given(unit),
            as_of=_moment(as_of),
            as_of_basis=_basis(CompareRegionsAsOfBasis, as_of_basis),
        )
        answer = self._get(request, CompareRegionsResponse200.from_dict)
        return ComparisonAnswer(answer.data, answer.meta)

    # Citations and datasets.

    def citation(
        self, citation_id: str, *, as_of: Moment | None = None, as_of_basis: str | None = None
    ) -> Answer[CitationDetail | ClassificationCitation | SnapshotCitation]:
        """What a citation id stands for: the row as published (or a region's classification, or
        a snapshot), its source file with line and SHA-256, and how to verify it. `as_of`: with
        the revision that stood then (see `region`)."""
        request = get_citation._get_kwargs(
            citation_id, as_of=_moment(as_of), as_of_basis=_basis(GetCitationAsOfBasis, as_of_basis)
        )
        answer = self._get(request, GetCitationResponse200.from_dict)
        return Answer(answer.data, answer.meta)

    def revisions(self, citation_id: str, *, page_size: int = 100) -> Iterator[CitationRevision]:
        """Every value the observation behind a citation has had, oldest first, each with its
        snapshot's import and publication times and when it was current; all pages."""
        return self._pages(
            lambda cursor: list_citation_revisions._get_kwargs(citation_id, limit=page_size, cursor=cursor),
            ListCitationRevisionsResponse200.from_dict,
        )

    def datasets(
        self, *, page_size: int = 100, as_of: Moment | None = None, as_of_basis: str | None = None
    ) -> Iterator[DatasetSummary]:
        """Every dataset this caller may read (an account's private ones included), all pages.
        `as_of`: those held then, as they were (see `region`)."""
        basis = _basis(ListDatasetsAsOfBasis, as_of_basis)
        return self._pages(
            lambda cursor: list_datasets._get_kwargs(
                limit=page_size, cursor=cursor, as_of=_moment(as_of), as_of_basis=basis
            ),
            ListDatasetsResponse200.from_dict,
        )

    def dataset(self, code: str, *, as_of: Moment | None = None, as_of_basis: str | None = None) -> Answer[DatasetDetail]:
        """A dataset: its series, units, dimensions, newest snapshots and licence. `as_of`: its
        series, counts and snapshots as they were then."""
        request = get_dataset._get_kwargs(
            code, as_of=_moment(as_of), as_of_basis=_basis(GetDatasetAsOfBasis, as_of_basis)
        )
        answer = self._get(request, GetDatasetResponse200.from_dict)
        return Answer(answer.data, answer.meta)

    def dataset_snapshots(
        self, code: str, *, page_size: int = 20, as_of: Moment | None = None, as_of_basis: str | None = None
    ) -> Iterator[CitedSnapshot]:
        """Every snapshot (import, upload, fetch) of a dataset, newest first, all pages. `as_of`:
        those it had then."""
        basis = _basis(ListDatasetSnapshotsAsOfBasis, as_of_basis)
        return self._pages(
            lambda cursor: list_dataset_snapshots._get_kwargs(
                code, limit=page_size, cursor=cursor, as_of=_moment(as_of), as_of_basis=basis
            ),
            ListDatasetSnapshotsResponse200.from_dict,
        )

    def dataset_changes(
        self,
        code: str,
        *,
        since_snapshot: str | None = None,
        page_size: int = 100,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> Iterator[DatasetChange]:
        """Every row a dataset's imports added, revised or withdrew (since a snapshot), all
        pages. `as_of`: what its snapshots by then wrote."""
        basis = _basis(ListDatasetChangesAsOfBasis, as_of_basis)
        return self._pages(
            lambda cursor: list_dataset_changes._get_kwargs(
                code,
                since_snapshot=_given(since_snapshot),
                limit=page_size,
                cursor=cursor,
                as_of=_moment(as_of),
                as_of_basis=basis,
            ),
            ListDatasetChangesResponse200.from_dict,
        )

    # Analyses.

    def matrix(
        self,
        nuts_code: str,
        *,
        datasets: str | Sequence[str] | None = None,
        series: str | Sequence[str] | None = None,
        level: int | None = None,
        method: str | CorrelationMatrixMethod = CorrelationMatrixMethod.PEARSON,
        period: str | None = None,
        transform: str | CorrelationMatrixTransform = CorrelationMatrixTransform.NONE,
        min_n: int = 8,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> MatrixAnswer:
        """Correlations between datasets (or series) across the regions below `nuts_code` at
        `level`, each cell with r, n and its caveats. `.to_dataframe()` gives one row per
        cell. `as_of`: from the values as they stood then (see `region`)."""
        request = correlation_matrix._get_kwargs(
            nuts_code=nuts_code,
            level=_given(level),
            method=_enum(CorrelationMatrixMethod, method, "method"),
            datasets=UNSET if datasets is None else _listed(datasets),
            series=UNSET if series is None else _listed(series),
            period=_given(period),
            transform=_enum(CorrelationMatrixTransform, transform, "transform"),
            min_n=min_n,
            as_of=_moment(as_of),
            as_of_basis=_basis(CorrelationMatrixAsOfBasis, as_of_basis),
        )
        answer = self._get(request, CorrelationMatrixResponse200.from_dict)
        return MatrixAnswer(answer.data, answer.meta)

    def create_briefing(
        self,
        region: str,
        briefing_type: str | BriefingRequestBriefingType,
        *,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> Answer[Briefing]:
        """A briefing on `region` (institutional accounts): prose whose every number is a claim
        checked against cited rows. Never sent twice, whatever the answer. `as_of`: written from
        the data as they stood then (see `region`)."""
        self._authenticated()
        body = BriefingRequest(
            briefing_type=_enum(BriefingRequestBriefingType, briefing_type, "briefing_type"),
            region_nuts_code=region,
            as_of=_moment(as_of),
            as_of_basis=_basis(BriefingRequestAsOfBasis, as_of_basis),
        )
        response = self._send(create_briefing._get_kwargs(body=body), idempotent=False)
        answer = CreateBriefingResponse201.from_dict(response.json())
        return Answer(answer.data, answer.meta)

    def briefing(self, briefing_id: str) -> Answer[Briefing]:
        """One of the account's briefings, as it was created (claims, verification, sources)."""
        self._authenticated()
        answer = self._get(get_briefing._get_kwargs(briefing_id), GetBriefingResponse200.from_dict)
        return Answer(answer.data, answer.meta)

    def briefings(self, *, page_size: int = 100) -> Iterator[BriefingListItem]:
        """Every briefing of the account, newest first, all pages."""
        self._authenticated()
        return self._pages(
            lambda cursor: list_briefings._get_kwargs(limit=page_size, cursor=cursor),
            ListBriefingsResponse200.from_dict,
        )

    # Bulk export: streamed, never held whole.

    def _export_request(self, dataset: str, filters: Mapping[str, Any]) -> dict[str, Any]:
        as_of, basis = _moment(filters.get("as_of")), _basis(ExportDatasetAsOfBasis, filters.get("as_of_basis"))
        params = {
            "country": filters.get("country"),
            "level": filters.get("level"),
            "from": filters.get("from_"),
            "to": filters.get("to"),
            "as_of": None if isinstance(as_of, Unset) else as_of,
            "as_of_basis": None if isinstance(basis, Unset) else basis.value,
        }
        return {
            "method": "GET",
            "url": f"/export/bulk/{quote(dataset, safe='')}.csv",
            "params": {k: v for k, v in params.items() if v is not None},
        }

    def export(
        self,
        dataset: str,
        file: str | Path | IO[bytes],
        *,
        country: str | None = None,
        level: int | None = None,
        from_: str | None = None,
        to: str | None = None,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> int:
        """A dataset's rows as CSV (one row per value, with its flags and citation), written to
        `file` (a path or a binary file) as it arrives; returns the bytes written. Filters:
        `country` (a NUTS country code), `level` (0 to 3), `from_` and `to` (periods); `as_of`:
        the rows current then (see `region`). The
        server ends an export whose reader keeps it waiting (after 30 seconds of waiting, below
        32 KiB a second): write it out, then work on the file."""
        filters = {"country": country, "level": level, "from_": from_, "to": to}
        request = self._export_request(dataset, {**filters, "as_of": as_of, "as_of_basis": as_of_basis})
        response = self._send(request, idempotent=True, stream=True)
        try:
            if not isinstance(file, (str, Path)):
                return sum(file.write(chunk) for chunk in response.iter_bytes())
            # Written beside the target and renamed when whole: a broken-off export leaves no
            # partial file under the name asked for.
            target = Path(file)
            partial = target.with_name(target.name + ".partial")
            try:
                with open(partial, "wb") as out:
                    written = sum(out.write(chunk) for chunk in response.iter_bytes())
                partial.replace(target)
            finally:
                partial.unlink(missing_ok=True)
            return written
        except httpx.TransportError as failed:
            raise TransportError(f"the export broke off: {failed}", code="transport", status=0) from failed
        finally:
            response.close()

    def export_rows(
        self,
        dataset: str,
        *,
        country: str | None = None,
        level: int | None = None,
        from_: str | None = None,
        to: str | None = None,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> Iterator[dict[str, str]]:
        """A dataset's export row by row as it arrives, each a dict by the CSV's header."""
        filters = {"country": country, "level": level, "from_": from_, "to": to}
        request = self._export_request(dataset, {**filters, "as_of": as_of, "as_of_basis": as_of_basis})
        response = self._send(request, idempotent=True, stream=True)
        try:
            yield from csv.DictReader(_lines(response.iter_text()))
        except httpx.TransportError as failed:
            raise TransportError(f"the export broke off: {failed}", code="transport", status=0) from failed
        finally:
            response.close()

    def export_frames(
        self,
        dataset: str,
        *,
        chunk_rows: int = EXPORT_CHUNK_ROWS,
        country: str | None = None,
        level: int | None = None,
        from_: str | None = None,
        to: str | None = None,
        as_of: Moment | None = None,
        as_of_basis: str | None = None,
    ) -> Iterator[pandas.DataFrame]:
        """A dataset's export as DataFrames of at most `chunk_rows` rows each, read as the rows
        arrive; only one chunk is held. Columns as in the CSV (`dataset_code`, `nuts_code`,
        `region_name`, `nuts_level`, `time`, `unit`, the dataset's dimensions, `value`, `flags`,
        `conf_status`, `citation_id`), `value` as numbers (NaN where a row has none) and
        `nuts_level` as whole numbers. Work on a chunk quickly, or `export()` to a file first:
        the server ends an export whose reader keeps it waiting."""
        if chunk_rows < 1:
            raise ValueError("chunk_rows must be 1 or more")
        pd = pandas_module()
        chunk: list[dict[str, str]] = []
        columns: list[str] | None = None

        def made(rows: list[dict[str, str]]) -> pandas.DataFrame:
            df = pd.DataFrame.from_records(rows, columns=columns)
            if "value" in df.columns:
                df["value"] = pd.to_numeric(df["value"], errors="coerce")
            if "nuts_level" in df.columns:
                df["nuts_level"] = pd.to_numeric(df["nuts_level"]).astype("Int64")
            return df

        rows = self.export_rows(
            dataset, country=country, level=level, from_=from_, to=to, as_of=as_of, as_of_basis=as_of_basis
        )
        for row in rows:
            columns = columns or list(row)
            chunk.append(row)
            if len(chunk) == chunk_rows:
                yield made(chunk)
                chunk = []
        if chunk:
            yield made(chunk)

    # Webhooks.

    def webhooks(self, *, page_size: int = 20) -> Iterator[Webhook]:
        """Every webhook endpoint of the account, all pages."""
        self._authenticated()
        return self._pages(
            lambda cursor: list_webhooks._get_kwargs(limit=page_size, cursor=cursor),
            ListWebhooksResponse200.from_dict,
        )

    def webhook_deliveries(self, webhook_id: str, *, page_size: int = 20) -> Iterator[WebhookDelivery]:
        """Every delivery to one endpoint, newest first, all pages."""
        self._authenticated()
        return self._pages(
            lambda cursor: list_webhook_deliveries._get_kwargs(webhook_id, limit=page_size, cursor=cursor),
            ListWebhookDeliveriesResponse200.from_dict,
        )


__all__ = ["Client", "RegintelError"]
