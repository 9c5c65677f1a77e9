from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClaimFlagsItem")


@_attrs_define
class ClaimFlagsItem:
    """
    Attributes:
        citation (str):
        code (str):
        meaning (str):
        period (str):
    """

    citation: str
    code: str
    meaning: str
    period: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        citation = self.citation

        code = self.code

        meaning = self.meaning

        period = self.period

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "citation": citation,
                "code": code,
                "meaning": meaning,
                "period": period,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        citation = d.pop("citation")

        code = d.pop("code")

        meaning = d.pop("meaning")

        period = d.pop("period")

        claim_flags_item = cls(
            citation=citation,
            code=code,
            meaning=meaning,
            period=period,
        )

        claim_flags_item.additional_properties = d
        return claim_flags_item

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
