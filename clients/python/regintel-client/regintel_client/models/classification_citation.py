from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.classification_citation_fields_item import ClassificationCitationFieldsItem
    from ..models.classification_citation_file import ClassificationCitationFile
    from ..models.region_summary import RegionSummary
    from ..models.source_info import SourceInfo


T = TypeVar("T", bound="ClassificationCitation")


@_attrs_define
class ClassificationCitation:
    """
    Attributes:
        fields (list[ClassificationCitationFieldsItem]):
        file (ClassificationCitationFile):
        how_to_verify (str):
        id (str):
        kind (Literal['classification']):
        region (RegionSummary):
        source (None | SourceInfo | Unset):
    """

    fields: list[ClassificationCitationFieldsItem]
    file: ClassificationCitationFile
    how_to_verify: str
    id: str
    kind: Literal["classification"]
    region: RegionSummary
    source: None | SourceInfo | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        file = self.file.to_dict()

        how_to_verify = self.how_to_verify

        id = self.id

        kind = self.kind

        region = self.region.to_dict()

        source: dict[str, Any] | None | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, SourceInfo):
            source = self.source.to_dict()
        else:
            source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fields": fields,
                "file": file,
                "how_to_verify": how_to_verify,
                "id": id,
                "kind": kind,
                "region": region,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.classification_citation_fields_item import ClassificationCitationFieldsItem  # noqa: PLC0415
        from ..models.classification_citation_file import ClassificationCitationFile  # noqa: PLC0415
        from ..models.region_summary import RegionSummary  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = ClassificationCitationFieldsItem.from_dict(fields_item_data)

            fields.append(fields_item)

        file = ClassificationCitationFile.from_dict(d.pop("file"))

        how_to_verify = d.pop("how_to_verify")

        id = d.pop("id")

        kind = cast(Literal["classification"], d.pop("kind"))
        if kind != "classification":
            raise ValueError(f"kind must match const 'classification', got '{kind}'")

        region = RegionSummary.from_dict(d.pop("region"))

        def _parse_source(data: object) -> None | SourceInfo | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                source_type_1 = SourceInfo.from_dict(data)

                return source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceInfo | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        classification_citation = cls(
            fields=fields,
            file=file,
            how_to_verify=how_to_verify,
            id=id,
            kind=kind,
            region=region,
            source=source,
        )

        classification_citation.additional_properties = d
        return classification_citation

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
