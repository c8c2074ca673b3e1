"""containerlab's node kinds for the lab's PEs: what a platform's PE runs as (``Driver.lab_kind``).

These are containerlab's names, not platforms: a Linux container is the lab's Linux data plane
(which Linux and VyOS PEs run on), an IOL node runs a Cisco PE's rendered config.
"""

from __future__ import annotations

from typing import Final, Literal

LINUX_KIND: Final = "linux"
IOL_KIND: Final = "cisco_iol"
Flavor = Literal["linux", "cisco_iol"]
