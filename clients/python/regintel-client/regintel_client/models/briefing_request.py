from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.briefing_request_as_of_basis import BriefingRequestAsOfBasis
from ..models.briefing_request_briefing_type import BriefingRequestBriefingType
from ..types import UNSET, Unset

T = TypeVar("T", bound="BriefingRequest")


@_attrs_define
class BriefingRequest:
    """
    Attributes:
        briefing_type (BriefingRequestBriefingType):
        region_nuts_code (str):
        as_of (str | Unset): Write from the data as of this moment: an RFC 3339 date-time, or a date meaning the end of
            that day UTC (today's: now); not later than now. As the `as_of` of the reads.
        as_of_basis (BriefingRequestAsOfBasis | Unset): What `as_of` is compared with, as for the reads. Default:
            BriefingRequestAsOfBasis.IMPORTED.
    """

    briefing_type: BriefingRequestBriefingType
    region_nuts_code: str
    as_of: str | Unset = UNSET
    as_of_basis: BriefingRequestAsOfBasis | Unset = BriefingRequestAsOfBasis.IMPORTED

    def to_dict(self) -> dict[str, Any]:
        briefing_type = self.briefing_type.value

        region_nuts_code = self.region_nuts_code

        as_of = self.as_of

        as_of_basis: str | Unset = UNSET
        if not isinstance(self.as_of_basis, Unset):
            as_of_basis = self.as_of_basis.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "briefing_type": briefing_type,
                "region_nuts_code": region_nuts_code,
            }
        )
        if as_of is not UNSET:
            field_dict["as_of"] = as_of
        if as_of_basis is not UNSET:
            field_dict["as_of_basis"] = as_of_basis

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        briefing_type = BriefingRequestBriefingType(d.pop("briefing_type"))

        region_nuts_code = d.pop("region_nuts_code")

        as_of = d.pop("as_of", UNSET)

        _as_of_basis = d.pop("as_of_basis", UNSET)
        as_of_basis: BriefingRequestAsOfBasis | Unset
        if isinstance(_as_of_basis, Unset):
            as_of_basis = UNSET
        else:
            as_of_basis = BriefingRequestAsOfBasis(_as_of_basis)

        briefing_request = cls(
            briefing_type=briefing_type,
            region_nuts_code=region_nuts_code,
            as_of=as_of,
            as_of_basis=as_of_basis,
        )

        return briefing_request
