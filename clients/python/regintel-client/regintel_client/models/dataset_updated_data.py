from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dataset_updated_data_visibility import DatasetUpdatedDataVisibility

if TYPE_CHECKING:
    from ..models.dataset_updated_data_links import DatasetUpdatedDataLinks
    from ..models.row_change import RowChange


T = TypeVar("T", bound="DatasetUpdatedData")


@_attrs_define
class DatasetUpdatedData:
    """
    Attributes:
        changes (list[RowChange]): The rows that are new, revised or withdrawn, in the file's order (withdrawals last),
            up to the bound: each with its region, period and series, its value as published and, for a revision or a
            withdrawal, the value and citation it replaces.
        changes_complete (bool): False when more rows changed than are listed: `links.changes` lists them all, paged.
        dataset (str):
        links (DatasetUpdatedDataLinks):
        rows_added (int):
        rows_revised (int):
        rows_unchanged (int):
        rows_withdrawn (int): Rows a whole-dataset fetch from Eurostat no longer held, withdrawn (0 for any other
            import).
        snapshot (str): The new snapshot (`snp_...`).
        visibility (DatasetUpdatedDataVisibility): Public data goes to every subscribed endpoint; an account's private
            data only to its own.
    """

    changes: list[RowChange]
    changes_complete: bool
    dataset: str
    links: DatasetUpdatedDataLinks
    rows_added: int
    rows_revised: int
    rows_unchanged: int
    rows_withdrawn: int
    snapshot: str
    visibility: DatasetUpdatedDataVisibility
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        changes_complete = self.changes_complete

        dataset = self.dataset

        links = self.links.to_dict()

        rows_added = self.rows_added

        rows_revised = self.rows_revised

        rows_unchanged = self.rows_unchanged

        rows_withdrawn = self.rows_withdrawn

        snapshot = self.snapshot

        visibility = self.visibility.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "changes_complete": changes_complete,
                "dataset": dataset,
                "links": links,
                "rows_added": rows_added,
                "rows_revised": rows_revised,
                "rows_unchanged": rows_unchanged,
                "rows_withdrawn": rows_withdrawn,
                "snapshot": snapshot,
                "visibility": visibility,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_updated_data_links import DatasetUpdatedDataLinks  # noqa: PLC0415
        from ..models.row_change import RowChange  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = RowChange.from_dict(changes_item_data)

            changes.append(changes_item)

        changes_complete = d.pop("changes_complete")

        dataset = d.pop("dataset")

        links = DatasetUpdatedDataLinks.from_dict(d.pop("links"))

        rows_added = d.pop("rows_added")

        rows_revised = d.pop("rows_revised")

        rows_unchanged = d.pop("rows_unchanged")

        rows_withdrawn = d.pop("rows_withdrawn")

        snapshot = d.pop("snapshot")

        visibility = DatasetUpdatedDataVisibility(d.pop("visibility"))

        dataset_updated_data = cls(
            changes=changes,
            changes_complete=changes_complete,
            dataset=dataset,
            links=links,
            rows_added=rows_added,
            rows_revised=rows_revised,
            rows_unchanged=rows_unchanged,
            rows_withdrawn=rows_withdrawn,
            snapshot=snapshot,
            visibility=visibility,
        )

        dataset_updated_data.additional_properties = d
        return dataset_updated_data

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
