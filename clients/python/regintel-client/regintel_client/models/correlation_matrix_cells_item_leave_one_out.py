from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CorrelationMatrixCellsItemLeaveOneOut")


@_attrs_define
class CorrelationMatrixCellsItemLeaveOneOut:
    """
    Attributes:
        most_influential (str): The region (over time: the period) whose leaving out moves r most.
        r_max (float):
        r_min (float):
        r_without (float): r without it.
    """

    most_influential: str
    r_max: float
    r_min: float
    r_without: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        most_influential = self.most_influential

        r_max = self.r_max

        r_min = self.r_min

        r_without = self.r_without

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "most_influential": most_influential,
                "r_max": r_max,
                "r_min": r_min,
                "r_without": r_without,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        most_influential = d.pop("most_influential")

        r_max = d.pop("r_max")

        r_min = d.pop("r_min")

        r_without = d.pop("r_without")

        correlation_matrix_cells_item_leave_one_out = cls(
            most_influential=most_influential,
            r_max=r_max,
            r_min=r_min,
            r_without=r_without,
        )

        correlation_matrix_cells_item_leave_one_out.additional_properties = d
        return correlation_matrix_cells_item_leave_one_out

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
