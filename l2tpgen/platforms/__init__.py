"""Platforms, the way hier_config has them: one driver per platform holds what differs.

A site's platform (``platform:``, or ``management.device_type``) picks its driver: how the site
is rendered (and in which formats), which hier_config platform diffs it, how a router saves and
where its file system is, which show commands report its pseudowires, which lint rules apply,
and whether push and the simulator handle it. A new platform is one driver module plus its
templates; nothing else lists platforms.
"""

from __future__ import annotations

from l2tpgen.platforms.base import Driver
from l2tpgen.platforms.ios import IOS, IOS_XE
from l2tpgen.platforms.linux import LINUX

DRIVERS: dict[str, Driver] = {driver.name: driver for driver in (IOS, IOS_XE, LINUX)}
NAMES: tuple[str, ...] = tuple(DRIVERS)


def driver(platform: str) -> Driver:
    """The driver of a platform name (``ios``, ``iosxe``, ``linux``).

    Raises:
        KeyError: an unknown platform (the model only admits these three).
    """
    return DRIVERS[platform]


__all__ = ["DRIVERS", "NAMES", "Driver", "driver"]
