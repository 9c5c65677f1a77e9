from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookTestSent")


@_attrs_define
class WebhookTestSent:
    """
    Attributes:
        event_id (str): The webhook-id of the test event.
        status (Literal['pending']):
        type_ (Literal['webhook.test']):
    """

    event_id: str
    status: Literal["pending"]
    type_: Literal["webhook.test"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        status = self.status

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "status": status,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        status = cast(Literal["pending"], d.pop("status"))
        if status != "pending":
            raise ValueError(f"status must match const 'pending', got '{status}'")

        type_ = cast(Literal["webhook.test"], d.pop("type"))
        if type_ != "webhook.test":
            raise ValueError(f"type must match const 'webhook.test', got '{type_}'")

        webhook_test_sent = cls(
            event_id=event_id,
            status=status,
            type_=type_,
        )

        webhook_test_sent.additional_properties = d
        return webhook_test_sent

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
