"""The push planner on brownfield configs: what it owns, the order it changes things in.

Each test applies the plan to a simulated router loaded with the running config and plans again: a
plan must take the router to the model in one push (the second plan is empty) and must never touch
what l2tpgen does not own.
"""

from __future__ import annotations

import re

import pytest
from conftest import SITES
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import Plan, plan_change
from l2tpgen.device.scope import OwnershipError
from l2tpgen.ios.type7 import encode as type7_encode
from l2tpgen.lint import ConfigText, lint_configs
from l2tpgen.sim.router import Router

REFERENCE = SITES.parent / "tests" / "reference"
SECRET = "123456789"  # noqa: S105 - the reference case's published example
ENV = {"L2TPGEN_L2TP_SECRET": SECRET, "L2TPGEN_IKE_PSK": "psk-for-the-hub-example"}
FLEET = load_fleet(SITES)
SITE_A = FLEET.site("site-a")


def _intended(site: str = "site-a") -> str:
    return render_site(FLEET, site, reveal_secrets=True, environ=ENV)


def _router(config: str) -> Router:
    router = Router("lab-a-rtr1")
    assert router.load(config) == []
    return router


def _running(router: Router) -> str:
    return router.handle("show running-config")


def _apply(router: Router, plan: Plan) -> None:
    refused = send_plan(router, plan.send)
    assert all("Not all config" in answer for _, answer in refused), refused


def _push(config: str, site: str = "site-a") -> tuple[Plan, Router]:
    router = _router(config)
    plan = plan_change(FLEET.site(site), _running(router), _intended(site))
    _apply(router, plan)
    again = plan_change(FLEET.site(site), _running(router), _intended(site))
    assert again.empty, again.send
    return plan, router


def _before(side: str) -> str:
    return (REFERENCE / f"before-router-{side}.conf").read_text()


def test_the_single_trunk_xconnect_goes_before_any_subinterface_is_built() -> None:
    plan, router = _push(_before("a"))
    assert plan.migration
    send = list(plan.send)
    trunk = send.index("interface GigabitEthernet0/0")
    assert send[trunk + 1].startswith(" no xconnect 10.216.44.47 125 ")
    first_new = next(i for i, line in enumerate(send) if line.startswith(" xconnect "))
    assert trunk < first_new
    trunk_section = _running(router).split("interface GigabitEthernet0/0\n", 1)[1].split("!")[0]
    assert "xconnect" not in trunk_section


def test_the_migrated_router_lints_clean_of_the_single_trunk_and_duplicate_vc_findings() -> None:
    _, router = _push(_before("a"))
    findings = lint_configs([ConfigText("site-a.conf", _running(router))])
    assert not [f for f in findings if f.code in {"L2T001", "L2T008"}], findings


def test_a_class_only_the_removed_trunk_used_is_changed_in_place() -> None:
    plan, _ = _push(_before("a"))
    assert "pseudowire-class ethernet" in plan.send
    assert not [line for line in plan.send if re.match(r"pseudowire-class ethernet-", line)]
    assert plan.notes == ()


def test_a_changed_class_with_live_sessions_is_built_anew_and_the_old_one_removed_last() -> None:
    # The per-VLAN design without pmtu/df-bit: the same xconnects stay, so the class is live.
    live = _intended().replace(" ip pmtu\n", "").replace(" ip dfbit set\n", "")
    plan, router = _push(live)
    send = list(plan.send)
    new = next(line for line in send if line.startswith("pseudowire-class ethernet-"))
    version = new.removeprefix("pseudowire-class ")
    assert send.index(new) < send.index("interface GigabitEthernet0/0.2996")
    assert send[-1] == "no pseudowire-class ethernet"
    assert f" xconnect 10.216.44.47 126 encapsulation l2tpv3 pw-class {version}" in send
    assert plan.notes
    assert "in use" in plan.notes[0]
    running = _running(router)
    assert f"pseudowire-class {version}\n" in running
    assert "pseudowire-class ethernet\n" not in running


def test_protocol_and_local_interface_of_a_live_class_are_never_edited_in_place() -> None:
    live = _intended().replace(
        "ip local interface GigabitEthernet0/1", "ip local interface Loopback9"
    )
    plan = plan_change(SITE_A, _router(live).handle("show running-config"), _intended())
    edits = [i for i, line in enumerate(plan.send) if line == "pseudowire-class ethernet"]
    assert edits == []


def test_an_unchanged_secret_in_another_type7_spelling_changes_nothing() -> None:
    other = type7_encode(SECRET, salt=9)
    ours = re.findall(r"password 7 (\S+)", _intended())[0]
    assert ours != other
    running = _intended().replace(ours, other)
    plan = plan_change(SITE_A, running, _intended())
    assert plan.empty, plan.send


def test_a_new_secret_is_set_in_place_and_masked_in_every_view() -> None:
    old = _intended()
    new = render_site(FLEET, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": "n3w"})
    plan = plan_change(SITE_A, old, new)
    assert next(line for line in plan.send if "password" in line).startswith(" password 7 ")
    shown = plan.diff("site-a") + "\n".join(plan.commands)
    assert "<masked>" in shown
    for secret in re.findall(r"password 7 (\S+)", old + new):
        assert secret not in shown
    assert "pseudowire-class ethernet-" not in "\n".join(plan.send)


def test_a_routed_subinterface_on_the_trunk_is_never_touched() -> None:
    management = (
        "interface GigabitEthernet0/0.100\n encapsulation dot1Q 100\n"
        " ip address 192.168.100.1 255.255.255.0\n service-policy output SHAPE\n!\n"
    )
    plan, router = _push(_before("a") + management)
    assert not [line for line in plan.send if "0/0.100" in line]
    assert "interface GigabitEthernet0/0.100\n encapsulation dot1Q 100\n" in _running(router)
    assert "GigabitEthernet0/0.100" not in plan.running


def test_a_vlan_over_a_subinterface_l2tpgen_does_not_own_is_refused() -> None:
    foreign = (
        "interface GigabitEthernet0/0.2997\n encapsulation dot1Q 2997\n"
        " ip address 192.168.7.1 255.255.255.0\n!\n"
    )
    with pytest.raises(OwnershipError, match=r"GigabitEthernet0/0\.2997 exists on the router"):
        plan_change(SITE_A, _before("a") + foreign, _intended())


def test_the_wan_interface_and_unnamed_routes_are_never_in_scope() -> None:
    running = _intended().replace(
        "10.197.251.215 255.255.255.240", "10.197.251.216 255.255.255.240"
    )
    running += "ip route 10.99.0.0 255.255.0.0 10.197.251.209\n"
    assert plan_change(SITE_A, running, _intended()).empty


def test_a_stale_owned_subinterface_is_removed_before_anything_is_added() -> None:
    stale = (
        "interface GigabitEthernet0/0.3000\n description l2tpgen: VLAN 3000 old to site-b\n"
        " encapsulation dot1Q 3000\n"
        " xconnect 10.216.44.47 300 encapsulation l2tpv3 pw-class ethernet\n!\n"
    )
    plan, _ = _push(_before("a") + stale)
    assert plan.send[0] == "no interface GigabitEthernet0/0.3000"


def test_a_class_foreign_xconnects_use_is_left_in_place() -> None:
    foreign = (
        "pseudowire-class ethernet\n encapsulation mpls\n!\n"
        "interface GigabitEthernet0/2\n xconnect 10.9.9.9 77 pw-class ethernet\n!\n"
    )
    plan = plan_change(SITE_A, foreign, _intended())
    assert "no pseudowire-class ethernet" not in plan.send
    assert any(line.startswith("pseudowire-class ethernet-") for line in plan.send)


def test_routes_to_the_peers_loopbacks_are_owned_by_name() -> None:
    hub = load_fleet(SITES.parent / "examples" / "hub")
    intended = render_site(hub, "branch", reveal_secrets=True, environ=ENV)
    stale = "ip route 10.255.0.9 255.255.255.255 198.51.100.14 name l2tpgen-gone\n"
    mine = "ip route 10.8.0.0 255.255.0.0 198.51.100.14 name mgmt\n"
    plan = plan_change(hub.site("branch"), stale + mine, intended)
    assert "ip route 10.255.0.1 255.255.255.255 198.51.100.14 name l2tpgen-hub" in plan.send
    added = plan.send.index("ip route 10.255.0.1 255.255.255.255 198.51.100.14 name l2tpgen-hub")
    assert plan.send.index("no " + stale.strip()) > added
    assert not [line for line in plan.send if "name mgmt" in line]
    assert "interface Loopback0" in plan.send


def test_a_site_without_a_loopback_still_removes_its_stale_named_route() -> None:
    # site-a has no loopback: its owned interfaces were {lan, wan, None}, and every root that is
    # not an interface (name None) matched them, so named routes were never owned nor removed
    assert SITE_A.wan.loopback is None
    stale = "ip route 10.255.0.9 255.255.255.255 198.51.100.14 name l2tpgen-gone"
    mine = "ip route 10.8.0.0 255.255.0.0 198.51.100.14 name mgmt"
    plan, router = _push(f"hostname lab-a-rtr1\n{stale}\n{mine}\n")
    assert f"no {stale}" in plan.send
    assert not [line for line in plan.send if "name mgmt" in line]
    assert mine in _running(router)


def test_a_fresh_router_gets_classes_before_the_subinterfaces_that_use_them() -> None:
    plan, _ = _push("hostname lab-a-rtr1\n")
    send = list(plan.send)
    l2tp = send.index("l2tp-class class1")
    pw = send.index("pseudowire-class ethernet")
    first_sub = send.index("interface GigabitEthernet0/0.2996")
    assert l2tp < pw < first_sub


def test_vc_ids_swapped_between_two_vlans_free_both_before_taking_either() -> None:
    running = _intended()
    swapped = running.replace("xconnect 10.216.44.47 126 ", "xconnect 10.216.44.47 TMP ")
    swapped = swapped.replace("xconnect 10.216.44.47 127 ", "xconnect 10.216.44.47 126 ")
    swapped = swapped.replace("xconnect 10.216.44.47 TMP ", "xconnect 10.216.44.47 127 ")
    plan = plan_change(SITE_A, swapped, running)
    send = list(plan.send)
    removed = [i for i, line in enumerate(send) if line.startswith(" no xconnect ")]
    added = [i for i, line in enumerate(send) if line.startswith(" xconnect ")]
    assert len(removed) == len(added) == 2
    assert max(removed) < min(added)


def test_a_subinterface_built_by_hand_with_an_l2tpv3_xconnect_is_owned_and_marked() -> None:
    reference = (REFERENCE / "reference-case-router-a.conf").read_text()
    plan, _ = _push(reference)
    assert {line for line in plan.send if line.startswith(" ")} == {
        f" description l2tpgen: VLAN {vlan} {name} to site-b"
        for vlan, name in (
            (2996, "public"),
            (2997, "cluster"),
            (2998, "live-migration"),
            (2999, "management"),
        )
    }


def test_an_unmarked_l2tpv3_subinterface_the_model_dropped_is_removed() -> None:
    stale = (
        "interface GigabitEthernet0/0.3000\n encapsulation dot1Q 3000\n"
        " xconnect 10.216.44.47 300 encapsulation l2tpv3 pw-class ethernet\n!\n"
    )
    plan, _ = _push(_intended() + stale)
    assert plan.send == ("no interface GigabitEthernet0/0.3000",)


def test_a_marked_subinterface_whose_xconnect_was_removed_by_hand_is_rebuilt() -> None:
    bare = re.sub(
        r"(interface GigabitEthernet0/0\.2997\n(?: .*\n)*?) xconnect .*\n", r"\1", _intended()
    )
    assert "xconnect 10.216.44.47 127" not in bare
    plan, _ = _push(bare)
    assert " xconnect 10.216.44.47 127 encapsulation l2tpv3 pw-class ethernet" in plan.send
