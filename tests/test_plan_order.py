"""Issue 26, item 5: sections compared as IOS compares them, and printed in IOS's order.

A router that holds exactly the model's classes, printed in another order (IOS's own, read off
``tests/realworld/configs/aviacao-cme-rtop-cme.cfg``: ``sequencing`` right after
``encapsulation``; or any other), needs no change: a pseudowire-class's or l2tp-class's lines are
a set to IOS, as they are to plain hier_config 3 (the baseline here). Access list entries are the
exception: their order is what the list does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from builders import both_ends, copy_example
from conftest import SITES
from hier_config import Platform, WorkflowRemediation, get_hconfig
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.acl_edit import AclEditError
from l2tpgen.device.class_versions import _align, canonical, version_name
from l2tpgen.device.plan import plan_change
from l2tpgen.ios.type7 import encode
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

ENV = {"L2TPGEN_L2TP_SECRET": "123456789"}


def _sequenced(tmp_path: Path) -> Fleet:
    """The reference pair with ``sequencing: transmit`` (which l2tpgen renders last)."""
    sequenced = both_ends("df_bit: true}", "df_bit: true, sequencing: transmit}")
    return load_fleet(copy_example(SITES, tmp_path, *sequenced, name="sequenced"))


def _reorder(config: str, header: str, order: list[int]) -> str:
    """The config with one section's children put in another order."""
    lines = config.splitlines(keepends=True)
    at = lines.index(header + "\n") + 1
    end = at
    while lines[end].startswith(" "):
        end += 1
    children = lines[at:end]
    assert len(children) == len(order)
    return "".join(lines[:at] + [children[i] for i in order] + lines[end:])


def _hier_config_sees_no_change(running: str, intended: str) -> bool:
    workflow = WorkflowRemediation(
        get_hconfig(Platform.CISCO_IOS, running), get_hconfig(Platform.CISCO_IOS, intended)
    )
    return not list(workflow.remediation_config.all_children())


def test_a_router_holding_the_model_classes_in_ios_order_gets_an_empty_plan(
    tmp_path: Path,
) -> None:
    fleet = _sequenced(tmp_path)
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    assert " ip dfbit set\n sequencing transmit\n" in want  # l2tpgen renders it last
    router = Router("lab-a-rtr1")
    assert router.load(want) == []
    running = router.handle("show running-config")
    # The simulator prints it where IOS does (aviacao-cme-rtop-cme.cfg).
    assert "pseudowire-class ethernet\n encapsulation l2tpv3\n sequencing transmit\n" in running
    assert _hier_config_sees_no_change(running, want)
    plan = plan_change(fleet.site("site-a"), running, want)
    assert plan.empty, plan.send
    assert plan.diff("site-a") == ""


def test_classes_printed_in_any_other_order_need_no_change(tmp_path: Path) -> None:
    fleet = _sequenced(tmp_path)
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    running = _reorder(want, "pseudowire-class ethernet", [5, 4, 3, 2, 1, 0])
    running = _reorder(running, "l2tp-class class1", [1, 0])
    assert running != want
    assert _hier_config_sees_no_change(running, want)
    plan = plan_change(fleet.site("site-a"), running, want)
    assert plan.empty, plan.send
    assert plan.diff("site-a") == ""


def test_a_class_version_name_does_not_depend_on_line_order() -> None:
    body = [" encapsulation l2tpv3", " protocol l2tpv3 class1", " sequencing transmit"]
    assert version_name("ethernet", body) == version_name("ethernet", body[::-1])
    assert version_name("ethernet", body) != version_name("ethernet", body[:2])


def test_a_class_that_really_changes_is_still_rebuilt(tmp_path: Path) -> None:
    fleet = _sequenced(tmp_path)
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    router = Router("lab-a-rtr1")
    assert router.load(want.replace(" sequencing transmit\n", " sequencing both\n")) == []
    plan = plan_change(fleet.site("site-a"), router.handle("show running-config"), want)
    assert any(line.startswith("pseudowire-class ethernet-") for line in plan.send)


def test_the_repeated_push_settles_on_one_class_name(tmp_path: Path) -> None:
    """The issue's flip: each push rebuilt the class in use under the other of two names."""
    fleet = _sequenced(tmp_path)
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV)
    router = Router("lab-a-rtr1")
    assert router.load(want.replace(" sequencing transmit\n", "")) == []
    for _ in range(3):
        plan = plan_change(fleet.site("site-a"), router.handle("show running-config"), want)
        assert send_plan(router, plan.send) == []
    final = plan_change(fleet.site("site-a"), router.handle("show running-config"), want)
    assert final.empty, final.send


def test_permits_in_another_order_are_no_change_the_list_does_the_same() -> None:
    """Two permits swapped: the first match among them permits either way (issue 33: push
    takes the router's order for a run of same-action entries, ``acl_edit.adopt_order``)."""
    fleet = load_fleet(SITES.parent / "examples" / "protected")
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV | _ike_env())
    header = "ip access-list extended l2tpgen-pw-site-b"
    extra = want.replace(f"{header}\n", f"{header}\n permit udp any any eq 500\n")
    running = _reorder(extra, header, [1, 0])
    assert running != extra
    assert plan_change(fleet.site("site-a"), running, extra).empty


def test_a_deny_and_a_permit_in_another_order_are_refused_never_deleted_and_retyped() -> None:
    """Order is what an access list does; moving an entry of an applied list would leave a moment
    without it, and deleting the list a moment without any (issue 33): push refuses, naming it."""
    fleet = load_fleet(SITES.parent / "examples" / "protected")
    want = render_site(fleet, "site-a", reveal_secrets=True, environ=ENV | _ike_env())
    header = "ip access-list extended l2tpgen-pw-site-b"
    extra = want.replace(f"{header}\n", f"{header}\n deny udp any any eq 500\n")
    running = _reorder(extra, header, [1, 0])
    with pytest.raises(AclEditError, match=r"holds `deny udp any any eq 500` in another place"):
        plan_change(fleet.site("site-a"), running, extra)
    assert not plan_change(fleet.site("site-a"), extra, extra).send


def _ike_env() -> dict[str, str]:
    return {"L2TPGEN_IKE_PSK": "an-ike-key-of-some-length-1234"}


def test_a_class_version_name_leaves_the_secret_out() -> None:
    """No hash of a secret ever reaches a router's class names (device/class_versions.py)."""
    one = [" authentication", " password 7 0822455D0A16"]
    other = [" authentication", " password 7 094F471A1A0A"]
    assert version_name("class1", one) == version_name("class1", other)
    assert version_name("class1", one) != version_name("class1", [" authentication"])


def test_a_secret_is_taken_in_the_routers_spelling_only_when_the_rest_of_the_line_matches() -> None:
    router = [f" digest secret 7 {encode('abc', 5)}"]
    assert _align([" digest secret 0 abc hash sha"], router) == [" digest secret 0 abc hash sha"]
    assert _align([" digest secret 0 abc"], router) == router


def test_canonical_keeps_each_childs_own_children_and_an_access_lists_order() -> None:
    keyring = [" peer a", "  address 192.0.2.1", " peer b", "  address 192.0.2.2"]
    swapped = [" peer a", "  address 192.0.2.2", " peer b", "  address 192.0.2.1"]
    assert canonical(keyring) != canonical(swapped)
    assert canonical(keyring) == canonical(keyring[2:] + keyring[:2])
    entries = [" permit ip host 192.0.2.1 any", " deny ip any any"]
    assert canonical(entries, ordered=True) != canonical(entries[::-1], ordered=True)
    assert canonical(entries) == canonical(entries[::-1])
    assert canonical([" a", "  b", "   c", "  d", " e"]) == (
        ("a", (("b", (("c", ()),)), ("d", ()))),
        ("e", ()),
    )
