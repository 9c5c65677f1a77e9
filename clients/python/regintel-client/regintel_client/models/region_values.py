from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cited import Cited
    from ..models.region_summary import RegionSummary


T = TypeVar("T", bound="RegionValues")


@_attrs_define
class RegionValues:
    """
    Attributes:
        region (RegionSummary):
        series (list[Cited]):
        rank (int | None | Unset):
        value (Cited | None | Unset):
    """

    region: RegionSummary
    series: list[Cited]
    rank: int | None | Unset = UNSET
    value: Cited | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cited import Cited  # noqa: PLC0415

        region = self.region.to_dict()

        series = []
        for series_item_data in self.series:
            series_item = series_item_data.to_dict()
            series.append(series_item)

        rank: int | None | Unset
        if isinstance(self.rank, Unset):
            rank = UNSET
        else:
            rank = self.rank

        value: dict[str, Any] | None | Unset
        if isinstance(self.value, Unset):
            value = UNSET
        elif isinstance(self.value, Cited):
            value = self.value.to_dict()
        else:
            value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "region": region,
                "series": series,
            }
        )
        if rank is not UNSET:
            field_dict["rank"] = rank
        if value is not UNSET:
            field_dict["value"] = value

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cited import Cited  # noqa: PLC0415
        from ..models.region_summary import RegionSummary  # noqa: PLC0415

        d = dict(src_dict)
        region = RegionSummary.from_dict(d.pop("region"))

        series = []
        _series = d.pop("series")
        for series_item_data in _series:
            series_item = Cited.from_dict(series_item_data)

            series.append(series_item)

        def _parse_rank(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rank = _parse_rank(d.pop("rank", UNSET))

        def _parse_value(data: object) -> Cited | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                value_type_1 = Cited.from_dict(data)

                return value_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Cited | None | Unset, data)

        value = _parse_value(d.pop("value", UNSET))

        region_values = cls(
            region=region,
            series=series,
            rank=rank,
            value=value,
        )

        region_values.additional_properties = d
        return region_values

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
