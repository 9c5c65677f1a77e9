from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.briefing_request_briefing_type import BriefingRequestBriefingType

T = TypeVar("T", bound="BriefingRequest")


@_attrs_define
class BriefingRequest:
    """
    Attributes:
        briefing_type (BriefingRequestBriefingType):
        region_nuts_code (str):
    """

    briefing_type: BriefingRequestBriefingType
    region_nuts_code: str

    def to_dict(self) -> dict[str, Any]:
        briefing_type = self.briefing_type.value

        region_nuts_code = self.region_nuts_code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "briefing_type": briefing_type,
                "region_nuts_code": region_nuts_code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        briefing_type = BriefingRequestBriefingType(d.pop("briefing_type"))

        region_nuts_code = d.pop("region_nuts_code")

        briefing_request = cls(
            briefing_type=briefing_type,
            region_nuts_code=region_nuts_code,
        )

        return briefing_request
