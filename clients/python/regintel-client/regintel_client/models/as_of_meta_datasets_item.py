from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AsOfMetaDatasetsItem")


@_attrs_define
class AsOfMetaDatasetsItem:
    """
    Attributes:
        dataset (str):
        imported_at (datetime.datetime):
        published_at (datetime.datetime | None): When Eurostat published the snapshot's data (the end of its "last
            update of data" day, UTC, or its download if that came first: the date gives no hour); null where not known (the
            bundled extract, uploads).
        snapshot (str):
    """

    dataset: str
    imported_at: datetime.datetime
    published_at: datetime.datetime | None
    snapshot: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dataset = self.dataset

        imported_at = self.imported_at.isoformat()

        published_at: None | str
        if isinstance(self.published_at, datetime.datetime):
            published_at = self.published_at.isoformat()
        else:
            published_at = self.published_at

        snapshot = self.snapshot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset": dataset,
                "imported_at": imported_at,
                "published_at": published_at,
                "snapshot": snapshot,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dataset = d.pop("dataset")

        imported_at = datetime.datetime.fromisoformat(d.pop("imported_at"))

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

        as_of_meta_datasets_item = cls(
            dataset=dataset,
            imported_at=imported_at,
            published_at=published_at,
            snapshot=snapshot,
        )

        as_of_meta_datasets_item.additional_properties = d
        return as_of_meta_datasets_item

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
