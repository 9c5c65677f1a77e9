from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.derived_kind import DerivedKind

T = TypeVar("T", bound="Derived")


@_attrs_define
class Derived:
    """
    Attributes:
        citations (list[str]): Citations of the inputs.
        description (str):
        kind (DerivedKind):
        value (float):
    """

    citations: list[str]
    description: str
    kind: DerivedKind
    value: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        citations = self.citations

        description = self.description

        kind = self.kind.value

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "citations": citations,
                "description": description,
                "kind": kind,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        citations = cast(list[str], d.pop("citations"))

        description = d.pop("description")

        kind = DerivedKind(d.pop("kind"))

        value = d.pop("value")

        derived = cls(
            citations=citations,
            description=description,
            kind=kind,
            value=value,
        )

        derived.additional_properties = d
        return derived

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
