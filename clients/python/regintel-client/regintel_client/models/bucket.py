from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Bucket")


@_attrs_define
class Bucket:
    """
    Attributes:
        limit (int):
        policy (str):
        remaining (int):
        reset_secs (int): Seconds until the bucket is full again (rolling windows) or the next UTC midnight (days).
        used (int):
        window_secs (int):
    """

    limit: int
    policy: str
    remaining: int
    reset_secs: int
    used: int
    window_secs: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        limit = self.limit

        policy = self.policy

        remaining = self.remaining

        reset_secs = self.reset_secs

        used = self.used

        window_secs = self.window_secs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "limit": limit,
                "policy": policy,
                "remaining": remaining,
                "reset_secs": reset_secs,
                "used": used,
                "window_secs": window_secs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        limit = d.pop("limit")

        policy = d.pop("policy")

        remaining = d.pop("remaining")

        reset_secs = d.pop("reset_secs")

        used = d.pop("used")

        window_secs = d.pop("window_secs")

        bucket = cls(
            limit=limit,
            policy=policy,
            remaining=remaining,
            reset_secs=reset_secs,
            used=used,
            window_secs=window_secs,
        )

        bucket.additional_properties = d
        return bucket

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
