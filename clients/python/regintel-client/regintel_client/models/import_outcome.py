from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.import_outcome_new_regions_item import ImportOutcomeNewRegionsItem


T = TypeVar("T", bound="ImportOutcome")


@_attrs_define
class ImportOutcome:
    """
    Attributes:
        added (int):
        dataset (str):
        new_regions (list[ImportOutcomeNewRegionsItem]): Codes of no known region the body named, which it made regions
            of the account's own.
        revised (int):
        rows_in_file (int):
        unchanged (int):
        file (str | Unset):
        snapshot (None | str | Unset): Null when the data changed nothing.
    """

    added: int
    dataset: str
    new_regions: list[ImportOutcomeNewRegionsItem]
    revised: int
    rows_in_file: int
    unchanged: int
    file: str | Unset = UNSET
    snapshot: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        added = self.added

        dataset = self.dataset

        new_regions = []
        for new_regions_item_data in self.new_regions:
            new_regions_item = new_regions_item_data.to_dict()
            new_regions.append(new_regions_item)

        revised = self.revised

        rows_in_file = self.rows_in_file

        unchanged = self.unchanged

        file = self.file

        snapshot: None | str | Unset
        if isinstance(self.snapshot, Unset):
            snapshot = UNSET
        else:
            snapshot = self.snapshot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "added": added,
                "dataset": dataset,
                "new_regions": new_regions,
                "revised": revised,
                "rows_in_file": rows_in_file,
                "unchanged": unchanged,
            }
        )
        if file is not UNSET:
            field_dict["file"] = file
        if snapshot is not UNSET:
            field_dict["snapshot"] = snapshot

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.import_outcome_new_regions_item import ImportOutcomeNewRegionsItem  # noqa: PLC0415

        d = dict(src_dict)
        added = d.pop("added")

        dataset = d.pop("dataset")

        new_regions = []
        _new_regions = d.pop("new_regions")
        for new_regions_item_data in _new_regions:
            new_regions_item = ImportOutcomeNewRegionsItem.from_dict(new_regions_item_data)

            new_regions.append(new_regions_item)

        revised = d.pop("revised")

        rows_in_file = d.pop("rows_in_file")

        unchanged = d.pop("unchanged")

        file = d.pop("file", UNSET)

        def _parse_snapshot(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        snapshot = _parse_snapshot(d.pop("snapshot", UNSET))

        import_outcome = cls(
            added=added,
            dataset=dataset,
            new_regions=new_regions,
            revised=revised,
            rows_in_file=rows_in_file,
            unchanged=unchanged,
            file=file,
            snapshot=snapshot,
        )

        import_outcome.additional_properties = d
        return import_outcome

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
