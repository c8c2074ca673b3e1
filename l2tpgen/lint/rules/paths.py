"""Rules about the interfaces pseudowire traffic crosses: queues and the MTU budget."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.names import is_ethernet, is_loopback
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule
from l2tpgen.mtu import Encapsulation, overhead_budget

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts, Interface, Xconnect
    from l2tpgen.lint.finding import Finding

DEFAULT_MTU = 1500


def _wan_interface(device: DeviceFacts, xc: Xconnect) -> str | None:
    """The interface encapsulated packets of ``xc`` leave by."""
    pw = device.pw_classes.get(xc.pw_class or "")
    local = pw.local_interface if pw else None
    if local is not None and not is_loopback(local):
        return local
    return device.route_interface(xc.peer) if xc.peer is not None else None


class DefaultHoldQueue(DeviceRule):
    """An interface that carries pseudowire traffic keeps the default hold-queues.

    ## What it does
    Flags a physical interface without `hold-queue N in` / `hold-queue N out` when it is the parent
    of an attachment circuit, the `ip local interface`, or the interface that routes to a peer. A
    hold-queue line with any value counts as a deliberate choice.

    ## Why is this bad?
    The defaults (75 in, 40 out) size the process-switching queues. When encapsulated frames are
    fragmented and reassembled in process switching (classic IOS, ISR G1/G2, 7200), bursts overflow
    them and drop. The reference case measured its ~800 Mb/s with 2048/2048. On IOS-XE hardware
    forwarding this matters less; keep values far above ~100 only with a reason.

    ## Example
    ```
    interface GigabitEthernet0/0
     no ip address
    ```

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
    severity = Severity.WARNING

    def carriers(self, device: DeviceFacts) -> set[str]:
        """Main interfaces pseudowire traffic goes through."""
        names: set[str] = set()
        for iface, xc in device.xconnects():
            names.add(iface.parent)
            wan = _wan_interface(device, xc)
            if wan is not None:
                names.add(wan.split(".", 1)[0])
        for pw in device.l2tpv3_classes.values():
            if pw.local_interface is not None:
                names.add(pw.local_interface.split(".", 1)[0])
        return {name for name in names if is_ethernet(name)}

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for name in sorted(self.carriers(device)):
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


class MtuBudget(DeviceRule):
    """Frames from the attachment circuit cannot cross the WAN unfragmented, and nothing handles it.

    ## What it does
    For each attachment circuit, adds the L2TPv3 overhead (`l2tpgen mtu`: outer IPv4 20, session 4,
    cookie 0/4/8, sublayer 4 with sequencing, inner Ethernet 14, plus 4 for a dot1Q tag on a
    subinterface, an assumption kept conservative until confirmed) to the AC's MTU (`mtu`, default
    1500) and compares with the WAN interface's MTU. Flags it when the frame does not fit and the
    pseudowire-class has no `ip pmtu`.

    ## Why is this bad?
    Without `ip pmtu`, full-size frames are fragmented after encapsulation (slow reassembly on the
    far PE) or, with `ip dfbit set`, silently dropped: TCP sessions hang on large transfers.

    ## Example
    ```
    pseudowire-class ethernet
     encapsulation l2tpv3
     ip dfbit set
    ```

    ## Use instead
    Add `ip pmtu` (dynamic sessions), or lower the CE MTU (or clamp TCP MSS) to the size
    `l2tpgen mtu` prints.
    """

    code = "L2T013"
    name = "mtu-budget"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for iface, xc in device.xconnects():
            pw = device.pw_classes.get(xc.pw_class or "")
            if (pw is not None and pw.pmtu and not pw.static) or (xc.pw_class and pw is None):
                continue  # handled by ip pmtu, or the class is undefined (L2T006 says so)
            cookie = max((c.size for c in (xc.cookie_local, xc.cookie_remote) if c), default=0)
            wan_name = _wan_interface(device, xc)
            wan = device.interfaces.get(wan_name or "")
            wan_mtu = _ip_mtu(wan) if wan else DEFAULT_MTU
            budget = overhead_budget(
                wan_mtu,
                Encapsulation.IP,
                cookie if cookie in (4, 8) else 0,
                sublayer=bool(pw and pw.sequencing),
                dot1q=iface.is_subinterface,
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
                    f"{wan_mtu}-byte WAN, and "
                    + ("static sessions cannot use ip pmtu" if static else "there is no ip pmtu"),
                    lower if static else f"add `ip pmtu`, or {lower}",
                )


def _ip_mtu(iface: Interface, parent: Interface | None = None) -> int:
    for candidate in (iface, parent):
        if candidate is not None and (candidate.ip_mtu or candidate.mtu):
            return candidate.ip_mtu or candidate.mtu or DEFAULT_MTU
    return DEFAULT_MTU
