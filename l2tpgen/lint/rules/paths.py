"""Rules about the interfaces pseudowire traffic crosses: queues, switching path, MTU budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from l2tpgen.ios.crypto import protection, pw_protocol, tunnel_source
from l2tpgen.ios.names import is_ethernet, is_serial
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule
from l2tpgen.mtu import (
    IPSEC_ESP_TUNNEL,
    Circuit,
    Encapsulation,
    esp_overhead,
    overhead_budget,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts, Interface, Xconnect
    from l2tpgen.lint.finding import Finding

DEFAULT_MTU = 1500
GRE_TUNNEL_MTU = 1476  # IOS's default IP MTU of a GRE tunnel over a 1500-byte path
COOKIE_SIZES = (4, 8)


class DefaultHoldQueue(DeviceRule):
    """A classic-IOS interface that carries pseudowire traffic keeps the default hold-queues.

    ## What it does
    Reports (info) a physical Ethernet or serial interface without `hold-queue N in` /
    `hold-queue N out` when it is an attachment circuit or its trunk, the `ip local interface`, or
    the interface that routes to a peer, on classic IOS (12.x/15.x: ISR G1/G2, 7200). A hold-queue
    line with any value counts as a deliberate choice. IOS-XE configs (`version 16` and later,
    `platform ...` lines, `GigabitEthernetN` ports, or a site whose platform is iosxe) are not
    checked.

    ## Why is this bad?
    The defaults (75 in, 40 out) size the process-switching queues. When encapsulated frames are
    fragmented and reassembled in process switching (classic IOS), bursts overflow them and drop.
    The reference case measured its ~800 Mb/s with 2048/2048. IOS-XE's forwarding plane does not use
    these queues, and Cisco advises keeping them near 100 without a reason: hence info, not warning.

    ## Use instead
    ```
    interface GigabitEthernet0/0
     no ip address
     hold-queue 2048 in
     hold-queue 2048 out
    ```
    """

    code = "L2T004"
    name = "default-hold-queue"
    severity = Severity.INFO

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        if not device.classic_ios:
            return
        physical = (n for n in device.carriers if "." not in n and (is_ethernet(n) or is_serial(n)))
        for name in sorted(physical):
            iface = device.interfaces.get(name)
            if iface is None:
                continue  # a snippet without that interface: nothing to point at
            missing = [d for d in ("in", "out") if getattr(iface, f"hold_queue_{d}") is None]
            if missing:
                yield self.finding(
                    device.file,
                    iface.at,
                    f"{name} carries pseudowire traffic with the default hold-queue "
                    f"{' and '.join(missing)}",
                    f"add {', '.join(f'`hold-queue 2048 {d}`' for d in missing)} to {name}",
                )


class ProcessSwitched(DeviceRule):
    """CEF is switched off on an interface that carries pseudowire traffic.

    ## What it does
    Flags `no ip route-cache cef` or `no ip route-cache` on an attachment circuit, its trunk, the
    tunnel source or the interface towards a peer.

    ## Why is this bad?
    With `no ip route-cache` every packet through that interface is process-switched: the
    router's CPU forwards it, at a small fraction of the CEF rate (Cisco, "How to Choose the Best
    Router Switching Path for Your Network", "Process Switching"); `no ip route-cache cef` takes
    the interface off CEF, which L2TPv3 needs to run at speed [U]. This was the reference case's
    symptom: 20-30 Mb/s with the CPU at 100 %.

    ## Use instead
    ```
    interface GigabitEthernet0/1
     ip address 198.51.100.1 255.255.255.252
     ip route-cache cef
    ```
    """

    code = "L2T017"
    name = "process-switched-interface"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for name, role in sorted(device.carriers.items()):
            iface = device.interfaces.get(name)
            if iface is not None and iface.route_cache_off is not None:
                yield self.finding(
                    device.file,
                    iface.route_cache_off,
                    f"{name} is {role} and switches packets in software (no CEF)",
                    f"remove `no ip route-cache` from {name} (`ip route-cache cef`)",
                )


@dataclass(frozen=True)
class _Path:
    """What the encapsulated packets of one xconnect cross."""

    mtu: int
    outer: tuple[tuple[str, int], ...]
    note: str


def _path(device: DeviceFacts, xc: Xconnect) -> _Path:
    wan = device.interfaces.get(device.wan_interface(xc) or "")
    if wan is None:
        return _Path(DEFAULT_MTU, (), "")
    ipsec = wan.crypto_map is not None or wan.tunnel_protection
    tunnel = wan.name.lower().startswith("tunnel")
    mtu = wan.ip_mtu or wan.mtu or (GRE_TUNNEL_MTU if tunnel else DEFAULT_MTU)
    if not ipsec:
        return _Path(mtu, (), "")
    if wan.crypto_map is not None and not wan.tunnel_protection:
        known = _crypto_map_path(device, xc, wan, mtu)
        if known is not None:
            return known
    return _Path(
        mtu,
        (("IPsec ESP, tunnel mode", IPSEC_ESP_TUNNEL),),
        f" (IPsec on {wan.name}: {IPSEC_ESP_TUNNEL} bytes assumed, ESP tunnel mode with AES-CBC "
        "and SHA-1, worst-case padding)",
    )


def _crypto_map_path(device: DeviceFacts, xc: Xconnect, wan: Interface, mtu: int) -> _Path | None:
    """ESP as the crypto map's entry for the pseudowire says, or None when that is not known.

    No entry permits the pseudowire's packets: they leave in clear, no ESP (L2T024/L2T025 say
    so). An entry does: its transform sets' ESP at this MTU (the largest, if several).
    """
    pw = device.pw_class_of(xc)
    protocol = pw_protocol(pw)
    if device.crypto is None or xc.peer is None or protocol is None:
        return None
    source = tunnel_source(device, pw)
    found = protection(device.crypto, wan.crypto_map or "", protocol, source, xc.peer)
    if found.verdict == "deny":
        return _Path(mtu, (), f" (the crypto map on {wan.name} does not cover it: no ESP)")
    sets = (
        [device.crypto.transform_sets.get(n) for n in found.entry.transform_sets]
        if found.entry
        else []
    )
    if not sets or None in sets:
        return None
    try:
        costs = [(esp_overhead(t.transforms, t.mode, wan_mtu=max(mtu, 576)), t) for t in sets if t]
    except ValueError:
        return None  # a transform mtu.py does not know: the worst case below
    cost, ts = max(costs, key=lambda c: c[0])
    return _Path(
        mtu,
        ((f"IPsec ESP, {ts.mode} mode", cost),),
        f" (IPsec on {wan.name}: {cost} bytes of ESP, transform-set {ts.name} "
        f"{ts.transforms}, {ts.mode} mode)",
    )


def _cookie(device: DeviceFacts, xc: Xconnect) -> int:
    """Cookie bytes: the manual session's, else the l2tp-class `cookie size` (dynamic)."""
    manual = max((c.size for c in (xc.cookie_local, xc.cookie_remote) if c), default=0)
    if manual:
        return manual if manual in COOKIE_SIZES else 0
    pw = device.pw_class_of(xc)
    l2tp = device.l2tp_classes.get(pw.protocol_class or "") if pw and not pw.static else None
    size = l2tp.cookie_size if l2tp else None
    return size if size in COOKIE_SIZES else 0


class MtuBudget(DeviceRule):
    """Frames from the attachment circuit cannot cross the WAN unfragmented, and nothing handles it.

    ## What it does
    For each attachment circuit, adds the L2TPv3 overhead (`l2tpgen mtu`: outer IPv4 20, session 4,
    cookie 0/4/8 (a manual session's, or the l2tp-class `cookie size`), sublayer 4 with sequencing,
    the inner frame header: Ethernet 14, plus 4 for the dot1Q tag on a subinterface and on an
    Ethernet port in port mode (a trunk's VLAN frames keep their tag inside the one session: the
    lab's single-trunk variant measures 1458 on a 1500-byte WAN, not 1462), or 4 for an HDLC/PPP
    serial circuit; `l2tpgen.mtu.Circuit`) to the AC's MTU (`mtu`, default 1500) and compares
    with the WAN interface's MTU (a GRE tunnel's default is 1476). IPsec on that interface adds
    ESP: for a `crypto map` whose entry permits the pseudowire's packets, the bytes its transform
    set costs at that MTU (`esp-gcm` or `esp-aes` with an HMAC, `mode transport` or the default
    tunnel mode: `l2tpgen.mtu.esp_overhead`); none when no entry of the map permits them (they
    leave in clear); 73 bytes (ESP tunnel mode, AES-CBC, SHA-1, worst-case padding) for `tunnel
    protection` or a map l2tpgen cannot read. Flags the AC when the frame does not fit and the
    pseudowire-class has no `ip pmtu`.

    ## Why is this bad?
    Without `ip pmtu`, full-size frames are fragmented after encapsulation (slow reassembly on the
    far PE) or, with `ip dfbit set`, silently dropped: TCP sessions hang on large transfers.

    ## Use instead
    Add `ip pmtu` (dynamic sessions), or lower the CE MTU (or clamp TCP MSS) to the size
    `l2tpgen mtu` prints.
    """

    code = "L2T013"
    name = "mtu-budget"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for iface, xc in device.xconnects():
            pw = device.pw_class_of(xc)
            if (pw is not None and pw.pmtu and not pw.static) or (xc.pw_class and pw is None):
                continue  # handled by ip pmtu, or the class is undefined (L2T006 says so)
            path = _path(device, xc)
            circuit = _circuit(iface)
            budget = overhead_budget(
                max(path.mtu, 576),
                Encapsulation.IP,
                _cookie(device, xc),
                sublayer=bool(pw and pw.sequencing),
                dot1q=circuit.dot1q,
                inner_header=circuit.inner_header,
                outer=path.outer,
            )
            ac_mtu = _ip_mtu(iface, device.interfaces.get(iface.parent))
            if ac_mtu > budget.max_inner_mtu:
                needed = ac_mtu + budget.total_overhead
                lower = f"lower the CE MTU to {budget.max_inner_mtu} (TCP MSS {budget.tcp_mss})"
                static = pw is not None and pw.static
                yield self.finding(
                    device.file,
                    xc.at,
                    f"{ac_mtu}-byte packets from {iface.name} need {needed} bytes on the "
                    f"{path.mtu}-byte WAN{path.note}, and "
                    + ("static sessions cannot use ip pmtu" if static else "there is no ip pmtu"),
                    lower if static else f"add `ip pmtu`, or {lower}",
                )


def _circuit(iface: Interface) -> Circuit:
    """The attachment circuit's kind, by its name (``mtu.Circuit`` has what each carries)."""
    if iface.is_serial:
        return Circuit.SERIAL
    if iface.is_subinterface:
        return Circuit.DOT1Q_SUBINTERFACE
    return Circuit.ETHERNET_PORT if is_ethernet(iface.name) else Circuit.OTHER


def _ip_mtu(iface: Interface, parent: Interface | None = None) -> int:
    for candidate in (iface, parent):
        if candidate is not None and (candidate.ip_mtu or candidate.mtu):
            return candidate.ip_mtu or candidate.mtu or DEFAULT_MTU
    return DEFAULT_MTU
