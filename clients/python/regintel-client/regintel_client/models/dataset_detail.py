from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cited_snapshot import CitedSnapshot
    from ..models.code_label import CodeLabel
    from ..models.dataset_detail_series_item import DatasetDetailSeriesItem
    from ..models.dataset_summary_data_obtained_type_1 import DatasetSummaryDataObtainedType1
    from ..models.dataset_summary_dimensions_item import DatasetSummaryDimensionsItem
    from ..models.dataset_summary_headline import DatasetSummaryHeadline
    from ..models.periods import Periods
    from ..models.snapshot_info import SnapshotInfo
    from ..models.source_info import SourceInfo


T = TypeVar("T", bound="DatasetDetail")


@_attrs_define
class DatasetDetail:
    """
    Attributes:
        code (str):
        dimensions (list[DatasetSummaryDimensionsItem]):
        headline (DatasetSummaryHeadline):
        observations (int):
        periods (Periods):
        private (bool):
        title (str):
        topic (str):
        units (list[CodeLabel]):
        series (list[DatasetDetailSeriesItem]):
        snapshot_count (int): How many snapshots the dataset has.
        snapshots (list[CitedSnapshot]): The newest snapshots, 10 at most: `GET /datasets/{dataset_code}/snapshots`
            pages them all.
        citation (None | str | Unset): The latest snapshot, which the description, periods and counts are of.
        data_obtained (DatasetSummaryDataObtainedType1 | None | Unset): How old the data are, as the source of the
            latest snapshot says (a later fetch of the same data makes no snapshot and leaves it as it was); null for
            uploads and files an operator imported.
        label (None | str | Unset):
        latest_snapshot (None | SnapshotInfo | Unset):
        nuts_edition (None | str | Unset):
        source (None | SourceInfo | Unset):
        strict_regions (bool | Unset): An account's own dataset only: its uploads refuse region codes of no known
            region.
    """

    code: str
    dimensions: list[DatasetSummaryDimensionsItem]
    headline: DatasetSummaryHeadline
    observations: int
    periods: Periods
    private: bool
    title: str
    topic: str
    units: list[CodeLabel]
    series: list[DatasetDetailSeriesItem]
    snapshot_count: int
    snapshots: list[CitedSnapshot]
    citation: None | str | Unset = UNSET
    data_obtained: DatasetSummaryDataObtainedType1 | None | Unset = UNSET
    label: None | str | Unset = UNSET
    latest_snapshot: None | SnapshotInfo | Unset = UNSET
    nuts_edition: None | str | Unset = UNSET
    source: None | SourceInfo | Unset = UNSET
    strict_regions: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_summary_data_obtained_type_1 import DatasetSummaryDataObtainedType1  # noqa: PLC0415
        from ..models.snapshot_info import SnapshotInfo  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        code = self.code

        dimensions = []
        for dimensions_item_data in self.dimensions:
            dimensions_item = dimensions_item_data.to_dict()
            dimensions.append(dimensions_item)

        headline = self.headline.to_dict()

        observations = self.observations

        periods = self.periods.to_dict()

        private = self.private

        title = self.title

        topic = self.topic

        units = []
        for units_item_data in self.units:
            units_item = units_item_data.to_dict()
            units.append(units_item)

        series = []
        for series_item_data in self.series:
            series_item = series_item_data.to_dict()
            series.append(series_item)

        snapshot_count = self.snapshot_count

        snapshots = []
        for snapshots_item_data in self.snapshots:
            snapshots_item = snapshots_item_data.to_dict()
            snapshots.append(snapshots_item)

        citation: None | str | Unset
        if isinstance(self.citation, Unset):
            citation = UNSET
        else:
            citation = self.citation

        data_obtained: dict[str, Any] | None | Unset
        if isinstance(self.data_obtained, Unset):
            data_obtained = UNSET
        elif isinstance(self.data_obtained, DatasetSummaryDataObtainedType1):
            data_obtained = self.data_obtained.to_dict()
        else:
            data_obtained = self.data_obtained

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        latest_snapshot: dict[str, Any] | None | Unset
        if isinstance(self.latest_snapshot, Unset):
            latest_snapshot = UNSET
        elif isinstance(self.latest_snapshot, SnapshotInfo):
            latest_snapshot = self.latest_snapshot.to_dict()
        else:
            latest_snapshot = self.latest_snapshot

        nuts_edition: None | str | Unset
        if isinstance(self.nuts_edition, Unset):
            nuts_edition = UNSET
        else:
            nuts_edition = self.nuts_edition

        source: dict[str, Any] | None | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, SourceInfo):
            source = self.source.to_dict()
        else:
            source = self.source

        strict_regions = self.strict_regions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "dimensions": dimensions,
                "headline": headline,
                "observations": observations,
                "periods": periods,
                "private": private,
                "title": title,
                "topic": topic,
                "units": units,
                "series": series,
                "snapshot_count": snapshot_count,
                "snapshots": snapshots,
            }
        )
        if citation is not UNSET:
            field_dict["citation"] = citation
        if data_obtained is not UNSET:
            field_dict["data_obtained"] = data_obtained
        if label is not UNSET:
            field_dict["label"] = label
        if latest_snapshot is not UNSET:
            field_dict["latest_snapshot"] = latest_snapshot
        if nuts_edition is not UNSET:
            field_dict["nuts_edition"] = nuts_edition
        if source is not UNSET:
            field_dict["source"] = source
        if strict_regions is not UNSET:
            field_dict["strict_regions"] = strict_regions

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cited_snapshot import CitedSnapshot  # noqa: PLC0415
        from ..models.code_label import CodeLabel  # noqa: PLC0415
        from ..models.dataset_detail_series_item import DatasetDetailSeriesItem  # noqa: PLC0415
        from ..models.dataset_summary_data_obtained_type_1 import DatasetSummaryDataObtainedType1  # noqa: PLC0415
        from ..models.dataset_summary_dimensions_item import DatasetSummaryDimensionsItem  # noqa: PLC0415
        from ..models.dataset_summary_headline import DatasetSummaryHeadline  # noqa: PLC0415
        from ..models.periods import Periods  # noqa: PLC0415
        from ..models.snapshot_info import SnapshotInfo  # noqa: PLC0415
        from ..models.source_info import SourceInfo  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        dimensions = []
        _dimensions = d.pop("dimensions")
        for dimensions_item_data in _dimensions:
            dimensions_item = DatasetSummaryDimensionsItem.from_dict(dimensions_item_data)

            dimensions.append(dimensions_item)

        headline = DatasetSummaryHeadline.from_dict(d.pop("headline"))

        observations = d.pop("observations")

        periods = Periods.from_dict(d.pop("periods"))

        private = d.pop("private")

        title = d.pop("title")

        topic = d.pop("topic")

        units = []
        _units = d.pop("units")
        for units_item_data in _units:
            units_item = CodeLabel.from_dict(units_item_data)

            units.append(units_item)

        series = []
        _series = d.pop("series")
        for series_item_data in _series:
            series_item = DatasetDetailSeriesItem.from_dict(series_item_data)

            series.append(series_item)

        snapshot_count = d.pop("snapshot_count")

        snapshots = []
        _snapshots = d.pop("snapshots")
        for snapshots_item_data in _snapshots:
            snapshots_item = CitedSnapshot.from_dict(snapshots_item_data)

            snapshots.append(snapshots_item)

        def _parse_citation(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        citation = _parse_citation(d.pop("citation", UNSET))

        def _parse_data_obtained(data: object) -> DatasetSummaryDataObtainedType1 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_obtained_type_1 = DatasetSummaryDataObtainedType1.from_dict(data)

                return data_obtained_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DatasetSummaryDataObtainedType1 | None | Unset, data)

        data_obtained = _parse_data_obtained(d.pop("data_obtained", UNSET))

        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        def _parse_latest_snapshot(data: object) -> None | SnapshotInfo | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                latest_snapshot_type_1 = SnapshotInfo.from_dict(data)

                return latest_snapshot_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SnapshotInfo | Unset, data)

        latest_snapshot = _parse_latest_snapshot(d.pop("latest_snapshot", UNSET))

        def _parse_nuts_edition(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        nuts_edition = _parse_nuts_edition(d.pop("nuts_edition", UNSET))

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

        strict_regions = d.pop("strict_regions", UNSET)

        dataset_detail = cls(
            code=code,
            dimensions=dimensions,
            headline=headline,
            observations=observations,
            periods=periods,
            private=private,
            title=title,
            topic=topic,
            units=units,
            series=series,
            snapshot_count=snapshot_count,
            snapshots=snapshots,
            citation=citation,
            data_obtained=data_obtained,
            label=label,
            latest_snapshot=latest_snapshot,
            nuts_edition=nuts_edition,
            source=source,
            strict_regions=strict_regions,
        )

        dataset_detail.additional_properties = d
        return dataset_detail

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
