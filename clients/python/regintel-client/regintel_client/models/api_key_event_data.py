from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.api_key_event_data_links import ApiKeyEventDataLinks


T = TypeVar("T", bound="ApiKeyEventData")


@_attrs_define
class ApiKeyEventData:
    """
    Attributes:
        at (datetime.datetime):
        key_id (str):
        links (ApiKeyEventDataLinks):
        name (str):
    """

    at: datetime.datetime
    key_id: str
    links: ApiKeyEventDataLinks
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        key_id = self.key_id

        links = self.links.to_dict()

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "key_id": key_id,
                "links": links,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.api_key_event_data_links import ApiKeyEventDataLinks  # noqa: PLC0415

        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        key_id = d.pop("key_id")

        links = ApiKeyEventDataLinks.from_dict(d.pop("links"))

        name = d.pop("name")

        api_key_event_data = cls(
            at=at,
            key_id=key_id,
            links=links,
            name=name,
        )

        api_key_event_data.additional_properties = d
        return api_key_event_data

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
