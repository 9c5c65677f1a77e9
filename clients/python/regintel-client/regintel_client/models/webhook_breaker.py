from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_breaker_state import WebhookBreakerState
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookBreaker")


@_attrs_define
class WebhookBreaker:
    """
    Attributes:
        consecutive_failures (int):
        state (WebhookBreakerState):
        trips (int): Times it opened since it last closed after a success.
        failing_since (datetime.datetime | None | Unset):
        open_until (datetime.datetime | None | Unset): While open: when the next probe is sent.
    """

    consecutive_failures: int
    state: WebhookBreakerState
    trips: int
    failing_since: datetime.datetime | None | Unset = UNSET
    open_until: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        consecutive_failures = self.consecutive_failures

        state = self.state.value

        trips = self.trips

        failing_since: None | str | Unset
        if isinstance(self.failing_since, Unset):
            failing_since = UNSET
        elif isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        open_until: None | str | Unset
        if isinstance(self.open_until, Unset):
            open_until = UNSET
        elif isinstance(self.open_until, datetime.datetime):
            open_until = self.open_until.isoformat()
        else:
            open_until = self.open_until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "consecutive_failures": consecutive_failures,
                "state": state,
                "trips": trips,
            }
        )
        if failing_since is not UNSET:
            field_dict["failing_since"] = failing_since
        if open_until is not UNSET:
            field_dict["open_until"] = open_until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        consecutive_failures = d.pop("consecutive_failures")

        state = WebhookBreakerState(d.pop("state"))

        trips = d.pop("trips")

        def _parse_failing_since(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        failing_since = _parse_failing_since(d.pop("failing_since", UNSET))

        def _parse_open_until(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                open_until_type_0 = datetime.datetime.fromisoformat(data)

                return open_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        open_until = _parse_open_until(d.pop("open_until", UNSET))

        webhook_breaker = cls(
            consecutive_failures=consecutive_failures,
            state=state,
            trips=trips,
            failing_since=failing_since,
            open_until=open_until,
        )

        webhook_breaker.additional_properties = d
        return webhook_breaker

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
