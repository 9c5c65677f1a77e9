from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.briefing_revisions_superseded_item import BriefingRevisionsSupersededItem


T = TypeVar("T", bound="BriefingRevisions")


@_attrs_define
class BriefingRevisions:
    """
    Attributes:
        any_superseded (bool):
        superseded (list[BriefingRevisionsSupersededItem]):
    """

    any_superseded: bool
    superseded: list[BriefingRevisionsSupersededItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        any_superseded = self.any_superseded

        superseded = []
        for superseded_item_data in self.superseded:
            superseded_item = superseded_item_data.to_dict()
            superseded.append(superseded_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "any_superseded": any_superseded,
                "superseded": superseded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.briefing_revisions_superseded_item import BriefingRevisionsSupersededItem  # noqa: PLC0415

        d = dict(src_dict)
        any_superseded = d.pop("any_superseded")

        superseded = []
        _superseded = d.pop("superseded")
        for superseded_item_data in _superseded:
            superseded_item = BriefingRevisionsSupersededItem.from_dict(superseded_item_data)

            superseded.append(superseded_item)

        briefing_revisions = cls(
            any_superseded=any_superseded,
            superseded=superseded,
        )

        briefing_revisions.additional_properties = d
        return briefing_revisions

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
