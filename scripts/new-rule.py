#!/usr/bin/env python3
"""Scaffold a new lint rule in this checkout, as ruff's scripts/add_rule.py does for ruff.

    .venv/bin/python scripts/new-rule.py NAME [--scope device|cross-device|model]
                                          [--severity error|warning|info] [--code L2Tnnn]

writes ``l2tpgen/lint/rules/<name>.py`` (the rule: its code, name, severity, a docstring to fill
in and a ``check`` that finds nothing yet), ``l2tpgen/lint/rules/examples/<CODE>.yaml`` (a
failing, a passing and a boundary example, the configs to rewrite for the rule), registers the
rule in ``l2tpgen/lint/rules/__init__.py`` and regenerates ``docs/rules.md``. The code is the next
free one of the scope (``L2T0nn`` for a device or model rule, ``L2T1nn`` across devices).

``tests/test_lint_rules.py`` then finds the examples and runs them: the failing one fails until
``check`` reports at the line and column its ``at`` gives. A contributor's tool, not a command of
l2tpgen: it writes into the source tree, which an installed l2tpgen does not have.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "l2tpgen" / "lint" / "rules"
BASES = {"device": "DeviceRule", "cross-device": "FleetRule", "model": "ModelRule"}
TUPLES = {"device": "DEVICE_RULES", "cross-device": "FLEET_RULES", "model": "MODEL_RULES"}
ARGUMENTS = {
    "device": ("device: DeviceFacts", "from l2tpgen.ios.facts import DeviceFacts"),
    "cross-device": ("pairing: Pairing", "from l2tpgen.lint.pairing import Pairing"),
    "model": ("fleet: Fleet, site: str", "from l2tpgen.model import Fleet, Problem"),
}

MODULE = '''"""{summary} ({code} {name})."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import {base}

if TYPE_CHECKING:
    from collections.abc import Iterator

    {facts}
{finding}

class {cls}({base}):
    """{summary}.

    ## What it does
    Flags ... (say where the finding sits: the line and column its examples give).

    ## Why is this bad?
    What breaks, and the source that says so (Cisco documentation, an RFC, a published config).

    ## Use instead
    The fix.
    """

    code = "{code}"
    name = "{name}"
    severity = Severity.{severity}

    def check(self, {arguments}) -> Iterator[{yields}]:
        """Nothing yet: the failing example fails until this reports where it gives."""
        del {names}
        yield from ()
'''

IOS = """pseudowire-class pw
 encapsulation l2tpv3
 ip local interface Loopback0
interface Loopback0
 ip address 10.255.0.{me} 255.255.255.255
interface GigabitEthernet0/0.10
 encapsulation dot1Q 10
 xconnect 10.255.0.{you} 10 encapsulation l2tpv3 pw-class pw
"""

SITE = """name: {me}
hostname: {me}-pe
platform: iosxe
management: {{host: 192.0.2.{n}}}
wan:
  interface: GigabitEthernet0/1
  address: 198.51.100.{n}/24
  gateway: 198.51.100.254
  trusted: true
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: dc, authentication: none}}
peers: [{you}]
vlans:
  - {{id: 10, name: web, peer: {you}}}
"""


def _block(text: str, indent: int) -> str:
    """``text`` as a YAML literal block indented by ``indent`` spaces."""
    pad = " " * indent
    return "|\n" + "".join(f"{pad}{line}\n" for line in text.splitlines())


def examples(code: str, name: str, scope: str) -> str:
    """The examples file: a failing, a passing and a boundary example to rewrite for the rule."""
    head = (
        f"# {code} {name}: its examples, as docs/rules.md shows them and tests/test_lint_rules.py\n"
        "# runs them (the keys: l2tpgen/lint/examples.py). Work each expectation out by hand from\n"
        "# the rule's documentation and the config, never copy it from l2tpgen's output.\n"
    )
    kinds = (
        ("fails", "TODO-what-the-rule-catches"),
        ("passes", "TODO-the-fixed-config"),
        ("boundary", "TODO-the-edge-of-the-rule"),
    )
    entries = []
    for kind, title in kinds:
        if scope == "device":
            files = f"  config: {_block(IOS.format(me=1, you=2), 4)}"
            at = "  at: ['8:2']  # the xconnect (line 8, column 2)\n"
        elif scope == "cross-device":
            a, b = IOS.format(me=1, you=2), IOS.format(me=2, you=1)
            files = f"  configs:\n    a.conf: {_block(a, 6)}    b.conf: {_block(b, 6)}"
            at = "  at: ['a.conf:8:2']  # a.conf's xconnect (line 8, column 2)\n"
        else:
            a = SITE.format(me="site-a", you="site-b", n=1)
            b = SITE.format(me="site-b", you="site-a", n=2)
            files = f"  sites:\n    site-a.yaml: {_block(a, 6)}    site-b.yaml: {_block(b, 6)}"
            at = "  at: ['site-a.yaml:14:5']  # site-a's VLAN 10 (line 14, column 5)\n"
        entry = f"- kind: {kind}\n  name: {title}\n{files}"
        entries.append(entry + (at if kind == "fails" else ""))
    return head + "".join(entries)


def next_code(scope: str) -> str:
    """The next free code of the scope's range (L2T0nn, or L2T1nn across devices)."""
    hundred = 1 if scope == "cross-device" else 0
    text = "".join(path.read_text(encoding="utf-8") for path in RULES.glob("*.py"))
    used = [int(n) for n in re.findall(r'code = "L2T(\d{3})"', text)]
    mine = [n for n in used if n // 100 == hundred]
    return f"L2T{max(mine, default=hundred * 100) + 1:03d}"


def register(cls: str, module: str, scope: str) -> None:
    """Import the rule in rules/__init__.py and add it at the end of its scope's tuple."""
    init = RULES / "__init__.py"
    text = init.read_text(encoding="utf-8")
    at = text.index("\n\nDEVICE_RULES")  # the end of the imports (ruff then sorts them)
    text = f"{text[:at]}\nfrom l2tpgen.lint.rules.{module} import {cls}{text[at:]}"
    opening = text.index("= (", text.index(f"{TUPLES[scope]}: tuple[")) + len("= (")
    close = text.index(")\n", opening)
    if "\n" in text[opening:close]:  # one rule a line: a line before the closing parenthesis
        text = f"{text[:close]}    {cls}(),\n{text[close:]}"
    else:
        text = f"{text[:close]}, {cls}(){text[close:]}"
    init.write_text(text, encoding="utf-8")


def main() -> int:
    """Write the rule, its examples, its registration and the regenerated docs/rules.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the rule's name in kebab-case (e.g. dot1q-on-main-port)")
    parser.add_argument("--scope", choices=sorted(BASES), default="device")
    parser.add_argument("--severity", choices=("error", "warning", "info"), default="warning")
    parser.add_argument("--code", help="L2Tnnn (default: the next free code of the scope)")
    args = parser.parse_args()
    name, scope = args.name, args.scope
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)+|[a-z][a-z0-9]+", name):
        parser.error(f"{name}: a rule's name is kebab-case (lowercase words joined by '-')")
    module = name.replace("-", "_")
    path = RULES / f"{module}.py"
    code = args.code or next_code(scope)
    examples_file = RULES / "examples" / f"{code}.yaml"
    taken = f'code = "{code}"' in "".join(p.read_text(encoding="utf-8") for p in RULES.glob("*.py"))
    if path.exists() or examples_file.exists() or taken:
        parser.error(f"{path.name}, {examples_file.name} or the code {code} exists already")
    cls = "".join(word.capitalize() for word in name.split("-"))
    argument, facts = ARGUMENTS[scope]
    finding = "" if scope == "model" else "    from l2tpgen.lint.finding import Finding\n"
    names = ", ".join(part.split(":")[0].strip() for part in argument.split(","))
    path.write_text(
        MODULE.format(
            summary=f"TODO: what {name} catches, in one line",
            code=code,
            name=name,
            base=BASES[scope],
            facts=facts,
            finding=finding,
            cls=cls,
            severity=args.severity.upper(),
            arguments=argument,
            yields="Problem" if scope == "model" else "Finding",
            names=names,
        ),
        encoding="utf-8",
    )
    examples_file.write_text(examples(code, name, scope), encoding="utf-8")
    register(cls, module, scope)
    sources = [str(path), str(RULES / "__init__.py")]
    for ruff in (["check", "--fix", "--quiet"], ["format", "--quiet"]):  # imports sorted, wrapped
        subprocess.run([sys.executable, "-m", "ruff", *ruff, *sources], cwd=ROOT, check=False)
    generate = "from l2tpgen.lint.formats import rules_markdown; print(rules_markdown(), end='')"
    docs = subprocess.run(  # a fresh interpreter: it imports the rule just written
        [sys.executable, "-c", generate], cwd=ROOT, capture_output=True, text=True, check=True
    )
    (ROOT / "docs" / "rules.md").write_text(docs.stdout, encoding="utf-8")
    for written in (path, examples_file, RULES / "__init__.py", ROOT / "docs" / "rules.md"):
        print(f"wrote {written.relative_to(ROOT)}")
    print(f"next: fill in {path.name}'s docstring and check, and {examples_file.name}'s examples;")
    print(f"      .venv/bin/pytest -q tests/test_lint_rules.py -k {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
