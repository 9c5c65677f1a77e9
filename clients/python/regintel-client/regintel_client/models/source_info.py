from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.source_info_origin import SourceInfoOrigin


T = TypeVar("T", bound="SourceInfo")


@_attrs_define
class SourceInfo:
    """
    Attributes:
        license_ (str):
        publisher (str):
        title (str):
        landing_url (None | str | Unset):
        origin (SourceInfoOrigin | Unset):
        transformation (None | str | Unset):
    """

    license_: str
    publisher: str
    title: str
    landing_url: None | str | Unset = UNSET
    origin: SourceInfoOrigin | Unset = UNSET
    transformation: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        license_ = self.license_

        publisher = self.publisher

        title = self.title

        landing_url: None | str | Unset
        if isinstance(self.landing_url, Unset):
            landing_url = UNSET
        else:
            landing_url = self.landing_url

        origin: dict[str, Any] | Unset = UNSET
        if not isinstance(self.origin, Unset):
            origin = self.origin.to_dict()

        transformation: None | str | Unset
        if isinstance(self.transformation, Unset):
            transformation = UNSET
        else:
            transformation = self.transformation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "license": license_,
                "publisher": publisher,
                "title": title,
            }
        )
        if landing_url is not UNSET:
            field_dict["landing_url"] = landing_url
        if origin is not UNSET:
            field_dict["origin"] = origin
        if transformation is not UNSET:
            field_dict["transformation"] = transformation

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.source_info_origin import SourceInfoOrigin  # noqa: PLC0415

        d = dict(src_dict)
        license_ = d.pop("license")

        publisher = d.pop("publisher")

        title = d.pop("title")

        def _parse_landing_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        landing_url = _parse_landing_url(d.pop("landing_url", UNSET))

        _origin = d.pop("origin", UNSET)
        origin: SourceInfoOrigin | Unset
        if isinstance(_origin, Unset):
            origin = UNSET
        else:
            origin = SourceInfoOrigin.from_dict(_origin)

        def _parse_transformation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        transformation = _parse_transformation(d.pop("transformation", UNSET))

        source_info = cls(
            license_=license_,
            publisher=publisher,
            title=title,
            landing_url=landing_url,
            origin=origin,
            transformation=transformation,
        )

        source_info.additional_properties = d
        return source_info

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
