"""What the client's calls return: an answer's `data` (the generated client's typed models) and
its `meta`, with DataFrames of the figures where a table is what an analyst wants."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from regintel_client.models import (
    Cited,
    Comparison,
    CorrelationMatrix,
    Meta,
    Profile,
    RowCitationRef,
    SourceCitationRef,
)
from regintel_client.types import Unset

from .frames import frame, period_start

if TYPE_CHECKING:
    import pandas

D = TypeVar("D")


def _set(value: D | Unset) -> D | None:
    return None if isinstance(value, Unset) else value


def flag_codes(cited: Cited) -> str:
    """A value's flags as their codes, space-separated (`"p e"`); empty when it has none."""
    return " ".join(flag.code for flag in cited.flags)


@dataclass(frozen=True)
class Answer(Generic[D]):
    """A successful answer: `data` as the API documents it, and `meta` (the request id, the
    access it was served under, the citations used)."""

    data: D
    meta: Meta

    @property
    def request_id(self) -> str:
        return self.meta.request_id

    @property
    def citations(self) -> dict[str, RowCitationRef | SourceCitationRef]:
        """Each citation id the answer uses, described (dataset, region, period and the
        source's address), with no further request: quote these with the numbers. `citation()`
        gives the whole published row behind one."""
        citations = _set(self.meta.citations)
        return {} if citations is None else dict(citations.additional_properties)


PROFILE_COLUMNS = [
    "region", "dataset", "title", "topic", "unit", "period", "period_start", "value", "flags",
    "citation", "latest",
]  # fmt: skip


class ProfileAnswer(Answer[Profile]):
    """A region's profile; `data.warnings` and each indicator's `notes` say what to mind."""

    def to_dataframe(self) -> pandas.DataFrame:
        """One row per indicator and period of its history, oldest first: plot `value` against
        `period_start` per `dataset`; `latest` marks the value the profile headlines, `citation`
        the row each value comes from."""
        region = self.data.region.code
        rows = []
        for indicator in self.data.indicators:
            latest = _set(indicator.latest)
            for cited in indicator.history:
                rows.append({
                    "region": region,
                    "dataset": indicator.dataset,
                    "title": indicator.title,
                    "topic": indicator.topic,
                    "unit": indicator.unit,
                    "period": cited.period,
                    "period_start": period_start(cited.period),
                    "value": cited.value,
                    "flags": flag_codes(cited),
                    "citation": cited.citation,
                    "latest": latest is not None and cited.citation == latest.citation,
                })
        return frame(rows, PROFILE_COLUMNS, {"value": "float64"})


COMPARISON_COLUMNS = ["region", "name", "rank", "period", "value", "unit", "flags", "citation"]


class ComparisonAnswer(Answer[Comparison]):
    """A comparison; `data.warnings` say what to mind (no common period, breaks, flags)."""

    def to_dataframe(self) -> pandas.DataFrame:
        """One row per region, in the order asked, with its `rank`: its value at the comparison's
        period (or its own latest, when the regions share none), flags and citation; `rank` and
        `value` are empty for a region without a value there."""
        unit = self.data.dataset.unit
        rows = []
        for row in self.data.regions:
            value = _set(row.value)
            rows.append({
                "region": row.region.code,
                "name": _set(row.region.name),
                "rank": _set(row.rank),
                "period": value.period if value else None,
                "value": value.value if value else None,
                "unit": unit,
                "flags": flag_codes(value) if value else "",
                "citation": value.citation if value else None,
            })
        return frame(rows, COMPARISON_COLUMNS, {"rank": "Int64", "value": "float64"})


MATRIX_COLUMNS = ["x", "y", "x_title", "y_title", "r", "n", "p_value", "status", "reason"]


class MatrixAnswer(Answer[CorrelationMatrix]):
    """A correlation matrix; read `data.caveats` before any r."""

    def to_dataframe(self) -> pandas.DataFrame:
        """One row per cell (pair of variables): `r`, `n` and `p_value` where the cell has an r,
        `status` and `reason` where it has none. Read the matrix's `caveats` before any r."""
        titles = {v.id: v.title for v in self.data.variables}
        rows = [
            {
                "x": cell.x,
                "y": cell.y,
                "x_title": titles.get(cell.x),
                "y_title": titles.get(cell.y),
                "r": _set(cell.r),
                "n": cell.n,
                "p_value": _set(cell.p_value),
                "status": cell.status.value,
                "reason": _set(cell.reason),
            }
            for cell in self.data.cells
        ]
        return frame(rows, MATRIX_COLUMNS, {"r": "float64", "p_value": "float64", "n": "int64"})
