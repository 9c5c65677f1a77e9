from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UsageDaysItem")


@_attrs_define
class UsageDaysItem:
    """
    Attributes:
        cap (int):
        day (datetime.date):
        used (int):
    """

    cap: int
    day: datetime.date
    used: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cap = self.cap

        day = self.day.isoformat()

        used = self.used

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cap": cap,
                "day": day,
                "used": used,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cap = d.pop("cap")

        day = datetime.date.fromisoformat(d.pop("day"))

        used = d.pop("used")

        usage_days_item = cls(
            cap=cap,
            day=day,
            used=used,
        )

        usage_days_item.additional_properties = d
        return usage_days_item

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
