from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.comparison_period_basis import ComparisonPeriodBasis

if TYPE_CHECKING:
    from ..models.comparison_dataset import ComparisonDataset
    from ..models.derived import Derived
    from ..models.region_values import RegionValues
    from ..models.warning import Warning_


T = TypeVar("T", bound="Comparison")


@_attrs_define
class Comparison:
    """
    Attributes:
        dataset (ComparisonDataset):
        derived (list[Derived]):
        period (None | str):
        period_basis (ComparisonPeriodBasis):
        regions (list[RegionValues]):
        warnings (list[Warning_]):
    """

    dataset: ComparisonDataset
    derived: list[Derived]
    period: None | str
    period_basis: ComparisonPeriodBasis
    regions: list[RegionValues]
    warnings: list[Warning_]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dataset = self.dataset.to_dict()

        derived = []
        for derived_item_data in self.derived:
            derived_item = derived_item_data.to_dict()
            derived.append(derived_item)

        period: None | str
        period = self.period

        period_basis = self.period_basis.value

        regions = []
        for regions_item_data in self.regions:
            regions_item = regions_item_data.to_dict()
            regions.append(regions_item)

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset": dataset,
                "derived": derived,
                "period": period,
                "period_basis": period_basis,
                "regions": regions,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comparison_dataset import ComparisonDataset  # noqa: PLC0415
        from ..models.derived import Derived  # noqa: PLC0415
        from ..models.region_values import RegionValues  # noqa: PLC0415
        from ..models.warning import Warning_  # noqa: PLC0415

        d = dict(src_dict)
        dataset = ComparisonDataset.from_dict(d.pop("dataset"))

        derived = []
        _derived = d.pop("derived")
        for derived_item_data in _derived:
            derived_item = Derived.from_dict(derived_item_data)

            derived.append(derived_item)

        def _parse_period(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        period = _parse_period(d.pop("period"))

        period_basis = ComparisonPeriodBasis(d.pop("period_basis"))

        regions = []
        _regions = d.pop("regions")
        for regions_item_data in _regions:
            regions_item = RegionValues.from_dict(regions_item_data)

            regions.append(regions_item)

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = Warning_.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        comparison = cls(
            dataset=dataset,
            derived=derived,
            period=period,
            period_basis=period_basis,
            regions=regions,
            warnings=warnings,
        )

        comparison.additional_properties = d
        return comparison

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
