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


def check(condition, message):
    """An assertion that `python -O` cannot remove: raises AssertionError with `message`."""
    if not condition:
        raise AssertionError(message)


# Anonymous callers may use the public routes: their functions take a plain Client.
for public in (get_region_profile, get_region, compare_regions, list_regions, get_citation):
    client_type = inspect.signature(public.sync).parameters["client"].annotation
    check(
        Client in typing.get_args(client_type),
        f"{public.__name__} does not take a plain Client: its client is {client_type}",
    )


def typed(answer, model):
    """The answer, which must be the model of a successful response, not an error envelope."""
    check(type(answer).__name__ == model, f"expected {model}, got {answer!r}")
    return answer


profile = typed(
    get_region_profile.sync(region_code="DE21", client=anonymous),
    "GetRegionProfileResponse200",
).data
check(profile.region.code == "DE21", f"profile of DE21 is of another region: {profile.region!r}")
citation_id = profile.indicators[0].latest.citation

region = typed(get_region.sync(region_code="DE2", client=anonymous), "GetRegionResponse200")
check(region.data.code == "DE2", f"region DE2 answered as {region.data.code!r}")

comparison = typed(
    compare_regions.sync(client=anonymous, regions="DE21,FR10", dataset="tgs00010"),
    "CompareRegionsResponse200",
).data
check(
    [r.region.code for r in comparison.regions] == ["DE21", "FR10"],
    f"comparison of DE21,FR10 is not of DE21 then FR10: {comparison!r}",
)

regions = typed(
    list_regions.sync(client=anonymous, level=2, country="AT"), "ListRegionsResponse200"
).data
check(
    regions and all(r.code.startswith("AT") for r in regions),
    f"NUTS 2 regions of AT are none or not all Austrian: {regions!r}",
)

citation = typed(
    get_citation.sync(citation_id=citation_id, client=anonymous), "GetCitationResponse200"
).data
check(citation.id == citation_id, f"citation {citation_id} answered as {citation.id!r}")

csv = export_dataset.sync(dataset_code="tgs00010", client=keyed)
check(
    isinstance(csv, str) and csv.startswith("dataset_code,"),
    f"export of tgs00010 is not CSV with its header: {csv!r:.200}",
)

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
check(loaded.added == 1, f"loading one row into mine did not add one: {loaded!r}")
mine = typed(get_dataset.sync(dataset_code="mine", client=keyed), "GetDatasetResponse200")
check(mine.data.code == "mine", f"dataset mine answered as {mine.data.code!r}")
print("ok")
