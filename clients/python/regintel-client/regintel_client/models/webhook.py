from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_event_types_item import WebhookEventTypesItem
from ..models.webhook_status import WebhookStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_breaker import WebhookBreaker
    from ..models.webhook_links import WebhookLinks


T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        breaker (WebhookBreaker):
        created_at (datetime.datetime):
        description (str):
        event_types (list[WebhookEventTypesItem]):
        id (str):
        links (WebhookLinks):
        status (WebhookStatus):
        url (str):
        disabled_reason (None | str | Unset):
        previous_secret_expires_at (datetime.datetime | None | Unset): After a rotation: until when the previous secret
            signs too.
    """

    breaker: WebhookBreaker
    created_at: datetime.datetime
    description: str
    event_types: list[WebhookEventTypesItem]
    id: str
    links: WebhookLinks
    status: WebhookStatus
    url: str
    disabled_reason: None | str | Unset = UNSET
    previous_secret_expires_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        breaker = self.breaker.to_dict()

        created_at = self.created_at.isoformat()

        description = self.description

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item = event_types_item_data.value
            event_types.append(event_types_item)

        id = self.id

        links = self.links.to_dict()

        status = self.status.value

        url = self.url

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        previous_secret_expires_at: None | str | Unset
        if isinstance(self.previous_secret_expires_at, Unset):
            previous_secret_expires_at = UNSET
        elif isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "breaker": breaker,
                "created_at": created_at,
                "description": description,
                "event_types": event_types,
                "id": id,
                "links": links,
                "status": status,
                "url": url,
            }
        )
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason
        if previous_secret_expires_at is not UNSET:
            field_dict["previous_secret_expires_at"] = previous_secret_expires_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_breaker import WebhookBreaker  # noqa: PLC0415
        from ..models.webhook_links import WebhookLinks  # noqa: PLC0415

        d = dict(src_dict)
        breaker = WebhookBreaker.from_dict(d.pop("breaker"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in _event_types:
            event_types_item = WebhookEventTypesItem(event_types_item_data)

            event_types.append(event_types_item)

        id = d.pop("id")

        links = WebhookLinks.from_dict(d.pop("links"))

        status = WebhookStatus(d.pop("status"))

        url = d.pop("url")

        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason", UNSET))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previous_secret_expires_at", UNSET))

        webhook = cls(
            breaker=breaker,
            created_at=created_at,
            description=description,
            event_types=event_types,
            id=id,
            links=links,
            status=status,
            url=url,
            disabled_reason=disabled_reason,
            previous_secret_expires_at=previous_secret_expires_at,
        )

        webhook.additional_properties = d
        return webhook

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
