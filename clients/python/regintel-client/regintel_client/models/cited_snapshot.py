from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CitedSnapshot")


@_attrs_define
class CitedSnapshot:
    """
    Attributes:
        file_name (str):
        file_sha256 (str):
        format_ (str):
        id (str):
        imported_at (datetime.datetime):
        citation (None | str): The snapshot's citation: it resolves to the snapshot and its source.
        rows_added (int | Unset):
        rows_in_file (int | Unset):
        rows_revised (int | Unset):
        rows_unchanged (int | Unset):
        rows_withdrawn (int | Unset): Rows of the dataset the snapshot's file no longer held (a whole-dataset fetch from
            Eurostat), withdrawn; 0 for any other import.
    """

    file_name: str
    file_sha256: str
    format_: str
    id: str
    imported_at: datetime.datetime
    citation: None | str
    rows_added: int | Unset = UNSET
    rows_in_file: int | Unset = UNSET
    rows_revised: int | Unset = UNSET
    rows_unchanged: int | Unset = UNSET
    rows_withdrawn: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file_name = self.file_name

        file_sha256 = self.file_sha256

        format_ = self.format_

        id = self.id

        imported_at = self.imported_at.isoformat()

        citation: None | str
        citation = self.citation

        rows_added = self.rows_added

        rows_in_file = self.rows_in_file

        rows_revised = self.rows_revised

        rows_unchanged = self.rows_unchanged

        rows_withdrawn = self.rows_withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file_name": file_name,
                "file_sha256": file_sha256,
                "format": format_,
                "id": id,
                "imported_at": imported_at,
                "citation": citation,
            }
        )
        if rows_added is not UNSET:
            field_dict["rows_added"] = rows_added
        if rows_in_file is not UNSET:
            field_dict["rows_in_file"] = rows_in_file
        if rows_revised is not UNSET:
            field_dict["rows_revised"] = rows_revised
        if rows_unchanged is not UNSET:
            field_dict["rows_unchanged"] = rows_unchanged
        if rows_withdrawn is not UNSET:
            field_dict["rows_withdrawn"] = rows_withdrawn

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file_name = d.pop("file_name")

        file_sha256 = d.pop("file_sha256")

        format_ = d.pop("format")

        id = d.pop("id")

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

        def _parse_citation(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        citation = _parse_citation(d.pop("citation"))

        rows_added = d.pop("rows_added", UNSET)

        rows_in_file = d.pop("rows_in_file", UNSET)

        rows_revised = d.pop("rows_revised", UNSET)

        rows_unchanged = d.pop("rows_unchanged", UNSET)

        rows_withdrawn = d.pop("rows_withdrawn", UNSET)

        cited_snapshot = cls(
            file_name=file_name,
            file_sha256=file_sha256,
            format_=format_,
            id=id,
            imported_at=imported_at,
            citation=citation,
            rows_added=rows_added,
            rows_in_file=rows_in_file,
            rows_revised=rows_revised,
            rows_unchanged=rows_unchanged,
            rows_withdrawn=rows_withdrawn,
        )

        cited_snapshot.additional_properties = d
        return cited_snapshot

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
