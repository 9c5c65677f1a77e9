from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.briefing_generator_name import BriefingGeneratorName
from ..types import UNSET, Unset

T = TypeVar("T", bound="BriefingGenerator")


@_attrs_define
class BriefingGenerator:
    """
    Attributes:
        name (BriefingGeneratorName): Who wrote the text: regintel's own writer, or the configured model server.
        version (int): Version of regintel's writer, whose facts and claims the text states.
        fallback_reason (str | Unset): Why the model's text was not used; the deterministic text stands.
        model (str | Unset): The model that wrote the text, or whose text was refused.
    """

    name: BriefingGeneratorName
    version: int
    fallback_reason: str | Unset = UNSET
    model: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name.value

        version = self.version

        fallback_reason = self.fallback_reason

        model = self.model

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "version": version,
            }
        )
        if fallback_reason is not UNSET:
            field_dict["fallback_reason"] = fallback_reason
        if model is not UNSET:
            field_dict["model"] = model

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = BriefingGeneratorName(d.pop("name"))

        version = d.pop("version")

        fallback_reason = d.pop("fallback_reason", UNSET)

        model = d.pop("model", UNSET)

        briefing_generator = cls(
            name=name,
            version=version,
            fallback_reason=fallback_reason,
            model=model,
        )

        briefing_generator.additional_properties = d
        return briefing_generator

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
