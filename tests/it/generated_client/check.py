"""Calls a running regintel through a client that openapi-python-client generated from the
served OpenAPI document, given the API's base URL (BASE_URL, `.../api/v1/regional`),
and checks that every answer parses into the typed model the document promises. Run by
tests/it/openapi.rs with the generated package `regintel_client` on PYTHONPATH; it prints `ok`.
"""

import inspect
import io
import os
import typing

from regintel_client import AuthenticatedClient, Client
from regintel_client.api.analytics import export_dataset
from regintel_client.api.citations import get_citation
from regintel_client.api.datasets import create_dataset, get_dataset, put_dataset_data
from regintel_client.api.regions import (
    compare_regions,
    get_region,
    get_region_profile,
    list_regions,
)
from regintel_client.models import CreateDataset
from regintel_client.types import File

base_url = os.environ["BASE_URL"]
anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
keyed = AuthenticatedClient(
    base_url=base_url, token=os.environ["API_KEY"], raise_on_unexpected_status=True
)


# Anonymous callers may use the public routes: their functions take a plain Client.
for public in (get_region_profile, get_region, compare_regions, list_regions, get_citation):
    client_type = inspect.signature(public.sync).parameters["client"].annotation
    assert Client in typing.get_args(client_type), (public.__name__, client_type)


def typed(answer, model):
    """The answer, which must be the model of a successful response, not an error envelope."""
    assert type(answer).__name__ == model, f"expected {model}, got {answer!r}"
    return answer


profile = typed(
    get_region_profile.sync(region_code="DE21", client=anonymous),
    "GetRegionProfileResponse200",
).data
assert profile.region.code == "DE21", profile.region
citation_id = profile.indicators[0].latest.citation

region = typed(get_region.sync(region_code="DE2", client=anonymous), "GetRegionResponse200")
assert region.data.code == "DE2"

comparison = typed(
    compare_regions.sync(client=anonymous, regions="DE21,FR10", dataset="tgs00010"),
    "CompareRegionsResponse200",
).data
assert [r.region.code for r in comparison.regions] == ["DE21", "FR10"], comparison

regions = typed(
    list_regions.sync(client=anonymous, level=2, country="AT"), "ListRegionsResponse200"
).data
assert regions and all(r.code.startswith("AT") for r in regions), regions

citation = typed(
    get_citation.sync(citation_id=citation_id, client=anonymous), "GetCitationResponse200"
).data
assert citation.id == citation_id

csv = export_dataset.sync(dataset_code="tgs00010", client=keyed)
assert isinstance(csv, str) and csv.startswith("dataset_code,"), csv[:200]

typed(
    create_dataset.sync(
        client=keyed, body=CreateDataset(code="mine", title="Mine", unit="NR")
    ),
    "CreateDatasetResponse201",
)
rows = b"dataset_code,nuts_code,nuts_level,time,value,unit,flags\nmine,DE21,2,2022,1.5,NR,\n"
loaded = typed(
    put_dataset_data.sync(
        dataset_code="mine",
        client=keyed,
        body=File(payload=io.BytesIO(rows), mime_type="text/csv"),
    ),
    "PutDatasetDataResponse200",
).data
assert loaded.added == 1, loaded
mine = typed(get_dataset.sync(dataset_code="mine", client=keyed), "GetDatasetResponse200")
assert mine.data.code == "mine"
print("ok")
