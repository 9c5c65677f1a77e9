from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ClassificationCitationFieldsItem")


@_attrs_define
class ClassificationCitationFieldsItem:
    """
    Attributes:
        column (str):
        field (str):
        value (Any):
        derived (str | Unset): How the value follows from the region's code.
        source (str | Unset): Where the row says the value comes from.
    """

    column: str
    field: str
    value: Any
    derived: str | Unset = UNSET
    source: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        column = self.column

        field = self.field

        value = self.value

        derived = self.derived

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "column": column,
                "field": field,
                "value": value,
            }
        )
        if derived is not UNSET:
            field_dict["derived"] = derived
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        column = d.pop("column")

        field = d.pop("field")

        value = d.pop("value")

        derived = d.pop("derived", UNSET)

        source = d.pop("source", UNSET)

        classification_citation_fields_item = cls(
            column=column,
            field=field,
            value=value,
            derived=derived,
            source=source,
        )

        classification_citation_fields_item.additional_properties = d
        return classification_citation_fields_item

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
