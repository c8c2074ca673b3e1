"""Lines of a running config that change without anyone changing the configuration.

Two ``show running-config`` outputs of an unchanged router differ in these (the header, the
timestamps, the NTP clock-period the router keeps adjusting), so comparisons ignore them. The list
follows hier_config's Cisco IOS driver (``per_line_sub``: ``Building configuration``, ``Current
configuration``, ``! Last configuration change``, ``! NVRAM config last updated``, ``ntp
clock-period``), plus IOS-XE's ``! No configuration change since last restart`` and the ``end``
line.
"""

from __future__ import annotations

import re

VOLATILE = re.compile(
    r"^(?:Building configuration|Current configuration\s*:|! Last configuration change|"
    r"! NVRAM config last updated|! No configuration change since last restart|"
    r"ntp clock-period |end$)"
)


def is_volatile(line: str) -> bool:
    """Whether a (stripped) line changes by itself on an unchanged router."""
    return VOLATILE.match(line) is not None


def config_body(show_running: str) -> str:
    """A ``show running-config`` without volatile and blank lines, for comparing two of them."""
    return "\n".join(
        line.rstrip()
        for line in show_running.splitlines()
        if line.strip() and not is_volatile(line.strip())
    )
