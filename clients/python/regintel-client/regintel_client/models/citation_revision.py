from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.citation_revision_current_item import CitationRevisionCurrentItem
    from ..models.flag import Flag


T = TypeVar("T", bound="CitationRevision")


@_attrs_define
class CitationRevision:
    """
    Attributes:
        current (list[CitationRevisionCurrentItem]): The stretches of time it was current in, in order: a value an
            identical file published again is current again from then.
        flags (list[Flag]):
        id (str): The citation id of this value (or withdrawal).
        imported_at (datetime.datetime):
        is_current (bool):
        published_at (datetime.datetime | None): When Eurostat published the snapshot's data; null where not known.
        snapshot (str): The snapshot that wrote it.
        value (float | None):
        value_text (str): As published; empty for a withdrawal.
        withdrawn (bool): A withdrawal: the whole-dataset file of its snapshot no longer held the observation.
    """

    current: list[CitationRevisionCurrentItem]
    flags: list[Flag]
    id: str
    imported_at: datetime.datetime
    is_current: bool
    published_at: datetime.datetime | None
    snapshot: str
    value: float | None
    value_text: str
    withdrawn: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        current = []
        for current_item_data in self.current:
            current_item = current_item_data.to_dict()
            current.append(current_item)

        flags = []
        for flags_item_data in self.flags:
            flags_item = flags_item_data.to_dict()
            flags.append(flags_item)

        id = self.id

        imported_at = self.imported_at.isoformat()

        is_current = self.is_current

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        snapshot = self.snapshot

        value: float | None
        value = self.value

        value_text = self.value_text

        withdrawn = self.withdrawn

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current": current,
                "flags": flags,
                "id": id,
                "imported_at": imported_at,
                "is_current": is_current,
                "published_at": published_at,
                "snapshot": snapshot,
                "value": value,
                "value_text": value_text,
                "withdrawn": withdrawn,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.citation_revision_current_item import CitationRevisionCurrentItem  # noqa: PLC0415
        from ..models.flag import Flag  # noqa: PLC0415

        d = dict(src_dict)
        current = []
        _current = d.pop("current")
        for current_item_data in _current:
            current_item = CitationRevisionCurrentItem.from_dict(current_item_data)

            current.append(current_item)

        flags = []
        _flags = d.pop("flags")
        for flags_item_data in _flags:
            flags_item = Flag.from_dict(flags_item_data)

            flags.append(flags_item)

        id = d.pop("id")

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

        is_current = d.pop("is_current")

        def _parse_published_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                published_at_type_0 = datetime.datetime.fromisoformat(data)

                return published_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        published_at = _parse_published_at(d.pop("published_at"))

        snapshot = d.pop("snapshot")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        value_text = d.pop("value_text")

        withdrawn = d.pop("withdrawn")

        citation_revision = cls(
            current=current,
            flags=flags,
            id=id,
            imported_at=imported_at,
            is_current=is_current,
            published_at=published_at,
            snapshot=snapshot,
            value=value,
            value_text=value_text,
            withdrawn=withdrawn,
        )

        citation_revision.additional_properties = d
        return citation_revision

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
