from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateDataset")


@_attrs_define
class CreateDataset:
    """
    Attributes:
        code (str):
        title (str):
        unit (str): A code such as PC or EUR_HAB; stored in capitals (pc is PC).
        description (str | Unset): A short name of the measure; a briefing heads its section with it (else with the
            title).
        dimensions (list[str] | Unset):
        strict_regions (bool | Unset): Uploads refuse region codes of no known region (but the account's own) instead of
            making them the account's own; an upload's `strict_regions` parameter overrides it. Default: False.
        topic (str | Unset):
    """

    code: str
    title: str
    unit: str
    description: str | Unset = UNSET
    dimensions: list[str] | Unset = UNSET
    strict_regions: bool | Unset = False
    topic: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        title = self.title

        unit = self.unit

        description = self.description

        dimensions: list[str] | Unset = UNSET
        if not isinstance(self.dimensions, Unset):
            dimensions = self.dimensions

        strict_regions = self.strict_regions

        topic = self.topic

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "title": title,
                "unit": unit,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if dimensions is not UNSET:
            field_dict["dimensions"] = dimensions
        if strict_regions is not UNSET:
            field_dict["strict_regions"] = strict_regions
        if topic is not UNSET:
            field_dict["topic"] = topic

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        title = d.pop("title")

        unit = d.pop("unit")

        description = d.pop("description", UNSET)

        dimensions = cast(list[str], d.pop("dimensions", UNSET))

        strict_regions = d.pop("strict_regions", UNSET)

        topic = d.pop("topic", UNSET)

        create_dataset = cls(
            code=code,
            title=title,
            unit=unit,
            description=description,
            dimensions=dimensions,
            strict_regions=strict_regions,
            topic=topic,
        )

        return create_dataset
