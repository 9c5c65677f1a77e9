from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correlation_matrix_basis import CorrelationMatrixBasis
from ..models.correlation_matrix_method import CorrelationMatrixMethod
from ..models.correlation_matrix_transform import CorrelationMatrixTransform

if TYPE_CHECKING:
    from ..models.correlation_matrix_caveats_item import CorrelationMatrixCaveatsItem
    from ..models.correlation_matrix_cells_item import CorrelationMatrixCellsItem
    from ..models.correlation_matrix_inputs import CorrelationMatrixInputs
    from ..models.correlation_matrix_regions_dropped_item import CorrelationMatrixRegionsDroppedItem
    from ..models.correlation_matrix_variables_item import CorrelationMatrixVariablesItem
    from ..models.region_summary import RegionSummary


T = TypeVar("T", bound="CorrelationMatrix")


@_attrs_define
class CorrelationMatrix:
    """
    Attributes:
        basis (CorrelationMatrixBasis):
        caveats (list[CorrelationMatrixCaveatsItem]):
        cells (list[CorrelationMatrixCellsItem]): Each pair of variables once.
        inputs (CorrelationMatrixInputs): Per variable id, every value used, as published.
        level (int | None): Level of the regions correlated (over time: the region's own).
        method (CorrelationMatrixMethod):
        min_n (int):
        period (None | str): The period asked for, taken for every variable.
        region (RegionSummary):
        regions_dropped (list[CorrelationMatrixRegionsDroppedItem]):
        regions_used (list[str]):
        transform (CorrelationMatrixTransform): `log`: the cells correlate the natural logarithms of the inputs' values.
        variables (list[CorrelationMatrixVariablesItem]):
    """

    basis: CorrelationMatrixBasis
    caveats: list[CorrelationMatrixCaveatsItem]
    cells: list[CorrelationMatrixCellsItem]
    inputs: CorrelationMatrixInputs
    level: int | None
    method: CorrelationMatrixMethod
    min_n: int
    period: None | str
    region: RegionSummary
    regions_dropped: list[CorrelationMatrixRegionsDroppedItem]
    regions_used: list[str]
    transform: CorrelationMatrixTransform
    variables: list[CorrelationMatrixVariablesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        basis = self.basis.value

        caveats = []
        for caveats_item_data in self.caveats:
            caveats_item = caveats_item_data.to_dict()
            caveats.append(caveats_item)

        cells = []
        for cells_item_data in self.cells:
            cells_item = cells_item_data.to_dict()
            cells.append(cells_item)

        inputs = self.inputs.to_dict()

        level: int | None
        level = self.level

        method = self.method.value

        min_n = self.min_n

        period: None | str
        period = self.period

        region = self.region.to_dict()

        regions_dropped = []
        for regions_dropped_item_data in self.regions_dropped:
            regions_dropped_item = regions_dropped_item_data.to_dict()
            regions_dropped.append(regions_dropped_item)

        regions_used = self.regions_used

        transform = self.transform.value

        variables = []
        for variables_item_data in self.variables:
            variables_item = variables_item_data.to_dict()
            variables.append(variables_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "basis": basis,
                "caveats": caveats,
                "cells": cells,
                "inputs": inputs,
                "level": level,
                "method": method,
                "min_n": min_n,
                "period": period,
                "region": region,
                "regions_dropped": regions_dropped,
                "regions_used": regions_used,
                "transform": transform,
                "variables": variables,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.correlation_matrix_caveats_item import CorrelationMatrixCaveatsItem  # noqa: PLC0415
        from ..models.correlation_matrix_cells_item import CorrelationMatrixCellsItem  # noqa: PLC0415
        from ..models.correlation_matrix_inputs import CorrelationMatrixInputs  # noqa: PLC0415
        from ..models.correlation_matrix_regions_dropped_item import CorrelationMatrixRegionsDroppedItem  # noqa: PLC0415
        from ..models.correlation_matrix_variables_item import CorrelationMatrixVariablesItem  # noqa: PLC0415
        from ..models.region_summary import RegionSummary  # noqa: PLC0415

        d = dict(src_dict)
        basis = CorrelationMatrixBasis(d.pop("basis"))

        caveats = []
        _caveats = d.pop("caveats")
        for caveats_item_data in _caveats:
            caveats_item = CorrelationMatrixCaveatsItem.from_dict(caveats_item_data)

            caveats.append(caveats_item)

        cells = []
        _cells = d.pop("cells")
        for cells_item_data in _cells:
            cells_item = CorrelationMatrixCellsItem.from_dict(cells_item_data)

            cells.append(cells_item)

        inputs = CorrelationMatrixInputs.from_dict(d.pop("inputs"))

        def _parse_level(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        level = _parse_level(d.pop("level"))

        method = CorrelationMatrixMethod(d.pop("method"))

        min_n = d.pop("min_n")

        def _parse_period(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        period = _parse_period(d.pop("period"))

        region = RegionSummary.from_dict(d.pop("region"))

        regions_dropped = []
        _regions_dropped = d.pop("regions_dropped")
        for regions_dropped_item_data in _regions_dropped:
            regions_dropped_item = CorrelationMatrixRegionsDroppedItem.from_dict(regions_dropped_item_data)

            regions_dropped.append(regions_dropped_item)

        regions_used = cast(list[str], d.pop("regions_used"))

        transform = CorrelationMatrixTransform(d.pop("transform"))

        variables = []
        _variables = d.pop("variables")
        for variables_item_data in _variables:
            variables_item = CorrelationMatrixVariablesItem.from_dict(variables_item_data)

            variables.append(variables_item)

        correlation_matrix = cls(
            basis=basis,
            caveats=caveats,
            cells=cells,
            inputs=inputs,
            level=level,
            method=method,
            min_n=min_n,
            period=period,
            region=region,
            regions_dropped=regions_dropped,
            regions_used=regions_used,
            transform=transform,
            variables=variables,
        )

        correlation_matrix.additional_properties = d
        return correlation_matrix

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
