from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.meta import Meta
    from ..models.webhook_replay import WebhookReplay


T = TypeVar("T", bound="ReplayWebhookEventsResponse202")


@_attrs_define
class ReplayWebhookEventsResponse202:
    """
    Attributes:
        data (WebhookReplay):
        meta (Meta):
    """

    data: WebhookReplay
    meta: Meta
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        meta = self.meta.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "meta": meta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.meta import Meta  # noqa: PLC0415
        from ..models.webhook_replay import WebhookReplay  # noqa: PLC0415

        d = dict(src_dict)
        data = WebhookReplay.from_dict(d.pop("data"))

        meta = Meta.from_dict(d.pop("meta"))

        replay_webhook_events_response_202 = cls(
            data=data,
            meta=meta,
        )

        replay_webhook_events_response_202.additional_properties = d
        return replay_webhook_events_response_202

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
