from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Readiness")


@_attrs_define
class Readiness:
    """
    Attributes:
        data_generation (int):
        datasets (int):
        rate_limit_entries (int): Rate-limit buckets held in memory (bounded).
        schema_version (int):
        status (Literal['ready']):
    """

    data_generation: int
    datasets: int
    rate_limit_entries: int
    schema_version: int
    status: Literal["ready"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data_generation = self.data_generation

        datasets = self.datasets

        rate_limit_entries = self.rate_limit_entries

        schema_version = self.schema_version

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data_generation": data_generation,
                "datasets": datasets,
                "rate_limit_entries": rate_limit_entries,
                "schema_version": schema_version,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data_generation = d.pop("data_generation")

        datasets = d.pop("datasets")

        rate_limit_entries = d.pop("rate_limit_entries")

        schema_version = d.pop("schema_version")

        status = cast(Literal["ready"], d.pop("status"))
        if status != "ready":
            raise ValueError(f"status must match const 'ready', got '{status}'")

        readiness = cls(
            data_generation=data_generation,
            datasets=datasets,
            rate_limit_entries=rate_limit_entries,
            schema_version=schema_version,
            status=status,
        )

        readiness.additional_properties = d
        return readiness

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
