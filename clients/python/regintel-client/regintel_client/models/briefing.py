from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.briefing_briefing_type import BriefingBriefingType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.briefing_as_of import BriefingAsOf
    from ..models.briefing_breaks_item import BriefingBreaksItem
    from ..models.briefing_generator import BriefingGenerator
    from ..models.briefing_region import BriefingRegion
    from ..models.briefing_revisions import BriefingRevisions
    from ..models.briefing_sections_item import BriefingSectionsItem
    from ..models.briefing_verification import BriefingVerification
    from ..models.claim import Claim


T = TypeVar("T", bound="Briefing")


@_attrs_define
class Briefing:
    """
    Attributes:
        briefing_type (BriefingBriefingType):
        claims (list[Claim]):
        created_at (datetime.datetime):
        generator (BriefingGenerator):
        id (str):
        not_covered (list[str]): Series of the briefing's topics without a value for the region.
        region (BriefingRegion):
        sections (list[BriefingSectionsItem]):
        title (str):
        verification (BriefingVerification):
        as_of (BriefingAsOf | Unset):
        breaks (list[BriefingBreaksItem] | Unset): The breaks in series the text names (a value flagged b), each with
            its row.
        revisions (BriefingRevisions | Unset):
    """

    briefing_type: BriefingBriefingType
    claims: list[Claim]
    created_at: datetime.datetime
    generator: BriefingGenerator
    id: str
    not_covered: list[str]
    region: BriefingRegion
    sections: list[BriefingSectionsItem]
    title: str
    verification: BriefingVerification
    as_of: BriefingAsOf | Unset = UNSET
    breaks: list[BriefingBreaksItem] | Unset = UNSET
    revisions: BriefingRevisions | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        briefing_type = self.briefing_type.value

        claims = []
        for claims_item_data in self.claims:
            claims_item = claims_item_data.to_dict()
            claims.append(claims_item)

        created_at = self.created_at.isoformat()

        generator = self.generator.to_dict()

        id = self.id

        not_covered = self.not_covered

        region = self.region.to_dict()

        sections = []
        for sections_item_data in self.sections:
            sections_item = sections_item_data.to_dict()
            sections.append(sections_item)

        title = self.title

        verification = self.verification.to_dict()

        as_of: dict[str, Any] | Unset = UNSET
        if not isinstance(self.as_of, Unset):
            as_of = self.as_of.to_dict()

        breaks: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.breaks, Unset):
            breaks = []
            for breaks_item_data in self.breaks:
                breaks_item = breaks_item_data.to_dict()
                breaks.append(breaks_item)

        revisions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.revisions, Unset):
            revisions = self.revisions.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "briefing_type": briefing_type,
                "claims": claims,
                "created_at": created_at,
                "generator": generator,
                "id": id,
                "not_covered": not_covered,
                "region": region,
                "sections": sections,
                "title": title,
                "verification": verification,
            }
        )
        if as_of is not UNSET:
            field_dict["as_of"] = as_of
        if breaks is not UNSET:
            field_dict["breaks"] = breaks
        if revisions is not UNSET:
            field_dict["revisions"] = revisions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.briefing_as_of import BriefingAsOf  # noqa: PLC0415
        from ..models.briefing_breaks_item import BriefingBreaksItem  # noqa: PLC0415
        from ..models.briefing_generator import BriefingGenerator  # noqa: PLC0415
        from ..models.briefing_region import BriefingRegion  # noqa: PLC0415
        from ..models.briefing_revisions import BriefingRevisions  # noqa: PLC0415
        from ..models.briefing_sections_item import BriefingSectionsItem  # noqa: PLC0415
        from ..models.briefing_verification import BriefingVerification  # noqa: PLC0415
        from ..models.claim import Claim  # noqa: PLC0415

        d = dict(src_dict)
        briefing_type = BriefingBriefingType(d.pop("briefing_type"))

        claims = []
        _claims = d.pop("claims")
        for claims_item_data in _claims:
            claims_item = Claim.from_dict(claims_item_data)

            claims.append(claims_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        generator = BriefingGenerator.from_dict(d.pop("generator"))

        id = d.pop("id")

        not_covered = cast(list[str], d.pop("not_covered"))

        region = BriefingRegion.from_dict(d.pop("region"))

        sections = []
        _sections = d.pop("sections")
        for sections_item_data in _sections:
            sections_item = BriefingSectionsItem.from_dict(sections_item_data)

            sections.append(sections_item)

        title = d.pop("title")

        verification = BriefingVerification.from_dict(d.pop("verification"))

        _as_of = d.pop("as_of", UNSET)
        as_of: BriefingAsOf | Unset
        if isinstance(_as_of, Unset):
            as_of = UNSET
        else:
            as_of = BriefingAsOf.from_dict(_as_of)

        _breaks = d.pop("breaks", UNSET)
        breaks: list[BriefingBreaksItem] | Unset = UNSET
        if _breaks is not UNSET:
            breaks = []
            for breaks_item_data in _breaks:
                breaks_item = BriefingBreaksItem.from_dict(breaks_item_data)

                breaks.append(breaks_item)

        _revisions = d.pop("revisions", UNSET)
        revisions: BriefingRevisions | Unset
        if isinstance(_revisions, Unset):
            revisions = UNSET
        else:
            revisions = BriefingRevisions.from_dict(_revisions)

        briefing = cls(
            briefing_type=briefing_type,
            claims=claims,
            created_at=created_at,
            generator=generator,
            id=id,
            not_covered=not_covered,
            region=region,
            sections=sections,
            title=title,
            verification=verification,
            as_of=as_of,
            breaks=breaks,
            revisions=revisions,
        )

        briefing.additional_properties = d
        return briefing

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
