from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.account_tier import AccountTier

T = TypeVar("T", bound="Account")


@_attrs_define
class Account:
    """
    Attributes:
        created_at (datetime.datetime):
        disabled (bool):
        display_name (str):
        email (str):
        id (int):
        tier (AccountTier):
    """

    created_at: datetime.datetime
    disabled: bool
    display_name: str
    email: str
    id: int
    tier: AccountTier
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        disabled = self.disabled

        display_name = self.display_name

        email = self.email

        id = self.id

        tier = self.tier.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "disabled": disabled,
                "display_name": display_name,
                "email": email,
                "id": id,
                "tier": tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        disabled = d.pop("disabled")

        display_name = d.pop("display_name")

        email = d.pop("email")

        id = d.pop("id")

        tier = AccountTier(d.pop("tier"))

        account = cls(
            created_at=created_at,
            disabled=disabled,
            display_name=display_name,
            email=email,
            id=id,
            tier=tier,
        )

        account.additional_properties = d
        return account

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
