from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.comparison_dataset_series import ComparisonDatasetSeries


T = TypeVar("T", bound="ComparisonDataset")


@_attrs_define
class ComparisonDataset:
    """
    Attributes:
        code (str):
        series (ComparisonDatasetSeries):
        title (str):
        unit (str):
        unit_label (None | str | Unset):
    """

    code: str
    series: ComparisonDatasetSeries
    title: str
    unit: str
    unit_label: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        series = self.series.to_dict()

        title = self.title

        unit = self.unit

        unit_label: None | str | Unset
        if isinstance(self.unit_label, Unset):
            unit_label = UNSET
        else:
            unit_label = self.unit_label

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "series": series,
                "title": title,
                "unit": unit,
            }
        )
        if unit_label is not UNSET:
            field_dict["unit_label"] = unit_label

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comparison_dataset_series import ComparisonDatasetSeries  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        series = ComparisonDatasetSeries.from_dict(d.pop("series"))

        title = d.pop("title")

        unit = d.pop("unit")

        def _parse_unit_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        unit_label = _parse_unit_label(d.pop("unit_label", UNSET))

        comparison_dataset = cls(
            code=code,
            series=series,
            title=title,
            unit=unit,
            unit_label=unit_label,
        )

        comparison_dataset.additional_properties = d
        return comparison_dataset

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
