"""pandas, an optional extra (`pip install regintel[pandas]`): imported only when a DataFrame is
asked for, so the client works without it."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas


def pandas_module() -> Any:
    try:
        import pandas
    except ImportError as missing:
        raise ImportError("DataFrames need pandas: pip install pandas") from missing
    return pandas


def frame(
    rows: Iterable[Mapping[str, Any]], columns: list[str], dtypes: Mapping[str, str] | None = None
) -> pandas.DataFrame:
    """A DataFrame of `rows` with exactly `columns`, in that order (also when there are none),
    with `dtypes` for columns that would otherwise be objects (`Int64` for whole numbers that may
    be missing) and `period_start` as datetimes, so that it can be a time axis."""
    pd = pandas_module()
    df = pd.DataFrame.from_records(list(rows), columns=columns)
    if "period_start" in df.columns:
        df["period_start"] = pd.to_datetime(df["period_start"])
    return df.astype(dict(dtypes or {}))


_PERIOD = re.compile(r"^(\d{4})(?:-(?:Q([1-4])|S([12])|M?(\d{2})))?$")


def period_start(period: str) -> datetime.date | None:
    """The first day of a Eurostat period (`2021`, `2021-Q3`, `2021-S2`, `2021-05`,
    `2021-M05`), for a time axis; None for a period of another form."""
    match = _PERIOD.match(period)
    if not match:
        return None
    year, quarter, half, month = match.groups()
    if quarter:
        return datetime.date(int(year), 3 * int(quarter) - 2, 1)
    if half:
        return datetime.date(int(year), 6 * int(half) - 5, 1)
    if month:
        if not 1 <= int(month) <= 12:
            return None
        return datetime.date(int(year), int(month), 1)
    return datetime.date(int(year), 1, 1)
