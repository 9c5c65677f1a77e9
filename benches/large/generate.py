#!/usr/bin/env python3
"""A Eurostat-shaped extract of many observations, for measuring regintel at a size a national
statistics office would load (the whole regional database, not the bundled 13 datasets).

Writes gzipped Eurostat bulk TSV files (`freq,unit,sex,geo\\TIME_PERIOD`, one time series per
line, `value flags` cells, `:` for a missing value), as Eurostat's bulk download serves them,
into OUT: DATASETS files named `estat_synth_NNN.tsv.gz`, together about ROWS cells (a little
less: whole years per series). Every region of `data/nuts_regions.csv` (all NUTS levels and
editions) appears in every dataset, over decades of years, with a few units and sexes per
dataset; about 2 % of the cells are missing, 5 % carry flags (p, e, b, c). Values come from a
seeded generator: the same arguments make the same files. Never committed: make them where they
are measured.

    python3 benches/large/generate.py --rows 50000000 --out /var/tmp/regintel-large
"""

import argparse
import csv
import gzip
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REGIONS_CSV = os.path.join(HERE, "..", "..", "data", "nuts_regions.csv")
UNITS = ["NR", "PC", "EUR_HAB", "MIO_EUR", "THS"]
SEXES = ["T", "M", "F"]
FLAGS = ["p", "e", "b", "c"]


def regions():
    with open(REGIONS_CSV, newline="", encoding="utf-8") as f:
        codes = sorted({row[0] for row in csv.reader(f) if row and row[0] != "code"})
    if not codes:
        sys.exit(f"{REGIONS_CSV}: no region codes")
    return codes


def cell(rng, base, year_index):
    draw = rng.random()
    if draw < 0.02:
        return ":"
    value = round(base * (1 + 0.015 * year_index) * (0.9 + 0.2 * rng.random()), 1)
    if draw < 0.07:
        return f"{value} {rng.choice(FLAGS)}"
    return f"{value} "


def write_dataset(path, rng, codes, rows):
    """Writes one dataset of about `rows` observations; returns how many cells it wrote."""
    per_region = max(1, rows // len(codes))
    units = rng.sample(UNITS, k=rng.randint(1, 3))
    sexes = SEXES if rng.random() < 0.5 else ["T"]
    combos = [(u, s) for u in units for s in sexes]
    years = max(1, per_region // len(combos))
    # Decades of years, ending in different years, as real datasets do.
    last_year = 2024 - rng.randint(0, 3)
    periods = [str(last_year - years + 1 + i) for i in range(years)]
    written = 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=3, newline="\n") as out:
        out.write("freq,unit,sex,geo\\TIME_PERIOD\t" + "\t".join(p + " " for p in periods) + "\n")
        for unit, sex in combos:
            for code in codes:
                base = 10 + 990 * rng.random()
                cells = [cell(rng, base, i) for i in range(years)]
                out.write(f"A,{unit},{sex},{code}\t" + "\t".join(cells) + "\n")
                written += years
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=50_000_000, help="observations in all")
    parser.add_argument("--datasets", type=int, default=100, help="files, one dataset each")
    parser.add_argument("--out", required=True, help="directory to write into (made if missing)")
    parser.add_argument("--seed", type=int, default=36)
    args = parser.parse_args()
    if args.rows < args.datasets:
        sys.exit("--rows must be at least --datasets")
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    codes = regions()
    total = 0
    for n in range(args.datasets):
        path = os.path.join(args.out, f"estat_synth_{n:03d}.tsv.gz")
        total += write_dataset(path, rng, codes, args.rows // args.datasets)
        print(f"{path}: {total:,} cells so far", file=sys.stderr)
    print(f"{args.datasets} files, {total:,} cells (missing ones included) in {args.out}")


if __name__ == "__main__":
    main()
