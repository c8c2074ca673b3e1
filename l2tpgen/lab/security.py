"""Protection checks: the same attacks before and after the PEs' protection, in one lab run.

A PE labelled ``l2tpgen.protection: ipsec`` carries the strongSwan configuration l2tpgen rendered
for it (``swanctl.conf``, a bind in the topology) and the inbound rule that drops unprotected
L2TPv3 (its ``ip xfrm`` commands). The vm engine sets the lab up without them, attacks (the
**control**: what an unprotected pseudowire lets through), then protects: each PE's charon is
started in its namespace with that configuration, the near PEs initiate IKEv2, the ``ip xfrm``
commands run; then the usual checks run over ESP, and the attacks again (**protected**).

For each protected pair of PEs (the first VLAN between them), from the WAN router (``attack.py``):

* ``injection``: 5 forged frames from the attacker's own address and 5 from the near PE's address
  (spoofed), with the right session ID and cookie: 0 may reach the far CE when protected, and the
  control must show more than 0 (else the attack itself is broken);
* ``capture``: a WAN capture during 3 pings carrying a payload pattern: 0 clear L2TPv3 packets and
  0 pattern hits (and some ESP) when protected; some of both in the control;
* ``replay``: the first captured packet of the first ping is sent again 3 times: 0 delivered when
  protected (``XfrmInStateSeqError`` counts them), more than 0 in the control;
* ``ike``: ``swanctl --list-sas`` on both PEs shows the IKE SA ESTABLISHED (IKEv2) and a CHILD SA
  INSTALLED in TRANSPORT mode;
* the usual ``mtu`` check, over ESP, is the ESP MTU check: the CE label holds ``mtu.py``'s
  prediction with ESP (1428 for transport AES-GCM-128 on a 1500 WAN).

The secrets the configurations name (the IKE pre-shared key, the cookie key) are throwaway random
values made for the run: a lab never sees the user's real secrets.
"""

from __future__ import annotations

import re
import secrets
import shlex
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from l2tpgen.errors import L2tpgenError
from l2tpgen.lab.attack import Attacked, target
from l2tpgen.lab.inputs import PROTECTION, SWANCTL_TARGET
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.probes import Probe
from l2tpgen.lab.strongswan import CHARON, PLUGINS, SWANCTL
from l2tpgen.model.keys import PSK_PLACEHOLDER, reveal_psks
from l2tpgen.model.protection import COOKIE_PLACEHOLDER, reveal_cookies
from l2tpgen.render.swanctl import psk_text

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from l2tpgen.lab.inputs import Lab, Node

_PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
_CHILDREN = re.compile(r"children\s*\{\s*([A-Za-z0-9_.-]+)\s*\{")


def protection(node: Node) -> str:
    """A PE's protection label (``none`` when absent)."""
    return node.label(PROTECTION) or "none"


def is_protected(lab: Lab) -> bool:
    """Whether some PE of the lab runs IPsec."""
    return any(protection(n) == "ipsec" for n in lab.nodes if n.role == "pe")


def swanctl_text(node: Node) -> str:
    """The PE's swanctl configuration (its bind to ``SWANCTL_TARGET``).

    Raises:
        L2tpgenError: an IPsec PE without one.
    """
    text = dict(node.files).get(SWANCTL_TARGET)
    if text is None:
        raise L2tpgenError(
            f"{node.name} is labelled {PROTECTION}: ipsec but has no swanctl configuration bound "
            f"to {SWANCTL_TARGET} (regenerate the lab with `l2tpgen lab build`)"
        )
    return text


def throwaway_secrets(lab: Lab, cookie_variables: Callable[[str], set[str]]) -> dict[str, str]:
    """A random value for every secret the lab's commands and files name (never the user's)."""
    names: set[str] = set()
    for node in lab.nodes:
        for command in node.exec:
            names |= cookie_variables(command)
        for _, text in node.files:
            names |= set(_PLACEHOLDER.findall(text))
            names |= {m.group("var") for m in PSK_PLACEHOLDER.finditer(text)}
    return {name: secrets.token_hex(16) for name in sorted(names)}


def reveal(lab: Lab, environ: Mapping[str, str], reveal_command: Callable[[str], str]) -> Lab:
    """The lab with its secrets filled in: commands by ``reveal_command``, files by ``environ``."""

    def fill(text: str) -> str:
        text = reveal_psks(text, environ, form=psk_text)  # swanctl's form of a pair's key
        return _PLACEHOLDER.sub(lambda m: environ.get(m.group(1), m.group(0)), text)

    nodes = tuple(
        replace(
            node,
            exec=tuple(reveal_command(c) for c in node.exec),
            files=tuple((path, fill(text)) for path, text in node.files),
        )
        for node in lab.nodes
    )
    return replace(lab, nodes=nodes)


def _deferred(command: str) -> bool:
    """The protection a control leaves out: the xfrm policies, and the peers' binding (nft)."""
    return command.startswith(("ip xfrm ", "nft "))


def without_protection(lab: Lab) -> Lab:
    """The lab as set up for the control: the PEs' ``ip xfrm`` commands held back."""
    nodes = tuple(
        replace(node, exec=tuple(c for c in node.exec if not _deferred(c)))
        if protection(node) == "ipsec"
        else node
        for node in lab.nodes
    )
    return replace(lab, nodes=nodes)


def _strongswan_conf() -> str:
    """The IKE daemon's settings in the lab, per namespace (not what l2tpgen renders)."""
    return (
        "charon {\n"
        "  load_modular = no\n"
        f"  load = {' '.join(PLUGINS)}\n"
        "  install_routes = no\n"
        '  plugins { vici { socket = "unix://$L2TPGEN_TMP/charon.vici" } }\n'
        '  filelog { lab { path = "$L2TPGEN_TMP/charon.log"\n    default = 1\n  } }\n'
        "}\n"
        "swanctl { load = random nonce openssl }\n"
    )


def _uri() -> str:
    return '--uri "unix://$L2TPGEN_TMP/charon.vici"'


def _swanctl(arguments: str) -> str:
    return f'STRONGSWAN_CONF="$L2TPGEN_TMP/strongswan.conf" {SWANCTL} {arguments} {_uri()}'


def _initiate(child: str) -> str:
    """Initiate ``child``; a CHILD_SA the peer initiated already counts.

    A hub's child to a peer that initiated first is refused as a duplicate, and the hub's later
    children must still be tried (``lab up examples/hub`` once stopped at ``l2tpgen-branch``).
    """
    installed = f"^  {child}: #[0-9]+, reqid [0-9]+, INSTALLED"
    return (
        f"{{ {_swanctl(f'--initiate --child {child} --timeout 60')} || "
        f"{_swanctl('--list-sas')} | grep -Eq '{installed}'; }}"
    )


_WAIT = '"$L2TPGEN_TMP/charon.wait"'
_PAUSE = "read -t 0.01 _ <&4"


def start_charon(conf: str) -> str:
    """Write the configurations, start charon in its own mount namespace, load the connections.

    charon's pid file path is fixed at build time (``/var/run/charon.pid``): each charon gets a
    tmpfs on ``/var/run`` of its own. Its vici socket is in the node's directory.
    """
    eof = "L2TPGEN_SWANCTL_EOF"
    if not conf.endswith("\n"):  # vyos-1x's swanctl.conf has no final newline: the here-document
        conf += "\n"  # terminator must start a line of its own, or charon never starts
    daemon = (
        "mount -t tmpfs tmpfs /var/run && "
        f'STRONGSWAN_CONF="$L2TPGEN_TMP/strongswan.conf" exec {CHARON}'
    )
    return (
        "export L2TPGEN_TMP\n"
        f'cat > "$L2TPGEN_TMP/strongswan.conf" <<{eof}\n{_strongswan_conf()}{eof}\n'
        f"cat > \"$L2TPGEN_TMP/swanctl.conf\" <<'{eof}'\n{conf}{eof}\n"
        f'unshare -m sh -c {shlex.quote(daemon)} >"$L2TPGEN_TMP/charon.out" 2>&1 </dev/null &\n'
        # Wait for the vici socket without a process per poll: ``read -t`` on a FIFO nobody
        # writes (opened read-write, so it never ends) is the shell's own 10 ms pause; busybox's
        # ``sleep`` forks and execs each time, while the other PEs' charons start side by side.
        f"[ -p {_WAIT} ] || mkfifo {_WAIT}; exec 4<>{_WAIT}\n"
        f'for i in $(seq 1000); do [ -S "$L2TPGEN_TMP/charon.vici" ] && break; {_PAUSE}; done\n'
        "exec 4<&-\n" + _swanctl('--load-all --file "$L2TPGEN_TMP/swanctl.conf"')
    )


@dataclass(frozen=True)
class SecurityPlan:
    """The lab as the guest sets it up (its ``ip xfrm`` commands held back), what protects it."""

    lab: Lab
    protect: tuple[Probe, ...]


def attacked_pairs(lab: Lab) -> tuple[Attacked, ...]:
    """The first VLAN of each pair of PEs that both run IPsec: what the attacker aims at."""
    ipsec = {n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec"}
    found: dict[tuple[str, str], Attacked] = {}
    for pair in pairs(lab):
        ends = (pair.near.pe, pair.far.pe)
        if set(ends) <= ipsec and ends not in found:
            found[ends] = Attacked(pair, target(lab, pair))
    return tuple(found.values())


def protect_probes(lab: Lab) -> tuple[Probe, ...]:
    """Start charon on every IPsec PE, IKEv2 from the near PEs, then the held-back policies."""
    ipsec = sorted(n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec")
    # The daemons start side by side (a phase other than main runs in parallel in the guest).
    protect = [
        Probe(f"protect.{pe}", pe, start_charon(swanctl_text(lab.node(pe))), phase="start")
        for pe in ipsec
    ]
    near_pes = (p.near.pe for p in pairs(lab) if p.near.pe in ipsec and p.far.pe in ipsec)
    for near in dict.fromkeys(near_pes):
        children = dict.fromkeys(_CHILDREN.findall(swanctl_text(lab.node(near))))
        initiate = " && ".join(_initiate(child) for child in children)
        protect.append(Probe(f"protect.initiate.{near}", near, initiate or "false"))
    for pe in ipsec:
        deferred = [c for c in lab.node(pe).exec if _deferred(c)]
        if deferred:
            # Side by side too (each PE's own policies), with the next checks' listeners.
            protect.append(Probe(f"protect.xfrm.{pe}", pe, " && ".join(deferred), phase="start"))
    return tuple(protect)


def status_probes(lab: Lab) -> tuple[Probe, ...]:
    """Every IPsec PE's IKE and CHILD SAs and strongSwan's version (the ``ike`` check's)."""
    ipsec = sorted(n.name for n in lab.nodes if n.role == "pe" and protection(n) == "ipsec")
    return tuple(
        Probe(
            f"ike.{pe}",
            pe,
            f"{_swanctl('--list-sas')}; "
            f'STRONGSWAN_CONF="$L2TPGEN_TMP/strongswan.conf" {SWANCTL} --version',
            "out",
            # Last, after the attacks, and side by side (a phase other than main runs in
            # parallel in the guest): each swanctl takes 0.5-0.7 s to start under TCG here.
            "collect",
        )
        for pe in ipsec
    )


def security_plan(lab: Lab) -> SecurityPlan:
    """The lab as set up (the IPsec PEs' ``ip xfrm`` commands held back), and its protection.

    ``lab`` has its secrets revealed already. The protection checks' control attacks run on
    that lab (``before``); then ``protect`` starts each IKE daemon and installs the policies.
    """
    return SecurityPlan(without_protection(lab), protect_probes(lab))


def _hex(words: tuple[int, ...]) -> str:
    return "".join(f"{word:08x}" for word in words)


def reveal_secrets(lab: Lab) -> Lab:
    """The lab with throwaway values for every secret its PEs' commands and files name."""

    def cookie_variables(command: str) -> set[str]:
        return {m.group("var") for m in COOKIE_PLACEHOLDER.finditer(command)}

    environ = throwaway_secrets(lab, cookie_variables)
    return reveal(lab, environ, lambda command: reveal_cookies(command, environ, form=_hex))
