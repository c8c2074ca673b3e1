"""Rules about how each xconnect's session is set up: signaling, encapsulation, its peer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.ios.facts import ENCAPSULATIONS
from l2tpgen.lint.finding import Severity
from l2tpgen.lint.rules.base import DeviceRule

if TYPE_CHECKING:
    from collections.abc import Iterator

    from l2tpgen.ios.facts import DeviceFacts
    from l2tpgen.lint.finding import Finding


class StaticClassOnSignalledXconnect(DeviceRule):
    """An xconnect uses a `protocol none` class but is not a complete manual session.

    ## What it does
    Flags an xconnect whose pseudowire-class has `protocol none` (no control channel) when the
    xconnect lacks `manual` or has no `l2tp id` under it.

    ## Why is this bad?
    Without a control channel nothing negotiates the session: only the session IDs configured by
    hand (`l2tp id`) can bring it up, and only in manual mode. The session never comes up.

    ## Use instead
    ```
    interface Gi0/0.10
     xconnect 192.0.2.2 10 encapsulation l2tpv3 manual pw-class static
      l2tp id 10 10
    ```
    """

    code = "L2T018"
    name = "static-class-without-manual-session"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for _, xc in device.xconnects():
            pw = device.pw_class_of(xc)
            if pw is None or not pw.static:
                continue
            checks = (("manual", xc.manual), ("l2tp id", xc.session_at is not None))
            missing = [what for what, ok in checks if not ok]
            if missing:
                yield self.finding(
                    device.file,
                    xc.at,
                    f"pseudowire-class {pw.name} has protocol none, and this xconnect has no "
                    f"{' and no '.join(missing)}: the session can never come up",
                    "make it `xconnect PEER VCID encapsulation l2tpv3 manual pw-class "
                    f"{pw.name}` with `l2tp id LOCAL REMOTE` under it, or give the class a "
                    "protocol",
                )


class ManualXconnectWithSignalledClass(DeviceRule):
    """A manual xconnect uses a pseudowire-class that signals sessions.

    ## What it does
    Flags an xconnect with `manual` whose pseudowire-class says `protocol l2tpv3` or
    `protocol l2tpv3ietf`. (A class with no protocol line is not flagged: IOS's default protocol is
    believed to be l2tpv3, unconfirmed, see the brief.)

    ## Why is this bad?
    The two halves contradict each other: a manual session has no control channel, the class asks
    for one. IOS refuses or ignores part of it, and the session does not come up as intended.

    ## Use instead
    A class with `protocol none` for manual sessions, or drop `manual` and the `l2tp id` lines.
    """

    code = "L2T019"
    name = "manual-xconnect-with-signalled-class"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for _, xc in device.xconnects():
            pw = device.pw_class_of(xc)
            if xc.manual and pw is not None and pw.protocol in {"l2tpv3", "l2tpv3ietf"}:
                yield self.finding(
                    device.file,
                    xc.at,
                    f"manual xconnect uses pseudowire-class {pw.name}, which signals sessions "
                    f"(protocol {pw.protocol})",
                    "use a class with `protocol none` for manual sessions, or remove `manual`",
                )


class XconnectToSelf(DeviceRule):
    """An xconnect points at an address of the router itself.

    ## What it does
    Flags an xconnect whose peer address is configured on one of the router's own interfaces.

    ## Why is this bad?
    A pseudowire joins two routers; one pointed at the router itself has no other end. Usually a
    copy-paste slip: the other end's config pasted here, or the local address typed for the
    remote one.

    ## Use instead
    The other end's `ip local interface` address.
    """

    code = "L2T020"
    name = "xconnect-to-self"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        for _, xc in device.xconnects():
            if xc.peer is not None and xc.peer in device.owned:
                yield self.finding(
                    device.file,
                    xc.at,
                    f"xconnect peer {xc.peer} is this router's own address "
                    f"({device.owned[xc.peer]})",
                    "point the xconnect at the other end's `ip local interface` address",
                )


class BadPwEncapsulation(DeviceRule):
    """A pseudowire-class for L2TPv3 lacks a valid `encapsulation l2tpv3`.

    ## What it does
    Flags a pseudowire-class whose `encapsulation` is not one IOS knows (a typo such as
    `12tpv3`), or that has none while an xconnect without its own `encapsulation` uses it. MPLS
    and L2TPv2 classes are not checked.

    ## Why is this bad?
    IOS refuses the line, so the class has no data-plane encapsulation and its pseudowires are not
    built. In a config pasted into a ticket the typo goes unnoticed until the change window.

    ## Use instead
    ```
    pseudowire-class ethernet
     encapsulation l2tpv3
    ```
    """

    code = "L2T021"
    name = "bad-pw-encapsulation"
    severity = Severity.ERROR

    def check(self, device: DeviceFacts) -> Iterator[Finding]:
        bare = {xc.pw_class for _, xc in device.xconnects() if xc.encapsulation is None}
        for pw in device.l2tpv3_classes.values():
            if pw.encapsulation is not None and pw.encapsulation_at is not None:
                if pw.encapsulation not in ENCAPSULATIONS:
                    yield self.finding(
                        device.file,
                        pw.encapsulation_at,
                        f"pseudowire-class {pw.name}: encapsulation {pw.encapsulation} is not one "
                        "IOS knows",
                        "write `encapsulation l2tpv3`",
                    )
            elif pw.name in bare:
                yield self.finding(
                    device.file,
                    pw.at,
                    f"pseudowire-class {pw.name} has no encapsulation, and xconnects use it "
                    "without one of their own",
                    f"add `encapsulation l2tpv3` to pseudowire-class {pw.name}",
                )
