"""Running a lab: the ``vm`` engine (QEMU, for CI); ``clab.py`` has the containerlab engine.

Both take a validated ``Lab`` and run the checks the registry plans for them (``lab/checks/``).
The vm engine boots one QEMU guest for one or several labs side by side (``guest.py`` writes the
script).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.checks import plan_checks
from l2tpgen.lab.engines.guest import GuestLab, GuestResults, guest_script, parse_console
from l2tpgen.lab.engines.qemu import Extras, _libraries, _need, run_script
from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.security import is_protected, reveal_secrets, security_plan
from l2tpgen.lab.strongswan import protection_extras

# `ip xfrm` talks to the kernel through xfrm_user (a module on Debian's kernel): without it the
# inbound filter's policies fail to install. Protected labs load it with the ESP modules.
XFRM_MODULES = ("xfrm_algo", "xfrm_user")
# nft talks to nf_tables over nfnetlink; nf_tables needs libcrc32c, which needs a crc32c (the
# generic one: without it insmod fails with "Unknown symbol crc32c" and nft with EINVAL).
NFT_MODULES = ("crc32c_generic", "nfnetlink", "libcrc32c", "nf_tables")

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.probes import CheckResult, Probe

    Progress = Callable[[str], None]


@dataclass(frozen=True)
class LabReport:
    """What a lab run found."""

    lab: str
    engine: str
    results: tuple[CheckResult, ...]
    setup_errors: tuple[str, ...]
    seconds: float
    skipped: tuple[tuple[str, str], ...] = ()  # (check, why it does not apply here): n/a
    # What the lab names but does not run (kept port-mode pseudowires: ``lab/kept_ports.py``),
    # each with why: shown as N/A, never counted as checked.
    not_run: tuple[CheckResult, ...] = ()

    @property
    def ok(self) -> bool:
        """Every check passed and the setup ran cleanly (the N/A rows are not checks)."""
        return bool(self.results) and all(r.ok for r in self.results) and not self.setup_errors

    def to_json(self) -> str:
        """The report as JSON."""
        document = {
            "lab": self.lab,
            "engine": self.engine,
            "ok": self.ok,
            "seconds": round(self.seconds, 1),
            "setup_errors": list(self.setup_errors),
            "results": [asdict(r) for r in self.results],
            "not_run": [asdict(r) for r in self.not_run],
            "not_applicable": [{"check": c, "reason": why} for c, why in self.skipped],
        }
        return json.dumps(document, indent=2)


def require_linux(lab: Lab) -> None:
    """The vm engine runs linux-flavor labs only.

    Raises:
        L2tpgenError: some node is of another kind.
    """
    kinds = {node.kind for node in lab.nodes}
    if kinds != {LINUX_KIND}:
        raise L2tpgenError(
            f"the vm engine runs linux-flavor labs only (found kinds: {sorted(kinds)}); "
            "use --engine containerlab"
        )


@dataclass(frozen=True)
class GuestRun:
    """Each lab's results from one VM boot, and the VM's wall time."""

    labs: tuple[GuestResults, ...]
    seconds: float


def run_guest(
    labs: Sequence[GuestLab],
    *,
    timeout: float = 300,
    extras: Extras | None = None,
    progress: Progress | None = None,
) -> GuestRun:
    """Boot one VM for ``labs`` (set up side by side, probed one after another)."""
    for guest in labs:
        require_linux(guest.lab)
    run = run_script(guest_script(labs), timeout=timeout, extras=extras, progress=progress)
    return GuestRun(parse_console(run.output, labs), run.seconds)


def guest_extras(*builders: Callable[[], Extras]) -> Extras | None:
    """What the guest needs beyond its base: each builder called once, merged (None: nothing)."""
    return merge_extras(*(build() for build in dict.fromkeys(builders)))


def xfrm_extras() -> Extras:
    """The modules ``ip xfrm`` needs (a lab with an inbound filter but no IPsec)."""
    return Extras(modules=XFRM_MODULES)


def nft_extras() -> Extras:
    """The host's ``nft`` and its libraries, and nf_tables (a PE binding its peers)."""
    nft = _need("nft", "nftables")
    files = [("/sbin/nft", Path(nft).read_bytes(), 0o100755)]
    files += [(lib, Path(lib).read_bytes(), 0o100755) for lib in _libraries(nft)]
    return Extras(files=tuple(files), modules=NFT_MODULES)


def setup_extras(lab: Lab) -> tuple[Callable[[], Extras], ...]:
    """What setting ``lab`` up needs in the guest: ``ip xfrm``'s modules, ``nft``.

    The modules when a PE has an inbound filter, nft when a PE with several peers binds them.

    The checks name what they need themselves (``Check.extras``); protecting a lab needs
    ``protect_extras``.
    """
    commands = [command for node in lab.nodes for command in node.exec]
    found: list[Callable[[], Extras]] = []
    if any(c.startswith("ip xfrm ") for c in commands):
        found.append(xfrm_extras)
    if any(c.startswith("nft ") for c in commands):
        found.append(nft_extras)
    return tuple(found)


def protect_extras(lab: Lab) -> tuple[Callable[[], Extras], ...]:
    """What protecting ``lab`` once it is set up needs: strongSwan (a lab with IPsec PEs)."""
    return (protection_extras,) if is_protected(lab) else ()


def merge_extras(*found: Extras | None) -> Extras | None:
    """Everything several checks need in the guest, as one ``Extras`` (None: nothing).

    A file or symlink both name is written once (the last one's), a module loaded once.
    """
    given = [extras for extras in found if extras is not None]
    if not given:
        return None
    return Extras(
        tuple({f[0]: f for e in given for f in e.files}.values()),
        tuple({s[0]: s for e in given for s in e.symlinks}.values()),
        tuple(dict.fromkeys(m for e in given for m in e.modules)),
    )


def run_vm(lab: Lab, *, timeout: float = 300, progress: Progress | None = None) -> LabReport:
    """Run a linux-flavor lab and its checks in QEMU and judge it.

    The secrets its commands and files name (keyed cookies, the IKE pre-shared key) get
    throwaway values first. A lab whose PEs run IPsec also gets the protection checks
    (``security.py``): the attacks before protection (the control), strongSwan started, the
    usual checks over ESP, the attacks again. The frames checks (one per Linux or VyOS PE and
    Cisco peer: from the fleet, or from the files ``lab build`` writes beside the topology) run
    too (``checks/frames.py``), from a topology file as from a sites directory: every check the
    registry plans for ``vm``.
    ``progress`` hears each step (boot, each node's set-up, each probe). A set-up command that
    fails stops the run: no check is judged, and the report names that command.
    """
    setup = setup_extras(lab)
    lab = reveal_secrets(lab)
    plan = plan_checks(lab, "vm")
    protect: tuple[Probe, ...] = ()
    extras = guest_extras(*setup, *plan.extras, *protect_extras(lab))
    if is_protected(lab):  # set up without its policies; protected after the control attacks
        protection = security_plan(lab)
        lab, protect = protection.lab, protection.protect
    probes = (*plan.probes("before"), *protect, *plan.probes("usual"))
    probes += (*plan.probes("after"), *plan.probes("last"))
    run = run_guest([GuestLab(lab, probes)], timeout=timeout, extras=extras, progress=progress)
    found = run.labs[0]
    if found.setup_errors:  # stopped there: nothing was probed
        return LabReport(lab.name, "vm", (), found.setup_errors, run.seconds, plan.skipped)
    results = plan.judge(found.results)
    return LabReport(lab.name, "vm", results, found.setup_errors, run.seconds, plan.skipped)
