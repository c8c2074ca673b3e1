"""push and verify against simulated routers that disagree with l2tpgen as real ones do.

Each SSH session gets its own command line. Over real SSH, netmiko unmodified.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.device.verify import verify_site

if TYPE_CHECKING:
    from conftest_sim import Lab


def test_verify_from_a_second_session_while_the_first_is_in_config_mode(lab: Lab) -> None:
    pusher, verifier = lab.connect("site-a"), lab.connect("site-a")
    try:
        pusher.config_mode()
        pusher.send_config_set(["interface GigabitEthernet0/0.2996"], exit_config_mode=False)
        assert pusher.find_prompt() == "lab-a-rtr1(config-subif)#"
        assert verifier.find_prompt() == "lab-a-rtr1#"
        states = verify_site(lab.fleet, "site-a", verifier)
        assert [s.state for s in states] == ["MISSING"] * 4
        # the first session is where it was: its next line lands on the subinterface
        output = pusher.send_config_set(["encapsulation dot1Q 2996"], exit_config_mode=False)
        assert "%" not in output
        assert pusher.find_prompt() == "lab-a-rtr1(config-subif)#"
    finally:
        pusher.disconnect()
        verifier.disconnect()
    assert "interface GigabitEthernet0/0.2996\n encapsulation dot1Q 2996\n" in lab.running("site-a")
