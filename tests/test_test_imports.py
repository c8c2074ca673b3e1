"""No module in tests/ imports a test module (issue 29, item 5).

What tests share lives in modules that hold no tests: ``builders.py`` (site files, fleets),
``support.py`` (stand-ins, runners), ``conftest.py`` and its plugins (``conftest_lab.py``,
``conftest_sim.py``, ``conftest_netbox.py``) and the other helpers. A test module that imported
another ran the other's module code in its own collection, broke when the other renamed a private
helper, and copied from it by reaching in (50 import lines at 3814a4e, issue 29).

Every module under tests/ is read statically (``support.module_imports``: every import statement,
wherever it is, and every ``importlib.import_module``/``__import__`` call with a literal name).
A name is a test module's when it is a ``test_*.py`` file of tests/.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conftest import TESTS
from support import module_imports

if TYPE_CHECKING:
    from pathlib import Path

# Imports of one test module by another that are tolerated for now. Empty since the lint rules'
# cases became the rules' own examples (issue 29 item 4); it may only shrink: an entry no longer
# imported fails the test.
PENDING: frozenset[tuple[str, str]] = frozenset()


def _test_modules_imported(path: Path, test_modules: set[str]) -> set[tuple[int, str]]:
    """(line, test module) for each test module ``path`` imports (``tests.`` prefix or not)."""
    found = set()
    for line, module in module_imports(path):
        parts = module.split(".")
        if parts[0] == "tests":
            parts = parts[1:]
        if parts and parts[0] in test_modules and parts[0] != path.stem:
            found.add((line, parts[0]))
    return found


def _all_imports() -> dict[tuple[str, str], list[str]]:
    """(importer, test module imported) -> ``file:line`` of each import, over tests/*.py."""
    modules = sorted(TESTS.glob("*.py"))
    test_modules = {p.stem for p in modules if p.stem.startswith("test_")}
    found: dict[tuple[str, str], list[str]] = {}
    for path in modules:
        for line, imported in sorted(_test_modules_imported(path, test_modules)):
            found.setdefault((path.stem, imported), []).append(f"tests/{path.name}:{line}")
    return found


def test_the_check_sees_every_kind_of_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import test_a\n"
        "import test_b as b\n"
        "from test_c import helper\n"
        "from tests.test_d import helper\n"
        "if TYPE_CHECKING:\n"
        "    from test_e import Thing\n"
        "def f():\n"
        "    from test_f import g\n"
        "    import importlib\n"
        "    importlib.import_module('test_g')\n"
        "    __import__('test_h')\n"
        "import builders, conftest_lab, l2tpgen, test_probe_not_a_test_module\n",
        encoding="utf-8",
    )
    names = {f"test_{c}" for c in "abcdefgh"} | {"probe"}
    found = _test_modules_imported(probe, names)
    assert sorted(module for _, module in found) == sorted(f"test_{c}" for c in "abcdefgh")
    assert (7, "test_e") in found  # the line of the import itself


def test_no_module_in_tests_imports_a_test_module() -> None:
    found = _all_imports()
    unexpected = {pair: where for pair, where in found.items() if pair not in PENDING}
    assert unexpected == {}, (
        "share through tests/builders.py or a conftest fixture instead: "
        + "; ".join(f"{', '.join(w)} imports {m}" for (_, m), w in sorted(unexpected.items()))
    )


def test_the_pending_imports_only_shrink() -> None:
    gone = sorted(PENDING - set(_all_imports()))
    assert gone == [], f"no longer imported: take them off PENDING: {gone}"
