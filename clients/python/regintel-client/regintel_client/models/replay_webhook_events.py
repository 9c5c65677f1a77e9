from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplayWebhookEvents")


@_attrs_define
class ReplayWebhookEvents:
    """
    Attributes:
        since (datetime.datetime): Within the last 30 days.
    """

    since: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        replay_webhook_events = cls(
            since=since,
        )

        return replay_webhook_events
