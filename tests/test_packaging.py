"""l2tpgen installs beside the automation users already have, without downgrading any of it.

A user's venv with hier_config 3, netutils, nornir and napalm gets the l2tpgen wheel: nothing may be
downgraded, `pip check` stays clean, and hier_config 3's API still imports. (ciscoconfparse 1.9
pinned hier_config 2.2.3 and broke exactly this.) Needs PyPI, as `.ci/run` does.
"""

from __future__ import annotations

import json
import os
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


SSH_STACK = ("netmiko", "nornir", "paramiko", "asyncssh", "hier_config", "textfsm", "pynetbox")


def test_pipx_installs_l2tpgen_for_linting_without_the_ssh_stack(tmp_path: Path) -> None:
    """`pipx install .` from a checkout: the site commands work, the router side says its extra."""
    venv.create(tmp_path / "tools", with_pip=True)
    tools = tmp_path / "tools" / "bin"
    _run(tools / "python", "-m", "pip", "install", "--quiet", "pipx")
    env = {
        **os.environ,
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
    }
    done = subprocess.run(
        [str(tools / "pipx"), "install", str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    l2tpgen = tmp_path / "bin" / "l2tpgen"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(l2tpgen), *args],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
            env={**env, "COLUMNS": "200"},
            timeout=300,
        )

    assert run("validate", "--sites", "sites").returncode == 0
    assert run("lint", "--sites", "sites").returncode == 0
    assert run("render", "site-a", "--sites", "sites").stdout.startswith("! l2tpgen: site-a")
    python = tmp_path / "pipx" / "venvs" / "l2tpgen" / "bin" / "python"
    found = _run(
        python,
        "-c",
        "import importlib.util, sys; "
        f"print(','.join(m for m in {SSH_STACK!r} if importlib.util.find_spec(m)))",
    ).strip()
    assert found == "", f"a lint-only install pulled {found}"
    push = run("push", "site-a", "--sites", "sites", "--dry-run")
    assert push.returncode == 1
    assert "l2tpgen's push extra" in push.stderr
    assert "Traceback" not in push.stderr
