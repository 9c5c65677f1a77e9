from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.region_summary_classification import RegionSummaryClassification
from ..types import UNSET, Unset

T = TypeVar("T", bound="RegionSummary")


@_attrs_define
class RegionSummary:
    """
    Attributes:
        classification (RegionSummaryClassification):
        code (str):
        in_classification (bool):
        nuts_editions (list[str]):
        citation (None | str | Unset): The row of the bundled classification (nuts_regions.csv; for an aggregate,
            catalogue.json) its names, level and parent come from; null for a code seen only in data, whose level, country
            and parent are derived from the code.
        country (None | str | Unset):
        level (int | None | Unset):
        name (None | str | Unset):
        name_national (None | str | Unset):
        parent_code (None | str | Unset):
    """

    classification: RegionSummaryClassification
    code: str
    in_classification: bool
    nuts_editions: list[str]
    citation: None | str | Unset = UNSET
    country: None | str | Unset = UNSET
    level: int | None | Unset = UNSET
    name: None | str | Unset = UNSET
    name_national: None | str | Unset = UNSET
    parent_code: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        classification = self.classification.value

        code = self.code

        in_classification = self.in_classification

        nuts_editions = self.nuts_editions

        citation: None | str | Unset
        if isinstance(self.citation, Unset):
            citation = UNSET
        else:
            citation = self.citation

        country: None | str | Unset
        if isinstance(self.country, Unset):
            country = UNSET
        else:
            country = self.country

        level: int | None | Unset
        if isinstance(self.level, Unset):
            level = UNSET
        else:
            level = self.level

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        name_national: None | str | Unset
        if isinstance(self.name_national, Unset):
            name_national = UNSET
        else:
            name_national = self.name_national

        parent_code: None | str | Unset
        if isinstance(self.parent_code, Unset):
            parent_code = UNSET
        else:
            parent_code = self.parent_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "classification": classification,
                "code": code,
                "in_classification": in_classification,
                "nuts_editions": nuts_editions,
            }
        )
        if citation is not UNSET:
            field_dict["citation"] = citation
        if country is not UNSET:
            field_dict["country"] = country
        if level is not UNSET:
            field_dict["level"] = level
        if name is not UNSET:
            field_dict["name"] = name
        if name_national is not UNSET:
            field_dict["name_national"] = name_national
        if parent_code is not UNSET:
            field_dict["parent_code"] = parent_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        classification = RegionSummaryClassification(d.pop("classification"))

        code = d.pop("code")

        in_classification = d.pop("in_classification")

        nuts_editions = cast(list[str], d.pop("nuts_editions"))

        def _parse_citation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        citation = _parse_citation(d.pop("citation", UNSET))

        def _parse_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        country = _parse_country(d.pop("country", UNSET))

        def _parse_level(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        level = _parse_level(d.pop("level", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_name_national(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name_national = _parse_name_national(d.pop("name_national", UNSET))

        def _parse_parent_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        parent_code = _parse_parent_code(d.pop("parent_code", UNSET))

        region_summary = cls(
            classification=classification,
            code=code,
            in_classification=in_classification,
            nuts_editions=nuts_editions,
            citation=citation,
            country=country,
            level=level,
            name=name,
            name_national=name_national,
            parent_code=parent_code,
        )

        region_summary.additional_properties = d
        return region_summary

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
