from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="BriefingRevisionsSupersededItem")


@_attrs_define
class BriefingRevisionsSupersededItem:
    """
    Attributes:
        citation (str):
        current_citation (str): The value that stands now, or the withdrawal when the observation was withdrawn.
        withdrawn_in (str | Unset): The snapshot whose whole-dataset file no longer held the observation; absent while
            it is published.
    """

    citation: str
    current_citation: str
    withdrawn_in: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        citation = self.citation

        current_citation = self.current_citation

        withdrawn_in = self.withdrawn_in

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "citation": citation,
                "current_citation": current_citation,
            }
        )
        if withdrawn_in is not UNSET:
            field_dict["withdrawn_in"] = withdrawn_in

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        citation = d.pop("citation")

        current_citation = d.pop("current_citation")

        withdrawn_in = d.pop("withdrawn_in", UNSET)

        briefing_revisions_superseded_item = cls(
            citation=citation,
            current_citation=current_citation,
            withdrawn_in=withdrawn_in,
        )

        briefing_revisions_superseded_item.additional_properties = d
        return briefing_revisions_superseded_item

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
