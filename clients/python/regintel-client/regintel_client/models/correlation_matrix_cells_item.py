from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correlation_matrix_cells_item_status import CorrelationMatrixCellsItemStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.correlation_matrix_cells_item_leave_one_out import CorrelationMatrixCellsItemLeaveOneOut


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
        leave_one_out (CorrelationMatrixCellsItemLeaveOneOut | Unset):
        p_value (float | Unset): Two-sided.
        r (float | Unset):
        reason (str | Unset): not_computable: which value or intermediate result is not a finite number.
    """

    n: int
    status: CorrelationMatrixCellsItemStatus
    x: str
    y: str
    ci95: list[float] | Unset = UNSET
    leave_one_out: CorrelationMatrixCellsItemLeaveOneOut | Unset = UNSET
    p_value: float | Unset = UNSET
    r: float | Unset = UNSET
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        n = self.n

        status = self.status.value

        x = self.x

        y = self.y

        ci95: list[float] | Unset = UNSET
        if not isinstance(self.ci95, Unset):
            ci95 = self.ci95

        leave_one_out: dict[str, Any] | Unset = UNSET
        if not isinstance(self.leave_one_out, Unset):
            leave_one_out = self.leave_one_out.to_dict()

        p_value = self.p_value

        r = self.r

        reason = self.reason

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
        if leave_one_out is not UNSET:
            field_dict["leave_one_out"] = leave_one_out
        if p_value is not UNSET:
            field_dict["p_value"] = p_value
        if r is not UNSET:
            field_dict["r"] = r
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.correlation_matrix_cells_item_leave_one_out import CorrelationMatrixCellsItemLeaveOneOut  # noqa: PLC0415

        d = dict(src_dict)
        n = d.pop("n")

        status = CorrelationMatrixCellsItemStatus(d.pop("status"))

        x = d.pop("x")

        y = d.pop("y")

        ci95 = cast(list[float], d.pop("ci95", UNSET))

        _leave_one_out = d.pop("leave_one_out", UNSET)
        leave_one_out: CorrelationMatrixCellsItemLeaveOneOut | Unset
        if isinstance(_leave_one_out, Unset):
            leave_one_out = UNSET
        else:
            leave_one_out = CorrelationMatrixCellsItemLeaveOneOut.from_dict(_leave_one_out)

        p_value = d.pop("p_value", UNSET)

        r = d.pop("r", UNSET)

        reason = d.pop("reason", UNSET)

        correlation_matrix_cells_item = cls(
            n=n,
            status=status,
            x=x,
            y=y,
            ci95=ci95,
            leave_one_out=leave_one_out,
            p_value=p_value,
            r=r,
            reason=reason,
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
