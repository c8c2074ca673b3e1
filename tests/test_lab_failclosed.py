"""A Linux PE fails closed, and a PE mixing clear and IPsec peers keeps the clear ones out of the
IPsec sessions (issue 25): the validate rule, and both on the real kernel in QEMU.

The fleet: three Linux PEs on documentation (public) addresses, each tunnel sourced from a
loopback. ``hub`` is the mixed PE: its pseudowires to ``branch`` are IPsec, those to ``edge``
keyed cookies only (clear L2TPv3, allowed by the rendered per-peer xfrm policy). Facts relied on:
the kernel finds a data packet's session by its session ID alone (``net/l2tp/l2tp_ip.c``
``l2tp_ip_recv``: ``l2tp_session_get(net, session_id)``, no check of the source; quoted in
``shared/docs/security-lab-notes.md`` and measured there 5 of 5), it drops a frame whose cookie
differs from the session's ``peer_cookie`` (``l2tp_core.c`` ``l2tp_recv_common``,
``rx_cookie_discards``), and an xfrm ``block`` policy drops what it selects (ip-xfrm(8)).

The kernel test runs the rendered scripts as they are, in order (the inbound blocks and the
hub's binding of its peers first, the outbound blocks after the tunnels, before the sessions),
with no IKE daemon at all: the state of a PE at boot before ``swanctl --load-all``, or while
charon is stopped. Its control is the same fleet in the same VM with every ``ip xfrm`` command
and the binding (``nft``) left out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from builders import mixed_fleet
from conftest_lab import beside, requires_vm
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.lab.attack import Target, target, watch_counts, watch_start, watch_stop
from l2tpgen.lab.engines.guest import GuestLab
from l2tpgen.lab.engines.qemu import Extras
from l2tpgen.lab.engines.vm import XFRM_MODULES, merge_extras, nft_extras, run_guest
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.probes import Probe, pattern_hex
from l2tpgen.lab.security import reveal_secrets
from l2tpgen.lab.strongswan import PWPROBE, build_pwprobe
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.lab.inputs import Lab
    from l2tpgen.lab.pairs import Pair

runner = CliRunner()


def _validate(directory: Path) -> str:
    result = runner.invoke(app, ["validate", "--sites", str(directory)])
    return result.output


def test_a_mixed_pe_validates_with_keyed_8_byte_cookies_on_its_ipsec_pseudowires(
    tmp_path: Path,
) -> None:
    output = _validate(mixed_fleet(tmp_path))
    assert "ok: 3 sites" in output, output
    assert "branch <-> hub: 1 pseudowire, IPsec" in output
    assert "edge <-> hub: 1 pseudowire, cookies only" in output


@pytest.mark.parametrize(("cookie", "has"), [(0, "no cookies"), (4, "4-byte cookies")])
def test_a_mixed_pe_without_8_byte_cookies_on_its_ipsec_pseudowires_is_refused_at_the_cookie(
    tmp_path: Path, cookie: int, has: str
) -> None:
    output = _validate(mixed_fleet(tmp_path, branch_cookie=cookie))
    # hub.yaml line 12 is `pseudowire_class: {name: ethernet, signaling: static, cookie: N}`;
    # column 63 is the value of `cookie`.
    # validate's warnings of the fleet come in the same run (the Linux sites' IOS names, V037)
    lines = output.splitlines()
    (error,) = [line for line in lines if ": error: " in line]
    hint, total = lines[lines.index(error) + 1], lines[-1]
    assert error == (
        f"{tmp_path}/hub.yaml:12:63: error: this PE mixes clear peers (edge) with IPsec peers, "
        "and the kernel admits a clear peer's L2TPv3 into any session by its ID alone: the IPsec "
        f"pseudowires to branch need keyed 8-byte cookies (they have {has}) [V063]"
    )
    assert hint == (
        "  hint: set `cookie: 8` for branch here and at branch (the cookies are then keyed and "
        "travel only inside ESP), or protect edge with IPsec too"
    )
    assert total.startswith("1 problem in the site files (")  # branch is not mixed: nothing there


def test_a_pe_with_only_ipsec_or_only_clear_peers_needs_no_cookie(tmp_path: Path) -> None:
    # The same hub without its clear peer: IPsec only, `cookie: 0` is fine.
    mixed_fleet(tmp_path, branch_cookie=0)
    hub = tmp_path / "hub.yaml"
    text = hub.read_text()
    text = text.replace(
        "  - name: edge\n    pseudowire: {cookie: 8}\n    protection: {mode: cookie}\n", ""
    ).replace("  - {id: 200, name: lab, peer: edge}\n", "")
    hub.write_text(text)
    (tmp_path / "edge.yaml").unlink()
    output = _validate(tmp_path)
    assert "ok: 2 sites" in output, output


def test_a_vyos_pe_cannot_mix_clear_and_ipsec_peers_and_says_why(tmp_path: Path) -> None:
    mixed_fleet(tmp_path, branch_cookie=0)
    hub = tmp_path / "hub.yaml"
    hub.write_text(hub.read_text().replace("platform: linux", "platform: vyos"))
    output = _validate(tmp_path)
    assert (
        f"{tmp_path}/hub.yaml:14:5: error: this PE mixes clear peers (edge) with IPsec peers, and "
        "the kernel admits a clear peer's L2TPv3 into any session by its ID alone; VyOS has no "
        "L2TPv3 cookies to keep them out of the IPsec pseudowires to branch [V062]\n"
        "  hint: protect the pseudowires to edge with IPsec too, or move them to another PE\n"
    ) in output


# --- the kernel -------------------------------------------------------------------------------


def _pair(lab: Lab, vlan: int) -> Pair:
    return next(p for p in pairs(lab) if p.vlan == vlan)


def _wan_interface(lab: Lab, pe: str) -> str:
    """The WAN router's interface on the link to ``pe``."""
    link = next(k for k in lab.links if {k.a.node, k.b.node} == {pe, lab.wan})
    return link.b.interface if link.a.node == pe else link.a.interface


def _wan_address(lab: Lab, pe: str) -> str:
    """``pe``'s WAN address as its script sets it (not its tunnel address, the loopback)."""
    found = (re.match(r"^ip addr replace ([\d.]+)/\d+ dev eth1$", c) for c in lab.node(pe).exec)
    return next(m.group(1) for m in found if m)


def _forge(source: str, destination: str, t: Target, cookie: str, marker: str) -> str:
    return f"{PWPROBE} forge {source} {destination} {t.session} {cookie} 5 {marker}"


def _probes(lab: Lab) -> tuple[Probe, ...]:
    """CE traffic with the WAN watched; forgeries to the hub; the clear peer's VLAN pinged."""
    ipsec, clear = _pair(lab, 100), _pair(lab, 200)
    t = target(lab, ipsec)  # aimed at pe-hub's session of VLAN 100, with its real cookie
    assert (t.near_pe, t.far_pe) == ("pe-branch", "pe-hub")
    branch_link = _wan_interface(lab, "pe-branch")
    hub_wan = _wan_address(lab, "pe-hub")
    ping = f"ping -c 3 -i 0.2 -W 2 -p {pattern_hex('FCPAYLOAD')}"
    markers = "FCWANADDR,FCCLEARNOCK,FCCLEARCK,until:FCEND"
    edge = "10.255.0.3"  # the clear peer's tunnel address, spoofed by the WAN router
    return (
        Probe("wan.start", t.wan, watch_start("fc-wan", branch_link, "FCPAYLOAD")),
        Probe("traffic", ipsec.near.node, f"{ping} {ipsec.target}", "out"),
        Probe("wan", t.wan, watch_stop("fc-wan"), "out"),
        Probe("ce.start", ipsec.far.node, watch_start("fc-ce", "eth1", markers)),
        Probe("forge.wan", t.wan, _forge(t.wan_address, hub_wan, t, t.cookie, "FCWANADDR"), "out"),
        Probe("forge.clear", t.wan, _forge(edge, t.far_address, t, "-", "FCCLEARNOCK"), "out"),
        Probe(
            "forge.clear.ck", t.wan, _forge(edge, t.far_address, t, t.cookie, "FCCLEARCK"), "out"
        ),
        Probe("forge.end", t.wan, _forge(edge, t.far_address, t, t.cookie, "FCEND")),
        Probe("ce", ipsec.far.node, watch_stop("fc-ce", sentinel=True), "out"),
        Probe("clear.reach", clear.near.node, f"ping -c 3 -i 0.2 -W 2 {clear.target}"),
    )


def _without_xfrm(lab: Lab) -> Lab:
    """The control: no xfrm policy, and no binding of the hub's peers (issue 33)."""
    kept = ("ip xfrm", "nft ")
    nodes = tuple(
        replace(n, exec=tuple(c for c in n.exec if not c.startswith(kept))) for n in lab.nodes
    )
    return replace(lab, name=f"{lab.name}-control", nodes=nodes)


@pytest.mark.lab
@requires_vm
def test_with_no_ike_daemon_the_rendered_script_sends_no_clear_l2tpv3_and_admits_no_forgery(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(mixed_fleet(tmp_path))
    lab = reveal_secrets(parse_lab(build_topology(fleet, name="fc"), "fc", beside(fleet)))
    hub = lab.node("pe-hub").exec
    blocks = [n for n, c in enumerate(hub) if " dir out action block " in c]
    tunnels = [n for n, c in enumerate(hub) if c.startswith("ip l2tp add tunnel")]
    sessions = [n for n, c in enumerate(hub) if c.startswith("ip l2tp add session")]
    assert max(tunnels) < min(blocks) < max(blocks) < min(sessions)  # as rendered
    assert all(" dir in action block " in c for c in hub[:2])  # the inbound ones first
    control = _without_xfrm(lab)
    pwprobe = Extras(((PWPROBE, build_pwprobe(), 0o100755),), (), XFRM_MODULES)
    extras = merge_extras(pwprobe, nft_extras())  # the hub has two peers: it binds them
    run = run_guest(
        [GuestLab(lab, _probes(lab), "p-"), GuestLab(control, _probes(control), "c-")],
        extras=extras,
    )
    protected, unprotected = run.labs
    assert protected.setup_errors == ()
    assert unprotected.setup_errors == ()
    p, c = protected.results, unprotected.results
    wan_p, wan_c = watch_counts(p["wan"]), watch_counts(c["wan"])
    ce_p, ce_c = watch_counts(p["ce"]), watch_counts(c["ce"])
    figures = {
        "clear L2TPv3 on the WAN": (wan_p["l2tp"], wan_c["l2tp"]),
        "payload in clear on the WAN": (wan_p["hit:FCPAYLOAD"], wan_c["hit:FCPAYLOAD"]),
        "forged to the hub's WAN address": (ce_p["hit:FCWANADDR"], ce_c["hit:FCWANADDR"]),
        "from the clear peer, no cookie": (ce_p["hit:FCCLEARNOCK"], ce_c["hit:FCCLEARNOCK"]),
        "from the clear peer, the cookie": (ce_p["hit:FCCLEARCK"], ce_c["hit:FCCLEARCK"]),
    }
    print(figures)  # the figures docs/security.md quotes  # noqa: T201
    # Fails closed: nothing in clear leaves the IPsec PE, nothing forged reaches its CE...
    assert figures["clear L2TPv3 on the WAN"][0] == 0
    assert figures["payload in clear on the WAN"][0] == 0
    assert figures["forged to the hub's WAN address"][0] == 0
    # ...while the control shows each attack works without the blocks.
    assert figures["clear L2TPv3 on the WAN"][1] > 0
    assert figures["payload in clear on the WAN"][1] > 0
    assert figures["forged to the hub's WAN address"][1] > 0
    # The mixed PE: from the clear peer's address the xfrm allow admits any session ID, and
    # without the keyed cookie nothing gets through in either copy; with the cookie the binding
    # of the clear peer to its own sessions (issue 33) stops it, and the control lets it through.
    assert figures["from the clear peer, no cookie"] == (0, 0)
    assert figures["from the clear peer, the cookie"][0] == 0
    assert figures["from the clear peer, the cookie"][1] > 0
    # The clear peer's own pseudowire still forwards beside the blocks (its allow works).
    assert p["clear.reach"] == "0"


def _outbound_blocks_first(lab: Lab) -> Lab:
    """Each PE's outbound blocks moved before its first tunnel (the order the kernel refuses)."""
    nodes = []
    for node in lab.nodes:
        blocks = [c for c in node.exec if " dir out action block " in c]
        rest = [c for c in node.exec if c not in blocks]
        first = next((n for n, c in enumerate(rest) if c.startswith("ip l2tp add tunnel")), None)
        moved = blocks and first is not None
        nodes.append(replace(node, exec=(*rest[:first], *blocks, *rest[first:])) if moved else node)
    return replace(lab, name=f"{lab.name}-early", nodes=tuple(nodes))


@pytest.mark.lab
@requires_vm
def test_the_kernel_refuses_an_ip_encapsulated_tunnel_under_the_outbound_block(
    tmp_path: Path,
) -> None:
    # docs/security.md, failing closed: creating a tunnel with `encap ip` connects a protocol-115
    # socket whose route lookup meets the `dir out` block (EPERM), so the rendered script puts
    # the outbound blocks after the tunnels. The same scripts with the blocks first: refused.
    fleet = load_fleet(mixed_fleet(tmp_path))
    lab = reveal_secrets(parse_lab(build_topology(fleet, name="fe"), "fe", beside(fleet)))
    early = _outbound_blocks_first(lab)
    assert early.node("pe-branch").exec != lab.node("pe-branch").exec
    extras = merge_extras(Extras((), (), XFRM_MODULES), nft_extras())  # the hub binds its peers
    rendered, run = run_guest(
        [GuestLab(lab, (), "r-"), GuestLab(early, (), "e-")], extras=extras
    ).labs
    assert rendered.setup_errors == ()  # as rendered, every step succeeds
    refused = [e for e in run.setup_errors if "ip l2tp add tunnel" in e and "encap ip" in e]
    assert refused, run.setup_errors
    assert all("Operation not permitted" in e for e in refused), refused
