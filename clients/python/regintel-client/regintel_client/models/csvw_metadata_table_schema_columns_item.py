from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CsvwMetadataTableSchemaColumnsItem")


@_attrs_define
class CsvwMetadataTableSchemaColumnsItem:
    """
    Attributes:
        datatype (str):
        name (str):
        titles (str):
        dcdescription (str | Unset):
    """

    datatype: str
    name: str
    titles: str
    dcdescription: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        datatype = self.datatype

        name = self.name

        titles = self.titles

        dcdescription = self.dcdescription

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "datatype": datatype,
                "name": name,
                "titles": titles,
            }
        )
        if dcdescription is not UNSET:
            field_dict["dc:description"] = dcdescription

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        datatype = d.pop("datatype")

        name = d.pop("name")

        titles = d.pop("titles")

        dcdescription = d.pop("dc:description", UNSET)

        csvw_metadata_table_schema_columns_item = cls(
            datatype=datatype,
            name=name,
            titles=titles,
            dcdescription=dcdescription,
        )

        csvw_metadata_table_schema_columns_item.additional_properties = d
        return csvw_metadata_table_schema_columns_item

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
