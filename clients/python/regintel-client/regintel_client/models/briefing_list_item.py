from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.briefing_list_item_briefing_type import BriefingListItemBriefingType

T = TypeVar("T", bound="BriefingListItem")


@_attrs_define
class BriefingListItem:
    """
    Attributes:
        briefing_type (BriefingListItemBriefingType):
        created_at (datetime.datetime):
        id (str):
        region_code (str):
        title (str):
    """

    briefing_type: BriefingListItemBriefingType
    created_at: datetime.datetime
    id: str
    region_code: str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        briefing_type = self.briefing_type.value

        created_at = self.created_at.isoformat()

        id = self.id

        region_code = self.region_code

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "briefing_type": briefing_type,
                "created_at": created_at,
                "id": id,
                "region_code": region_code,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        briefing_type = BriefingListItemBriefingType(d.pop("briefing_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        region_code = d.pop("region_code")

        title = d.pop("title")

        briefing_list_item = cls(
            briefing_type=briefing_type,
            created_at=created_at,
            id=id,
            region_code=region_code,
            title=title,
        )

        briefing_list_item.additional_properties = d
        return briefing_list_item

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
