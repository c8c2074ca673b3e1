"""What a platform's traits are: the data each ``platforms/<name>/traits.py`` lists.

The ground floor: it imports only ``l2tpgen.ios.names`` (IOS's interface names are the default);
the registry that finds every platform's traits is ``l2tpgen.traits``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from l2tpgen.ios.names import (
    canonical_interface_name,
    is_ethernet,
    is_loopback,
    is_subinterface,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


def _ios_trunk(name: str, vlans: Sequence[int]) -> str | None:  # noqa: ARG001 - IOS: any ID
    if is_subinterface(name) or not is_ethernet(name):
        return f"{name} cannot carry dot1Q subinterfaces"
    return None


@dataclass(frozen=True)
class InterfaceNames:
    """How a platform names the interfaces a site file states (``wan.interface``, ...).

    ``canonical``: the name as the platform writes it, or ``InterfaceNameError`` saying why it is
    not one. ``loopback``: whether a name (canonical) is a loopback. ``trunk``: why a name cannot
    be the LAN trunk of a site stretching ``vlans`` (None: it can). ``system``: the names are the
    operating system's own (Linux, VyOS): the data plane uses them as written, and an IOS-style
    name in such a site is the old way of writing it (the ``linux:`` block held the real names).
    ``examples``: a WAN, a LAN trunk and a loopback name for hints.
    """

    canonical: Callable[[str], str] = canonical_interface_name
    loopback: Callable[[str], bool] = is_loopback
    trunk: Callable[[str, Sequence[int]], str | None] = _ios_trunk
    system: bool = False
    examples: tuple[str, str, str] = ("GigabitEthernet0/1", "GigabitEthernet0/0", "Loopback0")


@dataclass(frozen=True)
class Traits:
    """Everything that differs between platforms, as data (a platform's driver).

    ``formats``: what ``render`` can write, the first being the default (its renderer is bound in
    ``l2tpgen/platforms/<name>/driver.py``). ``hier_config``: the
    hier_config platform that diffs its configs (None: push does not handle it). ``file_systems``:
    where a rollback copy goes when the router's ``dir`` does not say (discovered first).
    ``lint_platform``: what the linter is told the config is (None: no IOS rule applies).

    The traits the model, the importer, the lab and the CLI read instead of naming platforms:
    ``signaling``: the pseudowire signaling modes it speaks. ``hold_queue``: the (in, out)
    hold-queues a site file that leaves them out means.
    ``esp_gcm_unconfirmed``: esp-gcm is not confirmed by the vendor's documentation [U].
    ``lab_kind``: containerlab's node kind of its PE in the lab; ``data_plane``: the platform
    whose data plane stands in for it there (None: its own). ``cookies``: whether it expresses
    L2TPv3 cookies. ``peer_routes``: whether its rendering routes peer loopbacks. ``ipsec`` and
    ``inbound_filter``: whether it renders IPsec and the inbound WAN filter of ``protection``.
    ``sublayer``: its sessions always carry the 4-byte L2-specific sublayer (else only with
    sequencing, as the pseudowire-class says). ``kernel_sessions``: its pseudowires run on the
    Linux kernel's L2TPv3, which finds a data packet's session by its ID alone (``l2tp_ip_recv``);
    ``fail_closed``: its rendering blocks clear L2TPv3 with static xfrm policies while no IKE
    daemon runs (docs/security.md, "Failing closed"). ``binds_peers``: its rendering binds each
    peer's address to that peer's own session IDs in the kernel (``platforms/linux/binding.py``),
    so a PE of it with several peers keeps them apart without cookies. ``interface_names``: how its
    sites name their interfaces (IOS's names by default).

    Named behaviours (what a branch asks instead of "is it Cisco?"): ``ios_config``: its
    configuration is IOS text (rendered from IOS templates, read back by ``l2tpgen.ios``; the lab
    emulates it with Linux commands). ``ios_software``: the IOS family the reader knows it as
    (``l2tpgen.ios.facts.CLASSIC``/``XE``; None: not IOS). ``static_hello_capable``: its static
    sessions run and answer `l2tp hello` (a Linux kernel tunnel has no control channel).
    ``frames_dot1q_subinterface``: its LAN VLANs are dot1Q subinterfaces bound to xconnects,
    which forward the whole VLAN frame, tag included, into the pseudowire.

    A trait that shows in a rendering is a promise its driver's renderer keeps: the driver
    conformance suite (``tests/test_driver_conformance.py``) checks each against what every
    platform renders, and a new field needs a check there or a reason it is not rendered.
    """

    name: str
    title: str
    device_type: str
    formats: tuple[str, ...]
    hier_config: str | None = None
    save_command: str | None = None
    file_systems: tuple[str, ...] = ()
    show_xconnect: str | None = None
    show_sessions: str | None = None
    lint_platform: str | None = None
    simulated: bool = False
    # A change that reverts itself unless confirmed (``push --confirm-within``): IOS's
    # Configuration Rollback Confirmed Change (``configure terminal revert timer``).
    timed_confirm: bool = False
    signaling: tuple[str, ...] = ("static", "dynamic")
    hold_queue: tuple[int, int] = (75, 40)  # IOS's own defaults
    esp_gcm_unconfirmed: bool = False
    lab_kind: str = "linux"
    data_plane: str | None = None
    cookies: bool = True
    peer_routes: bool = False
    ipsec: bool = True
    inbound_filter: bool = True
    sublayer: bool = False
    kernel_sessions: bool = False
    fail_closed: bool = False
    binds_peers: bool = False
    default: bool = False  # the platform of a site that states neither platform nor device_type
    short_title: str | None = None  # the fleet page's name for it (default: ``title``)
    # Whether the platform's pseudowires run over an IPv6 underlay (IPv6 tunnel sources and
    # peers); ``ipv6_note``: where that is documented, or why a site of it is refused.
    ipv6_underlay: bool = False
    ipv6_note: str = ""
    interface_names: InterfaceNames = field(default_factory=InterfaceNames)
    ios_config: bool = False
    ios_software: str | None = None
    static_hello_capable: bool = False
    frames_dot1q_subinterface: bool = False

    @property
    def pushable(self) -> bool:
        """Whether push, diff and verify handle this platform."""
        return self.hier_config is not None

    @property
    def a_title(self) -> str:
        """The title with its article, for messages: ``a Linux``, ``an IOS-XE``."""
        return f"{'an' if self.title[:1].lower() in 'aeiou' else 'a'} {self.title}"

    @property
    def lab_platform(self) -> str:
        """The platform the lab runs in its place (its own, or the one whose data plane it uses)."""
        return self.data_plane or self.name
