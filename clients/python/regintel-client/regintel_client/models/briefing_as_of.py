from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.briefing_as_of_basis import BriefingAsOfBasis

T = TypeVar("T", bound="BriefingAsOf")


@_attrs_define
class BriefingAsOf:
    """
    Attributes:
        at (datetime.datetime):
        basis (BriefingAsOfBasis):
    """

    at: datetime.datetime
    basis: BriefingAsOfBasis
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        basis = self.basis.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "basis": basis,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        basis = BriefingAsOfBasis(d.pop("basis"))

        briefing_as_of = cls(
            at=at,
            basis=basis,
        )

        briefing_as_of.additional_properties = d
        return briefing_as_of

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
