"""The client against a live server over HTTPS (tests/it/python_package.rs starts it):
`REGINTEL_URL`, its certificate in `REGINTEL_CA_FILE`, an institutional account's key in
`REGINTEL_API_KEY`. The server lets an anonymous caller make only a few requests a minute."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

import pytest

import regintel
from regintel import Client
from regintel_client.models import CitationDetail

URL = os.environ["REGINTEL_URL"]
CA_FILE = os.environ["REGINTEL_CA_FILE"]


@pytest.fixture(scope="module")
def api() -> Iterator[Client]:
    with Client(URL, api_key=os.environ["REGINTEL_API_KEY"], verify=CA_FILE) as client:
        yield client


def test_a_profile_as_a_dataframe_holds_every_cited_value(api: Client) -> None:
    profile = api.profile("DE21")
    df = profile.to_dataframe()
    assert len(df) == sum(len(i.history) for i in profile.data.indicators) > 20
    assert set(df["region"]) == {"DE21"}
    assert df["latest"].sum() == sum(1 for i in profile.data.indicators if i.latest)
    # Every value is cited, and the citation holds the same value.
    assert df["citation"].str.startswith("cit_").all()
    for row in df[df["latest"]].head(3).itertuples():
        cited = api.citation(row.citation).data
        assert isinstance(cited, CitationDetail)
        assert cited.value == row.value and cited.period == row.period
        assert row.citation in profile.citations
    # Plot-ready: a time axis for every Eurostat period.
    assert df["period_start"].notna().all()


def test_a_figure_read_as_of_a_moment_and_its_revisions(api: Client) -> None:
    cited = api.compare(["DE21", "FR10"], "tgs00010").data.regions[0].value.citation
    revisions = list(api.revisions(cited))
    assert [r.id for r in revisions if r.is_current] == [cited]
    then = revisions[-1].imported_at
    answer = api.compare(["DE21", "FR10"], "tgs00010", as_of=then)
    assert answer.data.regions[0].value.citation == cited
    assert answer.meta.as_of.basis == "imported"
    assert [d.dataset for d in answer.meta.as_of.datasets] == ["tgs00010"]
    with pytest.raises(regintel.NotFoundError) as before:
        api.compare(["DE21", "FR10"], "tgs00010", as_of="2001-01-01")
    assert before.value.code == "not_held_yet"
    dataset = api.dataset("tgs00010", as_of=then)
    assert dataset.meta.as_of.datasets[0].dataset == "tgs00010"
    assert [d.code for d in api.datasets(as_of="2001-01-01")] == []


def test_documented_errors_raise_with_the_envelope(api: Client) -> None:
    with pytest.raises(regintel.NotFoundError) as raised:
        api.profile("DE2X")
    assert raised.value.status == 404 and raised.value.code == "unknown_region"
    assert raised.value.request_id
    with pytest.raises(regintel.NotFoundError) as unknown:
        api.compare(["DE21", "FR10"], "no_such_dataset_x")
    assert unknown.value.code == "unknown_dataset"
    assert unknown.value.details == {"dataset": "no_such_dataset_x"}
    with pytest.raises(regintel.BadRequestError) as bad:
        api.compare(["DE21"], "tgs00010")
    assert bad.value.code == "invalid_parameter" and bad.value.details["parameter"] == "regions"


def test_a_comparison_takes_a_list(api: Client) -> None:
    comparison = api.compare(["DE21", "FR10", "ITC4"], "tgs00010")
    df = comparison.to_dataframe()
    # In the order asked, each with its rank.
    assert list(df["region"]) == ["DE21", "FR10", "ITC4"]
    assert sorted(df["rank"]) == [1, 2, 3]
    assert list(df["value"]) == [r.value.value for r in comparison.data.regions]


def test_a_matrix_as_cells(api: Client) -> None:
    matrix = api.matrix("DE", level=2, datasets=["tgs00010", "tgs00007", "demo_r_d3dens"], method="spearman")
    df = matrix.to_dataframe()
    assert len(df) == len(matrix.data.cells) >= 3
    with_r = df.dropna(subset=["r"])
    assert ((with_r["r"] >= -1) & (with_r["r"] <= 1)).all() and (with_r["n"] >= matrix.data.min_n).all()


def test_lists_page_through_to_the_end(api: Client) -> None:
    paged = [r.code for r in api.regions(level=2, country="DE", page_size=7)]
    whole = [r.code for r in api.regions(level=2, country="DE", page_size=100)]
    assert paged == whole and len(paged) > 7
    assert any(d.code == "tgs00010" for d in api.datasets(page_size=3))
    snapshots = list(api.dataset_snapshots("tgs00010", page_size=1))
    assert [s.id for s in snapshots] == [s.id for s in api.dataset("tgs00010").data.snapshots]


def test_a_briefing_from_a_plain_string_and_listed(api: Client) -> None:
    briefing = api.create_briefing("DE21", "economy").data
    assert briefing.verification.status.value == "verified"
    assert any(b.id == briefing.id for b in api.briefings(page_size=2))
    assert api.briefing(briefing.id).data.title == briefing.title


def test_an_export_streams_to_a_file_and_in_chunks(api: Client) -> None:
    out = io.BytesIO()
    written = api.export("tgs00010", out, country="AT")
    lines = out.getvalue().decode().splitlines()
    assert written == len(out.getvalue()) and len(lines) > 10
    rows = sum(len(chunk) for chunk in api.export_frames("tgs00010", country="AT", chunk_rows=5))
    assert rows == sum(1 for _ in api.export_rows("tgs00010", country="AT"))
    assert rows >= len(lines) - 1 - sum(1 for line in lines if line.startswith("#"))


def test_an_anonymous_caller_waits_then_hears_the_limit() -> None:
    waits: list[float] = []
    with Client(URL, verify=CA_FILE, retries=2, sleep=waits.append) as anonymous:
        with pytest.raises(regintel.RateLimitedError) as raised:
            for _ in range(20):
                anonymous.region("DE21")
    # The two waits the limit asked for were waited (here, recorded), then the error raised.
    assert len(waits) == 2 and all(0 < w <= 60 for w in waits)
    assert raised.value.code == "rate_limit_exceeded" and raised.value.retry_after
    with pytest.raises(regintel.AuthenticationError):
        next(Client(URL, verify=CA_FILE).briefings())
