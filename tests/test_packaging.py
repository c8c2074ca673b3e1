"""l2tpgen installs beside the automation users already have, without downgrading any of it.

A user's venv with hier_config 3, netutils, nornir and napalm gets the l2tpgen wheel: nothing may be
downgraded, `pip check` stays clean, and hier_config 3's API still imports. (ciscoconfparse 1.9
pinned hier_config 2.2.3 and broke exactly this.) Needs PyPI, as `.ci/run` does.
"""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from typing import TYPE_CHECKING

from conftest import ROOT

if TYPE_CHECKING:
    from pathlib import Path

USERS_STACK = ("hier_config>=3", "netutils", "nornir", "napalm")


def _run(*args: str | Path) -> str:
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, check=False, timeout=900
    )
    assert result.returncode == 0, (
        f"{' '.join(map(str, args))} failed:\n{result.stdout}\n{result.stderr}"
    )
    return result.stdout


def _versions(python: Path) -> dict[str, str]:
    listed = json.loads(_run(python, "-m", "pip", "list", "--format", "json"))
    return {row["name"].lower().replace("_", "-"): row["version"] for row in listed}


def test_l2tpgen_installs_beside_hier_config_3_netutils_nornir_and_napalm(tmp_path: Path) -> None:
    venv.create(tmp_path / "venv", with_pip=True)
    python = tmp_path / "venv" / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", *USERS_STACK)
    before = _versions(python)
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", wheels, ROOT)
    (wheel,) = wheels.glob("l2tpgen-*.whl")
    _run(python, "-m", "pip", "install", "--quiet", wheel)
    after = _versions(python)
    changed = {
        name: (version, after.get(name))
        for name, version in before.items()
        if after.get(name) != version
    }
    assert changed == {}, f"installing l2tpgen changed the user's packages: {changed}"
    assert after["hier-config"].startswith("3.")
    _run(python, "-m", "pip", "check")
    _run(python, "-c", "from hier_config import get_hconfig; import l2tpgen.cli, l2tpgen.ios.tree")
