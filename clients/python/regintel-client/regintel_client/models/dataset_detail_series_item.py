from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.dataset_detail_series_item_dimensions import DatasetDetailSeriesItemDimensions
    from ..models.periods import Periods


T = TypeVar("T", bound="DatasetDetailSeriesItem")


@_attrs_define
class DatasetDetailSeriesItem:
    """
    Attributes:
        dimensions (DatasetDetailSeriesItemDimensions):
        headline (bool):
        unit (str):
        observations (int | Unset):
        periods (Periods | Unset):
        regions (int | Unset):
    """

    dimensions: DatasetDetailSeriesItemDimensions
    headline: bool
    unit: str
    observations: int | Unset = UNSET
    periods: Periods | Unset = UNSET
    regions: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dimensions = self.dimensions.to_dict()

        headline = self.headline

        unit = self.unit

        observations = self.observations

        periods: dict[str, Any] | Unset = UNSET
        if not isinstance(self.periods, Unset):
            periods = self.periods.to_dict()

        regions = self.regions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dimensions": dimensions,
                "headline": headline,
                "unit": unit,
            }
        )
        if observations is not UNSET:
            field_dict["observations"] = observations
        if periods is not UNSET:
            field_dict["periods"] = periods
        if regions is not UNSET:
            field_dict["regions"] = regions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_detail_series_item_dimensions import DatasetDetailSeriesItemDimensions  # noqa: PLC0415
        from ..models.periods import Periods  # noqa: PLC0415

        d = dict(src_dict)
        dimensions = DatasetDetailSeriesItemDimensions.from_dict(d.pop("dimensions"))

        headline = d.pop("headline")

        unit = d.pop("unit")

        observations = d.pop("observations", UNSET)

        _periods = d.pop("periods", UNSET)
        periods: Periods | Unset
        if isinstance(_periods, Unset):
            periods = UNSET
        else:
            periods = Periods.from_dict(_periods)

        regions = d.pop("regions", UNSET)

        dataset_detail_series_item = cls(
            dimensions=dimensions,
            headline=headline,
            unit=unit,
            observations=observations,
            periods=periods,
            regions=regions,
        )

        dataset_detail_series_item.additional_properties = d
        return dataset_detail_series_item

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
