from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.row_citation_ref import RowCitationRef
    from ..models.source_citation_ref import SourceCitationRef


T = TypeVar("T", bound="MetaCitations")


@_attrs_define
class MetaCitations:
    """Every citation id used in data, in short form."""

    additional_properties: dict[str, RowCitationRef | SourceCitationRef] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.row_citation_ref import RowCitationRef  # noqa: PLC0415

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if isinstance(prop, RowCitationRef):
                field_dict[prop_name] = prop.to_dict()
            else:
                field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_citation_ref import RowCitationRef  # noqa: PLC0415
        from ..models.source_citation_ref import SourceCitationRef  # noqa: PLC0415

        d = dict(src_dict)
        meta_citations = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(data: object) -> RowCitationRef | SourceCitationRef:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_citation_ref_type_0 = RowCitationRef.from_dict(data)

                    return componentsschemas_citation_ref_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_citation_ref_type_1 = SourceCitationRef.from_dict(data)

                return componentsschemas_citation_ref_type_1

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        meta_citations.additional_properties = additional_properties
        return meta_citations

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> RowCitationRef | SourceCitationRef:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: RowCitationRef | SourceCitationRef) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
