"""What `validate` loads: the linter only for a site that sets ``lint.ignore`` (issue 35).

The linter (every rule) is a tenth of a cold `validate`'s modules; it is needed only to check the
rule names a site's ``lint.ignore`` gives. Nor does validate render a site to find the unset
secrets (``l2tpgen.platforms.needs``): no Jinja, no renderer, no netutils (type 7); nor load rich
to print a fleet that validates with no warning (``app.print_plain``, byte for byte what rich
prints). ``mtu --site`` loads no importer. Counted, not timed (bench/cost_bench.py times it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

from l2tpgen.model.generate import write_fleet

if TYPE_CHECKING:
    from pathlib import Path

LOADED = (
    "import runpy, sys\n"
    "sys.argv = ['l2tpgen', 'validate', '--sites', sys.argv[1]]\n"
    "try:\n    runpy.run_module('l2tpgen', run_name='__main__')\n"
    "except SystemExit as exc:\n    code = exc.code\n"
    "print(code, 'l2tpgen.lint' in sys.modules)\n"
)


def _validate(sites: Path) -> tuple[str, str]:
    """validate's exit code and whether it loaded the linter; what it printed on stderr."""
    env = {**os.environ, "L2TPGEN_L2TP_SECRET": "validate-cost-test"}
    argv = [sys.executable, "-c", LOADED, str(sites)]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    return result.stdout.strip().splitlines()[-1], result.stderr


def test_validate_loads_no_linter_when_no_site_silences_a_rule(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    assert _validate(tmp_path)[0] == "0 False"


def test_validate_still_checks_the_rule_names_a_site_silences(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    site = tmp_path / "site-0.yaml"
    site.write_text(site.read_text() + "lint: {ignore: [L2T999]}\n", encoding="utf-8")
    loaded, printed = _validate(tmp_path)
    assert loaded == "1 True"
    assert "lint.ignore: L2T999 matches no rule code or name [V076]" in printed


MODULES = (
    "import runpy, sys\n"
    "sys.argv = ['l2tpgen', *sys.argv[1:]]\n"
    "try:\n    runpy.run_module('l2tpgen', run_name='__main__')\n"
    "except SystemExit as exc:\n    code = exc.code\n"
    "print(code, *sorted(sys.modules))\n"
)


def _modules(*args: str) -> tuple[str, set[str]]:
    """The exit code of ``l2tpgen ARGS`` and the modules it loaded."""
    env = {**os.environ, "L2TPGEN_L2TP_SECRET": "validate-cost-test"}
    argv = [sys.executable, "-c", MODULES, *args]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    code, *loaded = result.stdout.strip().splitlines()[-1].split()
    return code, set(loaded)


def test_validate_renders_no_site_to_find_the_unset_secrets(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    code, loaded = _modules("validate", "--sites", str(tmp_path))
    assert code == "0"
    assert "l2tpgen.platforms.needs" in loaded  # it does look for them
    heavy = {"jinja2", "netutils", "l2tpgen.platforms.render", "l2tpgen.render.env"}
    assert sorted(heavy & loaded) == []


def test_mtu_of_a_site_loads_no_importer(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    code, loaded = _modules("mtu", "site-0", "--sites", str(tmp_path))
    assert code == "0"
    assert "l2tpgen.model.vlan_list" in loaded
    assert sorted(m for m in loaded if m.startswith("l2tpgen.importer")) == []


def test_validate_of_a_fleet_without_warnings_prints_without_rich(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    code, loaded = _modules("validate", "--sites", str(tmp_path))
    assert code == "0"
    assert sorted(m for m in loaded if m.split(".")[0] == "rich") == []


def test_validate_loads_rich_to_print_its_warnings(tmp_path: Path) -> None:
    write_fleet(tmp_path, 2, 2)
    env = {k: v for k, v in os.environ.items() if k != "L2TPGEN_L2TP_SECRET"}
    argv = [sys.executable, "-c", MODULES, "validate", "--sites", str(tmp_path)]
    env["L2TPGEN_L2TP_SECRET"] = ""  # unset: a warning on stderr, in yellow on a terminal
    result = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    assert "warning: environment variable L2TPGEN_L2TP_SECRET is not set" in result.stderr
    assert "rich.console" in result.stdout.split()
