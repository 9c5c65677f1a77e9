from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correlation_matrix_regions_dropped_item_reason import CorrelationMatrixRegionsDroppedItemReason
from ..types import UNSET, Unset

T = TypeVar("T", bound="CorrelationMatrixRegionsDroppedItem")


@_attrs_define
class CorrelationMatrixRegionsDroppedItem:
    """
    Attributes:
        code (str):
        reason (CorrelationMatrixRegionsDroppedItemReason):
        variable (str):
        period (str | Unset): Over time: the period left out.
    """

    code: str
    reason: CorrelationMatrixRegionsDroppedItemReason
    variable: str
    period: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        reason = self.reason.value

        variable = self.variable

        period = self.period

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "reason": reason,
                "variable": variable,
            }
        )
        if period is not UNSET:
            field_dict["period"] = period

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        reason = CorrelationMatrixRegionsDroppedItemReason(d.pop("reason"))

        variable = d.pop("variable")

        period = d.pop("period", UNSET)

        correlation_matrix_regions_dropped_item = cls(
            code=code,
            reason=reason,
            variable=variable,
            period=period,
        )

        correlation_matrix_regions_dropped_item.additional_properties = d
        return correlation_matrix_regions_dropped_item

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
