from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correlation_matrix_cells_item_status import CorrelationMatrixCellsItemStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="CorrelationMatrixCellsItem")


@_attrs_define
class CorrelationMatrixCellsItem:
    """
    Attributes:
        n (int): Regions (or periods) with a usable value of both.
        status (CorrelationMatrixCellsItemStatus):
        x (str):
        y (str):
        ci95 (list[float] | Unset): 95 % interval; absent below 4 pairs.
        p_value (float | Unset): Two-sided.
        r (float | Unset):
    """

    n: int
    status: CorrelationMatrixCellsItemStatus
    x: str
    y: str
    ci95: list[float] | Unset = UNSET
    p_value: float | Unset = UNSET
    r: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        n = self.n

        status = self.status.value

        x = self.x

        y = self.y

        ci95: list[float] | Unset = UNSET
        if not isinstance(self.ci95, Unset):
            ci95 = self.ci95

        p_value = self.p_value

        r = self.r

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "n": n,
                "status": status,
                "x": x,
                "y": y,
            }
        )
        if ci95 is not UNSET:
            field_dict["ci95"] = ci95
        if p_value is not UNSET:
            field_dict["p_value"] = p_value
        if r is not UNSET:
            field_dict["r"] = r

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        n = d.pop("n")

        status = CorrelationMatrixCellsItemStatus(d.pop("status"))

        x = d.pop("x")

        y = d.pop("y")

        ci95 = cast(list[float], d.pop("ci95", UNSET))

        p_value = d.pop("p_value", UNSET)

        r = d.pop("r", UNSET)

        correlation_matrix_cells_item = cls(
            n=n,
            status=status,
            x=x,
            y=y,
            ci95=ci95,
            p_value=p_value,
            r=r,
        )

        correlation_matrix_cells_item.additional_properties = d
        return correlation_matrix_cells_item

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
