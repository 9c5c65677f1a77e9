from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cited import Cited
    from ..models.indicator_series import IndicatorSeries
    from ..models.warning import Warning_


T = TypeVar("T", bound="Indicator")


@_attrs_define
class Indicator:
    """
    Attributes:
        dataset (str):
        history (list[Cited]):
        notes (list[Warning_]):
        series (IndicatorSeries):
        title (str):
        topic (str):
        unit (str):
        label (None | str | Unset):
        latest (Cited | None | Unset):
        unit_label (None | str | Unset):
    """

    dataset: str
    history: list[Cited]
    notes: list[Warning_]
    series: IndicatorSeries
    title: str
    topic: str
    unit: str
    label: None | str | Unset = UNSET
    latest: Cited | None | Unset = UNSET
    unit_label: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cited import Cited  # noqa: PLC0415

        dataset = self.dataset

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        notes = []
        for notes_item_data in self.notes:
            notes_item = notes_item_data.to_dict()
            notes.append(notes_item)

        series = self.series.to_dict()

        title = self.title

        topic = self.topic

        unit = self.unit

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        latest: dict[str, Any] | None | Unset
        if isinstance(self.latest, Unset):
            latest = UNSET
        elif isinstance(self.latest, Cited):
            latest = self.latest.to_dict()
        else:
            latest = self.latest

        unit_label: None | str | Unset
        if isinstance(self.unit_label, Unset):
            unit_label = UNSET
        else:
            unit_label = self.unit_label

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset": dataset,
                "history": history,
                "notes": notes,
                "series": series,
                "title": title,
                "topic": topic,
                "unit": unit,
            }
        )
        if label is not UNSET:
            field_dict["label"] = label
        if latest is not UNSET:
            field_dict["latest"] = latest
        if unit_label is not UNSET:
            field_dict["unit_label"] = unit_label

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cited import Cited  # noqa: PLC0415
        from ..models.indicator_series import IndicatorSeries  # noqa: PLC0415
        from ..models.warning import Warning_  # noqa: PLC0415

        d = dict(src_dict)
        dataset = d.pop("dataset")

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = Cited.from_dict(history_item_data)

            history.append(history_item)

        notes = []
        _notes = d.pop("notes")
        for notes_item_data in _notes:
            notes_item = Warning_.from_dict(notes_item_data)

            notes.append(notes_item)

        series = IndicatorSeries.from_dict(d.pop("series"))

        title = d.pop("title")

        topic = d.pop("topic")

        unit = d.pop("unit")

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        def _parse_latest(data: object) -> Cited | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                latest_type_1 = Cited.from_dict(data)

                return latest_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Cited | None | Unset, data)

        latest = _parse_latest(d.pop("latest", UNSET))

        def _parse_unit_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        unit_label = _parse_unit_label(d.pop("unit_label", UNSET))

        indicator = cls(
            dataset=dataset,
            history=history,
            notes=notes,
            series=series,
            title=title,
            topic=topic,
            unit=unit,
            label=label,
            latest=latest,
            unit_label=unit_label,
        )

        indicator.additional_properties = d
        return indicator

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
