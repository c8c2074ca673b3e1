"""`lab run` and `lab up` say what they are doing, and stop at the first failed set-up command.

The guest script prints a progress line before each node's set-up and each probe, and each lab's
set-up is a shell function that returns at its first failure (``lab/engines/guest.py``). These
tests run the real guest script with ``sh`` on this host, its programs (``/sbin/ip``, ``tc``,
``nsenter``) replaced by stubs that log what they are asked and fail where told.
"""

from __future__ import annotations

import json
import subprocess
from typing import TYPE_CHECKING

from conftest_lab import LABS, example_lab
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli.lab_progress import lab_progress
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.checks.base import RUNNERS, STAGES
from l2tpgen.lab.engines import vm as engine
from l2tpgen.lab.engines.console import read_console
from l2tpgen.lab.engines.guest import STEP, WORK, GuestLab, guest_script, parse_console
from l2tpgen.lab.engines.vm import LabReport
from l2tpgen.lab.inputs import load_lab
from l2tpgen.lab.probes import CheckResult
from l2tpgen.lab.steps import describe

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    import pytest

runner = CliRunner()

_STUB = """#!/bin/sh
echo "$(basename "$0") $*" >>{log}
eval batch=\\${{$#}}
case "$*" in *-batch*) line=$(grep -n '{fail}' "$batch" | head -n 1 | cut -d: -f1)
  if [ -n "$line" ]; then
    echo "RTNETLINK answers: File exists" >&2; echo "Command failed $batch:$line" >&2; exit 1
  fi;; esac
exit 0
"""


def _run_guest(tmp_path: Path, fail: str) -> tuple[str, str]:
    """The guest script of the example lab run by ``sh`` here: (its output, the stubs' log)."""
    lab = example_lab()
    script = guest_script([GuestLab(lab, plan_checks(lab, "vm").probes("usual"))])
    stubs, log = tmp_path / "sbin", tmp_path / "log"
    stubs.mkdir()
    for name in ("ip", "tc", "bridge", "nsenter", "sysctl"):
        (stubs / name).write_text(_STUB.format(log=log, fail=fail))
        (stubs / name).chmod(0o755)
    script = script.replace("/sbin/", f"{stubs}/").replace(WORK, str(tmp_path / "work"))
    script = script.replace("export PATH=/sbin:/bin", f"export PATH={stubs}:/usr/bin:/bin")
    done = subprocess.run(
        ["/bin/sh", "-c", script], capture_output=True, text=True, check=False, timeout=60
    )
    return done.stdout, log.read_text() if log.exists() else ""


def test_the_guest_stops_at_the_first_failed_set_up_command_and_names_it(tmp_path: Path) -> None:
    # pe-site-a's third line (after `link set dev lo up` and its WAN up): its WAN address.
    output, log = _run_guest(tmp_path, "addr replace 10.197.251.215/28 dev eth1")
    steps = [line.removeprefix(STEP + " ") for line in output.splitlines() if STEP in line]
    assert steps == ["set up wan", "set up pe-site-a"]  # nothing after the failure
    assert "ce-site-a" not in log
    assert "pe-site-b" not in log
    assert "PROBE" not in output  # no check ran
    assert "OUT-BEGIN" not in output
    (found,) = parse_console(output, [GuestLab(example_lab(), ())])
    assert found.setup_errors == (
        (
            "EXEC-FAIL pe-site-a: ip addr replace 10.197.251.215/28 dev eth1: "
            "RTNETLINK answers: File exists"
        ),
    )


def test_a_clean_set_up_reports_each_node_then_each_probe(tmp_path: Path) -> None:
    output, _ = _run_guest(tmp_path, "never matches anything")
    steps = [line.removeprefix(STEP + " ") for line in output.splitlines() if STEP in line]
    nodes = [f"set up {n.name}" for n in example_lab().nodes]
    assert steps[: len(nodes)] == nodes
    assert any(step.startswith("reach.") for step in steps[len(nodes) :])
    assert "PROBE 0:" in output


def test_the_console_hands_each_progress_line_over_as_it_comes(tmp_path: Path) -> None:
    console = tmp_path / "qemu"
    console.write_text(
        "#!/bin/sh\necho booting\necho L2TPGEN-LAB-BEGIN\n"
        f'echo "{STEP} set up wan"\nsleep 0.3\necho "{STEP} reach.2996"\n'
        "echo L2TPGEN-LAB-END\n"
    )
    console.chmod(0o755)
    seen: list[str] = []
    output = read_console([str(console)], 30, seen.append, begin="L2TPGEN-LAB-BEGIN")
    assert seen == ["VM booted", "set up wan", "reach.2996"]
    assert "L2TPGEN-LAB-END" in output


def test_progress_is_one_plain_line_per_step_off_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with lab_progress() as progress:
        assert progress is not None
        progress("set up wan")
        progress("reach.2996.site-a.site-b")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert lines[0].endswith("s] set up wan")
    with lab_progress(quiet=True) as progress:
        assert progress is None  # --format json: nothing on stderr


def _fake_run(monkeypatch: pytest.MonkeyPatch, setup_errors: tuple[str, ...] = ()) -> None:
    def run_vm(_lab: object, *, progress: Callable[[str], None] | None = None) -> LabReport:
        for step in ("booting the VM", "set up wan", "reach.2996"):
            if progress is not None:
                progress(step)
        reach = CheckResult("reach", 2996, "a->b", ok=True, detail="ping")
        results = () if setup_errors else (reach,)
        return LabReport("example", "vm", results, setup_errors, 1.0)

    monkeypatch.setattr(engine, "run_vm", run_vm)


def test_lab_run_shows_progress_on_stderr_and_json_alone_with_format_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _fake_run(monkeypatch)
    report = tmp_path / "r.json"
    args = ["lab", "run", str(LABS / "example.clab.yml"), "--report", str(report)]
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.output
    assert "s] booting the VM" in text.stderr
    assert "s] set up wan" in text.stderr
    quiet = runner.invoke(app, [*args, "--format", "json"])
    assert quiet.exit_code == 0, quiet.output
    assert json.loads(quiet.stdout)["ok"] is True
    assert quiet.stderr == ""


def test_lab_run_names_the_set_up_command_it_stopped_at_and_runs_no_check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    failed = "EXEC-FAIL pe-site-a: ip addr add 10.0.0.1/24 dev enp3s0: Cannot find device"
    _fake_run(monkeypatch, (failed,))
    args = ["lab", "run", str(LABS / "example.clab.yml"), "--report", str(tmp_path / "r.json")]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert failed in " ".join(result.stderr.split())
    assert "stopped at this set-up command: no check ran" in result.stderr


def test_progress_names_probe_steps_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    with lab_progress() as progress:
        assert progress is not None
        progress("control.200.far.traffic.start")
        progress("mtu.200.snmp.before")
        progress("set up pe-site-a")
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].endswith(
        "s] VLAN 200: attack without IPsec (the control): watch the traffic through the far end"
    )
    assert lines[1].endswith("s] VLAN 200: MTU: IP counters before")
    assert lines[2].endswith("s] set up pe-site-a")  # words already


def _every_probe_key() -> set[str]:
    keys: set[str] = set()
    for file in ("example.clab.yml", "protected/example-protected.clab.yml"):
        lab = load_lab(LABS / file)
        for runner in RUNNERS:
            plan = plan_checks(lab, runner)
            keys |= {p.key for stage in STAGES for p in plan.probes(stage)}
    return keys


def test_every_probe_of_the_example_labs_is_named_in_words() -> None:
    keys = _every_probe_key()
    assert len(keys) > 50  # reach, MTU, multicast, isolation, both attack phases
    for key in keys:
        words = describe(key)
        assert "." not in words, (key, words)  # every dotted part translated (or a node's name)
    assert describe("protected.2996.far.traffic") == (
        "VLAN 2996: attack over IPsec: the traffic through the far end"
    )
    assert describe("reach.2996") == "VLAN 2996: reach: ping through the pseudowire"


def test_a_step_of_several_probes_started_at_once_groups_their_vlans() -> None:
    step = "capture.ce-b.200 capture.ce-b.201 seen.ce-b.200 seen.ce-b.201 reach.200"
    assert describe(step) == (
        "5 at once: VLANs 200, 201: isolation: capture on ce-b; VLANs 200, 201: isolation: "
        "tagged payloads seen on ce-b; VLAN 200: reach: ping through the pseudowire"
    )
    many = "seen.b.1 seen.b.2 heartbeat.seen.b mdb.pe-b ike.pe-a ike.pe-b"
    assert describe(many) == (
        "6 at once: VLANs 1, 2: isolation: tagged payloads seen on b; multicast: seen on b; "
        "multicast groups learned on pe-b; and 2 more"
    )


def _failing_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def run_vm(_lab: object, *, progress: Callable[[str], None] | None = None) -> LabReport:
        del progress
        results = tuple(
            CheckResult("reach", vlan, "a->b", ok=vlan != 2997, detail=f"ping {vlan}")
            for vlan in (2996, 2997, 2998)
        )
        return LabReport("example", "vm", results, (), 31.2, (("frames", "no Cisco peer"),))

    monkeypatch.setattr(engine, "run_vm", run_vm)


def test_lab_run_shows_the_failed_checks_and_ends_with_one_line_of_counts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _failing_run(monkeypatch)
    report = tmp_path / "r.json"
    args = ["lab", "run", str(LABS / "example.clab.yml"), "--report", str(report)]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert result.stdout.strip().splitlines()[-1] == "2 ok, 1 failed, 1 n/a in 31 s"
    assert "ping 2997" in result.stdout
    assert "ping 2996" not in result.stdout  # an ok check is in the report, not the table
    assert f"report: {report}: every check (--full prints them here)" in result.stderr
    document = json.loads(report.read_text())
    assert len(document["results"]) == 3
    assert document["not_applicable"] == [{"check": "frames", "reason": "no Cisco peer"}]
    full = runner.invoke(app, [*args, "--full"], env={"COLUMNS": "200"})
    assert "ping 2996" in full.stdout
    assert full.stdout.strip().splitlines()[-1] == "2 ok, 1 failed, 1 n/a in 31 s"
