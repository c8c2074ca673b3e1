"""What `validate` loads: the linter only for a site that sets ``lint.ignore`` (issue 35).

The linter (every rule) is a tenth of a cold `validate`'s modules; it is needed only to check the
rule names a site's ``lint.ignore`` gives. Counted, not timed (bench/cost_bench.py times it).
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
