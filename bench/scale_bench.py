"""How l2tpgen's model path scales: start-up, one-site commands, big sites, fleet checks.

Usage: python bench/scale_bench.py [--repeat 5] [--sizes 10 100 1000] [--skip-render-lint]

Every figure is a ratio of two things measured side by side in this run (runs interleaved, median
of ``--repeat``), so a shared, noisy machine affects both sides alike:

1. ``l2tpgen --version`` vs ``python -c "import typer, rich.console"`` (goal: at most 2x);
   ``validate`` and ``render site-a`` of the example sites vs ``python -c "import pydantic, jinja2,
   ruamel.yaml"`` (goal: at most 3x).
2. One-site commands in a 10-site vs a 5000-site fleet (4 VLANs a site): ``render site-0`` and
   ``push site-0 --dry-run`` (goal: at most 2x). The push is measured without a router: HOME is
   an empty directory, so there is no ``~/.ssh/known_hosts`` and the push loads the sites, runs
   the lint gate and renders the intended config, then stops where it would open the SSH
   connection. Once more with ``--inventory`` holding every site of the fleet (the inventory is
   read by ``device/inventory.py``, whose cost grows with its size).
3. ``validate`` of a pair of 4000-VLAN sites vs a pair of 100-VLAN sites (goal: at most 2x).
4. ``model/checks.py`` (``check_site`` + ``check_fleet``) on 5N vs N sites, and on sites with 5V
   vs V VLANs (goal: linear, at most 6x).
5. Unless ``--skip-render-lint``: render + lint of whole fleets of ``--sizes`` sites (50 VLANs
   each), time per site; the ratio of the largest to the smallest (flat is 1.0x).

Commands run as ``python -m l2tpgen`` with this interpreter and environment (set PYTHONPATH to
measure another checkout). l2tpgen's modules are byte-compiled first, as ``pip install`` does
(an editable checkout under PYTHONDONTWRITEBYTECODE=1 would otherwise compile every module on
every run, a cost no installed copy pays).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

import l2tpgen
from l2tpgen import load_fleet
from l2tpgen.lint import lint_sites
from l2tpgen.model import Site
from l2tpgen.model.checks import check_fleet, check_site
from l2tpgen.model.generate import MAX_VLANS, site_yaml, write_fleet

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
SITES = ROOT / "sites"
ENV = {
    **os.environ,
    "L2TPGEN_USERNAME": "bench",
    "L2TPGEN_PASSWORD": "bench-password",
    "L2TPGEN_L2TP_SECRET": "bench-secret",
}


def _run(argv: Sequence[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=ENV, capture_output=True, check=False)  # noqa: S603 - our own interpreter
    return time.perf_counter() - start


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "l2tpgen", *args]


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def _side_by_side(commands: Sequence[Sequence[str]], repeat: int) -> list[float]:
    """Median wall time of each command, the runs interleaved."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for index, argv in enumerate(commands):
            times[index].append(_run(argv))
    return [statistics.median(t) for t in times]


def _ratio(what: str, numerator: float, denominator: float, goal: str) -> None:
    print(
        f"ratio {what}: {numerator / denominator:.2f}x   (goal {goal}; "
        f"{numerator * 1000:.0f} ms vs {denominator * 1000:.0f} ms)",
        flush=True,
    )


def startup(repeat: int) -> None:
    """Section 1: what every command pays before doing anything."""
    floor_cli, floor_model, version, validate, render = _side_by_side(
        [
            _python("import typer, rich.console"),
            _python("import pydantic, jinja2, ruamel.yaml"),
            _cli("--version"),
            _cli("validate", "--sites", str(SITES)),
            _cli("render", "site-a", "--sites", str(SITES)),
        ],
        repeat,
    )
    _ratio("--version / import typer+rich", version, floor_cli, "<= 2x")
    _ratio("validate / import pydantic+jinja2+ruamel.yaml", validate, floor_model, "<= 3x")
    _ratio("render site-a / import pydantic+jinja2+ruamel.yaml", render, floor_model, "<= 3x")


def _inventory(path: Path, sites: Path) -> Path:
    """Every router at a closed port, trusted through a known_hosts file that does not exist."""
    missing = path.parent / "no-known-hosts"
    names = [p.stem for p in sites.glob("*.yaml")]
    table = {name: {"host": "127.0.0.1", "port": 9, "known_hosts": str(missing)} for name in names}
    path.write_text(json.dumps({"sites": table}), encoding="utf-8")
    return path


def one_site(work: Path, repeat: int, large: int) -> None:
    """Section 2: one-site commands in a small and a large fleet."""
    home = work / "home"  # no ~/.ssh/known_hosts: push stops before connecting
    home.mkdir()
    ENV["HOME"] = str(home)
    commands = []
    for size in (10, large):
        sites = work / f"fleet-{size}"
        write_fleet(sites, size, 4)
        inventory = _inventory(work / f"inventory-{size}.json", sites)
        push = ["push", "site-0", "--dry-run", "--sites", str(sites)]
        commands += [
            _cli("render", "site-0", "--sites", str(sites)),
            _cli(*push),
            _cli(*push, "--inventory", str(inventory)),
        ]
    times = _side_by_side(commands, repeat)
    small, big = times[:3], times[3:]
    what = f"{large} / 10 sites"
    _ratio(f"render site-0, {what}", big[0], small[0], "<= 2x")
    _ratio(f"push site-0 --dry-run, {what}", big[1], small[1], "<= 2x")
    _ratio(f"push site-0 --dry-run --inventory (every site), {what}", big[2], small[2], "<= 2x")


def big_sites(work: Path, repeat: int) -> None:
    """Section 3: validate of a pair of big sites vs a pair of small ones."""
    big = min(4000, MAX_VLANS)
    for vlans in (100, big):
        write_fleet(work / f"vlans-{vlans}", 2, vlans)
    small, large = _side_by_side(
        [_cli("validate", "--sites", str(work / f"vlans-{v}")) for v in (100, big)], repeat
    )
    _ratio(f"validate, {big} / 100 VLANs a site", large, small, "<= 2x")


def _sites(count: int, vlans: int) -> dict[str, Site]:
    return {
        f"site-{i}": Site.model_validate(yaml.safe_load(site_yaml(i, vlans))) for i in range(count)
    }


def _checks(sites: dict[str, Site]) -> Callable[[], object]:
    files = {name: f"{name}.yaml" for name in sites}
    return lambda: [*(p for s in sites.values() for p in check_site(s)), *check_fleet(sites, files)]


def _median_seconds(function: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def checks(repeat: int) -> None:
    """Section 4: the model's fleet checks, 5x the sites and 5x the VLANs."""
    cases = {
        "sites": (_sites(600, 10), _sites(3000, 10)),
        "VLANs": (_sites(2, 700), _sites(2, 3500)),
    }
    for what, (small, large) in cases.items():
        functions = [_checks(small), _checks(large)]
        times: list[list[float]] = [[], []]
        for _ in range(repeat):
            for index, function in enumerate(functions):
                times[index].append(_median_seconds(function, 1))
        _ratio(
            f"model checks, 5x the {what}",
            statistics.median(times[1]),
            statistics.median(times[0]),
            "<= 6x",
        )


def render_lint(work: Path, sizes: Sequence[int]) -> None:
    """Section 5: render + lint of whole fleets, time per site."""
    per_site = {}
    print(f"{'sites':>6} {'load+validate':>14} {'render+lint':>12} {'total':>8} {'per site':>10}")
    for size in sizes:
        sites = work / f"render-lint-{size}"
        write_fleet(sites, size, 50)
        start = time.perf_counter()
        fleet = load_fleet(sites)
        loaded = time.perf_counter()
        findings = lint_sites(fleet)  # renders every site, then lints them together
        done = time.perf_counter()
        per_site[size] = (done - start) / size
        print(
            f"{size:>6} {loaded - start:>13.2f}s {done - loaded:>11.2f}s {done - start:>7.2f}s "
            f"{per_site[size] * 1000:>8.1f}ms   ({len(findings)} findings)",
            flush=True,
        )
    _ratio(
        "render+lint per site, largest / smallest fleet",
        max(per_site.values()),
        min(per_site.values()),
        "flat is 1.0x",
    )


def main() -> None:
    """Run every section and print its ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--large", type=int, default=5000, help="sites of the large fleet")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--skip-render-lint", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    compileall.compile_dir(Path(l2tpgen.__file__).parent, quiet=1)  # as `pip install` does
    startup(args.repeat)
    one_site(work, args.repeat, args.large)
    big_sites(work, args.repeat)
    checks(args.repeat)
    if not args.skip_render_lint:
        render_lint(work, args.sizes)


if __name__ == "__main__":
    main()
