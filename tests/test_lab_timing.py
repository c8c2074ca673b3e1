"""The lab's waits end on events, not on timeouts, and still see what they wait for.

The MTU check's one-byte-over ping used to wait out its whole ``-W 1`` when it was dropped (most
VLANs: 1.1 s each, 4.5 s of the example lab's 16-19 s here); it now ends when a sentinel ping
that follows it on the same path is back (``probes.answered``). The QEMU test below proves the
early end cannot hide an answer: a lab predicting one byte less than the real inner MTU must see
the "one byte more" ping cross, and fail.
"""

from __future__ import annotations

import re
import subprocess
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT
from conftest_lab import requires_vm
from ruamel.yaml import YAML

from l2tpgen.lab.engines.vm import run_vm
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.probes import answered

if TYPE_CHECKING:
    from pathlib import Path

EXAMPLE = ROOT / "labs" / "example.clab.yml"


def test_the_over_ping_without_cpu_pinning_is_judged_by_ping_alone() -> None:
    command = answered("ping -s 1459 t", "ping -s 1458 t")
    assert command.index("taskset -p 1 $$") < command.index("o=$(icmp OutEchos)")
    assert re.search(r"\|\| \{ ping -s 1459 t >/dev/null 2>&1; exit \$\?; \}", command)


def _yaml(path: Path) -> Any:  # noqa: ANN401 - YAML documents are untyped
    return YAML(typ="safe").load(path.read_text())


@pytest.mark.lab
@requires_vm
def test_an_mtu_one_byte_over_the_prediction_that_crosses_fails_the_check() -> None:
    document = _yaml(EXAMPLE)
    for node in document["topology"]["nodes"].values():
        labels = node.get("labels", {})
        if labels.get("l2tpgen.role") == "ce":
            labels["l2tpgen.mtu"] = "1457"  # the real inner MTU is 1458: 1458 crosses
    report = run_vm(parse_lab(document))
    mtus = [r for r in report.results if r.check == "mtu"]
    assert len(mtus) == 4
    assert all(not r.ok for r in mtus), [r.detail for r in mtus]
    assert all(r.detail.endswith("1458 crosses unfragmented") for r in mtus), [
        r.detail for r in mtus
    ]
    others = [r for r in report.results if r.check != "mtu"]
    assert others
    assert all(r.ok for r in others)


def test_answered_is_plain_posix_shell() -> None:
    command = answered("ping -c 1 -W 1 -s 1459 t", "ping -c 1 -W 1 -s 1458 t")
    done = subprocess.run(["sh", "-n", "-c", command], check=False, capture_output=True)  # noqa: S607
    assert done.returncode == 0, done.stderr
