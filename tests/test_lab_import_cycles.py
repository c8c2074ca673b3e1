"""No import circle in ``l2tpgen/lab/``, none between the lab's commands (issue 35).

Each module is read with ``ast``: every import counts, at the top, inside a function or under
``if TYPE_CHECKING`` (a reader follows them all, and a function-level import that closes a
circle only hides it until that function runs). ``from package import name`` is an edge to the
submodule when ``name`` is one, else to the package. A package's ``__init__`` is not counted as
imported by its submodules (Python runs it first, but it names no module of them that loops
back in this code). The graph must sort: ``graphlib`` names the circle when it does not.

Before: ``topology`` -> ``checks/frames`` -> ``checks/base`` -> ``attack`` -> ``pairs`` ->
``topology`` (the CEs' addresses, now ``pairs.ce_address``), ``inputs`` <-> ``kept_ports`` (the
kept port's label and reason, now in ``fields.py``), and ``cli/lab.py`` <-> ``cli/lab_live.py``
(the lab of a source, now ``lab.build`` under ``cli/lab.py``'s ``lab_from``).
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path


def _name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``path`` imports, wherever the import statement is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
    return (found & known) - {module}


def import_graph(root: Path, files: Iterable[Path]) -> dict[str, set[str]]:
    """Each module of ``files`` (named from ``root``) -> the modules of ``files`` it imports."""
    modules = {_name(path, root): path for path in files}
    known = set(modules)
    return {module: _imports(path, module, known) for module, path in modules.items()}


def circle(graph: dict[str, set[str]]) -> list[str]:
    """An import circle of ``graph`` (its modules in order, the first repeated), or []."""
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        return list(exc.args[1])
    return []


PARTS = {
    "l2tpgen/lab": sorted((ROOT / "l2tpgen" / "lab").rglob("*.py")),
    "l2tpgen/cli/lab*.py": sorted((ROOT / "l2tpgen" / "cli").glob("lab*.py")),
}


@pytest.mark.parametrize("part", sorted(PARTS))
def test_the_lab_and_its_commands_import_each_other_in_no_circle(part: str) -> None:
    files = PARTS[part]
    assert len(files) >= 3, part
    found = circle(import_graph(ROOT, files))
    assert not found, f"{part}: an import circle: {' -> '.join(found)}"


def test_the_check_sees_a_circle_closed_by_a_type_only_or_function_level_import(
    tmp_path: Path,
) -> None:
    lab = tmp_path / "l2tpgen" / "lab"
    (lab / "checks").mkdir(parents=True)
    for package in (lab, lab / "checks"):
        (package / "__init__.py").write_text("")
    (lab / "topology.py").write_text(
        "def labels():\n    from l2tpgen.lab.checks.frames import frames_labels\n"
    )
    (lab / "checks" / "frames.py").write_text("from .. import pairs\n")
    (lab / "pairs.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from l2tpgen.lab.topology import ce_address\n"
    )
    (lab / "inputs.py").write_text("import l2tpgen.lab.pairs\n")
    files = sorted(lab.rglob("*.py"))
    graph = import_graph(tmp_path, files)
    assert graph["l2tpgen.lab.inputs"] == {"l2tpgen.lab.pairs"}
    assert graph["l2tpgen.lab.checks.frames"] == {"l2tpgen.lab.pairs"}
    found = circle(graph)
    assert found[0] == found[-1]
    assert set(found) == {"l2tpgen.lab.topology", "l2tpgen.lab.checks.frames", "l2tpgen.lab.pairs"}
    (lab / "pairs.py").write_text("CE = 1\n")  # the circle broken: nothing to report
    assert circle(import_graph(tmp_path, files)) == []
