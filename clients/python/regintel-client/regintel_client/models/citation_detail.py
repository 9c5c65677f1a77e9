from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.citation_detail_dataset import CitationDetailDataset
    from ..models.citation_detail_dimensions import CitationDetailDimensions
    from ..models.citation_detail_links import CitationDetailLinks
    from ..models.citation_detail_region import CitationDetailRegion
    from ..models.flag import Flag
    from ..models.location import Location
    from ..models.snapshot_info import SnapshotInfo
    from ..models.source_info import SourceInfo


T = TypeVar("T", bound="CitationDetail")


@_attrs_define
class CitationDetail:
    """
    Attributes:
        current_citation (str):
        dataset (CitationDetailDataset):
        dimensions (CitationDetailDimensions):
        flags (list[Flag]):
        how_to_verify (str):
        id (str):
        links (CitationDetailLinks):
        location (Location | None): Where the file shows the value; null for a withdrawal (the file does not hold it).
        period (str):
        region (CitationDetailRegion):
        snapshot (SnapshotInfo):
        superseded_by (None | str):
        unit (str):
        value (float | None):
        value_text (str): The value exactly as printed in the source.
        withdrawn_in (None | str): The snapshot (`snp_...`) whose file, a whole-dataset fetch from Eurostat, no longer
            held this observation, when its revisions end in a withdrawal (`current_citation` is then the withdrawal, which
            has no value); null while the observation is published.
        source (None | SourceInfo | Unset):
    """

    current_citation: str
    dataset: CitationDetailDataset
    dimensions: CitationDetailDimensions
    flags: list[Flag]
    how_to_verify: str
    id: str
    links: CitationDetailLinks
    location: Location | None
    period: str
    region: CitationDetailRegion
    snapshot: SnapshotInfo
    superseded_by: None | str
    unit: str
    value: float | None
    value_text: str
    withdrawn_in: None | str
    source: None | SourceInfo | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.location import Location  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        current_citation = self.current_citation

        dataset = self.dataset.to_dict()

        dimensions = self.dimensions.to_dict()

        flags = []
        for flags_item_data in self.flags:
            flags_item = flags_item_data.to_dict()
            flags.append(flags_item)

        how_to_verify = self.how_to_verify

        id = self.id

        links = self.links.to_dict()

        location: dict[str, Any] | None
        if isinstance(self.location, Location):
            location = self.location.to_dict()
        else:
            location = self.location

        period = self.period

        region = self.region.to_dict()

        snapshot = self.snapshot.to_dict()

        superseded_by: None | str
        superseded_by = self.superseded_by

        unit = self.unit

        value: float | None
        value = self.value

        value_text = self.value_text

        withdrawn_in: None | str
        withdrawn_in = self.withdrawn_in

        source: dict[str, Any] | None | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, SourceInfo):
            source = self.source.to_dict()
        else:
            source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "current_citation": current_citation,
                "dataset": dataset,
                "dimensions": dimensions,
                "flags": flags,
                "how_to_verify": how_to_verify,
                "id": id,
                "links": links,
                "location": location,
                "period": period,
                "region": region,
                "snapshot": snapshot,
                "superseded_by": superseded_by,
                "unit": unit,
                "value": value,
                "value_text": value_text,
                "withdrawn_in": withdrawn_in,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.citation_detail_dataset import CitationDetailDataset  # noqa: PLC0415
        from ..models.citation_detail_dimensions import CitationDetailDimensions  # noqa: PLC0415
        from ..models.citation_detail_links import CitationDetailLinks  # noqa: PLC0415
        from ..models.citation_detail_region import CitationDetailRegion  # noqa: PLC0415
        from ..models.flag import Flag  # noqa: PLC0415
        from ..models.location import Location  # noqa: PLC0415
        from ..models.snapshot_info import SnapshotInfo  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        d = dict(src_dict)
        current_citation = d.pop("current_citation")

        dataset = CitationDetailDataset.from_dict(d.pop("dataset"))

        dimensions = CitationDetailDimensions.from_dict(d.pop("dimensions"))

        flags = []
        _flags = d.pop("flags")
        for flags_item_data in _flags:
            flags_item = Flag.from_dict(flags_item_data)

            flags.append(flags_item)

        how_to_verify = d.pop("how_to_verify")

        id = d.pop("id")

        links = CitationDetailLinks.from_dict(d.pop("links"))

        def _parse_location(data: object) -> Location | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                location_type_1 = Location.from_dict(data)

                return location_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Location | None, data)

        location = _parse_location(d.pop("location"))

        period = d.pop("period")

        region = CitationDetailRegion.from_dict(d.pop("region"))

        snapshot = SnapshotInfo.from_dict(d.pop("snapshot"))

        def _parse_superseded_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        superseded_by = _parse_superseded_by(d.pop("superseded_by"))

        unit = d.pop("unit")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        value_text = d.pop("value_text")

        def _parse_withdrawn_in(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        withdrawn_in = _parse_withdrawn_in(d.pop("withdrawn_in"))

        def _parse_source(data: object) -> None | SourceInfo | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                source_type_1 = SourceInfo.from_dict(data)

                return source_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SourceInfo | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        citation_detail = cls(
            current_citation=current_citation,
            dataset=dataset,
            dimensions=dimensions,
            flags=flags,
            how_to_verify=how_to_verify,
            id=id,
            links=links,
            location=location,
            period=period,
            region=region,
            snapshot=snapshot,
            superseded_by=superseded_by,
            unit=unit,
            value=value,
            value_text=value_text,
            withdrawn_in=withdrawn_in,
            source=source,
        )

        citation_detail.additional_properties = d
        return citation_detail

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
