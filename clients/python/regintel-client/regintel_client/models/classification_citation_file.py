from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ClassificationCitationFile")


@_attrs_define
class ClassificationCitationFile:
    """
    Attributes:
        line (int): 1-based; the header is line 1.
        name (str): nuts_regions.csv, or catalogue.json for an aggregate: files regintel ships in data/.
        sha256 (str):
    """

    line: int
    name: str
    sha256: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        line = self.line

        name = self.name

        sha256 = self.sha256

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "line": line,
                "name": name,
                "sha256": sha256,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        line = d.pop("line")

        name = d.pop("name")

        sha256 = d.pop("sha256")

        classification_citation_file = cls(
            line=line,
            name=name,
            sha256=sha256,
        )

        classification_citation_file.additional_properties = d
        return classification_citation_file

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
