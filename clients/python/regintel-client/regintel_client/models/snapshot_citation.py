from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.snapshot_citation_dataset import SnapshotCitationDataset
    from ..models.snapshot_info import SnapshotInfo
    from ..models.source_info import SourceInfo


T = TypeVar("T", bound="SnapshotCitation")


@_attrs_define
class SnapshotCitation:
    """
    Attributes:
        dataset (SnapshotCitationDataset):
        how_to_verify (str):
        id (str):
        kind (Literal['snapshot']):
        snapshot (SnapshotInfo):
        source (None | SourceInfo | Unset):
    """

    dataset: SnapshotCitationDataset
    how_to_verify: str
    id: str
    kind: Literal["snapshot"]
    snapshot: SnapshotInfo
    source: None | SourceInfo | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        dataset = self.dataset.to_dict()

        how_to_verify = self.how_to_verify

        id = self.id

        kind = self.kind

        snapshot = self.snapshot.to_dict()

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
                "dataset": dataset,
                "how_to_verify": how_to_verify,
                "id": id,
                "kind": kind,
                "snapshot": snapshot,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.snapshot_citation_dataset import SnapshotCitationDataset  # noqa: PLC0415
        from ..models.snapshot_info import SnapshotInfo  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        d = dict(src_dict)
        dataset = SnapshotCitationDataset.from_dict(d.pop("dataset"))

        how_to_verify = d.pop("how_to_verify")

        id = d.pop("id")

        kind = cast(Literal["snapshot"], d.pop("kind"))
        if kind != "snapshot":
            raise ValueError(f"kind must match const 'snapshot', got '{kind}'")

        snapshot = SnapshotInfo.from_dict(d.pop("snapshot"))

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

        snapshot_citation = cls(
            dataset=dataset,
            how_to_verify=how_to_verify,
            id=id,
            kind=kind,
            snapshot=snapshot,
            source=source,
        )

        snapshot_citation.additional_properties = d
        return snapshot_citation

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
