"""The cost of l2tpgen's commands, each beside its floor, measured in one run (issue 35).

Usage: python bench/cost_bench.py [--repeat 3] [--only start fleet vlans big lint50k]
       [--sites 5000] [--bad-vlans 16000] [--big-lines 600000]

Every command runs as ``python -m l2tpgen`` in a child process. Each figure is the child's CPU
time (user + system, from ``getrusage(RUSAGE_CHILDREN)``): on a shared 2-core machine wall time
swings with the load, CPU time much less. Commands and their floors alternate; the best of
``--repeat`` is kept. Each line prints the figure, its floor, the ratio and whether the goal is
met.

- start: ``l2tpgen validate`` of the example sites (cold, byte-compiled) vs the floor: python
  importing pydantic, jinja2 and ruamel.yaml and loading the same files (libyaml, as l2tpgen
  does). Goal: at most 2x. Modules loaded by each (``sys.modules`` at exit) are printed too,
  and, for scale, two other floors: each file validated by a one-field pydantic model; the floor
  started as l2tpgen starts (``l2tpgen/startup.py``: the collector paused while the libraries
  load, then their objects frozen), which a naive program does not do.
- fleet: ``validate`` and ``lint`` of a ``--sites`` fleet (4 VLANs a site, ``model.generate``).
  Goals: validate at most 10 s, lint at most 20 s (CPU). Floor: loading the same files.
- vlans: ``validate`` of a site file with ``--bad-vlans`` bad VLANs (IDs past 4094): every one a
  problem printed. Goal: at most 5 s. Floor: loading the file and printing as many lines.
- big: ``lint --config`` of a ``--big-lines`` config. Goals: at most 20 s, peak RSS at most
  400 MB. Floor: the indentation stack of the same text in a child.
- lint50k: lint of 50k lines in this process vs the indentation-stack floor, alternating (best
  wall time of ``--repeat``). Goal: at most 8x.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from common import best_alternating
from lint_bench import generate, indentation_stack

import l2tpgen
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.model.generate import write_fleet

if TYPE_CHECKING:
    from collections.abc import Sequence

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "sites"
ENV = {
    **os.environ,
    "L2TPGEN_USERNAME": "bench",
    "L2TPGEN_PASSWORD": "bench-password",
    "L2TPGEN_L2TP_SECRET": "bench-secret",
}
# The floor's program: the libraries l2tpgen stands on, imported, and the same files loaded.
LOAD = (
    "import sys, pydantic, jinja2, ruamel.yaml, yaml, pathlib\n"
    "loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)\n"
    "for p in sorted(pathlib.Path(sys.argv[1]).glob('*.yaml')):\n"
    "    yaml.load(p.read_text(encoding='utf-8'), Loader=loader)\n"
)
# The goals of issue 35.
START_GOAL = 2.0  # validate's cold start, times the floor
FLEET_VALIDATE_GOAL, FLEET_LINT_GOAL = 10.0, 20.0  # seconds, 5000 sites
BAD_VLANS_GOAL = 5.0  # seconds, 16k bad VLANs
BIG_GOAL, BIG_MB = 20.0, 400.0  # seconds and MB, a 600k-line config
LINT_GOAL = 8.0  # times the indentation stack, 50k lines
# The same, each file also validated by a one-field pydantic model: the model-building machinery
# any pydantic program loads on its first model (pydantic imports it lazily).
VALIDATED = (
    "class Site(pydantic.BaseModel):\n"
    "    model_config = pydantic.ConfigDict(extra='allow')\n"
    "    name: str\n"
    "for p in sorted(pathlib.Path(sys.argv[1]).glob('*.yaml')):\n"
    "    Site.model_validate(yaml.load(p.read_text(encoding='utf-8'), Loader=loader))\n"
)
# The floor given l2tpgen's start-up (``l2tpgen/startup.py``): the collector paused while the
# libraries load, then what they made frozen; the same files loaded after.
PAUSED = "import gc\ngc.disable()\n"
FROZEN = "gc.freeze()\ngc.enable()\n"
MODULES = "\nimport atexit, sys\natexit.register(lambda: print(len(sys.modules), file=sys.stderr))"


def cpu(argv: Sequence[str]) -> tuple[float, float, subprocess.CompletedProcess[bytes]]:
    """The child's CPU seconds (user + system), its peak RSS in MB, and its result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=ENV, capture_output=True, check=False)  # noqa: S603 - ours
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, after.ru_maxrss / 1024, done


def best_cpu(repeat: int, *commands: Sequence[str]) -> list[float]:
    """Best CPU time of each command, the runs alternating."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for argv, runs in zip(commands, times, strict=True):
            runs.append(cpu(argv)[0])
    return [min(runs) for runs in times]


def cli(*args: str) -> list[str]:
    """``l2tpgen ARGS`` with this interpreter."""
    return [sys.executable, "-m", "l2tpgen", *args]


def python(code: str, *args: str) -> list[str]:
    """``python -c CODE ARGS``."""
    return [sys.executable, "-c", code, *args]


def report(what: str, figure: float, floor: float, goal: str, *, met: bool) -> None:
    """One line: the figure, its floor, the ratio, the goal and whether it is met."""
    verdict = "met" if met else "NOT met"
    print(
        f"{what}: {figure:.2f} s vs floor {floor:.2f} s = {figure / floor:.2f}x "
        f"(goal {goal}: {verdict})",
        flush=True,
    )


def modules(argv: Sequence[str]) -> int:
    """How many modules a command has loaded when it exits."""
    code = (
        f"import runpy, sys{MODULES}\n"
        f"sys.argv = {['l2tpgen', *argv]!r}\n"
        "runpy.run_module('l2tpgen', run_name='__main__')"
    )
    done = subprocess.run(python(code), env=ENV, capture_output=True, check=False)  # noqa: S603
    return int(done.stderr.decode().strip().splitlines()[-1])


def start(repeat: int) -> None:
    """Cold start of validate against importing its libraries and loading the same files."""
    imports, files = LOAD.split("loader = ", 1)
    floor, validated, spared, figure = best_cpu(
        repeat,
        python(LOAD, str(EXAMPLES)),
        python(LOAD + VALIDATED, str(EXAMPLES)),
        python(PAUSED + imports + FROZEN + "loader = " + files, str(EXAMPLES)),
        cli("validate", "--sites", str(EXAMPLES)),
    )
    goal = f"<= {START_GOAL:g}x"
    report("validate (example sites), CPU", figure, floor, goal, met=figure <= START_GOAL * floor)
    print(
        f"  for scale, the floor with each file validated by one pydantic model: {validated:.2f} s"
        f" ({figure / validated:.2f}x)"
    )
    print(
        "  and the floor started as l2tpgen starts (the collector paused while the libraries load,"
        f" then frozen): {spared:.2f} s ({figure / spared:.2f}x)"
    )
    ours = modules(["validate", "--sites", str(EXAMPLES)])
    floors = python(LOAD + MODULES, str(EXAMPLES))
    theirs = int(subprocess.run(floors, capture_output=True, check=False).stderr.split()[-1])  # noqa: S603
    print(f"  modules loaded: validate {ours}, floor {theirs}", flush=True)


def fleet(work: Path, repeat: int, size: int) -> None:
    """Validate and lint of a large fleet, against loading its files."""
    sites = work / f"fleet-{size}"
    write_fleet(sites, size, 4)
    floor, validate, lint = best_cpu(
        repeat,
        python(LOAD, str(sites)),
        cli("validate", "--sites", str(sites)),
        cli("lint", "--sites", str(sites)),
    )
    goal = f"<= {FLEET_VALIDATE_GOAL:g} s"
    report(
        f"validate {size} sites, CPU", validate, floor, goal, met=validate <= FLEET_VALIDATE_GOAL
    )
    report(f"lint {size} sites, CPU", lint, floor, "<= 20 s", met=lint <= FLEET_LINT_GOAL)


def bad_vlans(work: Path, repeat: int, count: int) -> None:
    """A site file with ``count`` VLAN IDs out of range: every one printed as a problem."""
    sites = work / "bad-vlans"
    write_fleet(sites, 2, 4)
    site = sites / "site-0.yaml"
    text = site.read_text(encoding="utf-8").split("vlans:")[0] + "vlans:\n"
    text += "".join(f"  - {{id: {5000 + i}, name: v{i}, peer: site-1}}\n" for i in range(count))
    site.write_text(text, encoding="utf-8")
    printing = LOAD + f"for i in range({2 * count}): print('site-0.yaml:', i, 'a problem')\n"
    floor, figure = best_cpu(
        repeat, python(printing, str(sites)), cli("validate", "--sites", str(sites))
    )
    _, _, done = cpu(cli("validate", "--sites", str(sites)))
    lines = done.stdout.count(b"\n") + done.stderr.count(b"\n")
    what = f"validate {count} bad VLANs ({lines} lines printed), CPU"
    report(what, figure, floor, f"<= {BAD_VLANS_GOAL:g} s", met=figure <= BAD_VLANS_GOAL)


def big(work: Path, lines: int) -> None:
    """Lint of a very large config: CPU time and peak RSS of the child, against the floor."""
    config = work / "big.conf"
    config.write_text(generate(lines), encoding="utf-8")
    stack = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from lint_bench import indentation_stack\n"
        "indentation_stack(open(sys.argv[1], encoding='utf-8').read())\n"
    )
    floor, _, _ = cpu(python(stack, str(config)))
    seconds, _, _ = cpu(cli("lint", "--config", str(config)))
    measure = (
        "import resource, runpy, sys\n"
        f"sys.argv = ['l2tpgen', 'lint', '--config', {str(config)!r}]\n"
        "try:\n    runpy.run_module('l2tpgen', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, file=sys.stderr)\n"
    )
    done = subprocess.run(python(measure), env=ENV, capture_output=True, check=False)  # noqa: S603
    rss = float(done.stderr.split()[-1])
    report(f"lint --config {lines} lines, CPU", seconds, floor, "<= 20 s", met=seconds <= BIG_GOAL)
    print(
        f"  peak RSS {rss:.0f} MB (goal <= {BIG_MB:g} MB: {'met' if rss <= BIG_MB else 'NOT met'})"
    )


def lint50k(repeat: int) -> None:
    """Lint of 50k lines against the indentation stack, in this process, alternating."""
    text = generate(50_000)
    config = ConfigText("bench.conf", text)
    lint_configs([config])  # warm-up
    floor, lint = best_alternating(
        repeat, lambda: indentation_stack(text), lambda: lint_configs([config])
    )
    report("lint 50k lines, wall", lint, floor, f"<= {LINT_GOAL:g}x", met=lint <= LINT_GOAL * floor)


def main() -> None:
    """Run the chosen sections."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sites", type=int, default=5000)
    parser.add_argument("--bad-vlans", type=int, default=16000)
    parser.add_argument("--big-lines", type=int, default=600_000)
    sections = ["start", "fleet", "vlans", "big", "lint50k"]
    parser.add_argument("--only", nargs="+", choices=sections, default=sections)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="l2tpgen-bench-"))
    compileall.compile_dir(Path(l2tpgen.__file__).parent, quiet=1)  # as `pip install` does
    print(f"load average: {os.getloadavg()[0]:.2f} (2-minute figures on a shared machine)")
    if "start" in args.only:
        start(args.repeat)
    if "fleet" in args.only:
        fleet(work, 1, args.sites)
    if "vlans" in args.only:
        bad_vlans(work, 1, args.bad_vlans)
    if "big" in args.only:
        big(work, args.big_lines)
    if "lint50k" in args.only:
        lint50k(args.repeat)


if __name__ == "__main__":
    main()
