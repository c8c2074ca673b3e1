"""A real Linux L2TPv3 data plane in QEMU: a small initramfs, a script, results from the console.

The host kernel here has no L2TP, and Docker is not available: Debian's kernel booted under QEMU
(software emulation; KVM hangs on these machines; two vCPUs, multi-threaded) has it. The initramfs
holds busybox, iproute2 (ip, tc, bridge), iputils ping, iperf3 and socat with their libraries, and
the kernel modules (L2TP, 802.1Q, bridge, netem, tbf, fq, BBR); ``/init`` loads the modules and
runs the lab script, whose output comes back on the serial console between markers.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import lzma
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.engines.bootimage import boot_image
from l2tpgen.lab.engines.cache import cached, digest, stamp
from l2tpgen.lab.engines.console import read_console

if TYPE_CHECKING:
    from collections.abc import Callable

MODULES = (
    "udp_tunnel",
    "ip6_udp_tunnel",
    "l2tp_core",
    "l2tp_netlink",
    "l2tp_ip",
    "l2tp_ip6",  # L2TPv3 over IPv6 underlays
    "l2tp_eth",
    "llc",
    "stp",
    "garp",
    "mrp",
    "8021q",
    "veth",
    "bridge",
    # WAN shaping (delay, loss, rate), pacing and the congestion control the field reports used.
    "sch_netem",
    "sch_tbf",
    "sch_fq",
    "tcp_bbr",
)
BEGIN, END = "L2TPGEN-LAB-BEGIN", "L2TPGEN-LAB-END"
DPKG_STATUS = "/var/lib/dpkg/status"
APT_PACKAGES = (
    "qemu-system-x86 linux-image-amd64 busybox-static iproute2 iputils-ping iperf3 socat tcpdump "
    "nftables"
)
# Host programs copied into the guest's /sbin with their libraries, and the package of each.
# Busybox has applets called ip, tc and ping that know none of what the lab needs: the lab calls
# these by their full path.
PROGRAMS = (
    ("ip", "iproute2"),
    ("tc", "iproute2"),
    ("bridge", "iproute2"),
    ("ping", "iputils-ping"),  # iputils, not busybox: the MTU check needs `-M do` to set DF
    ("iperf3", "iperf3"),
    ("socat", "socat"),
)


class LabEnvironmentError(L2tpgenError):
    """Something the VM lab needs is not installed (the message says what to install)."""


@dataclass(frozen=True)
class Extras:
    """More for the initramfs: files (guest path, bytes, mode), symlinks, modules loaded last.

    Parent directories are created as needed. The protection checks bring strongSwan, the
    ``pwprobe`` tool and the ESP modules this way (``l2tpgen.lab.strongswan``).
    """

    files: tuple[tuple[str, bytes, int], ...] = ()
    symlinks: tuple[tuple[str, str], ...] = ()
    modules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Kernel:
    """A bootable kernel and its module directory."""

    image: Path
    modules: Path


def find_kernel() -> Kernel:
    """The newest Debian kernel in /boot whose modules include L2TP."""
    for image in sorted(Path("/boot").glob("vmlinuz-*"), reverse=True):
        version = image.name.removeprefix("vmlinuz-")
        modules = Path("/lib/modules") / version
        if any(modules.rglob("l2tp_eth.ko*")) and os.access(image, os.R_OK):
            return Kernel(image, modules)
    raise LabEnvironmentError(
        f"no kernel with L2TP modules in /boot; install them: apt-get install -y {APT_PACKAGES}"
    )


def _need(program: str, package: str | None = None) -> str:
    found = shutil.which(program)
    if found is None:
        raise LabEnvironmentError(
            f"{program} is not installed (package {package or program}); install the lab's "
            f"packages: apt-get install -y {APT_PACKAGES}"
        )
    return found


def missing_programs() -> tuple[str, ...]:
    """The host programs the VM lab needs that are not installed (empty when all are)."""
    names = ["qemu-system-x86_64", "busybox", *(name for name, _ in PROGRAMS)]
    return tuple(name for name in names if shutil.which(name) is None)


def _module_bytes(kernel: Kernel, name: str) -> bytes:
    for candidate in kernel.modules.rglob(f"{name}.ko*"):
        data = candidate.read_bytes()
        if candidate.suffix == ".xz":
            return lzma.decompress(data)
        if candidate.suffix == ".zst":
            raise LabEnvironmentError(f"{candidate} is zstd-compressed; decompress it first")
        return data
    raise LabEnvironmentError(f"kernel module {name} not found under {kernel.modules}")


def _libraries(binary: str) -> list[str]:
    out = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout  # noqa: S603, S607
    return re.findall(r"(/\S+\.so[.\d]*)", out)


class _Cpio:
    """A minimal writer of the "newc" cpio format the kernel unpacks."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()
        self.inode = 1
        self.names: set[str] = set()

    def add(self, name: str, data: bytes = b"", mode: int = 0o100644) -> None:
        encoded = name.encode() + b"\0"
        fields = [self.inode, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0]
        header = b"070701" + b"".join(f"{v:08X}".encode() for v in fields)
        self.buffer.write(header + encoded)
        self.buffer.write(b"\0" * (-(len(header) + len(encoded)) % 4))
        self.buffer.write(data)
        self.buffer.write(b"\0" * (-len(data) % 4))
        self.inode += 1

    def directory(self, name: str) -> None:
        self.add(name, mode=0o40755)

    def symlink(self, name: str, target: str) -> None:
        self.add(name, target.encode(), mode=0o120777)

    def parents(self, name: str) -> None:
        """Directory entries for every parent of ``name`` not written yet."""
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            directory = "/".join(parts[:depth])
            if directory not in self.names:
                self.names.add(directory)
                self.directory(directory)

    def finish(self) -> bytes:
        self.add("TRAILER!!!", mode=0)
        return self.buffer.getvalue()


_INIT = """#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /run /tmp /var/run; mount -t tmpfs tmpfs /run; mkdir -p /run/netns
for m in {modules}; do insmod /lib/modules/$m.ko; done
echo {begin}
/bin/sh /lab.sh 2>&1
echo {end}
poweroff -f
"""

BUSYBOX_APPLETS = (
    "sh",
    "mount",
    "insmod",
    "ls",
    "cat",
    "echo",
    "sleep",
    "poweroff",
    "grep",
    "sed",
    "seq",
    "printf",
    "mkdir",
    "sysctl",
    "tr",
    "wc",
    "cut",
    "head",
    "tail",
    "timeout",
    "kill",
    "sort",
    "strings",
    "awk",
    "unshare",  # each IKE daemon in its own mount namespace (its fixed pid file path)
    "nsenter",  # a namespace without `ip netns exec`'s remount of /sys: several times faster
    "stty",  # a lab that stays up: its control port in raw mode (agent.py)
    "base64",
    "killall",
    "mkfifo",  # a listener's log read as it comes (probes.listener)
    "taskset",  # the MTU check's over-sized ping and its sentinel on one CPU (probes.answered)
)


def build_initramfs(kernel: Kernel, script: str, extras: Extras | None = None) -> bytes:
    """A gzipped initramfs that runs ``script`` (a busybox sh script) and powers off.

    Everything but the script is built once per set of inputs (``cache.py``); the script is a
    second archive after it (the kernel unpacks concatenated archives one after the other).
    """
    extras = extras or Extras()
    parts: list[bytes | str] = [_INIT, *MODULES, *BUSYBOX_APPLETS, stamp(kernel.image)]
    parts += [stamp(_need("busybox", "busybox-static")), *(stamp(_need(n)) for n, _ in PROGRAMS)]
    if Path(DPKG_STATUS).exists():  # a library upgraded under the same programs
        parts.append(stamp(DPKG_STATUS))
    for path, data, mode in extras.files:
        parts += [path, str(mode), hashlib.sha256(data).hexdigest()]
    parts += [f"{path}->{target}" for path, target in extras.symlinks]
    parts += ["modules:", *extras.modules]
    base = cached("initramfs", digest(parts), lambda: _base_initramfs(kernel, extras))
    tail = _Cpio()
    tail.add("lab.sh", script.encode(), mode=0o100755)
    return base + gzip.compress(tail.finish(), compresslevel=1)


def _base_initramfs(kernel: Kernel, extras: Extras) -> bytes:
    busybox = _need("busybox", "busybox-static")
    archive = _Cpio()
    for directory in (
        "bin",
        "sbin",
        "proc",
        "sys",
        "dev",
        "run",
        "tmp",
        "lib",
        "lib/modules",
        "lib64",
        "usr",
        "usr/lib",
        "lib/x86_64-linux-gnu",
    ):
        archive.directory(directory)
        archive.names.add(directory)
    archive.add("bin/busybox", Path(busybox).read_bytes(), mode=0o100755)
    for applet in BUSYBOX_APPLETS:
        archive.symlink(f"bin/{applet}", "busybox")
    added: set[str] = set()
    for name, package in PROGRAMS:
        program = _need(name, package)
        archive.add(f"sbin/{name}", Path(program).read_bytes(), mode=0o100755)
        for library in _libraries(program):
            if library not in added:
                added.add(library)
                archive.add(library.lstrip("/"), Path(library).read_bytes(), mode=0o100755)
    for path, data, mode in extras.files:
        if path not in added:
            added.add(path)
            archive.parents(path.lstrip("/"))
            archive.add(path.lstrip("/"), data, mode=mode)
    for path, target in extras.symlinks:
        archive.parents(path.lstrip("/"))
        archive.symlink(path.lstrip("/"), target)
    modules = (*MODULES, *extras.modules)
    for module in modules:
        archive.add(f"lib/modules/{module}.ko", _module_bytes(kernel, module))
    init = _INIT.format(modules=" ".join(modules), begin=BEGIN, end=END)
    archive.add("init", init.encode(), mode=0o100755)
    return gzip.compress(archive.finish(), compresslevel=1)


@dataclass(frozen=True)
class VmRun:
    """What the lab script printed, and how long the VM ran."""

    output: str
    seconds: float


def qemu_command(
    qemu: str,
    kernel: Kernel,
    initrd: Path,
    *,
    memory_mb: int = 768,
    cpus: int = 2,
    serial: tuple[str, ...] = (),
) -> list[str]:
    """The QEMU command line: software emulation, serial console only, no network device.

    ``serial``: options that place the serial ports (a lab that stays up: its console in a file,
    its control port on a unix socket) instead of the console on stdout.
    """
    console = ["-display", "none", "-monitor", "none", *serial] if serial else ["-nographic"]
    return [
        qemu,
        "-m",
        str(memory_mb),
        "-smp",
        str(cpus),
        *console,
        # No network device: nothing leaves the guest but its console (and no boot ROMs).
        "-nic",
        "none",
        "-vga",
        "none",
        "-no-reboot",
        "-accel",
        "tcg,thread=multi",
        "-kernel",
        # Debian's kernel uncompressed on the host, booted at its PVH entry (``bootimage.py``).
        str(boot_image(kernel.image)),
        "-initrd",
        str(initrd),
        "-append",
        # IPv6 off on every interface (no DAD, ND or MLD in the namespaces) but the stack loaded:
        # a lab with an IPv6 underlay turns it on where it needs it (``topology.py``).
        # no_timer_check: on a starved host (TCG under load) the kernel's IO-APIC timer check can
        # fail and panic at boot ("IO-APIC + timer doesn't work!", seen here at load 14); the
        # kernel's own parameter skips that check (Documentation/admin-guide/kernel-parameters).
        # cryptomgr.notests: no self-test of each crypto algorithm as it registers (at boot and
        # when the ESP modules load), the same document's parameter; 0.6-0.8 CPU seconds a boot
        # under TCG here (``bench/lab_goals.py``). The algorithms themselves are unchanged.
        "console=ttyS0 quiet panic=-1 ipv6.disable_ipv6=1 no_timer_check cryptomgr.notests",
    ]


def run_script(
    script: str,
    *,
    timeout: float = 300,
    memory_mb: int = 768,
    cpus: int = 2,
    extras: Extras | None = None,
    progress: Callable[[str], None] | None = None,
) -> VmRun:
    """Boot the kernel with ``script`` as the lab and return what it printed between markers.

    ``progress`` is called with each step as the guest reports it (``guest.STEP`` lines).
    """
    qemu = _need("qemu-system-x86_64")
    kernel = find_kernel()
    with tempfile.TemporaryDirectory(prefix="l2tpgen-vm-") as work:
        if progress is not None:
            progress("building the guest")
        initrd = Path(work) / "initrd.gz"
        initrd.write_bytes(build_initramfs(kernel, script, extras))
        command = qemu_command(qemu, kernel, initrd, memory_mb=memory_mb, cpus=cpus)
        started = time.monotonic()
        if progress is not None:
            progress("booting the VM")
        output = read_console(command, timeout, progress, begin=BEGIN)
    console = output.replace("\r", "")
    if BEGIN not in console or END not in console:
        tail = "\n".join(console.splitlines()[-15:])
        raise L2tpgenError(
            f"the lab VM did not run the lab script; its console ended with:\n{tail}"
        )
    body = console.split(BEGIN, 1)[1].split(END, 1)[0]
    return VmRun(body.strip("\n"), time.monotonic() - started)
