from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_event_type import WebhookDeliveryEventType
from ..models.webhook_delivery_status import WebhookDeliveryStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.webhook_delivery_attempt_log_item import WebhookDeliveryAttemptLogItem


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        attempt_log (list[WebhookDeliveryAttemptLogItem]): The latest 20 attempts, oldest first.
        attempts (int): Attempts of the current schedule (at most 10).
        event_id (str): The webhook-id header.
        event_type (WebhookDeliveryEventType):
        id (str):
        occurred_at (datetime.datetime):
        status (WebhookDeliveryStatus):
        delivered_at (datetime.datetime | None | Unset):
        next_attempt_at (datetime.datetime | None | Unset):
    """

    attempt_log: list[WebhookDeliveryAttemptLogItem]
    attempts: int
    event_id: str
    event_type: WebhookDeliveryEventType
    id: str
    occurred_at: datetime.datetime
    status: WebhookDeliveryStatus
    delivered_at: datetime.datetime | None | Unset = UNSET
    next_attempt_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)

        attempts = self.attempts

        event_id = self.event_id

        event_type = self.event_type.value

        id = self.id

        occurred_at = self.occurred_at.isoformat()

        status = self.status.value

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        elif isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt_log": attempt_log,
                "attempts": attempts,
                "event_id": event_id,
                "event_type": event_type,
                "id": id,
                "occurred_at": occurred_at,
                "status": status,
            }
        )
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_delivery_attempt_log_item import WebhookDeliveryAttemptLogItem  # noqa: PLC0415

        d = dict(src_dict)
        attempt_log = []
        _attempt_log = d.pop("attempt_log")
        for attempt_log_item_data in _attempt_log:
            attempt_log_item = WebhookDeliveryAttemptLogItem.from_dict(attempt_log_item_data)

            attempt_log.append(attempt_log_item)

        attempts = d.pop("attempts")

        event_id = d.pop("event_id")

        event_type = WebhookDeliveryEventType(d.pop("event_type"))

        id = d.pop("id")

        occurred_at = datetime.datetime.fromisoformat(d.pop("occurred_at"))

        status = WebhookDeliveryStatus(d.pop("status"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at", UNSET))

        webhook_delivery = cls(
            attempt_log=attempt_log,
            attempts=attempts,
            event_id=event_id,
            event_type=event_type,
            id=id,
            occurred_at=occurred_at,
            status=status,
            delivered_at=delivered_at,
            next_attempt_at=next_attempt_at,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

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
