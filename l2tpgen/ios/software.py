"""The IOS software families l2tpgen's reader tells apart (``DeviceFacts.software``).

A platform's traits say which one it runs (``l2tpgen.platforms.traits.Traits.ios_software``);
apart from ``facts.py`` (every fact's dataclass: a fortieth of a cold ``validate``) so that the
traits, which every command reads, load none of it (issue 35).
"""

from __future__ import annotations

IOS_XE_FIRST_MAJOR = 16  # `version 16.x` and later is IOS-XE; 12.x and 15.x are classic IOS
CLASSIC = "classic"  # 12.x/15.x: fragments reassembled in process switching
XE = "xe"  # IOS-XE: a forwarding plane that does not use the hold-queues
