"""Lint of a large config made of real captures, beside a bare ciscoconfparse parse of it.

Usage: python bench/lint_capture_bench.py [--lines N] [--repeat R]

The config repeats the interface sections of ``tests/realworld/configs/ciscoconfparse-sample08.cfg``
(an IOS 15.4 branch router's ``show running-config``: addresses, IPv6, OSPFv3, NAT, hold-queues)
and the L2TPv3 pseudowire-class and serial xconnect of ``aviacao-cme-rtop-cme.cfg``, each copy
renumbered, up to N lines (issue 26: "a 600k-line config takes 111 s and 700 MB to lint").

In the same run, alternating, best of R: the time of ``lint_configs`` (clean-up, tree, facts,
rules) and of a bare ``CiscoConfParse(lines)``, the parser the lint is built on; then the peak of
memory allocated (tracemalloc) by each. The ratios are what to read, not the seconds (these
machines are shared). No test asserts on them.

Measured on the shared 2-core machine, 2026-11-27, load average 12-15 from other sessions (so the
seconds move by 30% between runs; the memory does not). Issue 26, before (3e05807) and after
(ciscoconfparse fed 20,000 lines at a time, ``extract`` skipping interface lines without a
sub-section):

    180,000 lines, this script, best of 2:
      before: lint 7.33 s, bare parse 3.95 s (1.85x); peak 108 MB, bare parse 56 MB (1.93x)
      after:  lint 7.06 s, bare parse 5.81 s (1.22x); peak  77 MB, bare parse 56 MB (1.37x)
    600,000 lines, `l2tpgen lint --config` (the CLI), /usr/bin/time, one run each:
      before: 73.5 s, 472 MB resident
      after:  69.0 s, 387 MB resident

The parser is most of the time (a cProfile of 180,000 lines: ciscoconfparse 65%, clean-up 16%,
facts 13%, rules 3%); the lint's own stages were already tuned (bench/lint_bench.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from common import best_alternating, peak

from l2tpgen.ios.tree import _import_parser
from l2tpgen.lint import ConfigText, lint_configs

CAPTURES = Path(__file__).resolve().parent.parent / "tests" / "realworld" / "configs"


def _interfaces(text: str) -> list[list[str]]:
    """The interface sections of a capture, each its header and its indented lines."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.replace("\r\n", "\n").splitlines():
        if line.startswith("interface "):
            current = [line]
            blocks.append(current)
        elif current is not None and line.startswith(" "):
            current.append(line)
        else:
            current = None
    return blocks


def generate(lines: int) -> str:
    """About ``lines`` lines of real sections, renumbered so that every interface is new."""
    sample = _interfaces((CAPTURES / "ciscoconfparse-sample08.cfg").read_text(encoding="utf-8"))
    aviacao = (CAPTURES / "aviacao-cme-rtop-cme.cfg").read_text(encoding="utf-8")
    at = aviacao.splitlines().index("pseudowire-class 1CC1")
    pw_class = aviacao.splitlines()[at : at + 7]
    serial = next(b for b in _interfaces(aviacao) if any("xconnect" in x for x in b))
    out = ["hostname big", "!", *pw_class, "!"]
    out += ["interface Loopback0", " ip address 192.168.165.5 255.255.255.255", "!"]
    copy = 0
    while len(out) < lines:
        for number, block in enumerate([*sample, serial], start=copy * 100 + 1):
            base = block[0].split()[1].split(".")[0]
            virtual = base.startswith(("Loopback", "Null"))
            out.append(f"interface Loopback{number}" if virtual else f"interface {base}.{number}")
            vc = copy + 8
            out += [
                x.replace(" 8 encapsulation", f" {vc} encapsulation").replace(
                    "l2tp id 8 8", f"l2tp id {vc} {vc}"
                )
                for x in block[1:]
            ]
            out.append("!")
        copy += 1
    return "\n".join(out[:lines]) + "\nend\n"


def main() -> None:
    """Print the times, the memory and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=180_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    text = generate(args.lines)
    lines = text.splitlines()
    config = ConfigText("bench.conf", text)
    ccp = _import_parser()
    findings = lint_configs([config])  # warm-up
    parse, lint = best_alternating(
        args.repeat, lambda: ccp(lines, syntax="ios"), lambda: lint_configs([config])
    )
    parse_mb = peak(lambda: ccp(lines, syntax="ios"))
    lint_mb = peak(lambda: lint_configs([config]))
    print(f"config: {len(lines)} lines from real captures, {len(findings)} findings")
    print(f"bare ciscoconfparse parse: {parse:.2f} s, peak {parse_mb:.0f} MB")
    print(f"l2tpgen lint (all rules):  {lint:.2f} s, peak {lint_mb:.0f} MB")
    print(f"ratio lint / bare parse: {lint / parse:.2f}x time, {lint_mb / parse_mb:.2f}x memory")


if __name__ == "__main__":
    main()
