from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookDeliveryAttemptLogItem")


@_attrs_define
class WebhookDeliveryAttemptLogItem:
    """
    Attributes:
        at (datetime.datetime):
        error (None | str):
        latency_ms (int):
        status_code (int | None): The receiver's status; null when it did not answer.
    """

    at: datetime.datetime
    error: None | str
    latency_ms: int
    status_code: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        error: None | str
        error = self.error

        latency_ms = self.latency_ms

        status_code: int | None
        status_code = self.status_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "error": error,
                "latency_ms": latency_ms,
                "status_code": status_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        latency_ms = d.pop("latency_ms")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))

        webhook_delivery_attempt_log_item = cls(
            at=at,
            error=error,
            latency_ms=latency_ms,
            status_code=status_code,
        )

        webhook_delivery_attempt_log_item.additional_properties = d
        return webhook_delivery_attempt_log_item

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
