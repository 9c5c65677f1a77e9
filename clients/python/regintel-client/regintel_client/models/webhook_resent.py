from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_resent_breaker import WebhookResentBreaker
from ..models.webhook_resent_sending import WebhookResentSending

T = TypeVar("T", bound="WebhookResent")


@_attrs_define
class WebhookResent:
    """
    Attributes:
        breaker (WebhookResentBreaker):
        id (str):
        not_before (datetime.datetime | None): While the breaker is open: when its probe may go.
        sending (WebhookResentSending): `now`: due at once. `under_way`: an attempt is being made; its outcome stands (a
            failure is retried on the schedule). `when_the_breaker_allows`: the endpoint's circuit breaker holds its
            deliveries: while open until `not_before` (then one probe goes first), while half-open until its probe succeeds.
        status (Literal['pending']):
    """

    breaker: WebhookResentBreaker
    id: str
    not_before: datetime.datetime | None
    sending: WebhookResentSending
    status: Literal["pending"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        breaker = self.breaker.value

        id = self.id

        not_before: None | str
        if isinstance(self.not_before, datetime.datetime):
            not_before = self.not_before.isoformat()
        else:
            not_before = self.not_before

        sending = self.sending.value

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "breaker": breaker,
                "id": id,
                "not_before": not_before,
                "sending": sending,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breaker = WebhookResentBreaker(d.pop("breaker"))

        id = d.pop("id")

        def _parse_not_before(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                not_before_type_0 = datetime.datetime.fromisoformat(data)

                return not_before_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        not_before = _parse_not_before(d.pop("not_before"))

        sending = WebhookResentSending(d.pop("sending"))

        status = cast(Literal["pending"], d.pop("status"))
        if status != "pending":
            raise ValueError(f"status must match const 'pending', got '{status}'")

        webhook_resent = cls(
            breaker=breaker,
            id=id,
            not_before=not_before,
            sending=sending,
            status=status,
        )

        webhook_resent.additional_properties = d
        return webhook_resent

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
