from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dataset_updated_data_changes_item_change import DatasetUpdatedDataChangesItemChange
from ..types import UNSET, Unset

T = TypeVar("T", bound="DatasetUpdatedDataChangesItem")


@_attrs_define
class DatasetUpdatedDataChangesItem:
    """
    Attributes:
        change (DatasetUpdatedDataChangesItemChange):
        citation_id (str):
        replaces (str | Unset): For a revision: the citation of the value it supersedes.
    """

    change: DatasetUpdatedDataChangesItemChange
    citation_id: str
    replaces: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        change = self.change.value

        citation_id = self.citation_id

        replaces = self.replaces

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "change": change,
                "citation_id": citation_id,
            }
        )
        if replaces is not UNSET:
            field_dict["replaces"] = replaces

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        change = DatasetUpdatedDataChangesItemChange(d.pop("change"))

        citation_id = d.pop("citation_id")

        replaces = d.pop("replaces", UNSET)

        dataset_updated_data_changes_item = cls(
            change=change,
            citation_id=citation_id,
            replaces=replaces,
        )

        dataset_updated_data_changes_item.additional_properties = d
        return dataset_updated_data_changes_item

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
