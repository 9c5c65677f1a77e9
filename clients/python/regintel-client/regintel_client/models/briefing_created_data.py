from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.briefing_created_data_links import BriefingCreatedDataLinks


T = TypeVar("T", bound="BriefingCreatedData")


@_attrs_define
class BriefingCreatedData:
    """
    Attributes:
        briefing_id (str):
        briefing_type (str):
        created_at (datetime.datetime):
        links (BriefingCreatedDataLinks):
        region (str):
        title (str):
    """

    briefing_id: str
    briefing_type: str
    created_at: datetime.datetime
    links: BriefingCreatedDataLinks
    region: str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        briefing_id = self.briefing_id

        briefing_type = self.briefing_type

        created_at = self.created_at.isoformat()

        links = self.links.to_dict()

        region = self.region

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "briefing_id": briefing_id,
                "briefing_type": briefing_type,
                "created_at": created_at,
                "links": links,
                "region": region,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.briefing_created_data_links import BriefingCreatedDataLinks  # noqa: PLC0415

        d = dict(src_dict)
        briefing_id = d.pop("briefing_id")

        briefing_type = d.pop("briefing_type")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        links = BriefingCreatedDataLinks.from_dict(d.pop("links"))

        region = d.pop("region")

        title = d.pop("title")

        briefing_created_data = cls(
            briefing_id=briefing_id,
            briefing_type=briefing_type,
            created_at=created_at,
            links=links,
            region=region,
            title=title,
        )

        briefing_created_data.additional_properties = d
        return briefing_created_data

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
