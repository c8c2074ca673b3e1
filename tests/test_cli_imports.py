"""The command line imports at the top, but for optional extras; heavy libraries stay out of
the commands that do not use them (issue 35).

Each command's module is loaded only when the command runs (``l2tpgen/cli/groups.py``), so it
imports what it uses at its top. An import inside a function is left only where the module it
imports needs one of ``pyproject.toml``'s optional extras (``push``: netmiko, Nornir,
hier_config; ``sim``: asyncssh; ``netbox``: pynetbox), so that a plain install still shows the
command's help and says which extra to install, or where ``ALLOWED`` gives its reason. Each says
why in its ``# noqa: PLC0415 - reason`` comment; a reason that names an extra is checked: the
import does load a package of that extra.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from dataclasses import dataclass

import pytest
from conftest import ROOT

CLI = ROOT / "l2tpgen" / "cli"
EXTRAS = {
    "push": ("hier_config", "netmiko", "nornir", "paramiko", "textfsm"),
    "sim": ("asyncssh",),
    "netbox": ("pynetbox",),
}
# (module file, imported module): why it is imported inside a function without an extra.
ALLOWED = {
    ("sites.py", "l2tpgen.lint.formats"): "the linter, for validate --format github only: "
    "validate loads none otherwise (tests/test_validate_cost.py)",
    # rich, loaded when something is printed with it: a fleet that validates with no warning
    # prints plain lines (app.print_plain) and loads none of it (tests/test_validate_cost.py).
    ("consoles.py", "rich.console"): "rich's console, made when first used",
    ("app.py", "rich.text"): "styled text, for errors and warnings only",
    ("groups.py", "rich.markup"): "help text, which typer draws with rich anyway",
}
_REASON = re.compile(r"#\s*noqa:\s*PLC0415[\w\s,]*?\s-\s*(\S.*)$")
_EXTRA = re.compile(r"\bthe (\w+) extra\b")


@dataclass(frozen=True)
class Local:
    """An import statement inside a function of a ``cli/`` module."""

    file: str
    line: int
    module: str
    statement: str
    reason: str


def _local_imports() -> list[Local]:
    found = []
    for path in sorted(CLI.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for function in ast.walk(ast.parse(text)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                    match = _REASON.search(lines[node.lineno - 1])
                    reason = match.group(1).strip() if match else ""
                    found.append(
                        Local(path.name, node.lineno, module or "", ast.unparse(node), reason)
                    )
    return found


def _extra(reason: str) -> str | None:
    """The optional extra a reason names (``the push extra (netmiko, ...)``), if any."""
    match = _EXTRA.search(reason)
    return match.group(1) if match and match.group(1) in EXTRAS else None


LOCAL = _local_imports()


def test_every_import_inside_a_function_says_why_and_the_reason_is_an_extra_or_allowed() -> None:
    unexplained = [
        f"{i.file}:{i.line}: {i.statement}"
        for i in LOCAL
        if not i.reason or (_extra(i.reason) is None and (i.file, i.module) not in ALLOWED)
    ]
    assert unexplained == [], "import at the top, or give the optional extra it needs"


def test_every_allowed_exception_is_still_there() -> None:
    assert {(i.file, i.module) for i in LOCAL} >= set(ALLOWED)


_EXTRA_IMPORTS = sorted({(i.statement, e) for i in LOCAL if (e := _extra(i.reason)) is not None})


@pytest.mark.parametrize(("statement", "extra"), _EXTRA_IMPORTS, ids=[s for s, _ in _EXTRA_IMPORTS])
def test_an_import_kept_for_an_extra_does_load_that_extra(statement: str, extra: str) -> None:
    probe = f"import sys\n{statement}\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    tops = {name.split(".")[0] for name in done.stdout.split()}
    assert tops & set(EXTRAS[extra]), f"{statement} loads nothing of the {extra} extra"


HEAVY = ("netmiko", "paramiko", "hier_config", "ciscoconfparse", "nornir", "textfsm", "asyncssh")
_LOADED = (
    "import runpy, sys\n"
    "sys.argv = ['l2tpgen', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('l2tpgen', run_name='__main__')\n"
    "except SystemExit:\n    pass\n"
    "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
)


@pytest.mark.parametrize(
    "args",
    [["validate", "--sites", "sites"], ["render", "site-a", "--sites", "sites"]],
    ids=["validate", "render"],
)
def test_validate_and_render_load_no_router_or_parser_library(args: list[str]) -> None:
    env = {**os.environ, "L2TPGEN_L2TP_SECRET": "cli-imports-test"}
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    tops = {name.split(".")[0] for name in done.stderr.split()}
    assert "l2tpgen" in tops
    assert sorted(tops & set(HEAVY)) == []
