"""What docs/development.md's map promises about the source, checked on the source (issue 34).

- `cli/` "is the only package that prints, prompts or exits": no module outside ``l2tpgen/cli/``
  (and ``l2tpgen/__main__.py``, the command line's entry) calls ``print``, ``input``,
  ``sys.exit``/``os._exit``, ``typer.echo``/``confirm``/``prompt``/``Exit``, ``getpass``, writes
  to ``sys.stdout``/``sys.stderr``, or raises ``SystemExit``;
- "Computation happens in Python; templates only lay text out": the platforms' Jinja templates
  hold no arithmetic, comparison, call or filter (tests like ``is none``, ``and``/``or``/``not``,
  ``~`` joins and ``a if b else c`` choose and lay out what Python computed);
- `l2tpgen/traits.py` "finds every `l2tpgen/platforms/<name>/traits.py` by scanning the folder":
  every folder with a ``traits.py`` is registered, and every registered platform has a renderer;
- `netbox/client.py` "is the only module that imports pynetbox".
"""

from __future__ import annotations

import ast
import importlib
from typing import TYPE_CHECKING

import jinja2
from conftest import ROOT
from jinja2 import nodes

from l2tpgen.platforms.render import RENDERERS
from l2tpgen.traits import DRIVERS

if TYPE_CHECKING:
    from pathlib import Path

PACKAGE = ROOT / "l2tpgen"
PLATFORMS = PACKAGE / "platforms"
BUILTINS = {"print", "input", "exit", "quit", "breakpoint"}
ATTRIBUTES = {
    ("sys", "exit"),
    ("os", "_exit"),
    ("typer", "echo"),
    ("typer", "secho"),
    ("typer", "confirm"),
    ("typer", "prompt"),
    ("typer", "Exit"),
    ("typer", "Abort"),
    ("click", "echo"),
    ("getpass", "getpass"),
}
STREAMS = {"stdout", "stderr", "stdin"}


def _statement_talks(node: ast.AST) -> bool:
    """``raise SystemExit``, ``from getpass import ...``, ``from sys import stdout``."""
    if isinstance(node, ast.Raise) and node.exc is not None:
        raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(raised, ast.Name) and raised.id in {"SystemExit", "KeyboardInterrupt"}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        names = [a.name for a in node.names]
        return "getpass" in names or (
            isinstance(node, ast.ImportFrom) and node.module == "sys" and bool(STREAMS & set(names))
        )
    return False


def _talks_to_the_terminal(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return _statement_talks(node)
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in BUILTINS
    if not isinstance(func, ast.Attribute):
        return False
    owner = func.value
    if isinstance(owner, ast.Name) and (owner.id, func.attr) in ATTRIBUTES:
        return True
    # sys.stdout.write(...), sys.stderr.flush(): the terminal, not a file
    return (
        isinstance(owner, ast.Attribute)
        and owner.attr in STREAMS
        and isinstance(owner.value, ast.Name)
        and owner.value.id == "sys"
    )


def terminal_calls(root: Path, skip: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(skip):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            f"{relative}:{getattr(n, 'lineno', 0)}"
            for n in ast.walk(tree)
            if _talks_to_the_terminal(n)
        ]
    return found


def test_no_module_outside_the_command_line_prints_prompts_or_exits() -> None:
    assert terminal_calls(PACKAGE, ("cli/", "__main__.py")) == []


def test_the_check_finds_each_way_of_printing_prompting_or_exiting(tmp_path: Path) -> None:
    lines = [
        "print('x')",
        "input()",
        "import sys; sys.exit(1)",
        "import sys; sys.stderr.write('x')",
        "import typer; typer.echo('x')",
        "raise SystemExit(2)",
        "from getpass import getpass",
        "import typer; raise typer.Exit(1)",
    ]
    for number, line in enumerate(lines):
        (tmp_path / f"m{number}.py").write_text(line + "\n")
    (tmp_path / "quiet.py").write_text("import logging\nlogging.getLogger(__name__).info('x')\n")
    assert terminal_calls(tmp_path, ()) == [f"m{n}.py:1" for n in range(len(lines))]


COMPUTING = (nodes.BinExpr, nodes.Compare, nodes.Call, nodes.Filter, nodes.UnaryExpr)


def computation_in(source: str) -> list[str]:
    """What a template computes (beyond choosing and laying out), as `line: node`."""
    tree = jinja2.Environment(autoescape=False).parse(source)  # noqa: S701 - parsed, not rendered
    return [
        f"{node.lineno}: {type(node).__name__}"
        for node in tree.find_all(nodes.Node)
        if isinstance(node, COMPUTING) and not isinstance(node, (nodes.Not, nodes.And, nodes.Or))
    ]


def test_the_platforms_templates_lay_text_out_and_compute_nothing() -> None:
    templates = sorted(PLATFORMS.glob("*/templates/*.j2"))
    assert len(templates) > 3
    found = {
        t.relative_to(ROOT).as_posix(): computed
        for t in templates
        if (computed := computation_in(t.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_template_check_finds_arithmetic_comparisons_calls_and_filters() -> None:
    for expression in ("{{ a + 1 }}", "{% if a > b %}x{% endif %}", "{{ f(a) }}", "{{ a|int }}"):
        assert computation_in(expression), expression
    assert (
        computation_in("{% if a is none and not b %}{{ c.d ~ 'e' if f else g }}{% endif %}") == []
    )


def test_every_platform_folder_is_registered_and_every_registered_platform_renders() -> None:
    folders = sorted(p.name for p in PLATFORMS.iterdir() if (p / "traits.py").is_file())
    assert {"ios", "linux", "vyos"} <= set(folders)
    for folder in folders:
        module = importlib.import_module(f"l2tpgen.platforms.{folder}.traits")
        for traits in module.TRAITS:
            assert DRIVERS[traits.name] is traits, folder
    assert set(DRIVERS) <= set(RENDERERS)


def _imported(node: ast.AST) -> list[str]:
    """The modules an import statement, or an ``import_module("...")`` call, brings in."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in {"import_module", "__import__"}:
            return [str(node.args[0].value)]
    return []


def test_only_the_netbox_client_imports_pynetbox() -> None:
    importers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = _imported(node)
            if any(name.split(".")[0] == "pynetbox" for name in names):
                importers.append(path.relative_to(PACKAGE).as_posix())
    assert sorted(set(importers)) == ["netbox/client.py"]
