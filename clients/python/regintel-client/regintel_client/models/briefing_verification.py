from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.briefing_verification_status import BriefingVerificationStatus

T = TypeVar("T", bound="BriefingVerification")


@_attrs_define
class BriefingVerification:
    """
    Attributes:
        claims_checked (int):
        numbers_checked (int):
        status (BriefingVerificationStatus):
    """

    claims_checked: int
    numbers_checked: int
    status: BriefingVerificationStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        claims_checked = self.claims_checked

        numbers_checked = self.numbers_checked

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "claims_checked": claims_checked,
                "numbers_checked": numbers_checked,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        claims_checked = d.pop("claims_checked")

        numbers_checked = d.pop("numbers_checked")

        status = BriefingVerificationStatus(d.pop("status"))

        briefing_verification = cls(
            claims_checked=claims_checked,
            numbers_checked=numbers_checked,
            status=status,
        )

        briefing_verification.additional_properties = d
        return briefing_verification

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
