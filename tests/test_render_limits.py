"""Two renderings at their edges: a Linux end with NAT-T, and VyOS's session-ID limit.

- NAT-T: swanctl.conf(5) (https://docs.strongswan.org/docs/latest/swanctl/swanctlConf.html)
  documents ``connections.<conn>.encap``: "yes" forces UDP encapsulation of ESP (NAT-T) even
  without a NAT; ``protection: {nat_t: true}`` asks for it, and the Linux end must then say
  ``encap = yes`` (and ``encap = no`` without it).
- VyOS: vyos/vyos-1x ``interface-definitions/interfaces_l2tpv3.xml.in`` takes ``session-id`` and
  ``peer-session-id`` as ``u32:1-429496729`` (sic); l2tpgen uses the VC ID as both session IDs,
  so 429496729 renders and 429496730 is refused naming the limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import HUB, hub_fleet

from l2tpgen import load_fleet
from l2tpgen.errors import RenderError
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path

PEER_PW = "    pseudowire: {signaling: static, cookie: 0}\n"


def _sites(tmp_path: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    return hub_fleet(
        tmp_path, *((name, old, new) for name, pairs in edits.items() for old, new in pairs)
    )


def _encap_lines(conf: str) -> list[str]:
    return [line.strip() for line in conf.splitlines() if line.strip().startswith("encap =")]


def test_a_linux_end_with_nat_t_forces_udp_encapsulation_in_swanctl(tmp_path: Path) -> None:
    sites = _sites(
        tmp_path,
        {
            "linux-edge": [("peers: [hub]\n", "peers: [hub]\nprotection: {nat_t: true}\n")],
            "hub": [
                (
                    PEER_PW,
                    PEER_PW + "    protection: {nat_t: true}\n",
                )
            ],
        },
    )

    with_natt = render_files(load_fleet(sites), "linux-edge", platform="linux")["swanctl.conf"]
    without = render_files(load_fleet(HUB), "linux-edge", platform="linux")["swanctl.conf"]

    assert _encap_lines(with_natt) == ["encap = yes"]
    assert _encap_lines(without) == ["encap = no"]


# The hub example's linux-edge as a VyOS PE (as tests/test_vyos.py makes it).
VYOS = {
    "linux-edge": [
        ("platform: linux", "platform: vyos"),
        ("signaling: static, cookie: 0}", "signaling: static, cookie: 0, sequencing: transmit}"),
        ("gateway: 198.51.100.22\n", "gateway: 198.51.100.22\n  trusted: true\n"),
    ],
    "hub": [
        ("{signaling: static, cookie: 0}", "{signaling: static, cookie: 0, sequencing: transmit}"),
        ("gateway: 198.51.100.6\n", "gateway: 198.51.100.6\n  trusted: true\n"),
    ],
}


def _vyos_with_vc_id(tmp_path: Path, vc_id: int) -> Path:
    edits = {name: list(pairs) for name, pairs in VYOS.items()}
    edits["linux-edge"].append(
        (
            "{id: 200, name: lab-a, peer: hub}",
            f"{{id: 200, name: lab-a, peer: hub, vc_id: {vc_id}}}",
        )
    )
    edits["hub"].append(
        (
            "{id: 200, name: lab-a, peer: linux-edge}",
            f"{{id: 200, name: lab-a, peer: linux-edge, vc_id: {vc_id}}}",
        )
    )
    return _sites(tmp_path, edits)


def test_vyos_takes_the_session_id_429496729_at_its_limit(tmp_path: Path) -> None:
    sites = _vyos_with_vc_id(tmp_path, 429_496_729)

    text = "".join(render_files(load_fleet(sites), "linux-edge").values())

    assert "set interfaces l2tpv3 l2tpeth200 session-id '429496729'" in text
    assert "set interfaces l2tpv3 l2tpeth200 peer-session-id '429496729'" in text


def test_vyos_refuses_the_session_id_429496730_naming_its_limit(tmp_path: Path) -> None:
    sites = _vyos_with_vc_id(tmp_path, 429_496_730)

    with pytest.raises(RenderError, match=r"VyOS takes session IDs up to 429496729, not 429496730"):
        render_files(load_fleet(sites), "linux-edge")
