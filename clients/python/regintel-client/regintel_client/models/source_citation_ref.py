from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.source_citation_ref_kind import SourceCitationRefKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="SourceCitationRef")


@_attrs_define
class SourceCitationRef:
    """A region's row of the bundled classification, or a dataset's snapshot.

    Attributes:
        file (str):
        kind (SourceCitationRefKind):
        dataset (str | Unset): snapshot: the dataset's code.
        region (str | Unset): classification: the region's code.
        source_url (None | str | Unset):
    """

    file: str
    kind: SourceCitationRefKind
    dataset: str | Unset = UNSET
    region: str | Unset = UNSET
    source_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file

        kind = self.kind.value

        dataset = self.dataset

        region = self.region

        source_url: None | str | Unset
        if isinstance(self.source_url, Unset):
            source_url = UNSET
        else:
            source_url = self.source_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file": file,
                "kind": kind,
            }
        )
        if dataset is not UNSET:
            field_dict["dataset"] = dataset
        if region is not UNSET:
            field_dict["region"] = region
        if source_url is not UNSET:
            field_dict["source_url"] = source_url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = d.pop("file")

        kind = SourceCitationRefKind(d.pop("kind"))

        dataset = d.pop("dataset", UNSET)

        region = d.pop("region", UNSET)

        def _parse_source_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_url = _parse_source_url(d.pop("source_url", UNSET))

        source_citation_ref = cls(
            file=file,
            kind=kind,
            dataset=dataset,
            region=region,
            source_url=source_url,
        )

        source_citation_ref.additional_properties = d
        return source_citation_ref

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
