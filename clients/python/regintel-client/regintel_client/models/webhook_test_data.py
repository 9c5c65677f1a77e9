from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_test_data_links import WebhookTestDataLinks


T = TypeVar("T", bound="WebhookTestData")


@_attrs_define
class WebhookTestData:
    """
    Attributes:
        links (WebhookTestDataLinks):
        message (str):
        webhook_id (str):
    """

    links: WebhookTestDataLinks
    message: str
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        links = self.links.to_dict()

        message = self.message

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "links": links,
                "message": message,
                "webhook_id": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_test_data_links import WebhookTestDataLinks  # noqa: PLC0415

        d = dict(src_dict)
        links = WebhookTestDataLinks.from_dict(d.pop("links"))

        message = d.pop("message")

        webhook_id = d.pop("webhook_id")

        webhook_test_data = cls(
            links=links,
            message=message,
            webhook_id=webhook_id,
        )

        webhook_test_data.additional_properties = d
        return webhook_test_data

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
