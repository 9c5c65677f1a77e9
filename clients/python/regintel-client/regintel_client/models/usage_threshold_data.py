from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.usage_threshold_data_threshold_percent import UsageThresholdDataThresholdPercent
from ..models.usage_threshold_data_tier import UsageThresholdDataTier

if TYPE_CHECKING:
    from ..models.usage_threshold_data_links import UsageThresholdDataLinks


T = TypeVar("T", bound="UsageThresholdData")


@_attrs_define
class UsageThresholdData:
    """
    Attributes:
        daily_cap (int):
        day (datetime.date):
        links (UsageThresholdDataLinks):
        threshold_percent (UsageThresholdDataThresholdPercent):
        tier (UsageThresholdDataTier):
        used (int):
    """

    daily_cap: int
    day: datetime.date
    links: UsageThresholdDataLinks
    threshold_percent: UsageThresholdDataThresholdPercent
    tier: UsageThresholdDataTier
    used: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        daily_cap = self.daily_cap

        day = self.day.isoformat()

        links = self.links.to_dict()

        threshold_percent = self.threshold_percent.value

        tier = self.tier.value

        used = self.used

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "daily_cap": daily_cap,
                "day": day,
                "links": links,
                "threshold_percent": threshold_percent,
                "tier": tier,
                "used": used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_threshold_data_links import UsageThresholdDataLinks  # noqa: PLC0415

        d = dict(src_dict)
        daily_cap = d.pop("daily_cap")

        day = datetime.date.fromisoformat(d.pop("day"))

        links = UsageThresholdDataLinks.from_dict(d.pop("links"))

        threshold_percent = UsageThresholdDataThresholdPercent(d.pop("threshold_percent"))

        tier = UsageThresholdDataTier(d.pop("tier"))

        used = d.pop("used")

        usage_threshold_data = cls(
            daily_cap=daily_cap,
            day=day,
            links=links,
            threshold_percent=threshold_percent,
            tier=tier,
            used=used,
        )

        usage_threshold_data.additional_properties = d
        return usage_threshold_data

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
