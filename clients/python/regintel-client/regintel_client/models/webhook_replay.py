from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookReplay")


@_attrs_define
class WebhookReplay:
    """
    Attributes:
        complete (bool):
        resume_from (datetime.datetime | None):
        scheduled (int): Deliveries scheduled (pending ones are not counted).
    """

    complete: bool
    resume_from: datetime.datetime | None
    scheduled: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        complete = self.complete

        resume_from: None | str
        if isinstance(self.resume_from, datetime.datetime):
            resume_from = self.resume_from.isoformat()
        else:
            resume_from = self.resume_from

        scheduled = self.scheduled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "complete": complete,
                "resume_from": resume_from,
                "scheduled": scheduled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        complete = d.pop("complete")

        def _parse_resume_from(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                resume_from_type_0 = datetime.datetime.fromisoformat(data)

                return resume_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        resume_from = _parse_resume_from(d.pop("resume_from"))

        scheduled = d.pop("scheduled")

        webhook_replay = cls(
            complete=complete,
            resume_from=resume_from,
            scheduled=scheduled,
        )

        webhook_replay.additional_properties = d
        return webhook_replay

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
