from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.usage_tier import UsageTier

if TYPE_CHECKING:
    from ..models.bucket import Bucket
    from ..models.usage_days_item import UsageDaysItem
    from ..models.usage_keys_item import UsageKeysItem
    from ..models.usage_today import UsageToday


T = TypeVar("T", bound="Usage")


@_attrs_define
class Usage:
    """
    Attributes:
        account_id (int):
        buckets (list[Bucket]): The caller's buckets (the key's, or the browser sessions') and the account's day.
        daily_cap (int): The tier's requests per UTC day, shared by the account's keys.
        days (list[UsageDaysItem]): The last 90 UTC days, oldest first.
        keys (list[UsageKeysItem]): With a session token: each active key's own buckets. Empty for a key, and when rate
            limits are off.
        limits_enabled (bool):
        tier (UsageTier):
        today (UsageToday):
    """

    account_id: int
    buckets: list[Bucket]
    daily_cap: int
    days: list[UsageDaysItem]
    keys: list[UsageKeysItem]
    limits_enabled: bool
    tier: UsageTier
    today: UsageToday
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)

        daily_cap = self.daily_cap

        days = []
        for days_item_data in self.days:
            days_item = days_item_data.to_dict()
            days.append(days_item)

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        limits_enabled = self.limits_enabled

        tier = self.tier.value

        today = self.today.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "buckets": buckets,
                "daily_cap": daily_cap,
                "days": days,
                "keys": keys,
                "limits_enabled": limits_enabled,
                "tier": tier,
                "today": today,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bucket import Bucket  # noqa: PLC0415
        from ..models.usage_days_item import UsageDaysItem  # noqa: PLC0415
        from ..models.usage_keys_item import UsageKeysItem  # noqa: PLC0415
        from ..models.usage_today import UsageToday  # noqa: PLC0415

        d = dict(src_dict)
        account_id = d.pop("account_id")

        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in _buckets:
            buckets_item = Bucket.from_dict(buckets_item_data)

            buckets.append(buckets_item)

        daily_cap = d.pop("daily_cap")

        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = UsageDaysItem.from_dict(days_item_data)

            days.append(days_item)

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = UsageKeysItem.from_dict(keys_item_data)

            keys.append(keys_item)

        limits_enabled = d.pop("limits_enabled")

        tier = UsageTier(d.pop("tier"))

        today = UsageToday.from_dict(d.pop("today"))

        usage = cls(
            account_id=account_id,
            buckets=buckets,
            daily_cap=daily_cap,
            days=days,
            keys=keys,
            limits_enabled=limits_enabled,
            tier=tier,
            today=today,
        )

        usage.additional_properties = d
        return usage

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
