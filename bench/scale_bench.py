"""Render + lint of fleets of 10, 100 and 1000 sites (50 VLANs each): is time per site flat?

Usage: python bench/scale_bench.py [--sizes 10 100 1000] [--vlans 50]

For each size, in the same run: load and cross-validate the site files, render every site, lint
them all together (cross-device rules included). Prints the time per site and the ratio of the
largest to the smallest per-site time (flat is 1.0x).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from l2tpgen import load_fleet
from l2tpgen.lint import lint_sites
from l2tpgen.model.generate import write_fleet


def main() -> None:
    """Measure each fleet size and print per-site times and their spread."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--vlans", type=int, default=50)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    per_site = {}
    print(f"{'sites':>6} {'load+validate':>14} {'render+lint':>12} {'total':>8} {'per site':>10}")
    for size in args.sizes:
        sites = work / f"fleet-{size}"
        write_fleet(sites, size, args.vlans)
        start = time.perf_counter()
        fleet = load_fleet(sites)
        loaded = time.perf_counter()
        findings = lint_sites(fleet)  # renders every site, then lints them together
        done = time.perf_counter()
        total = done - start
        per_site[size] = total / size
        print(
            f"{size:>6} {loaded - start:>13.2f}s {done - loaded:>11.2f}s {total:>7.2f}s "
            f"{per_site[size] * 1000:>8.1f}ms   ({len(findings)} findings)",
            flush=True,
        )
    spread = max(per_site.values()) / min(per_site.values())
    print(f"ratio largest / smallest time per site: {spread:.2f}x   (flat is 1.0x)")


if __name__ == "__main__":
    main()
