from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.flag import Flag


T = TypeVar("T", bound="Cited")


@_attrs_define
class Cited:
    """
    Attributes:
        citation (str):
        flags (list[Flag]):
        period (str):
        value (float | None): Null when the source publishes only a flag.
    """

    citation: str
    flags: list[Flag]
    period: str
    value: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        citation = self.citation

        flags = []
        for flags_item_data in self.flags:
            flags_item = flags_item_data.to_dict()
            flags.append(flags_item)

        period = self.period

        value: float | None
        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "citation": citation,
                "flags": flags,
                "period": period,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.flag import Flag  # noqa: PLC0415

        d = dict(src_dict)
        citation = d.pop("citation")

        flags = []
        _flags = d.pop("flags")
        for flags_item_data in _flags:
            flags_item = Flag.from_dict(flags_item_data)

            flags.append(flags_item)

        period = d.pop("period")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        cited = cls(
            citation=citation,
            flags=flags,
            period=period,
            value=value,
        )

        cited.additional_properties = d
        return cited

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
