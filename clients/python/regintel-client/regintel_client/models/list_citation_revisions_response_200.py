from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.citation_revision import CitationRevision
    from ..models.list_meta import ListMeta


T = TypeVar("T", bound="ListCitationRevisionsResponse200")


@_attrs_define
class ListCitationRevisionsResponse200:
    """
    Attributes:
        data (list[CitationRevision]):
        meta (ListMeta):
    """

    data: list[CitationRevision]
    meta: ListMeta
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = []
        for componentsschemas_citation_revision_list_item_data in self.data:
            componentsschemas_citation_revision_list_item = componentsschemas_citation_revision_list_item_data.to_dict()
            data.append(componentsschemas_citation_revision_list_item)

        meta = self.meta.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "meta": meta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.citation_revision import CitationRevision  # noqa: PLC0415
        from ..models.list_meta import ListMeta  # noqa: PLC0415

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for componentsschemas_citation_revision_list_item_data in _data:
            componentsschemas_citation_revision_list_item = CitationRevision.from_dict(
                componentsschemas_citation_revision_list_item_data
            )

            data.append(componentsschemas_citation_revision_list_item)

        meta = ListMeta.from_dict(d.pop("meta"))

        list_citation_revisions_response_200 = cls(
            data=data,
            meta=meta,
        )

        list_citation_revisions_response_200.additional_properties = d
        return list_citation_revisions_response_200

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
