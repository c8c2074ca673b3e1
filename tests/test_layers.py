"""The layer contract (issue 29): which part of l2tpgen may import which, type-only included.

Every module of ``l2tpgen/`` is parsed with ``ast`` (imports under ``if TYPE_CHECKING`` and
inside functions count as much as the others), mapped to its layer (``LAYERS``, lowest first),
and may import only modules of its own layer or a lower one. The known exceptions are listed in
``ALLOWED`` with why; that list may only shrink: an entry no longer needed fails the test too.
The platforms' traits and drivers are found at run time (``l2tpgen.traits``,
``l2tpgen.platforms.render``), by scanning ``l2tpgen/platforms/``, so no static import reaches
them from below.
"""

from __future__ import annotations

import ast
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from conftest import ROOT

from l2tpgen.traits import PLATFORMS

if TYPE_CHECKING:
    from pathlib import Path

PACKAGE = ROOT / "l2tpgen"

# Lowest first: a module may import its own layer and those before it. Each layer is a list of
# module patterns (fnmatch on the dotted name); the first layer with a matching pattern wins.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors", ("l2tpgen.errors",)),
    (
        "ground",
        (
            "l2tpgen.files",
            "l2tpgen.startup",
            "l2tpgen.mtu",
            "l2tpgen.public",
            "l2tpgen.sim",
            "l2tpgen.sim.*",
            "l2tpgen.discovery",
        ),
    ),
    ("ios", ("l2tpgen.ios", "l2tpgen.ios.*", "l2tpgen.secrets")),
    (
        "traits",
        (
            "l2tpgen.traits",
            "l2tpgen.platforms",
            "l2tpgen.platforms.traits",
            "l2tpgen.platforms.*.traits",
            # each platform folder's package (a docstring)
            *(f"l2tpgen.platforms.{p.name}" for p in PLATFORMS.iterdir() if p.is_dir()),
        ),
    ),
    ("hosts", ("l2tpgen.workloads", "l2tpgen.hosts", "l2tpgen.hosts.*")),
    ("model", ("l2tpgen.model", "l2tpgen.model.*")),
    ("render", ("l2tpgen.render", "l2tpgen.render.*")),
    ("platform drivers", ("l2tpgen.platforms.*.*",)),
    ("rendering", ("l2tpgen.platforms.render", "l2tpgen.platforms.needs")),
    ("lint", ("l2tpgen.lint", "l2tpgen.lint.*")),
    ("importer", ("l2tpgen.importer", "l2tpgen.importer.*")),
    ("device", ("l2tpgen.device", "l2tpgen.device.*", "l2tpgen.nornir")),
    ("netbox", ("l2tpgen.netbox", "l2tpgen.netbox.*")),
    ("lab", ("l2tpgen.lab", "l2tpgen.lab.*")),
    ("api", ("l2tpgen.api", "l2tpgen.api.*")),
    ("cli", ("l2tpgen.cli", "l2tpgen.cli.*", "l2tpgen.__main__", "l2tpgen")),
]

# (importing module, imported module): why it may point up. Only shrinks.
ALLOWED: dict[tuple[str, str], str] = {
    ("l2tpgen.errors", "l2tpgen.model.problems"): "type-only: FleetValidationError's problems",
    ("l2tpgen.workloads", "l2tpgen.model"): "type-only: the Pseudowire a workload runs over",
    ("l2tpgen.hosts.sites", "l2tpgen.model"): "type-only: the fleet it advises hosts of",
    ("l2tpgen.hosts.sites", "l2tpgen.model.link"): "type-only: the link of a path",
    ("l2tpgen.render.env", "l2tpgen"): "__version__, part of the template cache's key",
    ("l2tpgen.render.fleetdoc", "l2tpgen"): "__version__, printed on the fleet page",
}


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the first layer one of whose patterns matches ``module``."""
    for index, (_, patterns) in enumerate(LAYERS):
        if any(fnmatchcase(module, pattern) for pattern in patterns):
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The l2tpgen modules ``module`` imports anywhere in its source (a package: its init)."""
    found: set[str] = set()
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names = [s for s in subs if s in known]
            if len(names) < len(subs):
                names.append(base)  # a name defined in the module itself
        else:
            continue
        for name in names:
            target = name
            while target and target not in known:  # `import l2tpgen.x.y` names x.y's module
                target = target.rpartition(".")[0]
            if target.startswith("l2tpgen") and target != module:
                found.add(target)
    return found


def _edges() -> set[tuple[str, str]]:
    modules = _modules()
    return {
        (module, imported)
        for module, path in modules.items()
        for imported in imports_of(module, path, set(modules))
    }


def upward(edges: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The imports that point to a higher layer."""
    return {(a, b) for a, b in edges if layer_of(b) > layer_of(a)}


def test_no_module_imports_a_higher_layer_than_its_own() -> None:
    found = sorted(upward(_edges()) - set(ALLOWED))
    lines = [
        f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})" for a, b in found
    ]
    assert found == [], "imports against the layers (LAYERS, lowest first):\n" + "\n".join(lines)


def test_every_allowed_exception_is_still_needed() -> None:
    stale = sorted(set(ALLOWED) - upward(_edges()))
    assert stale == [], f"no longer needed, remove them from ALLOWED: {stale}"


def test_the_model_and_the_ios_reader_import_nothing_of_the_upper_floors() -> None:
    """Issue 29's check, stated directly: model, ios and errors import no platform or renderer."""
    upper = ("l2tpgen.platforms", "l2tpgen.render", "l2tpgen.lint", "l2tpgen.device", "l2tpgen.lab")
    low = ("l2tpgen.model", "l2tpgen.ios", "l2tpgen.errors")
    found = sorted(
        (a, b)
        for a, b in _edges()
        if a.startswith(low) and (b in upper or b.startswith(tuple(f"{u}." for u in upper)))
    )
    assert found == []


def test_the_check_sees_type_only_and_function_level_imports(tmp_path: Path) -> None:
    source = tmp_path / "l2tpgen" / "model" / "bad.py"
    source.parent.mkdir(parents=True)
    (source.parent / "__init__.py").write_text("")
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from l2tpgen.render import Renderer\n"
        "def f():\n"
        "    from ..lint import engine\n"
        "    import l2tpgen.device.push\n"
    )
    known = {"l2tpgen.render", "l2tpgen.lint", "l2tpgen.lint.engine", "l2tpgen.device.push"}
    found = imports_of("l2tpgen.model.bad", source, known)
    assert found == {"l2tpgen.render", "l2tpgen.lint.engine", "l2tpgen.device.push"}
    assert upward({("l2tpgen.model.bad", b) for b in found}) == {
        ("l2tpgen.model.bad", b) for b in found
    }


def test_the_library_api_sits_on_the_whole_library_and_below_the_command_line() -> None:
    """``l2tpgen.api`` (issue 35) calls every floor below it and nothing of ``cli/`` calls it."""
    api = layer_of("l2tpgen.api")
    assert layer_of("l2tpgen.api.routers") == api
    assert api == len(LAYERS) - 2  # just below the command line
    for below in ("l2tpgen.model", "l2tpgen.lint", "l2tpgen.device", "l2tpgen.lab"):
        assert layer_of(below) < api, below
    assert layer_of("l2tpgen.cli.sites") > api
    imported = {b for a, b in _edges() if a.startswith("l2tpgen.api")}
    assert not {b for b in imported if b.startswith("l2tpgen.cli")}


def test_every_module_is_in_a_layer() -> None:
    for module in _modules():
        layer_of(module)


def test_each_platform_is_one_folder_with_its_traits_and_driver() -> None:
    entries = sorted(p.name for p in PLATFORMS.iterdir() if p.name != "__pycache__")
    folders = [name for name in entries if (PLATFORMS / name).is_dir()]
    assert set(entries) - set(folders) == {"__init__.py", "needs.py", "render.py", "traits.py"}
    for name in folders:
        assert (PLATFORMS / name / "traits.py").is_file(), name
        assert (PLATFORMS / name / "driver.py").is_file(), name
        assert (PLATFORMS / name / "needs.py").is_file(), name


def circle_of(module: str, edges: set[tuple[str, str]]) -> set[str]:
    """The modules in an import circle with ``module`` (those it reaches that reach it back)."""

    def reached(start: str, pairs: set[tuple[str, str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for there in {b for a, b in pairs if a == here} - seen:
                seen.add(there)
                todo.append(there)
        return seen

    back = {(b, a) for a, b in edges}
    return (reached(module, edges) & reached(module, back)) - {module}


def test_push_and_its_steps_are_in_no_import_circle() -> None:
    # Issue 35: push imported steps and steps imported push's PushOptions (type-only counts: it
    # ties the two modules together for a reader and a tool all the same).
    edges = _edges()
    for module in ("l2tpgen.device.push", "l2tpgen.device.steps", "l2tpgen.device.options"):
        assert circle_of(module, edges) == set(), module


def test_the_circle_check_finds_a_type_only_circle() -> None:
    edges = {("a.push", "a.steps"), ("a.steps", "a.options"), ("a.options", "a.push")}
    assert circle_of("a.push", edges) == {"a.steps", "a.options"}
    assert circle_of("a.push", edges - {("a.options", "a.push")}) == set()
