"""What the lab tests share: the skip marks for QEMU and strongSwan, the committed labs and
containerlab's schema, the example lab, a short state directory, and ``l2tpgen lab`` run in-process.

The marks skip when the lab's prerequisites are missing, except with ``L2TPGEN_LAB_REQUIRED=1``
(CI sets it): there a missing prerequisite fails the test.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
from conftest import ROOT, SITES, TESTS
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.checks.frames import frames_specs
from l2tpgen.lab.engines.qemu import (
    APT_PACKAGES,
    LabEnvironmentError,
    find_kernel,
    missing_programs,
)
from l2tpgen.lab.framefile import frames_files
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.strongswan import missing_prerequisites
from l2tpgen.lab.topology import build_topology, protection_files

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet

LABS = ROOT / "labs"
SCHEMA = json.loads((TESTS / "schemas" / "clab.schema.json").read_text())
# The schema's address patterns use \p{..} classes Python's re cannot compile; they only apply to
# fields l2tpgen does not write, so validate without meta-checking the schema itself.
VALIDATOR = jsonschema.Draft7Validator(SCHEMA)
_LAB_REQUIRED = os.environ.get("L2TPGEN_LAB_REQUIRED") == "1"


def _have_vm() -> bool:
    try:
        find_kernel()
    except LabEnvironmentError:
        return False
    return not missing_programs()


requires_vm = pytest.mark.skipif(
    not _have_vm() and not _LAB_REQUIRED,
    reason=f"QEMU lab prerequisites missing (apt-get install -y {APT_PACKAGES}); "
    "L2TPGEN_LAB_REQUIRED=1 makes this a failure",
)

requires_protection = pytest.mark.skipif(
    bool(missing_prerequisites()) and not _LAB_REQUIRED,
    reason=f"protection lab prerequisites missing: {', '.join(missing_prerequisites())}",
)


def beside(fleet: Fleet) -> dict[str, str]:
    """The files ``lab build`` writes beside the topology of ``fleet`` (linux flavor, per VLAN).

    Each IPsec PE's swanctl.conf and each Linux or VyOS PE's frames checks, by name: what
    ``parse_lab(build_topology(fleet), NAME, beside(fleet))`` reads as ``load_lab`` would.
    """
    return {**protection_files(fleet), **frames_files(frames_specs(fleet))}


def example_lab(**kwargs: Any) -> Lab:  # noqa: ANN401 - passed through to build_topology
    """The lab `lab build` makes of ``sites/`` (the example), with ``build_topology``'s options."""
    return parse_lab(build_topology(load_fleet(SITES), name="example", **kwargs))


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh L2TPGEN_STATE_DIR for `lab` commands (the simulator's tests have their own).

    Short: the control socket's path must fit a unix socket (107 bytes), which a deep pytest
    tmp_path under a long user name might not."""
    directory = Path(tempfile.mkdtemp(prefix="l2tpgen-state-"))
    monkeypatch.setenv("L2TPGEN_STATE_DIR", str(directory))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


_runner = CliRunner()


def run_lab(args: list[str]) -> tuple[int, str, str]:
    """``l2tpgen lab ARGS`` in-process: its exit code, stdout and stderr (never a traceback)."""
    result = _runner.invoke(app, ["lab", *args], env={"COLUMNS": "200"})
    assert not isinstance(result.exception, AssertionError)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def lab_status() -> tuple[int, list[dict[str, object]]]:
    """``lab status --format json``: its exit code and the labs it lists."""
    code, stdout, _ = run_lab(["status", "--format", "json"])
    labs: list[dict[str, object]] = json.loads(stdout)["labs"]
    return code, labs


def qemu_alive(pid: int) -> bool:
    """``pid`` is a running QEMU."""
    try:
        return b"qemu" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


# One captured packet as tcpdump -x prints it, written by hand: IPv4 (IHL 5) protocol 115,
# session ID 200, then an 802.1Q frame (VLAN 200) holding ARP from 02:00:00:00:02:01; and a frame
# from another source (the PE's bridge), which is not judged.
FRAME_CAPTURE = """==t==
12:00:00.000000 IP 10.255.0.3 > 10.255.0.1:  ip-proto-115 50
\t0x0000:  4500 0046 0000 4000 4073 0000 0aff 0003
\t0x0010:  0aff 0001 0000 00c8 ffff ffff ffff 0200
\t0x0020:  0000 0201 8100 00c8 0806 0001
12:00:00.100000 IP 10.255.0.3 > 10.255.0.1:  ip-proto-115 50
\t0x0000:  4500 0046 0000 4000 4073 0000 0aff 0003
\t0x0010:  0aff 0001 0000 00c8 0100 5e00 0016 0e02
\t0x0020:  301b fdd7 0800 46c0
==t end==
"""
