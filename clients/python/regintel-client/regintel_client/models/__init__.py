"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .account_tier import AccountTier
from .api_key import ApiKey
from .api_key_event_data import ApiKeyEventData
from .api_key_event_data_links import ApiKeyEventDataLinks
from .api_key_status import ApiKeyStatus
from .as_of_meta import AsOfMeta
from .as_of_meta_basis import AsOfMetaBasis
from .as_of_meta_datasets_item import AsOfMetaDatasetsItem
from .briefing import Briefing
from .briefing_as_of import BriefingAsOf
from .briefing_as_of_basis import BriefingAsOfBasis
from .briefing_breaks_item import BriefingBreaksItem
from .briefing_briefing_type import BriefingBriefingType
from .briefing_created_data import BriefingCreatedData
from .briefing_created_data_links import BriefingCreatedDataLinks
from .briefing_generator import BriefingGenerator
from .briefing_generator_name import BriefingGeneratorName
from .briefing_list_item import BriefingListItem
from .briefing_list_item_briefing_type import BriefingListItemBriefingType
from .briefing_region import BriefingRegion
from .briefing_request import BriefingRequest
from .briefing_request_as_of_basis import BriefingRequestAsOfBasis
from .briefing_request_briefing_type import BriefingRequestBriefingType
from .briefing_revisions import BriefingRevisions
from .briefing_revisions_superseded_item import BriefingRevisionsSupersededItem
from .briefing_sections_item import BriefingSectionsItem
from .briefing_verification import BriefingVerification
from .briefing_verification_status import BriefingVerificationStatus
from .bucket import Bucket
from .citation_detail import CitationDetail
from .citation_detail_dataset import CitationDetailDataset
from .citation_detail_dimensions import CitationDetailDimensions
from .citation_detail_links import CitationDetailLinks
from .citation_detail_region import CitationDetailRegion
from .citation_revision import CitationRevision
from .citation_revision_current_item import CitationRevisionCurrentItem
from .cited import Cited
from .cited_snapshot import CitedSnapshot
from .claim import Claim
from .claim_flags_item import ClaimFlagsItem
from .claim_inputs_item import ClaimInputsItem
from .claim_kind import ClaimKind
from .claim_operation import ClaimOperation
from .classification_citation import ClassificationCitation
from .classification_citation_fields_item import ClassificationCitationFieldsItem
from .classification_citation_file import ClassificationCitationFile
from .code_label import CodeLabel
from .compare_regions_as_of_basis import CompareRegionsAsOfBasis
from .compare_regions_response_200 import CompareRegionsResponse200
from .comparison import Comparison
from .comparison_dataset import ComparisonDataset
from .comparison_dataset_series import ComparisonDatasetSeries
from .comparison_period_basis import ComparisonPeriodBasis
from .correlation_matrix import CorrelationMatrix
from .correlation_matrix_as_of_basis import CorrelationMatrixAsOfBasis
from .correlation_matrix_basis import CorrelationMatrixBasis
from .correlation_matrix_caveats_item import CorrelationMatrixCaveatsItem
from .correlation_matrix_caveats_item_details import CorrelationMatrixCaveatsItemDetails
from .correlation_matrix_cells_item import CorrelationMatrixCellsItem
from .correlation_matrix_cells_item_leave_one_out import CorrelationMatrixCellsItemLeaveOneOut
from .correlation_matrix_cells_item_status import CorrelationMatrixCellsItemStatus
from .correlation_matrix_inputs import CorrelationMatrixInputs
from .correlation_matrix_inputs_additional_property_item import CorrelationMatrixInputsAdditionalPropertyItem
from .correlation_matrix_method import CorrelationMatrixMethod
from .correlation_matrix_regions_dropped_item import CorrelationMatrixRegionsDroppedItem
from .correlation_matrix_regions_dropped_item_reason import CorrelationMatrixRegionsDroppedItemReason
from .correlation_matrix_response_200 import CorrelationMatrixResponse200
from .correlation_matrix_transform import CorrelationMatrixTransform
from .correlation_matrix_variables_item import CorrelationMatrixVariablesItem
from .correlation_matrix_variables_item_series import CorrelationMatrixVariablesItemSeries
from .correlation_matrix_variables_item_series_choice import CorrelationMatrixVariablesItemSeriesChoice
from .create_api_key import CreateApiKey
from .create_api_key_response_201 import CreateApiKeyResponse201
from .create_briefing_response_201 import CreateBriefingResponse201
from .create_dataset import CreateDataset
from .create_dataset_response_201 import CreateDatasetResponse201
from .create_webhook import CreateWebhook
from .create_webhook_event_types_item import CreateWebhookEventTypesItem
from .create_webhook_response_201 import CreateWebhookResponse201
from .created_api_key import CreatedApiKey
from .created_webhook import CreatedWebhook
from .csvw_metadata import CsvwMetadata
from .csvw_metadata_notes_item import CsvwMetadataNotesItem
from .csvw_metadata_table_schema import CsvwMetadataTableSchema
from .csvw_metadata_table_schema_columns_item import CsvwMetadataTableSchemaColumnsItem
from .dataset_change import DatasetChange
from .dataset_detail import DatasetDetail
from .dataset_detail_series_item import DatasetDetailSeriesItem
from .dataset_detail_series_item_dimensions import DatasetDetailSeriesItemDimensions
from .dataset_summary import DatasetSummary
from .dataset_summary_data_obtained_type_1 import DatasetSummaryDataObtainedType1
from .dataset_summary_data_obtained_type_1_basis import DatasetSummaryDataObtainedType1Basis
from .dataset_summary_dimensions_item import DatasetSummaryDimensionsItem
from .dataset_summary_headline import DatasetSummaryHeadline
from .dataset_updated_data import DatasetUpdatedData
from .dataset_updated_data_links import DatasetUpdatedDataLinks
from .dataset_updated_data_visibility import DatasetUpdatedDataVisibility
from .derived import Derived
from .derived_kind import DerivedKind
from .error import Error
from .error_code import ErrorCode
from .error_details import ErrorDetails
from .error_envelope import ErrorEnvelope
from .export_dataset_as_of_basis import ExportDatasetAsOfBasis
from .export_metadata_as_of_basis import ExportMetadataAsOfBasis
from .flag import Flag
from .get_briefing_response_200 import GetBriefingResponse200
from .get_citation_as_of_basis import GetCitationAsOfBasis
from .get_citation_response_200 import GetCitationResponse200
from .get_dataset_as_of_basis import GetDatasetAsOfBasis
from .get_dataset_response_200 import GetDatasetResponse200
from .get_region_as_of_basis import GetRegionAsOfBasis
from .get_region_profile_as_of_basis import GetRegionProfileAsOfBasis
from .get_region_profile_response_200 import GetRegionProfileResponse200
from .get_region_response_200 import GetRegionResponse200
from .get_usage_response_200 import GetUsageResponse200
from .get_webhook_response_200 import GetWebhookResponse200
from .health import Health
from .import_outcome import ImportOutcome
from .import_outcome_new_regions_item import ImportOutcomeNewRegionsItem
from .indicator import Indicator
from .indicator_series import IndicatorSeries
from .list_api_keys_response_200 import ListApiKeysResponse200
from .list_briefings_response_200 import ListBriefingsResponse200
from .list_citation_revisions_response_200 import ListCitationRevisionsResponse200
from .list_dataset_changes_as_of_basis import ListDatasetChangesAsOfBasis
from .list_dataset_changes_response_200 import ListDatasetChangesResponse200
from .list_dataset_snapshots_as_of_basis import ListDatasetSnapshotsAsOfBasis
from .list_dataset_snapshots_response_200 import ListDatasetSnapshotsResponse200
from .list_datasets_as_of_basis import ListDatasetsAsOfBasis
from .list_datasets_response_200 import ListDatasetsResponse200
from .list_meta import ListMeta
from .list_regions_as_of_basis import ListRegionsAsOfBasis
from .list_regions_response_200 import ListRegionsResponse200
from .list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from .list_webhooks_response_200 import ListWebhooksResponse200
from .location import Location
from .login_request import LoginRequest
from .login_response_200 import LoginResponse200
from .meta import Meta
from .meta_access import MetaAccess
from .meta_citations import MetaCitations
from .open_api_document import OpenApiDocument
from .periods import Periods
from .profile import Profile
from .put_dataset_data_response_200 import PutDatasetDataResponse200
from .readiness import Readiness
from .region_detail import RegionDetail
from .region_detail_parent_type_1 import RegionDetailParentType1
from .region_summary import RegionSummary
from .region_summary_classification import RegionSummaryClassification
from .region_values import RegionValues
from .replay_webhook_events import ReplayWebhookEvents
from .replay_webhook_events_response_202 import ReplayWebhookEventsResponse202
from .resend_webhook_delivery_response_202 import ResendWebhookDeliveryResponse202
from .revision_moment import RevisionMoment
from .rotate_webhook_secret_response_200 import RotateWebhookSecretResponse200
from .row_change import RowChange
from .row_change_change import RowChangeChange
from .row_change_dimensions import RowChangeDimensions
from .row_citation_ref import RowCitationRef
from .session import Session
from .snapshot_citation import SnapshotCitation
from .snapshot_citation_dataset import SnapshotCitationDataset
from .snapshot_info import SnapshotInfo
from .source_citation_ref import SourceCitationRef
from .source_citation_ref_kind import SourceCitationRefKind
from .source_info import SourceInfo
from .source_info_origin import SourceInfoOrigin
from .test_webhook_response_202 import TestWebhookResponse202
from .update_webhook import UpdateWebhook
from .update_webhook_event_types_item import UpdateWebhookEventTypesItem
from .update_webhook_response_200 import UpdateWebhookResponse200
from .update_webhook_status import UpdateWebhookStatus
from .usage import Usage
from .usage_days_item import UsageDaysItem
from .usage_keys_item import UsageKeysItem
from .usage_threshold_data import UsageThresholdData
from .usage_threshold_data_links import UsageThresholdDataLinks
from .usage_threshold_data_threshold_percent import UsageThresholdDataThresholdPercent
from .usage_threshold_data_tier import UsageThresholdDataTier
from .usage_tier import UsageTier
from .usage_today import UsageToday
from .warning import Warning_
from .webhook import Webhook
from .webhook_breaker import WebhookBreaker
from .webhook_breaker_state import WebhookBreakerState
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempt_log_item import WebhookDeliveryAttemptLogItem
from .webhook_delivery_event_type import WebhookDeliveryEventType
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_event_types_item import WebhookEventTypesItem
from .webhook_links import WebhookLinks
from .webhook_replay import WebhookReplay
from .webhook_resent import WebhookResent
from .webhook_resent_breaker import WebhookResentBreaker
from .webhook_resent_sending import WebhookResentSending
from .webhook_status import WebhookStatus
from .webhook_test_data import WebhookTestData
from .webhook_test_data_links import WebhookTestDataLinks
from .webhook_test_sent import WebhookTestSent

__all__ = (
    "Account",
    "AccountTier",
    "ApiKey",
    "ApiKeyEventData",
    "ApiKeyEventDataLinks",
    "ApiKeyStatus",
    "AsOfMeta",
    "AsOfMetaBasis",
    "AsOfMetaDatasetsItem",
    "Briefing",
    "BriefingAsOf",
    "BriefingAsOfBasis",
    "BriefingBreaksItem",
    "BriefingBriefingType",
    "BriefingCreatedData",
    "BriefingCreatedDataLinks",
    "BriefingGenerator",
    "BriefingGeneratorName",
    "BriefingListItem",
    "BriefingListItemBriefingType",
    "BriefingRegion",
    "BriefingRequest",
    "BriefingRequestAsOfBasis",
    "BriefingRequestBriefingType",
    "BriefingRevisions",
    "BriefingRevisionsSupersededItem",
    "BriefingSectionsItem",
    "BriefingVerification",
    "BriefingVerificationStatus",
    "Bucket",
    "CitationDetail",
    "CitationDetailDataset",
    "CitationDetailDimensions",
    "CitationDetailLinks",
    "CitationDetailRegion",
    "CitationRevision",
    "CitationRevisionCurrentItem",
    "Cited",
    "CitedSnapshot",
    "Claim",
    "ClaimFlagsItem",
    "ClaimInputsItem",
    "ClaimKind",
    "ClaimOperation",
    "ClassificationCitation",
    "ClassificationCitationFieldsItem",
    "ClassificationCitationFile",
    "CodeLabel",
    "CompareRegionsAsOfBasis",
    "CompareRegionsResponse200",
    "Comparison",
    "ComparisonDataset",
    "ComparisonDatasetSeries",
    "ComparisonPeriodBasis",
    "CorrelationMatrix",
    "CorrelationMatrixAsOfBasis",
    "CorrelationMatrixBasis",
    "CorrelationMatrixCaveatsItem",
    "CorrelationMatrixCaveatsItemDetails",
    "CorrelationMatrixCellsItem",
    "CorrelationMatrixCellsItemLeaveOneOut",
    "CorrelationMatrixCellsItemStatus",
    "CorrelationMatrixInputs",
    "CorrelationMatrixInputsAdditionalPropertyItem",
    "CorrelationMatrixMethod",
    "CorrelationMatrixRegionsDroppedItem",
    "CorrelationMatrixRegionsDroppedItemReason",
    "CorrelationMatrixResponse200",
    "CorrelationMatrixTransform",
    "CorrelationMatrixVariablesItem",
    "CorrelationMatrixVariablesItemSeries",
    "CorrelationMatrixVariablesItemSeriesChoice",
    "CreateApiKey",
    "CreateApiKeyResponse201",
    "CreateBriefingResponse201",
    "CreatedApiKey",
    "CreateDataset",
    "CreateDatasetResponse201",
    "CreatedWebhook",
    "CreateWebhook",
    "CreateWebhookEventTypesItem",
    "CreateWebhookResponse201",
    "CsvwMetadata",
    "CsvwMetadataNotesItem",
    "CsvwMetadataTableSchema",
    "CsvwMetadataTableSchemaColumnsItem",
    "DatasetChange",
    "DatasetDetail",
    "DatasetDetailSeriesItem",
    "DatasetDetailSeriesItemDimensions",
    "DatasetSummary",
    "DatasetSummaryDataObtainedType1",
    "DatasetSummaryDataObtainedType1Basis",
    "DatasetSummaryDimensionsItem",
    "DatasetSummaryHeadline",
    "DatasetUpdatedData",
    "DatasetUpdatedDataLinks",
    "DatasetUpdatedDataVisibility",
    "Derived",
    "DerivedKind",
    "Error",
    "ErrorCode",
    "ErrorDetails",
    "ErrorEnvelope",
    "ExportDatasetAsOfBasis",
    "ExportMetadataAsOfBasis",
    "Flag",
    "GetBriefingResponse200",
    "GetCitationAsOfBasis",
    "GetCitationResponse200",
    "GetDatasetAsOfBasis",
    "GetDatasetResponse200",
    "GetRegionAsOfBasis",
    "GetRegionProfileAsOfBasis",
    "GetRegionProfileResponse200",
    "GetRegionResponse200",
    "GetUsageResponse200",
    "GetWebhookResponse200",
    "Health",
    "ImportOutcome",
    "ImportOutcomeNewRegionsItem",
    "Indicator",
    "IndicatorSeries",
    "ListApiKeysResponse200",
    "ListBriefingsResponse200",
    "ListCitationRevisionsResponse200",
    "ListDatasetChangesAsOfBasis",
    "ListDatasetChangesResponse200",
    "ListDatasetsAsOfBasis",
    "ListDatasetSnapshotsAsOfBasis",
    "ListDatasetSnapshotsResponse200",
    "ListDatasetsResponse200",
    "ListMeta",
    "ListRegionsAsOfBasis",
    "ListRegionsResponse200",
    "ListWebhookDeliveriesResponse200",
    "ListWebhooksResponse200",
    "Location",
    "LoginRequest",
    "LoginResponse200",
    "Meta",
    "MetaAccess",
    "MetaCitations",
    "OpenApiDocument",
    "Periods",
    "Profile",
    "PutDatasetDataResponse200",
    "Readiness",
    "RegionDetail",
    "RegionDetailParentType1",
    "RegionSummary",
    "RegionSummaryClassification",
    "RegionValues",
    "ReplayWebhookEvents",
    "ReplayWebhookEventsResponse202",
    "ResendWebhookDeliveryResponse202",
    "RevisionMoment",
    "RotateWebhookSecretResponse200",
    "RowChange",
    "RowChangeChange",
    "RowChangeDimensions",
    "RowCitationRef",
    "Session",
    "SnapshotCitation",
    "SnapshotCitationDataset",
    "SnapshotInfo",
    "SourceCitationRef",
    "SourceCitationRefKind",
    "SourceInfo",
    "SourceInfoOrigin",
    "TestWebhookResponse202",
    "UpdateWebhook",
    "UpdateWebhookEventTypesItem",
    "UpdateWebhookResponse200",
    "UpdateWebhookStatus",
    "Usage",
    "UsageDaysItem",
    "UsageKeysItem",
    "UsageThresholdData",
    "UsageThresholdDataLinks",
    "UsageThresholdDataThresholdPercent",
    "UsageThresholdDataTier",
    "UsageTier",
    "UsageToday",
    "Warning_",
    "Webhook",
    "WebhookBreaker",
    "WebhookBreakerState",
    "WebhookDelivery",
    "WebhookDeliveryAttemptLogItem",
    "WebhookDeliveryEventType",
    "WebhookDeliveryStatus",
    "WebhookEventTypesItem",
    "WebhookLinks",
    "WebhookReplay",
    "WebhookResent",
    "WebhookResentBreaker",
    "WebhookResentSending",
    "WebhookStatus",
    "WebhookTestData",
    "WebhookTestDataLinks",
    "WebhookTestSent",
)
