"""What the two ends of a pseudowire must agree on before the simulator calls it UP.

Each rule cites where Cisco (or the protocol) says it; sources are numbered as in the project's
brief (docs: l2tpv3-brief.md, S1..S18). S1 is the Cisco IOS 12.0(29)S / 12.2(25)S "Layer 2
Tunnel Protocol Version 3" feature guide, pages cited as p.N (its pages are also at
https://www.manualshelf.com/manual/cisco/cisco-ios-software-release-12-0-29-s/manual-english/page-N.html).

Pairing (``pseudowires.is_up``): the far end has the same VC ID ("the same VC ID must be
configured on both PEs", S6) and the peer each end names is the other's ``ip local interface``
address (S7: the xconnect peer must be the remote PE's source address).

Then, ``mismatch`` below:

- encapsulation: L2TPv3 at both ends (``encapsulation l2tpv3`` on the xconnect or its class,
  S2, S15, S16). An xconnect with neither is taken as not L2TPv3 (an assumption: what IOS does
  with it is not documented in the brief's sources).
- IP protocol: data packets go out as IP protocol 115, or 120 with ``ip protocol uti``; a PE
  interoperates with a UTI peer only by "setting the IP protocol number of outgoing data packets
  to 120" (S1 p.11), so both ends must use the same number.
- signaling: manual at both ends or dynamic at both ends: "because UTI does not define a
  signaling plane, dynamically established L2TPv3 sessions cannot interoperate with UTI" (S1
  p.11); a manual session sends no control messages for a dynamic peer to answer.
- manual sessions: ``l2tp id L R`` at one end and ``l2tp id R L`` at the other, and the local
  cookie of each end equal to the remote cookie of the other, size included. The receiver
  picks the session by its local session ID and drops a packet whose cookie is not the one it
  expects ("Cookies in the header must match upon receipt, otherwise the packet is dropped",
  IETF 65 softwire slides, http://www3.ietf.org/proceedings/06mar/slides/isoftwire-4/sld32.htm;
  Linux maps ``l2tp cookie local`` to what it expects, ``cookie``/``peer_cookie``: S14, S15).
  With ``l2tp hello CLASS`` a control channel runs over the manual session and "if hellos fail,
  the static session is torn down" (S1 p.14): both ends' hello classes must then authenticate
  each other as a dynamic session's classes do.
- dynamic sessions: the same signaling dialect (``protocol l2tpv3`` or ``l2tpv3ietf``) and
  control channels that authenticate each other: ``password`` "defines the shared password
  between peer routers" (S1 p.30) and ``digest secret`` "the shared secret between peer provider
  edge (PE) routers", with the hash function ``hash md5|sha`` used "in per-message digest
  calculations" (S1 p.88). A router with both methods on works with a peer that has only one
  ("to ensure interoperability with peers that support only one of these methods", S1 p.27).

What the sources leave open is an assumption, each a field of ``Assumptions`` that a caller can
switch off; the tests that rely on one say so in their names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.sim.xconnects import Control, Xc


@dataclass(frozen=True)
class Assumptions:
    """The simulator's answers where Cisco's documentation is silent ([U] in the brief).

    ``dialects_must_match``: ``protocol l2tpv3`` (Cisco's dialect) and ``protocol l2tpv3ietf``
    (RFC 3931) do not bring a session up together. ``one_sided_digest_fails``: a control channel
    with ``digest secret`` (and no ``authentication`` to fall back on) does not come up with a
    peer that has no digest secret. ``one_sided_hello_fails``: a manual session with ``l2tp
    hello`` is torn down when the far end runs no hellos to answer it.
    """

    dialects_must_match: bool = True
    one_sided_digest_fails: bool = True
    one_sided_hello_fails: bool = True


ASSUMED = Assumptions()


def _authenticates(a: Control, b: Control, assume: Assumptions) -> str | None:
    """Why two control channels do not authenticate each other (None: they do)."""
    if a.digest is not None and b.digest is not None:
        if (a.digest, a.digest_hash) != (b.digest, b.digest_hash):
            return "digest secret or hash differs"
        return None
    one = a if a.digest is not None else b if b.digest is not None else None
    if one is not None and not one.authentication and assume.one_sided_digest_fails:
        return "digest at one end only"
    if (a.authentication or b.authentication) and (a.password is None or a.password != b.password):
        return "authentication password differs"
    return None


def _manual(a: Xc, b: Xc, assume: Assumptions) -> str | None:
    if a.session_ids is None or b.session_ids is None:
        return "l2tp id missing"
    if a.session_ids != (b.session_ids[1], b.session_ids[0]):
        return "l2tp id not mirrored"
    if a.cookie_local != b.cookie_remote or a.cookie_remote != b.cookie_local:
        return "cookies not mirrored"
    if a.hello and b.hello:
        return _authenticates(a.control, b.control, assume)
    if (a.hello or b.hello) and assume.one_sided_hello_fails:
        return "l2tp hello at one end only"
    return None


def mismatch(a: Xc, b: Xc, assume: Assumptions = ASSUMED) -> str | None:
    """Why the paired xconnects ``a`` and ``b`` cannot carry traffic (None: they agree)."""
    if a.encapsulation != "l2tpv3" or b.encapsulation != "l2tpv3":
        return "not L2TPv3 at both ends"
    if a.ip_protocol != b.ip_protocol:
        return "IP protocol differs"
    if a.static != b.static:
        return "manual at one end, dynamic at the other"
    if a.static:
        return _manual(a, b, assume)
    if assume.dialects_must_match and a.signaling != b.signaling:
        return "signaling protocol differs"
    return _authenticates(a.control, b.control, assume)
