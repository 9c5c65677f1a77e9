from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DatasetUpdatedDataLinks")


@_attrs_define
class DatasetUpdatedDataLinks:
    """
    Attributes:
        changes (str): `GET /datasets/{dataset_code}/changes` since the snapshot before this one: this import's changes
            (and any later).
        dataset (str):
        export (str):
    """

    changes: str
    dataset: str
    export: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        changes = self.changes

        dataset = self.dataset

        export = self.export

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "dataset": dataset,
                "export": export,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        changes = d.pop("changes")

        dataset = d.pop("dataset")

        export = d.pop("export")

        dataset_updated_data_links = cls(
            changes=changes,
            dataset=dataset,
            export=export,
        )

        dataset_updated_data_links.additional_properties = d
        return dataset_updated_data_links

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
