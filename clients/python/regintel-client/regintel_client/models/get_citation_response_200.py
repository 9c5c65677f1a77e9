from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.citation_detail import CitationDetail
    from ..models.classification_citation import ClassificationCitation
    from ..models.meta import Meta
    from ..models.snapshot_citation import SnapshotCitation


T = TypeVar("T", bound="GetCitationResponse200")


@_attrs_define
class GetCitationResponse200:
    """
    Attributes:
        data (CitationDetail | ClassificationCitation | SnapshotCitation):
        meta (Meta):
    """

    data: CitationDetail | ClassificationCitation | SnapshotCitation
    meta: Meta
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.citation_detail import CitationDetail  # noqa: PLC0415
        from ..models.classification_citation import ClassificationCitation  # noqa: PLC0415

        data: dict[str, Any]
        if isinstance(self.data, CitationDetail):
            data = self.data.to_dict()
        elif isinstance(self.data, ClassificationCitation):
            data = self.data.to_dict()
        else:
            data = self.data.to_dict()

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
        from ..models.citation_detail import CitationDetail  # noqa: PLC0415
        from ..models.classification_citation import ClassificationCitation  # noqa: PLC0415
        from ..models.meta import Meta  # noqa: PLC0415
        from ..models.snapshot_citation import SnapshotCitation  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_data(data: object) -> CitationDetail | ClassificationCitation | SnapshotCitation:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_citation_type_0 = CitationDetail.from_dict(data)

                return componentsschemas_citation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_citation_type_1 = ClassificationCitation.from_dict(data)

                return componentsschemas_citation_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_citation_type_2 = SnapshotCitation.from_dict(data)

            return componentsschemas_citation_type_2

        data = _parse_data(d.pop("data"))

        meta = Meta.from_dict(d.pop("meta"))

        get_citation_response_200 = cls(
            data=data,
            meta=meta,
        )

        get_citation_response_200.additional_properties = d
        return get_citation_response_200

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
