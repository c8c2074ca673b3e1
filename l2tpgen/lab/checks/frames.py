"""The ``frames`` check of a lab run from a sites directory: Cisco to Linux frames on the wire.

The lab runs every PE on Linux, so its own pseudowires are Linux to Linux and carry no tag. A
fleet as modelled may pair a Linux-data-plane PE (Linux, VyOS: ``Driver.lab_platform``) with a
Cisco one, which the lab cannot run. For each such (site, Cisco peer) pair, on the pair's first
VLAN, this check builds the site's end as it is rendered for the fleet as modelled (its peer
still Cisco) in namespaces of the lab's VM (``frames.frame_script``: a CE behind its LAN trunk,
a next hop on its WAN), sends from the CE and captures the L2TPv3 packets on the WAN.

What the frame inside must be is read from the Cisco end's own rendered configuration (the
attachment circuit whose xconnect names the site's tunnel address and the VC ID), as lint rule
L2T108 reads it (``lint.rules.frames.frame_mode``): a dot1Q subinterface without
``interworking`` forwards the VLAN frame in its entirety, tag included (Cisco's L2TPv3 feature
guide, IOS 12.0(29)S/12.2(25)S p.22), so every frame from the CE must carry 802.1Q with the
subinterface's VLAN ID; ``interworking ethernet`` means plain Ethernet, no tag [U].
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, ClassVar

from l2tpgen.ios.extract import extract
from l2tpgen.ios.tree import parse_rendered
from l2tpgen.lab.checks.base import LabCheck
from l2tpgen.lab.framefile import CiscoEnd, FramesSpec
from l2tpgen.lab.frames import BATCH_EOF, DOT1Q, frame_script, inner_frames, tcpdump_extras
from l2tpgen.lab.kinds import LINUX_KIND
from l2tpgen.lab.probes import CheckResult, Probe
from l2tpgen.model.protection import COOKIE_PLACEHOLDER
from l2tpgen.platforms.render import kernel_plane, render_site
from l2tpgen.traits import lab_platform

if TYPE_CHECKING:
    from collections.abc import Mapping

    from l2tpgen.lab.checks.base import Runner
    from l2tpgen.lab.frames import InnerFrame
    from l2tpgen.lab.inputs import Lab
    from l2tpgen.model import Fleet, Pseudowire

_IP = "/sbin/ip"


def cisco_end(fleet: Fleet, pw: Pseudowire) -> CiscoEnd:
    """The frame format ``pw``'s Cisco peer's rendered configuration implies."""
    # The linter (22 modules) loads when a frames check is made, not with every lab built.
    from l2tpgen.lint.pairing import End  # noqa: PLC0415 - startup: the linter
    from l2tpgen.lint.rules import frames as rule  # noqa: PLC0415 - startup: the linter

    peer, local = pw.peer.name, str(pw.site.tunnel_address)
    facts = extract(peer, parse_rendered(render_site(fleet, peer), peer))
    for interface, xconnect in facts.xconnects():
        if xconnect.vc_id == pw.vc_id and str(xconnect.peer) == local:
            end = End(facts, interface, xconnect)
            return CiscoEnd(
                interface.name,
                rule.frame_mode(end),
                interface.dot1q,
                rule._interworking(end) is not None,  # noqa: SLF001 - L2T108's own reading
            )
    return CiscoEnd(None, None, None, interworking=False)


def frame_pairs(fleet: Fleet) -> tuple[Pseudowire, ...]:
    """One pseudowire per (Linux-data-plane site, Cisco peer) pair: its lowest VLAN."""
    linux = lab_platform(LINUX_KIND)
    found: dict[tuple[str, str], Pseudowire] = {}
    for name in sorted(fleet.sites):
        site = fleet.site(name)
        if site.driver.frames_dot1q_subinterface or site.driver.lab_platform != linux:
            continue
        for pw in sorted(fleet.pseudowires(name), key=lambda p: p.vlan.id):
            if pw.peer.driver.frames_dot1q_subinterface:
                found.setdefault((name, pw.peer.name), pw)
    return tuple(found.values())


def _revealed(script: str) -> str:
    """Keyed cookies with throwaway values (the frame does not depend on them), never the user's."""
    names = {m.group("var") for m in COOKIE_PLACEHOLDER.finditer(script)}
    if not names:
        return script
    return kernel_plane().reveal_cookies(script, {name: secrets.token_hex(32) for name in names})


def _kind(frame: InnerFrame) -> str:
    if frame.ethertype == DOT1Q:
        return f"802.1Q tag {frame.vlan}"
    return f"untagged (EtherType 0x{frame.ethertype:04x})"


@dataclass(frozen=True)
class Frames(FramesSpec, LabCheck):
    """The Linux end of a Cisco pair puts on the WAN the frame the Cisco end's config implies.

    One per pair of a PE on the Linux data plane (Linux; VyOS, which forwards with the kernel's
    L2TPv3 too) with a Cisco peer, on the pair's lowest VLAN: that PE, rendered for the fleet as
    modelled (its peer still Cisco), is built in namespaces of the lab's VM with a CE behind its
    LAN trunk and a next hop on its WAN; the CE sends and tcpdump captures the L2TPv3 packets on
    the WAN. Every frame from the CE must be what the Cisco end's rendered configuration implies
    (a dot1Q subinterface without ``interworking``: the 802.1Q tag carried). A lab run from the
    sites directory builds the checks from the fleet; ``lab build`` writes each PE's to a YAML
    file beside the topology, named in its label ``l2tpgen.frames``, so a run from the topology
    file makes the same checks.
    """

    name = "frames"
    order = 10
    extras = (tcpdump_extras,)
    never: ClassVar[Mapping[Runner, str]] = {
        "containerlab": "its probe builds namespaces on the VM itself"
    }

    @classmethod
    def applies(cls, lab: Lab, runner: Runner) -> str | None:
        """Where the fleet (a file: its frames files) has a Linux or VyOS PE with a Cisco end."""
        never = super().applies(lab, runner)
        if never is not None:
            return never
        if lab.fleet is not None:
            return None if frame_pairs(lab.fleet) else "no Linux or VyOS PE with a Cisco peer"
        if not lab.frames:
            return "no Linux or VyOS PE with a Cisco peer (no l2tpgen.frames label)"
        return None

    @classmethod
    def plan(cls, lab: Lab) -> tuple[Frames, ...]:
        """The frames checks of the lab's fleet; of a topology file, those its frames files hold."""
        specs = frames_specs(lab.fleet) if lab.fleet is not None else lab.frames
        return tuple(cls.of(spec) for spec in specs)

    @classmethod
    def of(cls, spec: FramesSpec) -> Frames:
        """The check of ``spec``, its keyed cookies given throwaway values."""
        values = {f.name: getattr(spec, f.name) for f in fields(spec)}
        return cls(**{**values, "script": _revealed(spec.script)})

    @property
    def key(self) -> str:
        """The probe's key."""
        return f"frames.{self.site}.{self.peer}"

    @property
    def probes(self) -> tuple[Probe, ...]:
        """One probe on the VM itself: namespaces built, a ping sent, the capture, cleaned up."""
        names = (f"{self.prefix}{n}" for n in ("pe", "wan", "ce"))
        deleted = "".join(f"netns del {n}\n" for n in names)  # one process (``frames.batched``)
        clean = f"{_IP} -force -batch - >/dev/null 2>&1 <<'{BATCH_EOF}'\n{deleted}{BATCH_EOF}\n"
        return (Probe(self.key, "", clean + self.script + clean, "out"),)

    def judge(self, results: Mapping[str, str]) -> CheckResult:
        """Every frame from the CE in the expected format, and at least one."""
        frames = inner_frames(
            results.get(self.key, ""), self.prefix, self.cookie, sublayer=self.sublayer
        )
        expected = self.cisco.expected
        head = (
            f"VLAN {self.vlan}: {self.cisco.describe(self.peer)} implies {expected} inside the "
            f"session; {self.site}"
        )
        if self.cisco.mode == "vlan":
            ok = bool(frames) and all(
                f.ethertype == DOT1Q and f.vlan == self.cisco.vlan for f in frames
            )
        elif self.cisco.mode == "ethernet":
            ok = bool(frames) and all(f.ethertype != DOT1Q for f in frames)
        else:
            ok = False
        if not frames:
            detail = f"{head} put no frame from its CE on the WAN"
        else:
            detail = f"{head} sent {len(frames)} frame(s) from its CE: "
            detail += ", ".join(sorted({_kind(frame) for frame in frames}))
            if not ok:
                detail += f" (expected {expected}: {self.peer} would not take them)"
        return CheckResult("frames", self.vlan, f"{self.site}->{self.peer}", ok, detail)


def frames_checks(fleet: Fleet) -> tuple[Frames, ...]:
    """A frames check per (Linux-data-plane site, Cisco peer) pair of the fleet as modelled."""
    return tuple(Frames.of(spec) for spec in frames_specs(fleet))


def frames_specs(fleet: Fleet) -> tuple[FramesSpec, ...]:
    """What ``frames_checks`` checks, keyed cookies masked: what ``lab build`` writes to files."""
    checks = []
    for index, pw in enumerate(frame_pairs(fleet)):
        name = pw.site.name
        # The site on the data plane that stands in for it (VyOS runs as Linux), its peer Cisco.
        plane = fleet.on_platform(pw.site.driver.lab_platform, (name,))
        stand_in = next(p for p in plane.pseudowires(name) if p.vlan.id == pw.vlan.id)
        prefix = f"fr{index}"
        script = frame_script(plane, name, prefix, pw=stand_in, pings=1)
        checks.append(
            FramesSpec(
                name,
                pw.peer.name,
                pw.vlan.id,
                stand_in.cookie_size,
                stand_in.budget.sublayer,
                cisco_end(fleet, pw),
                script,
                prefix,
            )
        )
    return tuple(checks)


CHECKS = (Frames,)
