"""The client's behaviour against answers made up in the test (httpx.MockTransport): errors,
waits, lists, enums, paging and streamed exports; and webhook verification against the official
Standard Webhooks package's signatures."""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import importlib
import inspect
import io
import itertools
import json
import pathlib
import pkgutil
import sys
import warnings
from collections.abc import Callable, Iterator

import certifi
import httpx
import pytest
from standardwebhooks.webhooks import Webhook

import regintel
from regintel import Client

URL = "https://stats.example.org/api/v1/regional"


META = {"api_version": "v1", "request_id": "req_0123", "generated_at": "2026-01-01T00:00:00Z", "access": "public"}


def envelope_error(
    status: int, code: str, message: str, details: dict[str, object] | None = None, headers: dict[str, str] | None = None
) -> httpx.Response:
    error = {"code": code, "message": message, "status": status, "request_id": "req_0123", "details": details or {}}
    return httpx.Response(status, headers=headers, json={"data": None, "error": error, "meta": META})


def region(code: str) -> dict[str, object]:
    return {"code": code, "classification": "NUTS", "in_classification": True, "nuts_editions": ["2024"], "children": []}


class Server:
    """Answers in turn, recording each request; the last answer repeats."""

    def __init__(self, *answers: httpx.Response | Callable[[httpx.Request], httpx.Response]) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []
        self.waits: list[float] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers[min(len(self.requests), len(self.answers)) - 1]
        return answer(request) if callable(answer) else answer

    def client(self, **options: object) -> Client:
        return Client(URL, api_key="sk_service_test", transport=httpx.MockTransport(self), sleep=self.waits.append, **options)  # type: ignore[arg-type]


def test_an_error_raises_its_kind_with_the_envelope_fields() -> None:
    server = Server(envelope_error(404, "unknown_region", "no region DE2X", {"parameter": "region_code"}))
    with pytest.raises(regintel.NotFoundError) as raised:
        server.client().profile("DE2X")
    error = raised.value
    assert (error.status, error.code, error.message, error.request_id) == (404, "unknown_region", "no region DE2X", "req_0123")
    assert error.details == {"parameter": "region_code"}
    assert isinstance(error, regintel.RegintelError)
    assert "404 unknown_region" in str(error) and "req_0123" in str(error)


def test_an_answer_without_an_envelope_still_raises() -> None:
    server = Server(httpx.Response(502, text="<html>Bad gateway</html>"))
    with pytest.raises(regintel.ServerError) as raised:
        server.client().region("DE21")
    assert (raised.value.status, raised.value.code) == (502, "http_502")


@pytest.mark.parametrize(
    ("status", "code", "details", "kind"),
    [
        (403, "insufficient_tier", {"required_tier": "institutional", "current_tier": "professional"}, regintel.ForbiddenError),
        (409, "conflict", {}, regintel.ConflictError),
    ],
)
def test_a_refused_or_conflicting_briefing_raises_its_kind_with_the_envelope_fields(
    status: int, code: str, details: dict[str, object], kind: type[regintel.RegintelError]
) -> None:
    server = Server(envelope_error(status, code, "not for this account", details))
    with pytest.raises(kind) as raised:
        server.client().create_briefing("DE21", "economy")
    error = raised.value
    assert type(error) is kind
    assert (error.status, error.code, error.message, error.request_id) == (status, code, "not for this account", "req_0123")
    assert error.details == details
    assert f"{status} {code}" in str(error) and "req_0123" in str(error)
    assert len(server.requests) == 1 and server.waits == []


def test_a_get_waits_as_retry_after_asks_then_succeeds() -> None:
    server = Server(
        envelope_error(429, "rate_limit_exceeded", "per minute", headers={"Retry-After": "7"}),
        envelope_error(503, "unavailable", "busy", headers={"Retry-After": "2"}),
        httpx.Response(200, json={"data": region("DE21"), "meta": META}),
    )
    assert server.client().region("DE21").data.code == "DE21"
    assert server.waits == [7.0, 2.0]
    assert len(server.requests) == 3


def test_waits_are_bounded_in_number_and_length() -> None:
    server = Server(httpx.Response(503, json={}))
    with pytest.raises(regintel.ServerError):
        server.client(retries=2).region("DE21")
    # No Retry-After: 1 then 2 seconds; then the error.
    assert server.waits == [1.0, 2.0]
    assert len(server.requests) == 3

    long = Server(envelope_error(429, "rate_limit_exceeded", "daily cap", headers={"Retry-After": "3600"}))
    with pytest.raises(regintel.RateLimitedError) as raised:
        long.client(max_retry_wait=60).region("DE21")
    assert long.waits == [] and raised.value.retry_after == 3600.0


def test_a_briefing_is_never_sent_twice() -> None:
    server = Server(httpx.Response(429, headers={"Retry-After": "1"}, json={}))
    with pytest.raises(regintel.RateLimitedError):
        server.client().create_briefing("DE21", "economy")
    assert len(server.requests) == 1 and server.waits == []


def test_lists_are_sent_comma_separated_and_enums_taken_as_strings() -> None:
    server = Server(httpx.Response(500, json={}))
    client = server.client(retries=0)
    with pytest.raises(regintel.ServerError):
        client.compare(["DE21", "FR10"], "tgs00010")
    assert server.requests[-1].url.params.get_list("regions") == ["DE21,FR10"]
    with pytest.raises(regintel.ServerError):
        client.create_briefing("DE21", "economy")
    assert json.loads(server.requests[-1].content)["briefing_type"] == "economy"
    with pytest.raises(regintel.ServerError):
        client.matrix("DE", datasets=("tgs00010", "tgs00007"), method="spearman", transform="log")
    params = server.requests[-1].url.params
    assert (params["datasets"], params["method"], params["transform"]) == ("tgs00010,tgs00007", "spearman", "log")
    with pytest.raises(ValueError, match="'economy'"):
        client.create_briefing("DE21", "economics")


def test_as_of_is_sent_as_the_api_reads_it() -> None:
    server = Server(httpx.Response(500, json={}))
    client = server.client(retries=0)
    moments = [
        ("2026-03-01", "2026-03-01"),
        (datetime.date(2026, 3, 1), "2026-03-01"),
        (datetime.datetime(2026, 3, 1, 13, 0, tzinfo=datetime.timezone(datetime.timedelta(hours=1))), "2026-03-01T12:00:00Z"),
    ]
    for given, sent in moments:
        with pytest.raises(regintel.ServerError):
            client.profile("DE21", as_of=given)
        assert server.requests[-1].url.params["as_of"] == sent
    with pytest.raises(regintel.ServerError):
        client.compare(["DE21", "FR10"], "tgs00010", as_of="2026-03-01", as_of_basis="published")
    assert server.requests[-1].url.params["as_of_basis"] == "published"
    with pytest.raises(regintel.ServerError):
        client.citation("cit_aaaaaaaaaaaaaaaaaaaa")
    assert "as_of" not in server.requests[-1].url.params
    assert "as_of_basis" not in server.requests[-1].url.params
    # Lists, the dataset and its export send it with every page and request.
    reads = [
        lambda: next(client.regions(as_of="2026-03-01", as_of_basis="published")),
        lambda: next(client.datasets(as_of="2026-03-01", as_of_basis="published")),
        lambda: client.dataset("tgs00010", as_of="2026-03-01", as_of_basis="published"),
        lambda: next(client.dataset_snapshots("tgs00010", as_of="2026-03-01", as_of_basis="published")),
        lambda: next(client.dataset_changes("tgs00010", as_of="2026-03-01", as_of_basis="published")),
        lambda: next(client.export_rows("tgs00010", as_of="2026-03-01", as_of_basis="published")),
    ]
    for read in reads:
        with pytest.raises(regintel.ServerError):
            read()
        params = server.requests[-1].url.params
        assert (params["as_of"], params["as_of_basis"]) == ("2026-03-01", "published"), server.requests[-1].url
    with pytest.raises(regintel.ServerError):
        next(client.export_rows("tgs00010", country="DE"))
    assert "as_of" not in server.requests[-1].url.params
    with pytest.raises(ValueError, match="timezone-aware"):
        client.profile("DE21", as_of=datetime.datetime(2026, 3, 1, 12, 0))
    with pytest.raises(ValueError, match="'vintage'"):
        client.profile("DE21", as_of="2026-03-01", as_of_basis="vintage")


def test_a_list_is_iterated_over_every_page() -> None:
    def page(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        after = {None: ("c1", ["AT1", "AT2"]), "c1": ("c2", ["AT3", "AT31"]), "c2": (None, ["AT32"])}[cursor]
        meta = {**META, "limit": 2, "next_cursor": after[0]}
        return httpx.Response(200, json={"data": [region(c) for c in after[1]], "meta": meta})

    server = Server(page)
    codes = [region.code for region in server.client().regions(country="AT", page_size=2)]
    assert codes == ["AT1", "AT2", "AT3", "AT31", "AT32"]
    assert [r.url.params.get("cursor") for r in server.requests] == [None, "c1", "c2"]
    assert all(r.url.params["limit"] == "2" for r in server.requests)


@pytest.mark.parametrize(
    ("pages", "asked"),
    [
        # Every answer names "c1" as the next page, the page asked for included.
        ({None: "c1", "c1": "c1"}, [None, "c1"]),
        # Pages in a circle: c1, c2, then c1 again.
        ({None: "c1", "c1": "c2", "c2": "c1"}, [None, "c1", "c2"]),
    ],
)
def test_a_list_whose_next_page_was_read_already_raises_instead_of_paging_forever(
    pages: dict[str | None, str], asked: list[str | None]
) -> None:
    def circling(request: httpx.Request) -> httpx.Response:
        meta = {**META, "limit": 2, "next_cursor": pages[request.url.params.get("cursor")]}
        return httpx.Response(200, json={"data": [region("AT1"), region("AT2")], "meta": meta})

    server = Server(circling)
    codes: list[str] = []
    with pytest.raises(regintel.RegintelError) as raised:
        # Bounded, so that without the guard the test fails rather than hangs.
        for item in itertools.islice(server.client().regions(country="AT", page_size=2), 100):
            codes.append(item.code)
    assert (raised.value.code, raised.value.status) == ("paging", 0)
    assert codes[:2] == ["AT1", "AT2"]
    assert [r.url.params.get("cursor") for r in server.requests] == asked


def test_every_paged_list_of_the_api_has_an_iterator() -> None:
    import regintel_client.api

    paged = {
        f"{tag.name}.{op.name}"
        for tag in pkgutil.iter_modules(regintel_client.api.__path__)
        # The account's own operations (its keys) take a signed-in session, not an API key.
        if tag.name != "account"
        for op in pkgutil.iter_modules([f"{regintel_client.api.__path__[0]}/{tag.name}"])
        if "cursor" in inspect.signature(
            importlib.import_module(f"regintel_client.api.{tag.name}.{op.name}").sync_detailed
        ).parameters
    }
    assert len(paged) >= 6
    source = inspect.getsource(regintel.client)
    missing = [name for name in paged if f"{name.split('.')[1]}._get_kwargs(" not in source]
    assert not missing, f"paged lists without an iterator: {missing}"


EXPORT = (
    "dataset_code,nuts_code,region_name,nuts_level,time,unit,sex,value,flags,conf_status,citation_id\n"
    "tgs00010,AT11,Burgenland,2,2020,PC,T,1.5,,,cit_a\n"
    "tgs00010,AT12,Niederösterreich,2,2020,PC,T,,c,C,cit_b\n"
    'tgs00010,AT13,"Wien, Stadt",2,2020,PC,T,3,p,,cit_c\n'
    'tgs00010,AT21,"Kärnten\nSüd",2,2020,PC,T,4,bp,,cit_d\n'
    "tgs00010,AT22,Steiermark,2,2020,PC,T,5,,,cit_e\n"
)


def test_an_export_is_streamed_to_a_file_and_read_in_chunks() -> None:
    server = Server(lambda _: httpx.Response(200, content=EXPORT.encode()))
    client = server.client()
    out = io.BytesIO()
    assert client.export("tgs00010", out, country="AT") == len(EXPORT.encode())
    assert out.getvalue() == EXPORT.encode()
    assert server.requests[0].url.path.endswith("/export/bulk/tgs00010.csv")
    assert server.requests[0].url.params["country"] == "AT"

    frames = list(client.export_frames("tgs00010", chunk_rows=2))
    assert [len(f) for f in frames] == [2, 2, 1]
    # Quoted fields keep their commas and line breaks.
    assert frames[1]["region_name"].tolist() == ["Wien, Stadt", "Kärnten\nSüd"]
    assert frames[1]["flags"].tolist() == ["p", "bp"]
    assert frames[0]["value"].isna().tolist() == [False, True]
    assert frames[2]["value"].tolist() == [5.0]
    assert str(frames[0]["nuts_level"].dtype) == "Int64"


def test_an_export_broken_off_leaves_no_file(tmp_path: pathlib.Path) -> None:
    def broken(_: httpx.Request) -> httpx.Response:
        def chunks() -> Iterator[bytes]:
            yield EXPORT.encode()[:50]
            raise httpx.ReadError("the connection closed")

        return httpx.Response(200, stream=Stream(chunks()))

    target = tmp_path / "export.csv"
    with pytest.raises(regintel.TransportError):
        Server(broken).client().export("tgs00010", target)
    assert list(tmp_path.iterdir()) == []
    Server(lambda _: httpx.Response(200, content=EXPORT.encode())).client().export("tgs00010", target)
    assert target.read_bytes() == EXPORT.encode() and list(tmp_path.iterdir()) == [target]


class Stream(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks


def test_dataframes_have_a_time_axis_and_whole_ranks() -> None:
    cited = {"citation": "cit_a", "flags": [{"code": "p", "meaning": "provisional"}], "period": "2021-Q3", "value": 2.5}
    indicator = {"dataset": "d", "history": [cited], "notes": [], "series": {}, "title": "t", "topic": "x",
                 "unit": "PC", "latest": cited}
    profile = {"indicators": [indicator], "region": region("DE21"), "warnings": []}
    server = Server(httpx.Response(200, json={"data": profile, "meta": META}))
    df = server.client().profile("DE21").to_dataframe()
    assert str(df["period_start"].dtype).startswith("datetime64")
    assert df["period_start"].iloc[0].month == 7 and df["flags"].iloc[0] == "p" and bool(df["latest"].iloc[0])


def test_without_pandas_a_dataframe_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        regintel.frames.pandas_module()


def test_a_call_that_needs_a_key_says_so_at_once() -> None:
    anonymous = Client(URL, transport=httpx.MockTransport(Server(httpx.Response(500))))
    with pytest.raises(regintel.AuthenticationError):
        anonymous.briefings()


def test_timeout_and_a_ca_file_without_httpx_deprecations() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        client = Client(URL, verify=certifi.where())
        http = client.generated.get_httpx_client()
    assert http.timeout.read == 30.0
    client.close()


@pytest.mark.parametrize("timeout", [httpx.ConnectTimeout, httpx.ReadTimeout])
def test_a_server_that_does_not_answer_in_time_raises_a_transport_error_without_a_retry(
    timeout: type[httpx.TimeoutException],
) -> None:
    def too_slow(request: httpx.Request) -> httpx.Response:
        # What httpx's transport raises once the request's timeout has passed.
        raise timeout("timed out", request=request)

    server = Server(too_slow)
    with pytest.raises(regintel.TransportError) as raised:
        server.client(timeout=2.5).region("DE21")
    assert (raised.value.status, raised.value.code) == (0, "timeout")
    assert isinstance(raised.value.__cause__, timeout)
    # The timeout given is the one each step of the request is sent with.
    steps = server.requests[0].extensions["timeout"]
    assert (steps["connect"], steps["read"]) == (2.5, 2.5)
    assert len(server.requests) == 1 and server.waits == []


SECRET = "whsec_" + base64.b64encode(b"a secret of thirty-two bytes....").decode()


def signed(body: str, when: datetime.datetime, secret: str = SECRET) -> dict[str, str]:
    signature = Webhook(secret).sign("msg_1", when, body)
    return {"Webhook-Id": "msg_1", "Webhook-Timestamp": str(int(when.timestamp())), "Webhook-Signature": signature}


def test_a_webhook_signed_by_the_secret_verifies_as_a_typed_event() -> None:
    now = datetime.datetime.now(datetime.timezone.utc)
    data = {"webhook_id": "wh_1", "message": "a test", "links": {"webhook": "/webhooks/wh_1"}}
    body = json.dumps({"id": "msg_1", "type": "webhook.test", "timestamp": now.isoformat(), "api_version": "v1", "data": data})
    event = regintel.verify_webhook(body.encode(), signed(body, now), SECRET)
    assert event.type == "webhook.test" and event.id == "msg_1"
    assert isinstance(event.data, regintel.webhooks.WebhookTestData) and event.data.webhook_id == "wh_1"
    # A second signature, by a rotated secret, does not stand in the way.
    other = "whsec_" + base64.b64encode(b"another secret of 32 bytes......").decode()
    headers = signed(body, now)
    headers["Webhook-Signature"] = signed(body, now, other)["Webhook-Signature"] + " " + headers["Webhook-Signature"]
    assert regintel.verify_webhook(body, headers, SECRET).id == "msg_1"


def test_an_empty_secret_verifies_nothing() -> None:
    now = datetime.datetime.now(datetime.timezone.utc)
    body = json.dumps({"id": "msg_1", "type": "webhook.test", "timestamp": now.isoformat(), "api_version": "v1", "data": {}})
    forged = hmac.new(b"", f"msg_1.{int(now.timestamp())}.".encode() + body.encode(), hashlib.sha256)
    headers = {"webhook-id": "msg_1", "webhook-timestamp": str(int(now.timestamp())),
               "webhook-signature": "v1," + base64.b64encode(forged.digest()).decode()}
    for secret in ["", "whsec_"]:
        with pytest.raises(ValueError, match="empty"):
            regintel.verify_webhook(body, headers, secret)


def test_an_export_row_keeps_characters_a_csv_writer_leaves_unquoted() -> None:
    odd = "Line\u2028separated\x0bname"
    export = f"nuts_code,region_name,value\nAT11,{odd},1\nAT12,x,2\n"
    server = Server(lambda _: httpx.Response(200, content=export.encode()))
    rows = list(server.client().export_rows("tgs00010"))
    assert rows == [{"nuts_code": "AT11", "region_name": odd, "value": "1"},
                    {"nuts_code": "AT12", "region_name": "x", "value": "2"}]


def test_a_retry_after_date_is_read_against_the_server_clock() -> None:
    at = "Wed, 01 Jan 2026 00:00:00 GMT"
    later = "Wed, 01 Jan 2026 00:00:09 GMT"
    server = Server(httpx.Response(429, headers={"Retry-After": later, "Date": at}, json={}))
    with pytest.raises(regintel.RateLimitedError):
        server.client(retries=1).region("DE21")
    assert server.waits == [9.0]
    # Without a usable Date, against this machine's clock (here long past: no wait), and the
    # error is still the API's.
    bad_date = Server(httpx.Response(429, headers={"Retry-After": later, "Date": "not a date"}, json={}))
    with pytest.raises(regintel.RateLimitedError) as raised:
        bad_date.client(retries=0).region("DE21")
    assert raised.value.retry_after == 0.0


def test_a_webhook_not_signed_by_the_secret_or_too_old_is_refused() -> None:
    now = datetime.datetime.now(datetime.timezone.utc)
    body = json.dumps({"id": "msg_1", "type": "webhook.test", "timestamp": now.isoformat(), "api_version": "v1", "data": {}})
    headers = signed(body, now)
    with pytest.raises(regintel.WebhookVerificationError, match="no signature"):
        regintel.verify_webhook(body.replace("msg_1", "msg_2"), headers, SECRET)
    other = "whsec_" + base64.b64encode(b"another secret of 32 bytes......").decode()
    with pytest.raises(regintel.WebhookVerificationError, match="no signature"):
        regintel.verify_webhook(body, headers, other)
    old = now - datetime.timedelta(minutes=10)
    with pytest.raises(regintel.WebhookVerificationError, match="too far"):
        regintel.verify_webhook(body, signed(body, old), SECRET)
    del headers["Webhook-Id"]
    with pytest.raises(regintel.WebhookVerificationError, match="webhook-id"):
        regintel.verify_webhook(body, headers, SECRET)
