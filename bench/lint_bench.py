"""Lint time next to the floor: the same tree built with a plain indentation stack.

Usage: python bench/lint_bench.py [--lines N] [--repeat R]

Measured in the same run, alternating, best of R: the ratios are what to read, not the seconds
(these machines are shared). The floor is what any reader of IOS text must do at least: split the
lines and nest them by indentation. Goal: the whole lint (clean-up + tree + facts + rules) at most
20x that floor (issue 35 asks 8x: bench/cost_bench.py). A bare ciscoconfparse parse of the same
lines is printed beside it, for scale: it was most of the cost until ``ios.tree.build`` nested
configs without banners, braces, macros or comments by their indentation.
"""

from __future__ import annotations

import argparse

from common import best, best_alternating

from l2tpgen.ios.extract import extract
from l2tpgen.ios.text import clean
from l2tpgen.ios.tree import _import_parser, build
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.lint.rules import DEVICE_RULES

GOAL = 20.0


def indentation_stack(text: str) -> list[list[object]]:
    """The floor: every non-comment line nested under the last less-indented one."""
    roots: list[list[object]] = []
    stack: list[tuple[int, list[object]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        if not stripped or stripped[0] == "!":
            continue
        width = len(line) - len(stripped)
        node: list[object] = [stripped, number, []]
        while stack and stack[-1][0] >= width:
            stack.pop()
        children = stack[-1][1][2] if stack else roots
        children.append(node)  # type: ignore[attr-defined]
        stack.append((width, node))
    return roots


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


def main() -> None:
    """Print the times and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    text = generate(args.lines)
    lines = text.splitlines()
    config = ConfigText("bench.conf", text)
    findings = lint_configs([config])  # warm-up, and a check that the config is what we think
    ccp = _import_parser()
    floor, parse, lint = best_alternating(
        args.repeat,
        lambda: indentation_stack(text),
        lambda: ccp(lines, syntax="ios"),
        lambda: lint_configs([config]),
    )
    cleaned = clean(text)
    tree = build(cleaned)
    facts = extract("bench.conf", tree)
    stages = {
        "clean-up (messy text -> one line per line)": best(lambda: clean(text), args.repeat),
        "tree (indentation stack, fillers left out)": best(lambda: build(cleaned), args.repeat),
        "facts (tree -> what rules read)": best(lambda: extract("bench.conf", tree), args.repeat),
        "rules (all device rules)": best(
            lambda: [list(r.check(facts)) for r in DEVICE_RULES],
            args.repeat,
        ),
    }
    print(f"config: {len(lines)} lines, {len(findings)} findings")
    print(f"indentation-stack floor:   {floor:.3f} s (best of {args.repeat})")
    print(f"bare ciscoconfparse parse: {parse:.3f} s")
    print(f"l2tpgen lint (all rules):  {lint:.3f} s")
    print("where the lint's time goes (each stage alone, best of the same runs):")
    for name, seconds in stages.items():
        print(f"  {name:<45} {seconds:.3f} s  ({seconds / floor:.1f}x the floor)")
    print(f"ratio bare ciscoconfparse / indentation-stack floor: {parse / floor:.2f}x")
    print(f"ratio lint / indentation-stack floor: {lint / floor:.2f}x  (goal: at most {GOAL:g}x)")


if __name__ == "__main__":
    main()
