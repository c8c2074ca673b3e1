"""A native VLAN pushed to simulated routers: `encapsulation dot1Q N native` lands at both ends.

The simulator takes `encapsulation dot1Q <1-4094> [native]` (l2tpgen/sim/commands.py); whether a
real IOS router accepts an xconnect on such a subinterface is [U] (model/native_vlan.py).
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from conftest import SITES
from push_runs import push, section

if TYPE_CHECKING:
    from pathlib import Path

    from conftest_sim import Lab


def test_a_native_vlan_is_pushed_to_both_ends_and_verified_up(lab: Lab, tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    shutil.copytree(SITES, sites)
    for name, peer in (("site-a", "site-b"), ("site-b", "site-a")):
        path = sites / f"{name}.yaml"
        old = f"{{id: 2999, name: management, peer: {peer}, vc_id: 125}}"
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, old[:-1] + ", native: true}"))

    code, results = push(lab, "site-a", "site-b", sites=sites)

    # Exit 0: both changed and every pair read back up at both ends (push verifies pairs).
    assert (code, [r["status"] for r in results]) == (0, ["changed", "changed"])
    for name in ("site-a", "site-b"):
        running = lab.running(name)
        assert " encapsulation dot1Q 2999 native\n" in section(
            running, "interface GigabitEthernet0/0.2999"
        )
        assert " encapsulation dot1Q 2998\n" in running
