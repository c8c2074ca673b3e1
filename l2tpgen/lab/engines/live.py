"""Labs that stay up to be inspected: ``lab up``, ``status``, ``exec``, ``check``, ``down``.

``lab up`` boots the QEMU guest of ``lab run`` daemonized (QEMU's ``-daemonize``: its own
session, no parent to outlive), sets the lab up as ``lab run`` does (namespaces, veth links, the
PEs' L2TPv3 sessions and bridges, the CEs, the WAN shaping; on a protected lab strongSwan started
and the ``ip xfrm`` policies), then leaves the guest serving requests on its control channel
(``agent.py``). What it records, and how a lab is found, checked and forgotten, is in
``livestate.py``; ``liveops.py`` has what one does with a lab once it is up.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.lab.checks import check_extras
from l2tpgen.lab.engines.agent import READY, agent_script, request
from l2tpgen.lab.engines.guest import STEP, GuestLab, parse_console, probe_script, setup_script
from l2tpgen.lab.engines.livestate import (
    CONSOLE,
    CONTROL,
    PIDFILE,
    QEMU_LOG,
    STARTING,
    LiveLab,
    LiveLabError,
    labs_dir,
    remove,
    starting,
)
from l2tpgen.lab.engines.qemu import (
    BEGIN,
    Extras,
    _need,
    build_initramfs,
    find_kernel,
    qemu_command,
)
from l2tpgen.lab.engines.vm import guest_extras, protect_extras, setup_extras
from l2tpgen.lab.frames import tcpdump_extras
from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.security import is_protected, reveal_secrets, security_plan

if TYPE_CHECKING:
    from collections.abc import Callable

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import Probe

    Progress = Callable[[str], None]

INITRD = "initrd.gz"
SOCKET_PATH_MAX = 107  # sun_path holds 108 bytes, the terminating NUL included


@dataclass(frozen=True)
class Started:
    """A lab that is up, and what went wrong while setting it up (it stays up regardless)."""

    live: LiveLab
    setup_errors: tuple[str, ...]
    seconds: float


def _prepare(lab: Lab) -> tuple[Lab, tuple[Probe, ...], Extras | None]:
    """The lab as the guest sets it up, the protection's probes (if any), the guest's extras.

    The extras: tcpdump when the host has it (``lab exec`` captures with it), what the set-up
    needs, and what the checks ``lab check`` runs need (the registry's, for ``live``).
    """
    lab = reveal_secrets(lab)  # throwaway secrets, never the user's
    tools = (tcpdump_extras,) if shutil.which("tcpdump") else ()
    checks = check_extras(lab, "live")
    extras = guest_extras(*tools, *setup_extras(lab), *checks, *protect_extras(lab))
    protect: tuple[Probe, ...] = ()
    if is_protected(lab):
        plan = security_plan(lab)
        lab, protect = plan.lab, plan.protect
    return lab, protect, extras


def _paths(directory: Path) -> tuple[Path, Path, Path]:
    console, control, pidfile = directory / CONSOLE, directory / CONTROL, directory / PIDFILE
    if len(str(control)) > SOCKET_PATH_MAX:
        raise LiveLabError(
            f"the state directory's path is too long for a unix socket ({control}); "
            "set L2TPGEN_STATE_DIR to a shorter one"
        )
    if "," in str(directory):
        raise LiveLabError(f"QEMU cannot take a path with a comma: {directory}")
    return console, control, pidfile


def _serving(control: Path) -> list[int]:
    """The processes whose command line names ``control``: this lab's QEMU, whatever its pid."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            if str(control).encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return found


def _launch(command: list[str], directory: Path, pidfile: Path) -> int:
    """Start QEMU daemonized (its own session, no parent to outlive); its pid.

    QEMU's parent process returns once the VM is created, the daemon's pid in ``pidfile``.
    """
    with (directory / QEMU_LOG).open("wb") as log:
        done = subprocess.run(  # noqa: S603 - our own command line
            [*command, "-daemonize"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            check=False,
            timeout=120,
        )
    if done.returncode != 0:
        text = (directory / QEMU_LOG).read_text(encoding="utf-8", errors="replace").strip()
        raise LiveLabError(f"QEMU did not start (exit {done.returncode}): {text[-500:]}")
    return int(pidfile.read_text(encoding="ascii").strip())


def _steps(text: str, seen: int, progress: Progress | None) -> int:
    """Report the console's progress lines after the first ``seen``; how many there are now."""
    steps = [line.strip("\r") for line in text.splitlines() if line.startswith(STEP + " ")]
    if not text.endswith("\n"):  # the last line may still be arriving
        steps = steps[:-1]
    if progress is not None:
        for step in steps[seen:]:
            progress(step.removeprefix(STEP + " "))
    return max(seen, len(steps))


def _wait_ready(
    live: LiveLab, console: Path, timeout: float, progress: Progress | None = None
) -> str:
    deadline = time.monotonic() + timeout
    seen = 0
    while True:
        text = console.read_text(encoding="utf-8", errors="replace") if console.exists() else ""
        seen = _steps(text, seen, progress)
        if READY in text:
            return text.replace("\r", "")
        if not live.running:
            tail = "\n".join(text.replace("\r", "").splitlines()[-15:])
            raise LiveLabError(
                f"the lab VM stopped while starting; its console ended with:\n{tail}"
            )
        if time.monotonic() > deadline:
            raise LiveLabError(f"the lab VM was not ready within {timeout:g} s")
        time.sleep(0.2)


def _protect(lab: Lab, protect: tuple[Probe, ...], control: Path) -> list[str]:
    """Start strongSwan, initiate IKEv2, install the held-back policies; what failed."""
    guest = GuestLab(lab, protect)
    _, output = request(control, probe_script(guest), timeout=300)
    results = parse_console(output.decode("utf-8", "replace"), [guest])[0].results
    return [f"protection: {p.key} failed on {p.node}" for p in protect if results.get(p.key) != "0"]


def start(
    lab: Lab,
    source: str,
    state_dir: Path,
    *,
    timeout: float = 300,
    progress: Progress | None = None,
) -> Started:
    """Boot the lab's VM detached, set the lab up, and return once it answers requests.

    Whatever interrupts it (an error, Ctrl-C) stops the VM and removes its directory.

    Raises:
        LiveLabError: a lab of that name is up already, or the VM did not come up.
    """
    kinds = sorted({node.kind for node in lab.nodes} - {LINUX_KIND})
    if kinds:
        raise LiveLabError(
            f"lab up runs linux-flavor labs only, in QEMU (this one has {', '.join(kinds)} "
            "nodes); build one with `l2tpgen lab build --flavor linux`, or run this one once "
            "with `lab run --engine containerlab`"
        )
    directory = labs_dir(state_dir) / lab.name
    existing = LiveLab.read(directory)
    if existing is not None and existing.running:
        raise LiveLabError(
            f"lab {lab.name} is up already (pid {existing.pid}): `l2tpgen lab down {lab.name}`"
        )
    if starting(directory):
        raise LiveLabError(f"lab {lab.name} is being started already")
    remove(directory)
    directory.mkdir(mode=0o700, parents=True)
    # Held while starting (released if this process dies): status leaves the lab alone.
    with (directory / STARTING).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _start(lab, source, directory, timeout, progress)


def _start(
    lab: Lab, source: str, directory: Path, timeout: float, progress: Progress | None
) -> Started:
    try:
        console, control, pidfile = _paths(directory)
        setup, protect, extras = _prepare(lab)
        guest = GuestLab(setup, ())
        script = setup_script(guest) + agent_script()
        qemu = _need("qemu-system-x86_64")
        kernel = find_kernel()
        initrd = directory / INITRD
        initrd.write_bytes(build_initramfs(kernel, script, extras))
        serial = (
            *("-serial", f"file:{console}"),
            *("-chardev", f"socket,id=control,path={control},server=on,wait=off"),
            *("-serial", "chardev:control"),
            *("-pidfile", str(pidfile)),
        )
        command = qemu_command(qemu, kernel, initrd, serial=serial)
        began = time.monotonic()
        pid = _launch(command, directory, pidfile)
        nodes = tuple(n.name for n in lab.nodes)
        pes = tuple(n.name for n in lab.nodes if n.role == "pe")
        live = LiveLab(lab.name, pid, time.time(), source, str(directory), nodes, pes)
        live.write()  # recorded at once: a crash of this command leaves a lab status can find
        if progress is not None:
            progress("booting the VM")
        text = _wait_ready(live, console, timeout, progress)
        body = text.split(BEGIN, 1)[-1].split(READY, 1)[0]
        errors = list(parse_console(body, [guest])[0].setup_errors)
        if protect and not errors:
            if progress is not None:
                progress("starting strongSwan, IKEv2, the xfrm policies")
            errors += _protect(setup, protect, control)
        live = LiveLab(**{**asdict(live), "ready": True})
        live.write()
    except BaseException:  # Ctrl-C included: no VM, no state left behind
        for pid in _serving(directory / CONTROL):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        remove(directory)
        raise
    initrd.unlink(missing_ok=True)
    return Started(live, tuple(errors), time.monotonic() - began)
