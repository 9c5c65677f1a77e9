from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ReplayWebhookEvents")


@_attrs_define
class ReplayWebhookEvents:
    """
    Attributes:
        since (datetime.datetime): Within the last 30 days.
        include_delivered (bool | Unset): Also send again the events the endpoint received. Default: False.
    """

    since: datetime.datetime
    include_delivered: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        include_delivered = self.include_delivered

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "since": since,
            }
        )
        if include_delivered is not UNSET:
            field_dict["include_delivered"] = include_delivered

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        include_delivered = d.pop("include_delivered", UNSET)

        replay_webhook_events = cls(
            since=since,
            include_delivered=include_delivered,
        )

        return replay_webhook_events
