from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.region_summary_classification import RegionSummaryClassification
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.region_detail_parent_type_1 import RegionDetailParentType1


T = TypeVar("T", bound="RegionDetail")


@_attrs_define
class RegionDetail:
    """
    Attributes:
        classification (RegionSummaryClassification):
        code (str):
        in_classification (bool):
        nuts_editions (list[str]):
        children (list[str]):
        citation (None | str | Unset): The row of the bundled classification (nuts_regions.csv; for an aggregate,
            catalogue.json) its names, level and parent come from; null for a code seen only in data, whose level, country
            and parent are derived from the code.
        country (None | str | Unset):
        level (int | None | Unset):
        name (None | str | Unset):
        name_national (None | str | Unset):
        parent_code (None | str | Unset):
        change_2021_2024 (None | str | Unset):
        parent (None | RegionDetailParentType1 | Unset):
        recoded_from (None | str | Unset):
        recoded_to (None | str | Unset):
    """

    classification: RegionSummaryClassification
    code: str
    in_classification: bool
    nuts_editions: list[str]
    children: list[str]
    citation: None | str | Unset = UNSET
    country: None | str | Unset = UNSET
    level: int | None | Unset = UNSET
    name: None | str | Unset = UNSET
    name_national: None | str | Unset = UNSET
    parent_code: None | str | Unset = UNSET
    change_2021_2024: None | str | Unset = UNSET
    parent: None | RegionDetailParentType1 | Unset = UNSET
    recoded_from: None | str | Unset = UNSET
    recoded_to: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.region_detail_parent_type_1 import RegionDetailParentType1  # noqa: PLC0415

        classification = self.classification.value

        code = self.code

        in_classification = self.in_classification

        nuts_editions = self.nuts_editions

        children = self.children

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

        change_2021_2024: None | str | Unset
        if isinstance(self.change_2021_2024, Unset):
            change_2021_2024 = UNSET
        else:
            change_2021_2024 = self.change_2021_2024

        parent: dict[str, Any] | None | Unset
        if isinstance(self.parent, Unset):
            parent = UNSET
        elif isinstance(self.parent, RegionDetailParentType1):
            parent = self.parent.to_dict()
        else:
            parent = self.parent

        recoded_from: None | str | Unset
        if isinstance(self.recoded_from, Unset):
            recoded_from = UNSET
        else:
            recoded_from = self.recoded_from

        recoded_to: None | str | Unset
        if isinstance(self.recoded_to, Unset):
            recoded_to = UNSET
        else:
            recoded_to = self.recoded_to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "classification": classification,
                "code": code,
                "in_classification": in_classification,
                "nuts_editions": nuts_editions,
                "children": children,
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
        if change_2021_2024 is not UNSET:
            field_dict["change_2021_2024"] = change_2021_2024
        if parent is not UNSET:
            field_dict["parent"] = parent
        if recoded_from is not UNSET:
            field_dict["recoded_from"] = recoded_from
        if recoded_to is not UNSET:
            field_dict["recoded_to"] = recoded_to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.region_detail_parent_type_1 import RegionDetailParentType1  # noqa: PLC0415

        d = dict(src_dict)
        classification = RegionSummaryClassification(d.pop("classification"))

        code = d.pop("code")

        in_classification = d.pop("in_classification")

        nuts_editions = cast(list[str], d.pop("nuts_editions"))

        children = cast(list[str], d.pop("children"))

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

        def _parse_change_2021_2024(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        change_2021_2024 = _parse_change_2021_2024(d.pop("change_2021_2024", UNSET))

        def _parse_parent(data: object) -> None | RegionDetailParentType1 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                parent_type_1 = RegionDetailParentType1.from_dict(data)

                return parent_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RegionDetailParentType1 | Unset, data)

        parent = _parse_parent(d.pop("parent", UNSET))

        def _parse_recoded_from(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recoded_from = _parse_recoded_from(d.pop("recoded_from", UNSET))

        def _parse_recoded_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        recoded_to = _parse_recoded_to(d.pop("recoded_to", UNSET))

        region_detail = cls(
            classification=classification,
            code=code,
            in_classification=in_classification,
            nuts_editions=nuts_editions,
            children=children,
            citation=citation,
            country=country,
            level=level,
            name=name,
            name_national=name_national,
            parent_code=parent_code,
            change_2021_2024=change_2021_2024,
            parent=parent,
            recoded_from=recoded_from,
            recoded_to=recoded_to,
        )

        region_detail.additional_properties = d
        return region_detail

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
