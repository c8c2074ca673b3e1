"""Lint time next to a bare ciscoconfparse parse of the same 50,000-line config.

Usage: python bench/lint_bench.py [--lines N] [--repeat R]

Both are measured in the same run, alternating, best of R: the ratio is what to read, not the
seconds (these machines are shared). Goal: the whole lint (normalize + parse + facts + rules)
costs at most 1.30x the bare parse, i.e. l2tpgen adds at most 30 %. The lint pauses Python's
cyclic garbage collector while it parses; a second line compares like for like, with the collector
paused for the bare parse too.
"""

from __future__ import annotations

import argparse
import gc
import time
from typing import TYPE_CHECKING

from ciscoconfparse import CiscoConfParse
from loguru import logger

from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.lint.ccp import parse_tree
from l2tpgen.lint.facts import extract
from l2tpgen.lint.normalize import normalize
from l2tpgen.lint.rules import DEVICE_RULES

if TYPE_CHECKING:
    from collections.abc import Callable

logger.disable("ciscoconfparse")


def generate(lines: int) -> str:
    """A router config of about ``lines`` lines: classes, trunks, one subinterface per VLAN."""
    out = [
        "hostname big-pe",
        "!",
        "l2tp-class class1",
        " digest secret 7 0822455D0A16 hash sha",
        "!",
        "pseudowire-class ethernet",
        " encapsulation l2tpv3",
        " protocol l2tpv3 class1",
        " ip local interface Loopback0",
        " ip pmtu",
        " ip dfbit set",
        "!",
        "interface Loopback0",
        " ip address 10.255.0.1 255.255.255.255",
        "!",
    ]
    port, vlan, vc = 0, 1, 1
    while len(out) < lines:
        if vlan == 1:
            out += [
                f"interface GigabitEthernet0/{port}",
                " no ip address",
                " no cdp enable",
                " hold-queue 2048 in",
                " hold-queue 2048 out",
                "!",
            ]
        out += [
            f"interface GigabitEthernet0/{port}.{vlan}",
            f" description stretched VLAN {vlan}",
            f" encapsulation dot1Q {vlan}",
            " no cdp enable",
            f" xconnect 10.255.0.{2 + port % 200} {vc} encapsulation l2tpv3 pw-class ethernet",
            "!",
        ]
        vc += 1
        vlan += 1
        if vlan > 4094:  # noqa: PLR2004 - the last VLAN ID
            port, vlan = port + 1, 1
    out += ["ip route 0.0.0.0 0.0.0.0 10.0.0.1", "!", "end"]
    return "\n".join(out[:lines]) + "\n"


def once(function: Callable[[], object], *, paused: bool = False) -> float:
    """Wall time of one call, starting from a collected heap; ``paused``: collector off inside."""
    gc.collect()
    if paused:
        gc.disable()
    try:
        start = time.perf_counter()
        function()
        return time.perf_counter() - start
    finally:
        gc.enable()


def best(function: Callable[[], object], repeat: int, *, paused: bool = False) -> float:
    """Best wall time of ``repeat`` calls."""
    return min(once(function, paused=paused) for _ in range(repeat))


def main() -> None:
    """Print both times and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text = generate(args.lines)
    lines = text.splitlines()
    config = ConfigText("bench.conf", text)
    findings = lint_configs([config])  # warm-up, and a check that the config is what we think
    parse_times, lint_times, paused_times = [], [], []
    for _ in range(args.repeat):  # alternate so that machine noise hits all alike
        parse_times.append(once(lambda: CiscoConfParse(lines, syntax="ios")))
        lint_times.append(once(lambda: lint_configs([config])))
        paused_times.append(once(lambda: CiscoConfParse(lines, syntax="ios"), paused=True))
    parse, lint, parse_paused = min(parse_times), min(lint_times), min(paused_times)
    normalized = normalize(text)
    tree = parse_tree(normalized)
    facts = extract("bench.conf", tree)
    stages = {
        "normalize (messy text -> one line per line)": best(lambda: normalize(text), args.repeat),
        "facts (tree -> what rules read)": best(lambda: extract("bench.conf", tree), args.repeat),
        "rules (all device rules)": best(
            lambda: [list(r.check(facts)) for r in DEVICE_RULES],
            args.repeat,
        ),
    }
    print(f"config: {len(lines)} lines, {len(findings)} findings")
    print(f"bare ciscoconfparse parse: {parse:.3f} s (best of {args.repeat})")
    print(f"l2tpgen lint (all rules):  {lint:.3f} s (best of {args.repeat})")
    print("where l2tpgen's share goes (each stage alone, best of the same runs):")
    for name, seconds in stages.items():
        print(f"  {name:<45} {seconds:.3f} s  ({seconds / parse:.1%} of the parse)")
    print(f"ratio lint / parse:        {lint / parse:.2f}x  (goal: at most 1.30x)")
    print(f"like for like (bare parse with the collector paused too): {lint / parse_paused:.2f}x")


if __name__ == "__main__":
    main()
