from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.indicator import Indicator
    from ..models.region_detail import RegionDetail
    from ..models.warning import Warning_


T = TypeVar("T", bound="Profile")


@_attrs_define
class Profile:
    """
    Attributes:
        indicators (list[Indicator]):
        region (RegionDetail):
        warnings (list[Warning_]):
    """

    indicators: list[Indicator]
    region: RegionDetail
    warnings: list[Warning_]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        indicators = []
        for indicators_item_data in self.indicators:
            indicators_item = indicators_item_data.to_dict()
            indicators.append(indicators_item)

        region = self.region.to_dict()

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "indicators": indicators,
                "region": region,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.indicator import Indicator  # noqa: PLC0415
        from ..models.region_detail import RegionDetail  # noqa: PLC0415
        from ..models.warning import Warning_  # noqa: PLC0415

        d = dict(src_dict)
        indicators = []
        _indicators = d.pop("indicators")
        for indicators_item_data in _indicators:
            indicators_item = Indicator.from_dict(indicators_item_data)

            indicators.append(indicators_item)

        region = RegionDetail.from_dict(d.pop("region"))

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = Warning_.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        profile = cls(
            indicators=indicators,
            region=region,
            warnings=warnings,
        )

        profile.additional_properties = d
        return profile

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
