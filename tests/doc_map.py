"""Reading a page's paths and layer table, for tests/test_development_doc.py (not a test module).

A path is a backquoted token with a ``/`` or a file suffix, read as the page says: from the
repository's root, or under ``l2tpgen/``, or (a bare module name in a package's paragraph of the
map) in that package; ``<name>`` stands for any one name and needs at least one match.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

# owner, and the sign that its change has not landed: a path on main, and a text it holds or None
Sign = tuple[str, str, str | None]

SUFFIXES = (".py", ".md", ".j2", ".json", ".yaml", ".yml", ".toml", ".sh", ".textfsm", ".cfg")
NOT_PATHS = (".venv/", "http://", "https://", "~")
PACKAGE_HEADING = re.compile(r"^### `l2tpgen/([\w/]+)/`")


@dataclass(frozen=True)
class Named:
    """A path as the page names it: the token, its line, and the package it is read in (or None)."""

    token: str
    line: int
    package: str | None


def named_paths(text: str) -> list[Named]:
    """Every path a page names in backquotes, outside code blocks, once per package paragraph."""
    found: dict[tuple[str, str | None], Named] = {}
    package: str | None = None
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        if line.startswith("#"):
            heading = PACKAGE_HEADING.match(line)
            package = f"l2tpgen/{heading[1]}" if heading else None
            if line.startswith("### The top-level modules"):
                package = "l2tpgen"
        for token in re.findall(r"`([^`\s]+)`", line):
            is_path = "/" in token or token.endswith(SUFFIXES)
            if is_path and not token.startswith(NOT_PATHS) and "@" not in token:
                found.setdefault((token, package), Named(token, number, package))
    return list(found.values())


def matches(named: Named, root: Path) -> list[Path]:
    """The files or folders a named path stands for (none: it names nothing).

    ``<name>``, and the words ``CODE``, ``SITE``, ``FILE`` and ``NAME`` the pages write for a
    user's value (``examples/CODE.yaml``), stand for any one name.
    """
    pattern = re.sub(r"<[^>]*>|\b(?:CODE|SITE|FILE|NAME)\b", "*", named.token)
    folder = pattern.endswith("/")
    pattern = pattern.rstrip("/")
    if named.package is not None and "/" not in named.token:
        bases = [root / named.package, root]  # a module of the package, or `pyproject.toml`
    else:
        bases = [root, root / "l2tpgen"] + ([root / named.package] if named.package else [])
    found = [path for base in bases for path in base.glob(pattern)]
    return [path for path in found if path.is_dir() or not folder]


def sign_present(sign: Sign, root: Path) -> bool:
    """Whether the owner's change has not landed yet: its sign is still on the tree."""
    _, path, text = sign
    file = root / path
    if not file.exists():
        return False
    return text is None or text in file.read_text(encoding="utf-8")


def path_problem(named: Named, root: Path, pending: Mapping[str, Sign]) -> str | None:
    """What is wrong with one path the page names (None: nothing)."""
    if matches(named, root):
        return None
    where = f"docs/development.md:{named.line}: `{named.token}`"
    if named.token in pending:
        owner, sign, _ = pending[named.token]
        if sign_present(pending[named.token], root):
            return None
        return (
            f"{where} is missing, and {owner}'s change has landed ({sign} changed): write the "
            "name it chose in docs/development.md"
        )
    return f"{where} names nothing in the repository: correct or drop it"


def landed(root: Path, pending: Mapping[str, Sign]) -> dict[str, int]:
    """The owners whose change has landed, and how many entries of ``pending`` wait on each."""
    found: dict[str, int] = {}
    for sign in pending.values():
        if not sign_present(sign, root):
            found[sign[0]] = found.get(sign[0], 0) + 1
    return found


def unmapped(text: str, root: Path) -> list[str]:
    """The packages and top-level modules of ``l2tpgen/`` the map does not name."""
    start = text.index("## The map")
    end = text.index("\n## ", start + 1)
    named = {path for item in named_paths(text[start:end]) for path in matches(item, root)}
    package = root / "l2tpgen"
    wanted = [init.parent for init in package.rglob("__init__.py") if init.parent != package]
    wanted += [module for module in package.glob("*.py") if not module.name.startswith("_")]
    return sorted(str(path.relative_to(root)) for path in wanted if path not in named)


def without_paragraph(text: str, root: Path) -> list[str]:
    """The packages directly under ``l2tpgen/`` that have no paragraph (heading) of their own."""
    headed = {heading[1] for heading in map(PACKAGE_HEADING.match, text.splitlines()) if heading}
    packages = sorted(init.parent.name for init in (root / "l2tpgen").glob("*/__init__.py"))
    return [f"l2tpgen/{name}/" for name in packages if name not in headed]


def contract_layers(source: str) -> list[tuple[str, list[str]]]:
    """``LAYERS`` of a layer contract (tests/test_layers.py), read from its source, not imported.

    Each layer: its name and the module patterns written out in it (patterns built at run time,
    such as one per platform folder, are left out: the written ones place every module here).
    """
    for node in ast.walk(ast.parse(source)):
        target = getattr(node, "target", None) or next(iter(getattr(node, "targets", [])), None)
        if isinstance(target, ast.Name) and target.id == "LAYERS":
            value = node.value  # type: ignore[attr-defined]  # an Assign or an AnnAssign
            return [
                (
                    layer.elts[0].value,
                    [str(p.value) for p in layer.elts[1].elts if isinstance(p, ast.Constant)],
                )
                for layer in value.elts
            ]
    raise AssertionError("the layer contract has no LAYERS")


def dotted(token: str) -> str:
    """A path the page names as the module name the contract matches: `model/` -> l2tpgen.model."""
    path = re.sub(r"<[^>]*>", "x", token).rstrip("/").removesuffix(".py").removesuffix("/__init__")
    name = path.replace("/", ".")
    return name if name == "l2tpgen" or name.startswith("l2tpgen.") else f"l2tpgen.{name}"


def layer_table(text: str) -> list[tuple[str, list[str]]]:
    """The map's layer table: each row's layer and the paths of the modules it puts there."""
    if "## The map" in text:
        start = text.index("## The map")
        text = text[start : text.index("\n## ", start + 1)]
    rows = re.findall(r"^\| ([a-z][a-z ]*) \| (`.*?) \|", text, re.MULTILINE)
    return [(layer, re.findall(r"`([^`]+)`", modules)) for layer, modules in rows]


def table_disagreements(text: str, contract: str) -> list[str]:
    """Where the page's layer table and the contract's ``LAYERS`` differ."""
    layers = contract_layers(contract)
    table = layer_table(text)
    names = [name for name, _ in layers]
    if [layer for layer, _ in table] != names:
        return [
            f"the table's layers {[layer for layer, _ in table]} are not the contract's {names}"
        ]
    wrong = []
    for row, (layer, tokens) in enumerate(table):
        for token in tokens:
            module = dotted(token)
            index = next(
                (
                    i
                    for i, (_, patterns) in enumerate(layers)
                    if any(fnmatchcase(module, pattern) for pattern in patterns)
                ),
                None,
            )
            if index != row:
                found = "no layer" if index is None else f"the {names[index]} layer"
                wrong.append(f"`{token}` ({module}) is in {found}, not in the {layer} layer")
    return wrong
