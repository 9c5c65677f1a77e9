from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.correlation_matrix_variables_item_series_choice import CorrelationMatrixVariablesItemSeriesChoice

if TYPE_CHECKING:
    from ..models.correlation_matrix_variables_item_series import CorrelationMatrixVariablesItemSeries


T = TypeVar("T", bound="CorrelationMatrixVariablesItem")


@_attrs_define
class CorrelationMatrixVariablesItem:
    """
    Attributes:
        coverage (int): Values usable (regions, or periods over time).
        dataset (str):
        id (str): Names the variable in cells and inputs (the dataset code).
        period (None | str): Cross-section: the period taken. Over time: null.
        series (CorrelationMatrixVariablesItemSeries): Dimension codes of the series (without the unit).
        series_choice (CorrelationMatrixVariablesItemSeriesChoice): The dataset's headline series, the one named in
            `series`, or a rate in place of a headline series that is a total.
        title (str):
        unit (str):
    """

    coverage: int
    dataset: str
    id: str
    period: None | str
    series: CorrelationMatrixVariablesItemSeries
    series_choice: CorrelationMatrixVariablesItemSeriesChoice
    title: str
    unit: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coverage = self.coverage

        dataset = self.dataset

        id = self.id

        period: None | str
        period = self.period

        series = self.series.to_dict()

        series_choice = self.series_choice.value

        title = self.title

        unit = self.unit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coverage": coverage,
                "dataset": dataset,
                "id": id,
                "period": period,
                "series": series,
                "series_choice": series_choice,
                "title": title,
                "unit": unit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.correlation_matrix_variables_item_series import CorrelationMatrixVariablesItemSeries  # noqa: PLC0415

        d = dict(src_dict)
        coverage = d.pop("coverage")

        dataset = d.pop("dataset")

        id = d.pop("id")

        def _parse_period(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        period = _parse_period(d.pop("period"))

        series = CorrelationMatrixVariablesItemSeries.from_dict(d.pop("series"))

        series_choice = CorrelationMatrixVariablesItemSeriesChoice(d.pop("series_choice"))

        title = d.pop("title")

        unit = d.pop("unit")

        correlation_matrix_variables_item = cls(
            coverage=coverage,
            dataset=dataset,
            id=id,
            period=period,
            series=series,
            series_choice=series_choice,
            title=title,
            unit=unit,
        )

        correlation_matrix_variables_item.additional_properties = d
        return correlation_matrix_variables_item

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
