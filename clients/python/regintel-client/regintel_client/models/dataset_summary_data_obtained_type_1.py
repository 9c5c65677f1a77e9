from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.dataset_summary_data_obtained_type_1_basis import DatasetSummaryDataObtainedType1Basis
from ..types import UNSET, Unset

T = TypeVar("T", bound="DatasetSummaryDataObtainedType1")


@_attrs_define
class DatasetSummaryDataObtainedType1:
    """
    Attributes:
        at (datetime.datetime):
        basis (DatasetSummaryDataObtainedType1Basis): `downloaded`: fetched from Eurostat at `at`. `no_later_than`: a
            file of the bundled extract, copied from a repository whose commit of `at` held it; its data may be older (the
            file carries no date of its own).
        eurostat_last_update (None | str | Unset): Eurostat's last update of the dataset's data when it was fetched
            (`yyyy-mm-dd`); null for the bundled extract.
    """

    at: datetime.datetime
    basis: DatasetSummaryDataObtainedType1Basis
    eurostat_last_update: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        basis = self.basis.value

        eurostat_last_update: None | str | Unset
        if isinstance(self.eurostat_last_update, Unset):
            eurostat_last_update = UNSET
        else:
            eurostat_last_update = self.eurostat_last_update

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "basis": basis,
            }
        )
        if eurostat_last_update is not UNSET:
            field_dict["eurostat_last_update"] = eurostat_last_update

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        basis = DatasetSummaryDataObtainedType1Basis(d.pop("basis"))

        def _parse_eurostat_last_update(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        eurostat_last_update = _parse_eurostat_last_update(d.pop("eurostat_last_update", UNSET))

        dataset_summary_data_obtained_type_1 = cls(
            at=at,
            basis=basis,
            eurostat_last_update=eurostat_last_update,
        )

        dataset_summary_data_obtained_type_1.additional_properties = d
        return dataset_summary_data_obtained_type_1

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
