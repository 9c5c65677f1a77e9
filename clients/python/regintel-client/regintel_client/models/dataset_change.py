from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.row_change_change import RowChangeChange

if TYPE_CHECKING:
    from ..models.row_change_dimensions import RowChangeDimensions


T = TypeVar("T", bound="DatasetChange")


@_attrs_define
class DatasetChange:
    """
    Attributes:
        change (RowChangeChange): `withdrawn`: a whole-dataset fetch from Eurostat no longer held the row (`replaces`),
            which its citation still resolves to, saying so; `added` with a `replaces`: the value is published again after a
            withdrawal.
        citation_id (str): The row written: for a withdrawal, the withdrawal's own citation.
        dimensions (RowChangeDimensions):
        flags (None | str): Its flags as published (`p` provisional, `e` estimated, `b` break in series, ...): a
            revision may change only them. Null for a withdrawal.
        period (str):
        previous_flags (None | str): For a revision or a withdrawal: the flags of the value it replaces.
        previous_value (None | str): For a revision or a withdrawal: the value it replaces, as published.
        region (str):
        replaces (None | str): For a revision or a withdrawal: the citation of the value it supersedes; for a value
            published again, the withdrawal's.
        unit (str):
        value (None | str): As published (flags apart); null for a withdrawal.
        snapshot (str): The snapshot that wrote the row (`snp_...`).
    """

    change: RowChangeChange
    citation_id: str
    dimensions: RowChangeDimensions
    flags: None | str
    period: str
    previous_flags: None | str
    previous_value: None | str
    region: str
    replaces: None | str
    unit: str
    value: None | str
    snapshot: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        change = self.change.value

        citation_id = self.citation_id

        dimensions = self.dimensions.to_dict()

        flags: None | str
        flags = self.flags

        period = self.period

        previous_flags: None | str
        previous_flags = self.previous_flags

        previous_value: None | str
        previous_value = self.previous_value

        region = self.region

        replaces: None | str
        replaces = self.replaces

        unit = self.unit

        value: None | str
        value = self.value

        snapshot = self.snapshot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "change": change,
                "citation_id": citation_id,
                "dimensions": dimensions,
                "flags": flags,
                "period": period,
                "previous_flags": previous_flags,
                "previous_value": previous_value,
                "region": region,
                "replaces": replaces,
                "unit": unit,
                "value": value,
                "snapshot": snapshot,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_change_dimensions import RowChangeDimensions  # noqa: PLC0415

        d = dict(src_dict)
        change = RowChangeChange(d.pop("change"))

        citation_id = d.pop("citation_id")

        dimensions = RowChangeDimensions.from_dict(d.pop("dimensions"))

        def _parse_flags(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        flags = _parse_flags(d.pop("flags"))

        period = d.pop("period")

        def _parse_previous_flags(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_flags = _parse_previous_flags(d.pop("previous_flags"))

        def _parse_previous_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_value = _parse_previous_value(d.pop("previous_value"))

        region = d.pop("region")

        def _parse_replaces(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        replaces = _parse_replaces(d.pop("replaces"))

        unit = d.pop("unit")

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        snapshot = d.pop("snapshot")

        dataset_change = cls(
            change=change,
            citation_id=citation_id,
            dimensions=dimensions,
            flags=flags,
            period=period,
            previous_flags=previous_flags,
            previous_value=previous_value,
            region=region,
            replaces=replaces,
            unit=unit,
            value=value,
            snapshot=snapshot,
        )

        dataset_change.additional_properties = d
        return dataset_change

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
