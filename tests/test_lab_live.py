"""A lab that stays up: `lab up`, `lab status`, `lab exec`, `lab check`, `lab down`.

The ones marked ``lab`` boot the real QEMU guest (``requires_vm``: CI sets L2TPGEN_LAB_REQUIRED=1,
so they never skip there). The others fake a running lab with a process whose command line names
the lab's control socket, as QEMU's does, to prove the bookkeeping without booting anything.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT
from conftest_lab import lab_status, qemu_alive, requires_vm, run_lab

from l2tpgen.lab.engines.agent import AgentError, request
from l2tpgen.lab.engines.liveops import Session, parse_sessions
from l2tpgen.lab.engines.livestate import CONTROL, STARTING, STATE_FILE, LiveLab, labs_dir, stop

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterator

EXAMPLE = ROOT / "labs" / "example.clab.yml"
# ce-site-b's address in VLAN 2996: 172.(16 + 2996 // 256).(2996 % 256).(index 1 + 1), the
# addressing docs/lab.md states (2996 = 11 x 256 + 180), reached from ce-site-a only across the
# pseudowire of VLAN 2996 (the CEs share no link).
FAR_CE = "172.27.180.2"


def _ended(pid: int) -> bool:
    """The process is gone, or a zombie left for its parent to reap (it runs no more)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def _fake(
    state: Path, name: str, nodes: tuple[str, ...] = ("pe-a", "ce-a")
) -> Generator[int, None, None]:
    """A process that passes for the lab's QEMU (its command line names the control socket)."""
    directory = labs_dir(state) / name
    directory.mkdir(mode=0o700)
    control = directory / CONTROL
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)", str(control)]
    process = subprocess.Popen(sleeper)
    cmdline = Path(f"/proc/{process.pid}/cmdline")
    while str(control).encode() not in cmdline.read_bytes():  # exec'd, not the fork any more
        time.sleep(0.01)
    LiveLab(
        name, process.pid, time.time(), "topology", str(directory), nodes, ("pe-a",), ready=True
    ).write()
    try:
        yield process.pid
    finally:
        process.kill()
        process.wait()


@pytest.fixture
def fake_lab(state: Path) -> Iterator[int]:
    yield from _fake(state, "fake")


# --- without a VM: the bookkeeping and the errors ---


@pytest.mark.usefixtures("state")
def test_down_with_nothing_up_says_so_and_succeeds() -> None:
    code, _, stderr = run_lab(["down"])
    assert (code, stderr.strip()) == (0, "no lab is up")
    code, _, stderr = run_lab(["down", "example"])
    assert (code, stderr.strip()) == (0, "lab example is not up")


@pytest.mark.usefixtures("state")
def test_status_and_exec_with_nothing_up_say_how_to_start_one() -> None:
    code, _, stderr = run_lab(["status"])
    assert code == 1
    assert "no lab is up (start one with `l2tpgen lab up SITES|TOPOLOGY`)" in stderr
    assert lab_status() == (1, [])
    code, _, stderr = run_lab(["exec", "ce-site-a", "--", "true"])
    assert code == 1
    assert "no lab is up" in stderr
    assert "Traceback" not in stderr


def test_a_lab_whose_vm_died_is_reported_stale_and_its_state_removed(state: Path) -> None:
    dead = subprocess.Popen(["true"])  # noqa: S607 - a pid that no longer runs
    dead.wait()
    directory = labs_dir(state) / "gone"
    directory.mkdir()
    LiveLab("gone", dead.pid, time.time(), "t", str(directory), ("ce-a",), ()).write()
    code, labs = lab_status()
    assert code == 1
    assert labs == [{"name": "gone", "state": "stale", "removed": True}]
    assert not directory.exists()
    assert lab_status() == (1, [])


def test_a_pid_reused_by_another_program_is_not_taken_for_the_lab(state: Path) -> None:
    directory = labs_dir(state) / "reused"
    directory.mkdir()
    # This very process is alive, but its command line names no control socket of the lab.
    LiveLab("reused", os.getpid(), time.time(), "t", str(directory), ("ce-a",), ()).write()
    code, _, stderr = run_lab(["status"])
    assert code == 1
    assert "lab reused: its VM is gone (stale); its state was removed" in stderr
    assert not directory.exists()


def test_a_start_that_crashed_before_writing_its_record_is_cleaned_up(state: Path) -> None:
    (labs_dir(state) / "half").mkdir()
    code, labs = lab_status()
    assert (code, labs) == (1, [{"name": "half", "state": "stale", "removed": True}])


def test_up_refuses_a_second_lab_of_the_same_name(state: Path) -> None:
    lab = _fake(state, "example")  # the name of labs/example.clab.yml
    pid = next(lab)
    try:
        code, _, stderr = run_lab(["up", str(EXAMPLE)])
        assert code == 1
        assert f"lab example is up already (pid {pid}): `l2tpgen lab down example`" in stderr
        assert LiveLab.read(labs_dir(state) / "example") is not None  # left as it was
    finally:
        lab.close()


def test_exec_waits_for_a_lab_that_is_still_starting(state: Path) -> None:
    lab = _fake(state, "booting")
    next(lab)
    try:
        record = LiveLab.read(labs_dir(state) / "booting")
        assert record is not None
        replace(record, ready=False).write()
        code, _, stderr = run_lab(["exec", "--lab", "booting", "ce-a", "--", "true"])
        assert code == 1
        assert "lab booting is still starting" in stderr
        assert lab_status()[1][0]["state"] == "starting"
    finally:
        lab.close()


@pytest.mark.usefixtures("fake_lab")
def test_exec_on_an_unknown_node_names_the_labs_nodes() -> None:
    code, stdout, stderr = run_lab(["exec", "ce-nowhere", "--", "ping", "-c", "1", FAR_CE])
    assert code == 1
    assert stdout == ""
    assert "lab fake has no node 'ce-nowhere'; its nodes: pe-a, ce-a" in stderr
    assert "Traceback" not in stderr


def test_exec_names_the_lab_when_several_are_up(state: Path) -> None:
    first, second = _fake(state, "one"), _fake(state, "two")
    next(first), next(second)
    try:
        code, _, stderr = run_lab(["exec", "ce-a", "--", "true"])
        assert code == 1
        assert "several labs are up (one, two): name one with --lab" in stderr
        code, _, stderr = run_lab(["down"])
        assert code == 1
        assert "several labs are up (one, two): name one, or --all" in stderr
        code, _, stderr = run_lab(["down", "--all"])
        assert code == 0
        assert "lab one stopped" in stderr
        assert "lab two stopped" in stderr
        assert list(labs_dir(state).iterdir()) == []
    finally:
        first.close()
        second.close()


def test_down_stops_the_labs_process_and_removes_its_state(fake_lab: int, state: Path) -> None:
    code, _, stderr = run_lab(["down", "fake"])
    assert code == 0
    assert f"lab fake stopped (pid {fake_lab})" in stderr
    assert not (labs_dir(state) / "fake").exists()
    assert _ended(fake_lab)


def test_the_state_directory_is_private(state: Path) -> None:
    assert labs_dir(state).stat().st_mode & 0o777 == 0o700


def test_a_state_directory_too_long_for_a_socket_is_refused_before_booting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long = tmp_path / ("s" * 100)
    monkeypatch.setenv("L2TPGEN_STATE_DIR", str(long))
    code, _, stderr = run_lab(["up", str(EXAMPLE)])
    assert code == 1
    assert "too long for a unix socket" in stderr
    assert list((long / "lab").iterdir()) == []


# --- the real VM ---


def _capture_while_pinging() -> None:
    """docs/lab.md's capture: tcpdump in the background while pings cross, then its output."""
    capture = ["-c", "4", "-nn", "-i", "eth1", "ip proto 115"]
    code, stdout, _ = run_lab(["exec", "-b", "pe-site-b", "--", "tcpdump", *capture])
    assert code == 0, stdout
    job = stdout.strip()
    code, stdout, _ = run_lab(["exec", "ce-site-a", "--", "ping", "-c", "2", "-W", "5", FAR_CE])
    assert code == 0, stdout
    code, stdout, _ = run_lab(["wait", job, "--timeout", "30"])
    assert code == 0, stdout
    assert "4 packets captured" in stdout
    assert "ip-proto-115" in stdout
    code, _, stderr = run_lab(["wait", "99"])
    assert code == 1
    assert "no background job 99" in stderr


@pytest.mark.lab
@requires_vm
def test_up_status_exec_check_down_on_the_real_vm(state: Path) -> None:
    pid = 0
    code, stdout, stderr = run_lab(["up", str(EXAMPLE)])
    try:
        assert code == 0, stdout + stderr
        assert "lab example is up" in stdout
        # progress as it went, one plain line per step off a terminal
        assert "] booting the VM" in stderr
        assert "] set up pe-site-a" in stderr
        assert labs_dir(state).joinpath("example").stat().st_mode & 0o777 == 0o700
        code, labs = lab_status()
        assert code == 0
        (lab,) = labs
        pid = int(str(lab["pid"]))
        assert qemu_alive(pid)
        qemu = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert qemu[qemu.index(b"-nic") + 1] == b"none"  # nothing leaves the VM but its serial
        assert not {b"-net", b"-netdev", b"-device"} & set(qemu)
        assert lab["state"] == "up"
        assert lab["nodes"] == ["wan", "pe-site-a", "ce-site-a", "pe-site-b", "ce-site-b"]
        # 4 VLANs, a session at each of the two PEs, as `ip l2tp show session` lists them
        assert lab["pseudowires"] == {"up": 8, "down": 0}
        sessions = {(s["pe"], s["session"], s["interface"]) for s in lab["sessions"]}  # type: ignore[attr-defined]
        assert ("pe-site-a", 126, "l2tp2996") in sessions
        assert ("pe-site-b", 125, "l2tp2999") in sessions

        code, stdout, _ = run_lab(["exec", "ce-site-a", "--", "ping", "-c", "1", "-W", "5", FAR_CE])
        assert code == 0, stdout
        assert "1 packets transmitted, 1 received" in stdout
        code, stdout, _ = run_lab(
            ["exec", "ce-site-a", "--", "ping", "-c", "1", "-W", "1", "172.27.180.9"]
        )
        assert code == 1, stdout  # nobody there: ping's own exit status comes back
        assert "0 received" in stdout
        _capture_while_pinging()

        code, stdout, _ = run_lab(["check", "--full"])
        assert code == 0, stdout
        assert stdout.strip().splitlines()[-1].startswith("16 ok, 0 failed, ")
        assert stdout.count(" ok ") == 16  # reach, isolation, mtu, multicast x 4 VLANs

        # a pseudowire taken down in the lab is seen down by status
        code, _, _ = run_lab(["exec", "pe-site-a", "--", "ip", "link", "set", "l2tp2996", "down"])
        assert code == 0
        assert lab_status()[1][0]["pseudowires"] == {"up": 7, "down": 1}
        code, stdout, _ = run_lab(["exec", "ce-site-a", "--", "ping", "-c", "1", "-W", "1", FAR_CE])
        assert code == 1
    finally:
        code, _, stderr = run_lab(["down", "example"])
    assert code == 0, stderr
    assert "lab example stopped" in stderr
    assert not qemu_alive(pid)
    assert lab_status() == (1, [])
    assert list(labs_dir(state).iterdir()) == []


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.lab
@requires_vm
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_interrupting_lab_up_leaves_no_vm_running(state: Path, sent: signal.Signals) -> None:
    record = labs_dir(state) / "example" / STATE_FILE
    env = {**os.environ, "L2TPGEN_STATE_DIR": str(state)}
    up = [sys.executable, "-m", "l2tpgen", "lab", "up", str(EXAMPLE)]
    # As a CI script's `&` starts it: SIGINT ignored, inherited (lab up handles it itself).
    child = subprocess.Popen(up, env=env, preexec_fn=_ignore_sigint)  # noqa: PLW1509
    try:
        while not record.exists():  # QEMU started: its pid recorded
            assert child.poll() is None
            time.sleep(0.05)
        pid = json.loads(record.read_text())["pid"]
        child.send_signal(sent)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
        left = LiveLab.read(record.parent)
        if left is not None and child.returncode == 0:  # failed: the lab came up; stop it
            stop(left)
    assert child.returncode != 0
    deadline = time.monotonic() + 10
    while qemu_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not qemu_alive(pid)
    assert list(labs_dir(state).iterdir()) == []


# `ip l2tp show session` and `ip -o link show` in pe-site-b of the protected example, as the
# lab's kernel (Debian 6.1, iproute2 6.1) printed them (abridged); l2tp2997 then set down by hand
# (`ip link set l2tp2997 down` drops UP and LOWER_UP from the flags).
KERNEL_SESSIONS = """\
Session 126 in tunnel 1
  Peer session 126, tunnel 1
  interface name: l2tp2996
  offset 0, peer offset 0

Session 127 in tunnel 1
  Peer session 127, tunnel 1
  interface name: l2tp2997
  offset 0, peer offset 0

LINKS
2: eth1@if3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP mode DEFAULT
4: l2tp2996: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1428 qdisc fq_codel master br2996 state UNKNOWN
7: l2tp2997: <BROADCAST,MULTICAST> mtu 1428 qdisc fq_codel master br2997 state DOWN mode DEFAULT
"""


def test_sessions_are_read_from_ip_l2tp_and_up_when_their_device_is() -> None:
    assert parse_sessions("pe-site-b", KERNEL_SESSIONS) == [
        Session("pe-site-b", 1, 126, 126, "l2tp2996", up=True),
        Session("pe-site-b", 1, 127, 127, "l2tp2997", up=False),
    ]


def _guest(control: Path, answer: Callable[[str], bytes]) -> threading.Thread:
    """One connection served as the guest's loop would: a request line in, ``answer`` out."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(control))
    server.listen(1)

    def serve() -> None:
        connection, _ = server.accept()
        with connection, server:
            line = b""
            while not line.endswith(b"\n"):
                line += connection.recv(4096)
            connection.sendall(answer(line.decode()))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def test_the_control_channel_skips_an_earlier_answer_and_decodes_its_own(state: Path) -> None:
    control = state / "c.sock"
    seen: list[tuple[str, str]] = []

    def answer(line: str) -> bytes:
        verb, request_id, script = line.split()
        seen.append((verb, base64.b64decode(script).decode()))
        stale = b"BEGIN 0123abcd\nc3RhbGU=\nEND 0123abcd 0\n"  # what an earlier client left
        body = base64.encodebytes(b"\x00binary\nout\r\n" * 10).replace(b"\n", b"\r\n")
        return (
            stale + f"BEGIN {request_id}\r\n".encode() + body + f"END {request_id} 3\r\n".encode()
        )

    thread = _guest(control, answer)
    assert request(control, "echo hi; exit 3", timeout=30) == (3, b"\x00binary\nout\r\n" * 10)
    thread.join()
    assert seen == [("RUN", "echo hi; exit 3")]


def test_a_request_while_another_runs_waits_then_says_the_vm_is_busy(state: Path) -> None:
    control = state / "c.sock"
    with (state / "c.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(AgentError, match="busy with another request"):
            request(control, "true", timeout=0.3)


@pytest.mark.usefixtures("state")
def test_up_refuses_a_cisco_iol_lab_and_says_what_runs_it() -> None:
    code, _, stderr = run_lab(["up", str(ROOT / "labs" / "cisco-iol" / "example-iol.clab.yml")])
    assert code == 1
    assert "lab up runs linux-flavor labs only, in QEMU (this one has cisco_iol nodes)" in stderr
    assert "Traceback" not in stderr


def test_a_lab_being_started_is_left_alone_by_status_down_and_a_second_up(state: Path) -> None:
    directory = labs_dir(state) / "example"
    directory.mkdir()
    with (directory / STARTING).open("a") as held:  # what `lab up` holds until the lab is up
        fcntl.flock(held, fcntl.LOCK_EX)
        assert lab_status() == (0, [{"name": "example", "state": "starting"}])
        code, _, stderr = run_lab(["down", "example"])
        assert code == 1
        assert "lab example is being started (no VM yet): try again in a moment" in stderr
        code, _, stderr = run_lab(["up", str(EXAMPLE)])
        assert code == 1
        assert "lab example is being started already" in stderr
        assert directory.exists()
    assert lab_status() == (1, [{"name": "example", "state": "stale", "removed": True}])
