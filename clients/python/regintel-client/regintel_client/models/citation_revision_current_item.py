from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.revision_moment import RevisionMoment


T = TypeVar("T", bound="CitationRevisionCurrentItem")


@_attrs_define
class CitationRevisionCurrentItem:
    """
    Attributes:
        from_ (RevisionMoment):
        until (None | RevisionMoment): Null while it is current.
    """

    from_: RevisionMoment
    until: None | RevisionMoment
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.revision_moment import RevisionMoment  # noqa: PLC0415

        from_ = self.from_.to_dict()

        until: dict[str, Any] | None
        if isinstance(self.until, RevisionMoment):
            until = self.until.to_dict()
        else:
            until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "from": from_,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.revision_moment import RevisionMoment  # noqa: PLC0415

        d = dict(src_dict)
        from_ = RevisionMoment.from_dict(d.pop("from"))

        def _parse_until(data: object) -> None | RevisionMoment:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                until_type_1 = RevisionMoment.from_dict(data)

                return until_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RevisionMoment, data)

        until = _parse_until(d.pop("until"))

        citation_revision_current_item = cls(
            from_=from_,
            until=until,
        )

        citation_revision_current_item.additional_properties = d
        return citation_revision_current_item

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
