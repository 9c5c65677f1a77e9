from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.as_of_meta_basis import AsOfMetaBasis

if TYPE_CHECKING:
    from ..models.as_of_meta_datasets_item import AsOfMetaDatasetsItem


T = TypeVar("T", bound="AsOfMeta")


@_attrs_define
class AsOfMeta:
    """
    Attributes:
        at (datetime.datetime): The moment the answer was read as of (a date's end, or now for today's date).
        basis (AsOfMetaBasis): What the moment was compared with: each snapshot's import here, or Eurostat's publication
            of its data (its import where that is not known).
        datasets (list[AsOfMetaDatasetsItem]): The snapshot each dataset read was read as of.
    """

    at: datetime.datetime
    basis: AsOfMetaBasis
    datasets: list[AsOfMetaDatasetsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        basis = self.basis.value

        datasets = []
        for datasets_item_data in self.datasets:
            datasets_item = datasets_item_data.to_dict()
            datasets.append(datasets_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "basis": basis,
                "datasets": datasets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.as_of_meta_datasets_item import AsOfMetaDatasetsItem  # noqa: PLC0415

        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        basis = AsOfMetaBasis(d.pop("basis"))

        datasets = []
        _datasets = d.pop("datasets")
        for datasets_item_data in _datasets:
            datasets_item = AsOfMetaDatasetsItem.from_dict(datasets_item_data)

            datasets.append(datasets_item)

        as_of_meta = cls(
            at=at,
            basis=basis,
            datasets=datasets,
        )

        as_of_meta.additional_properties = d
        return as_of_meta

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
