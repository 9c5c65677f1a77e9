from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.meta_access import MetaAccess
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.as_of_meta import AsOfMeta
    from ..models.meta_citations import MetaCitations


T = TypeVar("T", bound="ListMeta")


@_attrs_define
class ListMeta:
    """
    Attributes:
        access (MetaAccess): public: only public data was used
        api_version (Literal['v1']):
        generated_at (datetime.datetime):
        request_id (str):
        limit (int): Items per page, as asked or the list's default.
        next_cursor (None | str): Pass as `cursor` for the next page; null on the last.
        as_of (AsOfMeta | Unset):
        citations (MetaCitations | Unset): Every citation id used in data, in short form.
        snapshots (list[str] | Unset): Snapshots (imports) the data comes from.
        total (int | Unset): Items in the whole list (where counting them is cheap).
    """

    access: MetaAccess
    api_version: Literal["v1"]
    generated_at: datetime.datetime
    request_id: str
    limit: int
    next_cursor: None | str
    as_of: AsOfMeta | Unset = UNSET
    citations: MetaCitations | Unset = UNSET
    snapshots: list[str] | Unset = UNSET
    total: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        access = self.access.value

        api_version = self.api_version

        generated_at = self.generated_at.isoformat()

        request_id = self.request_id

        limit = self.limit

        next_cursor: None | str
        next_cursor = self.next_cursor

        as_of: dict[str, Any] | Unset = UNSET
        if not isinstance(self.as_of, Unset):
            as_of = self.as_of.to_dict()

        citations: dict[str, Any] | Unset = UNSET
        if not isinstance(self.citations, Unset):
            citations = self.citations.to_dict()

        snapshots: list[str] | Unset = UNSET
        if not isinstance(self.snapshots, Unset):
            snapshots = self.snapshots

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "access": access,
                "api_version": api_version,
                "generated_at": generated_at,
                "request_id": request_id,
                "limit": limit,
                "next_cursor": next_cursor,
            }
        )
        if as_of is not UNSET:
            field_dict["as_of"] = as_of
        if citations is not UNSET:
            field_dict["citations"] = citations
        if snapshots is not UNSET:
            field_dict["snapshots"] = snapshots
        if total is not UNSET:
            field_dict["total"] = total

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.as_of_meta import AsOfMeta  # noqa: PLC0415
        from ..models.meta_citations import MetaCitations  # noqa: PLC0415

        d = dict(src_dict)
        access = MetaAccess(d.pop("access"))

        api_version = cast(Literal["v1"], d.pop("api_version"))
        if api_version != "v1":
            raise ValueError(f"api_version must match const 'v1', got '{api_version}'")

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        request_id = d.pop("request_id")

        limit = d.pop("limit")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        _as_of = d.pop("as_of", UNSET)
        as_of: AsOfMeta | Unset
        if isinstance(_as_of, Unset):
            as_of = UNSET
        else:
            as_of = AsOfMeta.from_dict(_as_of)

        _citations = d.pop("citations", UNSET)
        citations: MetaCitations | Unset
        if isinstance(_citations, Unset):
            citations = UNSET
        else:
            citations = MetaCitations.from_dict(_citations)

        snapshots = cast(list[str], d.pop("snapshots", UNSET))

        total = d.pop("total", UNSET)

        list_meta = cls(
            access=access,
            api_version=api_version,
            generated_at=generated_at,
            request_id=request_id,
            limit=limit,
            next_cursor=next_cursor,
            as_of=as_of,
            citations=citations,
            snapshots=snapshots,
            total=total,
        )

        list_meta.additional_properties = d
        return list_meta

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
