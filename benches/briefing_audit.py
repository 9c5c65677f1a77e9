"""Reads briefings as a regional economist would and counts what would mislead one.

    python3 benches/briefing_audit.py BASE_URL API_KEY [--save FILE]

BASE_URL is the API's base URL (http://127.0.0.1:8080/api/v1/regional for `regintel demo
--plain-http`), API_KEY an institutional key (the demo's, from demo-credentials.json). It writes
the six briefing types for DE21, FR10, ITC4, PL9, EL30, DE212, PL911 and AT (48 requests), reads
every cited row (GET /citations) and each region's series (GET /regions/{code}/profile), and
counts:

- changes over time whose window holds a value flagged b (a break in series), and of those the
  ones whose section never says so;
- comparisons of a region with a parent of which it is the only child (a figure set against
  itself);
- ranks with a tie among their inputs that the section does not state;
- ranks among whose inputs is a value flagged u (low reliability) or c (confidential).

It also prints a few sentences, and with --save writes every briefing as served. Only the
standard library is used; nothing but BASE_URL is contacted.
"""

import json
import sys
import time
import urllib.error
import urllib.request

REGIONS = ["DE21", "FR10", "ITC4", "PL9", "EL30", "DE212", "PL911", "AT"]
TYPES = ["profile_summary", "economy", "labour_market", "demography", "health", "peer_comparison"]
CHANGES = {"percent_change", "difference"}
RANKS = {"rank", "rank_from_bottom"}


class Api:
    def __init__(self, base, key):
        self.base, self.key, self.cache = base.rstrip("/"), key, {}

    def call(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"X-API-Key": self.key}
        if data is not None:
            headers["Content-Type"] = "application/json"
        while True:
            req = urllib.request.Request(self.base + path, data=data, headers=headers)
            try:
                with urllib.request.urlopen(req) as r:
                    return r.status, json.load(r)
            except urllib.error.HTTPError as e:
                if e.code == 429:
                    time.sleep(int(e.headers.get("Retry-After", "5")))
                    continue
                return e.code, json.load(e)

    def get(self, path):
        if path not in self.cache:
            self.cache[path] = self.call(path)[1]
        return self.cache[path]

    def row(self, citation):
        return self.get(f"/citations/{citation}")["data"]


def flags_of(row):
    return {f["code"] for f in row.get("flags", [])}


def section_of(briefing, claim):
    """The text of the section that states the claim: the one that states the value of its first
    row (every section states its region's own value first), else the one that holds its
    reading."""
    first = (claim.get("inputs") or [{"citation": (claim.get("citations") or [None])[0]}])[0]["citation"]
    own = [c["display"] for c in briefing["claims"] if c.get("citations") == [first]]
    needle = claim.get("reads") or claim["display"]
    for s in briefing["sections"]:
        if own and own[0] in s["text"] and needle in s["text"]:
            return s["text"]
    for s in briefing["sections"]:
        if needle in s["text"]:
            return s["text"]
    return " ".join(s["text"] for s in briefing["sections"])


def audit(api, briefing, counts):
    region = briefing["region"]["code"]
    profile = api.get(f"/regions/{region}/profile")["data"]
    parent = profile["region"]["parent"]
    only_child_parent = None
    if parent:
        siblings = api.get(f"/regions/{parent['code']}")["data"]["children"]
        if len(siblings) == 1:
            only_child_parent = parent["code"]
    history = {i["dataset"]: i["history"] for i in profile["indicators"]}
    for claim in briefing["claims"]:
        op = claim.get("operation")
        inputs = [api.row(i["citation"]) for i in claim.get("inputs", [])]
        rows = inputs or [api.row(c) for c in claim.get("citations", [])]
        if only_child_parent and any(r["region"]["code"] == only_child_parent for r in rows):
            counts["parent_comparisons_with_an_only_child"] += 1
        if op in CHANGES and len(inputs) == 2:
            a, b = inputs
            same_series = a["region"]["code"] == b["region"]["code"] == region and a["dataset"] == b["dataset"]
            if same_series and a["period"] != b["period"]:
                lo, hi = sorted([a["period"], b["period"]])
                window = [h for h in history.get(a["dataset"]["code"], []) if lo <= h["period"] <= hi]
                if any("b" in flags_of(h) for h in window):
                    counts["changes_across_a_break"] += 1
                    if "break" not in section_of(briefing, claim):
                        counts["changes_across_a_break_without_a_word"] += 1
        if op in RANKS and inputs:
            first = inputs[0]["value"]
            if any(r["value"] == first for r in inputs[1:]):
                counts["ranks_with_a_tie"] += 1
                if "tied" not in section_of(briefing, claim):
                    counts["ties_undisclosed"] += 1
            if any(flags_of(r) & {"u", "c"} for r in inputs):
                counts["ranks_with_flagged_values"] += 1


def main():
    base, key = sys.argv[1], sys.argv[2]
    save = sys.argv[sys.argv.index("--save") + 1] if "--save" in sys.argv else None
    api = Api(base, key)
    counts = dict.fromkeys(
        [
            "briefings",
            "refused",
            "changes_across_a_break",
            "changes_across_a_break_without_a_word",
            "parent_comparisons_with_an_only_child",
            "ranks_with_a_tie",
            "ties_undisclosed",
            "ranks_with_flagged_values",
        ],
        0,
    )
    served = {}
    for region in REGIONS:
        for kind in TYPES:
            status, body = api.call("/briefings", {"region_nuts_code": region, "briefing_type": kind})
            served[f"{region}/{kind}"] = body
            if status != 201:
                counts["refused"] += 1
                continue
            counts["briefings"] += 1
            audit(api, body["data"], counts)
    for name, n in counts.items():
        print(f"{name}: {n}")
    for key in ["DE21/labour_market", "FR10/economy", "ITC4/economy", "FR10/demography", "DE21/economy"]:
        body = served[key]
        if body.get("data"):
            print(f"\n{key}: {body['data']['sections'][0]['text']}")
        else:
            print(f"\n{key}: {body['error']['status']} {body['error']['message']}")
    if save:
        with open(save, "w") as f:
            json.dump(served, f, indent=1)


if __name__ == "__main__":
    main()
