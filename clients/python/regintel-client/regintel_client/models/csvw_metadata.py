from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.csvw_metadata_notes_item import CsvwMetadataNotesItem
    from ..models.csvw_metadata_table_schema import CsvwMetadataTableSchema


T = TypeVar("T", bound="CsvwMetadata")


@_attrs_define
class CsvwMetadata:
    """
    Attributes:
        context (Literal['http://www.w3.org/ns/csvw']):
        table_schema (CsvwMetadataTableSchema):
        url (str): The export, relative to this document.
        dclicense (None | str | Unset):
        dcsource (None | str | Unset):
        dctitle (str | Unset):
        notes (list[CsvwMetadataNotesItem] | Unset): Row count, units, flags, the latest snapshot; `as_of` (as
            `meta.as_of`) when read as of a moment.
    """

    context: Literal["http://www.w3.org/ns/csvw"]
    table_schema: CsvwMetadataTableSchema
    url: str
    dclicense: None | str | Unset = UNSET
    dcsource: None | str | Unset = UNSET
    dctitle: str | Unset = UNSET
    notes: list[CsvwMetadataNotesItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        context = self.context

        table_schema = self.table_schema.to_dict()

        url = self.url

        dclicense: None | str | Unset
        if isinstance(self.dclicense, Unset):
            dclicense = UNSET
        else:
            dclicense = self.dclicense

        dcsource: None | str | Unset
        if isinstance(self.dcsource, Unset):
            dcsource = UNSET
        else:
            dcsource = self.dcsource

        dctitle = self.dctitle

        notes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.notes, Unset):
            notes = []
            for notes_item_data in self.notes:
                notes_item = notes_item_data.to_dict()
                notes.append(notes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "@context": context,
                "tableSchema": table_schema,
                "url": url,
            }
        )
        if dclicense is not UNSET:
            field_dict["dc:license"] = dclicense
        if dcsource is not UNSET:
            field_dict["dc:source"] = dcsource
        if dctitle is not UNSET:
            field_dict["dc:title"] = dctitle
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.csvw_metadata_notes_item import CsvwMetadataNotesItem  # noqa: PLC0415
        from ..models.csvw_metadata_table_schema import CsvwMetadataTableSchema  # noqa: PLC0415

        d = dict(src_dict)
        context = cast(Literal["http://www.w3.org/ns/csvw"], d.pop("@context"))
        if context != "http://www.w3.org/ns/csvw":
            raise ValueError(f"@context must match const 'http://www.w3.org/ns/csvw', got '{context}'")

        table_schema = CsvwMetadataTableSchema.from_dict(d.pop("tableSchema"))

        url = d.pop("url")

        def _parse_dclicense(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dclicense = _parse_dclicense(d.pop("dc:license", UNSET))

        def _parse_dcsource(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        dcsource = _parse_dcsource(d.pop("dc:source", UNSET))

        dctitle = d.pop("dc:title", UNSET)

        _notes = d.pop("notes", UNSET)
        notes: list[CsvwMetadataNotesItem] | Unset = UNSET
        if _notes is not UNSET:
            notes = []
            for notes_item_data in _notes:
                notes_item = CsvwMetadataNotesItem.from_dict(notes_item_data)

                notes.append(notes_item)

        csvw_metadata = cls(
            context=context,
            table_schema=table_schema,
            url=url,
            dclicense=dclicense,
            dcsource=dcsource,
            dctitle=dctitle,
            notes=notes,
        )

        csvw_metadata.additional_properties = d
        return csvw_metadata

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
