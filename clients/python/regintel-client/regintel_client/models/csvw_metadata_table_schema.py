from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.csvw_metadata_table_schema_columns_item import CsvwMetadataTableSchemaColumnsItem


T = TypeVar("T", bound="CsvwMetadataTableSchema")


@_attrs_define
class CsvwMetadataTableSchema:
    """
    Attributes:
        columns (list[CsvwMetadataTableSchemaColumnsItem]):
        primary_key (str | Unset):
    """

    columns: list[CsvwMetadataTableSchemaColumnsItem]
    primary_key: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = []
        for columns_item_data in self.columns:
            columns_item = columns_item_data.to_dict()
            columns.append(columns_item)

        primary_key = self.primary_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
            }
        )
        if primary_key is not UNSET:
            field_dict["primaryKey"] = primary_key

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.csvw_metadata_table_schema_columns_item import CsvwMetadataTableSchemaColumnsItem  # noqa: PLC0415

        d = dict(src_dict)
        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = CsvwMetadataTableSchemaColumnsItem.from_dict(columns_item_data)

            columns.append(columns_item)

        primary_key = d.pop("primaryKey", UNSET)

        csvw_metadata_table_schema = cls(
            columns=columns,
            primary_key=primary_key,
        )

        csvw_metadata_table_schema.additional_properties = d
        return csvw_metadata_table_schema

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
