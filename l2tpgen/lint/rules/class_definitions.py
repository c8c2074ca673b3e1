"""Rules about pseudowire-class and l2tp-class definitions and their use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.names import is_loopback
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.lint.finding import Finding


class MissingIpPmtu(DeviceRule):
    """A dynamic pseudowire-class has no `ip pmtu`.

    ## What it does
    Flags a `pseudowire-class` with L2TPv3 signaling (not `protocol none`) and no `ip pmtu`.

    ## Why is this bad?
    Without path MTU discovery, frames that no longer fit after encapsulation are fragmented by the
    PE, and the far PE reassembles them in process switching on software platforms (ISR, 7200):
    the reference case's 20-30 Mb/s at 100 % CPU. With `ip pmtu` the PE learns the path MTU, tells
    the CE with ICMP and copies DF to the outer header.

    ## Use instead
    ```
    pseudowire-class ethernet
     encapsulation l2tpv3
     protocol l2tpv3 class1
     ip local interface Loopback0
     ip pmtu
     ip dfbit set
    ```
    """

    code = "L2T002"
    name = "missing-ip-pmtu"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            if not pw.static and not pw.pmtu:
                yield self.finding(
                    device.file,
                    pw.at,
                    f"pseudowire-class {pw.name} has no ip pmtu: oversized frames are fragmented "
                    "after encapsulation",
                    f"add `ip pmtu` to pseudowire-class {pw.name}",
                )


class MissingDfBit(DeviceRule):
    """A pseudowire-class does not set the DF bit in the outer header.

    ## What it does
    Flags a `pseudowire-class` without `ip dfbit set`.

    ## Why is this bad?
    Without DF, oversized encapsulated packets are fragmented on the way and reassembled by the far
    PE, which costs it CPU (Cisco's own reason for the command is performance). With DF set, the
    path reports "fragmentation needed" and `ip pmtu` adapts.

    ## Use instead
    ```
    pseudowire-class ethernet
     encapsulation l2tpv3
     ip pmtu
     ip dfbit set
    ```
    """

    code = "L2T003"
    name = "missing-df-bit"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            if not pw.df_bit:
                yield self.finding(
                    device.file,
                    pw.at,
                    f"pseudowire-class {pw.name} does not set the DF bit",
                    f"add `ip dfbit set` to pseudowire-class {pw.name}",
                )


class CleartextSecret(DeviceRule):
    """An l2tp-class stores its secret in clear text.

    ## What it does
    Flags `password 0 ...`, `password ...` (no type) and `digest secret 0 ...` / `digest secret ...`
    in an `l2tp-class`. The finding never repeats the secret.

    ## Why is this bad?
    Anyone who sees the config (a backup, a ticket, a paste) has the control-channel secret. Type 7
    is only reversible obfuscation, but it keeps the secret out of casual view; keeping the secret
    out of stored configs altogether (l2tpgen reads it from an environment variable) is better.

    ## Use instead
    ```
    l2tp-class class1
     digest secret 7 <encrypted> hash sha
    ```
    """

    code = "L2T005"
    name = "cleartext-secret"
    severity = Severity.WARNING

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for l2tp in device.l2tpv3_l2tp_classes.values():
            for secret in l2tp.secrets:
                if secret.encryption == 0:
                    yield self.finding(
                        device.file,
                        secret.at,
                        f"l2tp-class {l2tp.name} stores its {secret.kind} in clear text",
                        "enter it as type 7 (`l2tpgen render --reveal-secrets` writes that form) "
                        "or turn on `service password-encryption`",
                    )


class UndefinedPwClass(DeviceRule):
    """An xconnect names a pseudowire-class that does not exist.

    ## What it does
    Flags `xconnect ... pw-class X` when the config has no `pseudowire-class X`.

    ## Why is this bad?
    The pseudowire gets no tunnel source, signaling or MTU settings and does not come up.

    ## Use instead
    Define the class, or correct the name.
    """

    code = "L2T006"
    name = "undefined-pw-class"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for _, xc in device.xconnects():
            if xc.pw_class is not None and xc.pw_class not in device.pw_classes:
                known = ", ".join(sorted(device.pw_classes)) or "none"
                yield self.finding(
                    device.file,
                    xc.at,
                    f"pseudowire-class {xc.pw_class} is not defined (defined: {known})",
                    f"add `pseudowire-class {xc.pw_class}` or correct the name",
                )


class UndefinedL2tpClass(DeviceRule):
    """A pseudowire-class names an l2tp-class that does not exist.

    ## What it does
    Flags `protocol l2tpv3 X` (or `l2tpv3ietf X`) when the config has no `l2tp-class X`.

    ## Why is this bad?
    The control channel does not get the intended authentication and timers; depending on the
    release the sessions use defaults or do not come up.

    ## Use instead
    Define `l2tp-class clas1`, or correct the name.
    """

    code = "L2T007"
    name = "undefined-l2tp-class"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            if pw.static or pw.protocol_class is None or pw.protocol_at is None:
                continue
            if pw.protocol_class not in device.l2tp_classes:
                yield self.finding(
                    device.file,
                    pw.protocol_at,
                    f"l2tp-class {pw.protocol_class} is not defined",
                    f"add `l2tp-class {pw.protocol_class}` or correct the name",
                )


class LocalInterfaceWithoutIp(DeviceRule):
    """The tunnel source interface is missing or has no IPv4 address.

    ## What it does
    Flags a `pseudowire-class` without `ip local interface`, or whose `ip local interface` names an
    interface that is not in the config or has no IPv4 address.

    ## Why is this bad?
    Without a source address the router picks "the best local address", which may not be the one
    the peer's `xconnect` points at, and the control channel does not form.

    ## Use instead
    ```
    interface Loopback0
     ip address 10.255.0.1 255.255.255.255
    ```
    """

    code = "L2T009"
    name = "local-interface-without-ip"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            if pw.local_interface is None or pw.local_interface_at is None:
                yield self.finding(
                    device.file,
                    pw.at,
                    f"pseudowire-class {pw.name} has no ip local interface",
                    "add `ip local interface Loopback0` (a loopback reachable from the peers)",
                )
                continue
            iface = device.interfaces.get(pw.local_interface)
            if iface is None:
                yield self.finding(
                    device.file,
                    pw.local_interface_at,
                    f"ip local interface {pw.local_interface} is not in this config",
                    f"configure {pw.local_interface} with an IPv4 address, or name another "
                    "interface",
                )
            elif iface.address_at is None:
                yield self.finding(
                    device.file,
                    pw.local_interface_at,
                    f"ip local interface {pw.local_interface} has no IPv4 address",
                    f"give {pw.local_interface} an IPv4 address the peers route to",
                )


class PmtuOnStatic(DeviceRule):
    """`ip pmtu` is configured with static sessions (`protocol none`).

    ## What it does
    Flags `ip pmtu` in a `pseudowire-class` that has `protocol none`.

    ## Why is this bad?
    IOS does not support path MTU discovery on manual sessions, so the configuration does not do
    what it says and fragmentation cannot be relied on.

    ## Use instead
    Remove `ip pmtu` and lower the CE MTU to what `l2tpgen mtu` prints.
    """

    code = "L2T010"
    name = "pmtu-on-static"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            if pw.static and pw.pmtu and pw.pmtu_at is not None:
                yield self.finding(
                    device.file,
                    pw.pmtu_at,
                    f"pseudowire-class {pw.name} has ip pmtu with protocol none",
                    "remove `ip pmtu`; lower the CE MTU instead (`l2tpgen mtu`)",
                )


class LocalInterfaceNotLoopback(DeviceRule):
    """The tunnel source is a physical interface rather than a loopback.

    ## What it does
    Reports (info) an `ip local interface` that is not a loopback.

    ## Why is this bad?
    The tunnel source goes down with that one link, and with it every session, even when another
    path to the peer exists. Cisco recommends a loopback. Fine for a site with a single uplink.

    ## Use instead
    ```
    pseudowire-class ethernet
     ip local interface Loopback0
    ```
    """

    code = "L2T014"
    name = "local-interface-not-loopback"
    severity = Severity.INFO

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for pw in device.l2tpv3_classes.values():
            local = pw.local_interface
            if local is not None and pw.local_interface_at is not None and not is_loopback(local):
                yield self.finding(
                    device.file,
                    pw.local_interface_at,
                    f"pseudowire-class {pw.name} sources tunnels from {local}, not a loopback",
                    "use a loopback reachable over every uplink (wan.loopback in the site file)",
                )


class NoCef(DeviceRule):
    """CEF is turned off on a router with xconnects.

    ## What it does
    Flags `no ip cef` in a config that has `xconnect` lines.

    ## Why is this bad?
    IOS blocks xconnect configuration until CEF is on; L2TPv3 switching relies on it.

    ## Use instead
    ```
    ip cef
    ```
    """

    code = "L2T016"
    name = "no-cef"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        if not device.cef and device.xconnects() and device.no_cef_at is not None:
            yield self.finding(
                device.file,
                device.no_cef_at,
                "xconnect needs CEF, and this config has `no ip cef`",
                "replace `no ip cef` with `ip cef`",
            )
