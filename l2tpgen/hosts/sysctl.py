"""The sysctl part of the host advice as an ``/etc/sysctl.d/`` file.

``key = value`` lines and ``#`` comments, which ``sysctl -p FILE`` and systemd-sysctl both read;
each key's comments say why, from which figures, and what makes it take effect.
A host that carries several VLANs gets one file: where two VLANs ask for the same key, the larger
number wins (element by element for ``tcp_rmem`` triples).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from l2tpgen.hosts.advice import HostAdvice

FILE_NAME = "90-l2tpgen.conf"


def _larger(old: str, new: str) -> str:
    try:
        a, b = [int(x) for x in old.split()], [int(x) for x in new.split()]
    except ValueError:
        return old  # words (bbr, fq): the only values any advice gives, so they agree
    if len(a) != len(b):
        return old
    return " ".join(str(max(x, y)) for x, y in zip(a, b, strict=True))


def _transport(advice: HostAdvice) -> str:
    if advice.workload != "cluster-heartbeat":
        return ""
    return f" (Corosync {advice.transport or 'knet, not stated'})"


def merged_sysctls(advice: Iterable[HostAdvice]) -> tuple[tuple[str, str], ...]:
    """Every sysctl of every piece of advice, each key once (the larger value wins)."""
    merged: dict[str, str] = {}
    for one in advice:
        for key, value in one.sysctls:
            merged[key] = _larger(merged[key], value) if key in merged else value
    return tuple(merged.items())


def render_sysctl(advice: Iterable[HostAdvice], header: Iterable[str] = ()) -> str:
    """An ``/etc/sysctl.d/90-l2tpgen.conf`` for hosts that get all of ``advice``.

    ``header``: comment lines (without ``#``) that say whose file it is, first.
    """
    pieces = tuple(advice)
    lines = [
        (
            f"# /etc/sysctl.d/{FILE_NAME}: written by l2tpgen; apply with "
            f"`sysctl -p /etc/sysctl.d/{FILE_NAME}`"
        ),
        *(f"# {' '.join(line.split())}" for line in header),  # one line each, whatever it holds
    ]
    lines += [
        f"# {a.workload}{_transport(a)} over "
        f"{a.path.describe() if a.path else 'a path not stated'}, inner MTU {a.inner_mtu}"
        for a in pieces
    ]
    reasons: dict[str, list[str]] = {}
    for one in pieces:
        for item in one.items:
            if item.kind == "sysctl":
                notes = reasons.setdefault(item.setting, [])
                when = f"takes effect: {item.takes_effect}" if item.takes_effect else ""
                for line in (item.reason, *item.basis, when):
                    if line and line not in notes:
                        notes.append(line)
    merged = merged_sysctls(pieces)
    if not merged:
        lines.append("# nothing to change: Linux's defaults fit these paths")
    for key, value in merged:
        lines.append("")
        lines += [f"# {note}" for note in reasons[key]]
        lines.append(f"{key} = {value}")
    if any(key == "net.ipv4.tcp_congestion_control" for key, _ in merged):
        lines += [
            "",
            "# BBR is a module: load it at boot with /etc/modules-load.d/bbr.conf (tcp_bbr)",
        ]
    return "\n".join(lines) + "\n"
