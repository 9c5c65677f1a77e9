"""regintel's MCP server driven by the official MCP Python SDK, as an assistant would drive it.
tests/it/mcp.rs starts the server and runs this with a JSON file of what it made:

    {"api": BASE_URL, "regintel": BINARY, "owner": {"key", "private_title", "private_code"},
     "other": {"key"}}

Over the streamable HTTP transport (`{api}/mcp`) with the owner's key: every tool is listed and
called, and every citation a profile gives resolves to the same value. Over stdio
(`regintel mcp --url`): the tools again, with the key in REGINTEL_API_KEY. Another account's key
sees none of the owner's private dataset; without a key, the matrix and briefing tools answer
the API's 401. Prints what it checked; exits non-zero at the first failure."""

import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

TOOLS = {
    "search_regions", "region_profile", "compare_regions", "get_citation", "search_datasets",
    "correlation_matrix", "create_briefing",
}


def check(condition, what):
    if not condition:
        raise AssertionError(what)


async def call(session, tool, arguments):
    """The tool's result: the API's JSON answer, and whether it is a tool error."""
    result = await session.call_tool(tool, arguments)
    return json.loads(result.content[0].text), bool(result.is_error)


async def over_http(api, key, run):
    headers = {"X-API-Key": key} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with streamable_http_client(api + "/mcp", http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                return await run(session)


async def every_tool(session, given):
    owner = given["owner"]
    tools = await session.list_tools()
    names = {t.name for t in tools.tools}
    check(names == TOOLS, f"tools {sorted(names)}")
    # The tools that give numbers say they must be quoted with their citations.
    for tool in tools.tools:
        if tool.name in {"region_profile", "compare_regions", "correlation_matrix", "create_briefing"}:
            check("citation" in tool.description, f"{tool.name}: {tool.description}")
    found, error = await call(session, "search_regions", {"query": "Oberbayern"})
    check(not error and any(r["code"] == "DE21" for r in found["data"]), f"search_regions {found}")
    datasets, error = await call(session, "search_datasets", {"query": "unemployment"})
    check(not error and [d["code"] for d in datasets["data"]] == ["tgs00010"], f"search_datasets {datasets}")
    mine, _ = await call(session, "search_datasets", {"query": owner["private_code"]})
    check([d["code"] for d in mine["data"]] == [owner["private_code"]], f"own private dataset {mine}")
    profile, error = await call(session, "region_profile", {"region": "DE21"})
    check(not error and profile["data"]["region"]["code"] == "DE21", "region_profile")
    latest = [i["latest"] for i in profile["data"]["indicators"] if i.get("latest")]
    check(len(latest) >= 5, f"{len(latest)} latest values")
    for value in latest:
        row, error = await call(session, "get_citation", {"citation": value["citation"]})
        check(not error and row["data"]["value"] == value["value"], f"citation {value} → {row}")
    check(owner["private_title"] in json.dumps(profile), "the owner's profile lacks its dataset")
    compared, error = await call(session, "compare_regions",
                                 {"regions": ["DE21", "FR10"], "dataset": "tgs00010"})
    check(not error and len(compared["data"]["regions"]) == 2, f"compare_regions {compared}")
    matrix, error = await call(session, "correlation_matrix",
                               {"region": "DE", "level": 2, "datasets": ["tgs00010", "tgs00007"]})
    check(not error and matrix["data"]["cells"] and matrix["data"]["caveats"], "correlation_matrix")
    briefing, error = await call(session, "create_briefing",
                                 {"region": "DE21", "briefing_type": "economy"})
    check(not error and briefing["data"]["verification"]["status"] == "verified", "create_briefing")
    # As of a moment before anything was imported: no dataset held, no figure to write from.
    before, error = await call(session, "search_datasets", {"query": "unemployment", "as_of": "2001-01-01"})
    check(not error and before["data"] == [], f"search_datasets as of 2001: {before}")
    early, error = await call(session, "create_briefing",
                              {"region": "DE21", "briefing_type": "economy", "as_of": "2001-01-01"})
    check(error and early["error"]["code"] == "validation_failed", f"create_briefing as of 2001: {early}")
    unknown, error = await call(session, "region_profile", {"region": "DE2X"})
    check(error and unknown["error"]["code"] == "unknown_region", f"an unknown region: {unknown}")
    print(f"{len(names)} tools called, {len(latest)} citations resolved")


async def another_account(session, given):
    owner = given["owner"]
    mine, _ = await call(session, "search_datasets", {"query": owner["private_code"]})
    check(mine["data"] == [], f"another account finds the owner's dataset: {mine}")
    profile, _ = await call(session, "region_profile", {"region": "DE21"})
    check(owner["private_title"] not in json.dumps(profile), "another account sees the owner's dataset")
    print("another account sees none of the owner's data")


async def anonymous(session, given):
    for tool, arguments in [
        ("correlation_matrix", {"region": "DE", "datasets": ["tgs00010", "tgs00007"]}),
        ("create_briefing", {"region": "DE21", "briefing_type": "economy"}),
    ]:
        answer, error = await call(session, tool, arguments)
        check(error and answer["error"]["status"] == 401, f"anonymous {tool}: {answer}")
    print("anonymous callers are refused what needs a key")


async def over_stdio(given):
    params = StdioServerParameters(
        command=given["regintel"], args=["mcp", "--url", given["api"]],
        env={"REGINTEL_API_KEY": given["owner"]["key"]})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            check(names == TOOLS, f"stdio tools {sorted(names)}")
            profile, error = await call(session, "region_profile", {"region": "DE21"})
            check(not error and given["owner"]["private_title"] in json.dumps(profile), "stdio profile")
    print("stdio: the tools, with the owner's key")


async def main():
    given = json.load(open(sys.argv[1]))
    await over_http(given["api"], given["owner"]["key"], lambda s: every_tool(s, given))
    await over_http(given["api"], given["other"]["key"], lambda s: another_account(s, given))
    await over_http(given["api"], None, lambda s: anonymous(s, given))
    await over_stdio(given)


if __name__ == "__main__":
    asyncio.run(main())
