"""Objects named like l2tpgen's that l2tpgen did not write are refused by name, never deleted.

Issue 33 item 3: a colleague's ``crypto map l2tpgen 90`` entry, keyring or profile
``l2tpgen-partner``, or an ``l2tpgen-pw-x`` list for a peer not in the model, were deleted by the
next push, exit 0, no note. The rule (``l2tpgen/device/claims.py``, docs/push.md "Names l2tpgen
owns, and what it refuses"): a name the model renders is l2tpgen's; one push would delete must be
in the form l2tpgen writes for some model, a peer's objects tied together as
``render/crypto.py`` writes them (entry, profile, keyring peer, crypto list of one pair).

The running configs are the example hub's rendering (two protected peers, ``branch`` at entry
10 and ``linux-edge`` at entry 20) plus a colleague's objects written by hand as Cisco's
documentation writes them (crypto map entry with ``set peer``/``set transform-set``/``match
address``, IKEv2 keyring ``peer``/``address``/``pre-shared-key``, profile ``match identity remote
address``/``authentication``/``keyring local``: Cisco, "Appendix: IKEv2 and Legacy VPNs",
https://www.cisco.com/en/US/docs/ios-xml/ios/sec_conn_ike2vpn/configuration/15-2mt/sec-apx-ikev2-legacy.html).
Every expectation is worked out by hand.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import HUB, copy_example, revealed_site, unprotected

from l2tpgen.device.claims import ForeignClaimError, unowned
from l2tpgen.device.plan import Plan, plan_change
from l2tpgen.ios.tree import parse
from l2tpgen.model.protection import TRANSFORM_NAMES
from l2tpgen.render.crypto import proposal_names

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Site

ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-new-only-in-env-7"}
PARTNER_KEY = "Partner-key-of-a-colleague-9"

# A colleague's VPN to a partner, merged into l2tpgen's crypto map by hand (IOS applies one
# crypto map per interface), with a keyring and profile named like l2tpgen's.
MAP_90 = (
    "crypto map l2tpgen 90 ipsec-isakmp\n"
    " set peer 203.0.113.90\n"
    " set transform-set CORP-TS\n"
    " set ikev2-profile l2tpgen-partner\n"
    " match address CORP-ACL\n"
    "!\n"
)
PARTNER_KEYRING = (
    "crypto ikev2 keyring l2tpgen-partner\n"
    " peer partner\n"
    "  address 203.0.113.90\n"
    f"  pre-shared-key {PARTNER_KEY}\n"
    "!\n"
)
PARTNER_PROFILE = (
    "crypto ikev2 profile l2tpgen-partner\n"
    " match identity remote address 203.0.113.90 255.255.255.255\n"
    " authentication remote pre-share\n"
    " authentication local pre-share\n"
    " keyring local l2tpgen-partner\n"
    "!\n"
)


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    return revealed_site(HUB, "hub", ENV)


def _refusal(site: Site, running: str, intended: str) -> str:
    with pytest.raises(ForeignClaimError) as refused:
        plan_change(site, running, intended)
    return str(refused.value)


def _before_end(config: str, extra: str) -> str:
    return config.replace("\nend\n", f"\n{extra}end\n") if "\nend\n" in config else config + extra


def _without(sites: Path, peer: str, vlans: range) -> Path:
    """A copy of the hub fleet where the hub no longer has ``peer`` (its file gone too)."""
    copy = copy_example(HUB, sites.parent, name=sites.name)
    (copy / f"{peer}.yaml").unlink()
    hub = copy / "hub.yaml"
    lines = hub.read_text().splitlines(keepends=True)
    gone = [f"- {peer}\n", f"- name: {peer}\n"]
    if peer == "linux-edge":  # its peer entry's second line
        gone.append("pseudowire: {signaling: static, cookie: 0}\n")
    gone += [f"{{id: {vlan}," for vlan in vlans]
    kept = [line for line in lines if not any(mark in line for mark in gone)]
    hub.write_text("".join(kept))
    return copy


# -- a colleague's objects: refused by name, nothing planned -----------------------------------


def test_a_colleagues_crypto_map_entry_and_partner_keyring_and_profile_are_refused_by_name(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    running = _before_end(intended, MAP_90 + PARTNER_KEYRING + PARTNER_PROFILE)
    message = _refusal(site, running, intended)
    assert "`crypto map l2tpgen 90 ipsec-isakmp` (l2tpgen never writes `set transform-set" not in (
        message
    )  # CORP-TS is one line among l2tpgen's kinds: the reason is the pair it does not name
    assert "`crypto map l2tpgen 90 ipsec-isakmp` (it names no l2tpgen pair" in message
    assert "`crypto ikev2 keyring l2tpgen-partner` (l2tpgen's IKEv2 keyring is" in message
    assert "`crypto ikev2 profile l2tpgen-partner` (no crypto map l2tpgen entry" in message
    assert message.startswith("the router holds 3 object(s) named like l2tpgen's")
    assert "rename each out of l2tpgen's namespace" in message
    assert "merge it into the site model" in message
    assert PARTNER_KEY not in message


def test_an_entry_with_lines_l2tpgen_never_writes_names_the_line(hub: tuple[Site, str]) -> None:
    site, intended = hub
    entry = "crypto map l2tpgen 30 ipsec-isakmp\n set peer 203.0.113.90\n set pfs group14\n!\n"
    message = _refusal(site, _before_end(intended, entry), intended)
    assert "`crypto map l2tpgen 30 ipsec-isakmp` (l2tpgen never writes `set pfs group14`" in message


def test_an_entry_numbered_off_l2tpgens_steps_is_refused(hub: tuple[Site, str]) -> None:
    site, intended = hub
    # exactly l2tpgen's lines for branch, but at 15: l2tpgen numbers 10, 20, ...
    entry = intended[intended.index("crypto map l2tpgen 10 ipsec-isakmp") :]
    entry = entry[: entry.index("!\n") + 2].replace(" 10 ipsec", " 15 ipsec")
    message = _refusal(site, _before_end(intended, entry), intended)
    assert "`crypto map l2tpgen 15 ipsec-isakmp` (l2tpgen numbers its entries 10, 20, ...)" in (
        message
    )


def test_a_colleagues_entry_at_a_number_the_model_uses_is_refused_not_overwritten(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    theirs = (
        "crypto map l2tpgen 20 ipsec-isakmp\n set peer 203.0.113.90\n"
        " set transform-set CORP-TS\n match address CORP-ACL\n"
    )
    start = intended.index("crypto map l2tpgen 20 ipsec-isakmp")
    end = intended.index("!\n", start)
    message = _refusal(site, intended[:start] + theirs + intended[end:], intended)
    assert "`crypto map l2tpgen 20 ipsec-isakmp` (it names no l2tpgen pair" in message


def test_a_colleagues_peer_in_l2tpgens_keyring_is_refused_and_its_key_never_shown(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    theirs = f" peer partner\n  address 203.0.113.90\n  pre-shared-key {PARTNER_KEY}\n"
    running = intended.replace(
        "crypto ikev2 keyring l2tpgen\n", f"crypto ikev2 keyring l2tpgen\n{theirs}"
    )
    message = _refusal(site, running, intended)
    assert "`crypto ikev2 keyring l2tpgen / peer partner` (no crypto map l2tpgen entry" in message
    assert PARTNER_KEY not in message
    # and removing protection would delete the whole keyring: refused the same
    message = _refusal(site, running, unprotected(intended))
    assert "`crypto ikev2 keyring l2tpgen / peer partner`" in message


@pytest.mark.parametrize(
    ("theirs", "named"),
    [
        # an l2tpgen-pw list for a peer not in the model, no entry of l2tpgen's matching it
        (
            "ip access-list extended l2tpgen-pw-x\n permit 115 host 10.255.0.1 host 10.9.9.9\n",
            "`ip access-list extended l2tpgen-pw-x` (no l2tpgen pair matches it",
        ),
        (
            "crypto ikev2 proposal l2tpgen-corp\n encryption aes-cbc-256\n group 14\n",
            "`crypto ikev2 proposal l2tpgen-corp` (not a name l2tpgen gives",
        ),
        (
            "crypto ipsec transform-set l2tpgen-corp esp-aes esp-sha-hmac\n",
            "`crypto ipsec transform-set l2tpgen-corp esp-aes esp-sha-hmac` (not a name",
        ),
        (
            "crypto ikev2 policy l2tpgen-old\n proposal l2tpgen-aes-gcm-128\n",
            "`crypto ikev2 policy l2tpgen-old` (l2tpgen's IKEv2 policy is",
        ),
        (
            "crypto map l2tpgen-corp 10 ipsec-isakmp\n set peer 203.0.113.90\n",
            "`crypto map l2tpgen-corp 10 ipsec-isakmp` (l2tpgen's crypto map is",
        ),
        (
            "crypto map l2tpgen 90 ipsec-manual\n set peer 203.0.113.90\n",
            "`crypto map l2tpgen 90 ipsec-manual` (l2tpgen writes only",
        ),
        (
            "ip route 0.0.0.0 0.0.0.0 192.0.2.1 name l2tpgen-backup\n",
            "`ip route 0.0.0.0 0.0.0.0 192.0.2.1 name l2tpgen-backup` (l2tpgen names only host",
        ),
        (
            (
                "interface GigabitEthernet0/0/0.300\n description l2tpgen: reserved\n"
                " encapsulation dot1Q 300\n ip address 192.0.2.129 255.255.255.192\n"
            ),
            "`interface GigabitEthernet0/0/0.300` (its description is not l2tpgen's mark",
        ),
        (
            (
                "interface GigabitEthernet0/0/0.301\n description l2tpgen: VLAN 301 printers to x\n"
                " encapsulation dot1Q 301\n ip address 192.0.2.193 255.255.255.192\n"
            ),
            "`interface GigabitEthernet0/0/0.301` (l2tpgen never writes `ip address 192.0.2.193",
        ),
    ],
    ids=[
        "pw-list-of-no-pair",
        "proposal",
        "transform-set",
        "policy",
        "other-crypto-map",
        "manual-entry",
        "default-route",
        "marked-routed-subinterface",
        "marked-subinterface-with-address",
    ],
)
def test_each_kind_of_object_l2tpgen_cannot_derive_is_refused_by_name(
    hub: tuple[Site, str], theirs: str, named: str
) -> None:
    site, intended = hub
    message = _refusal(site, _before_end(intended, theirs + "!\n"), intended)
    assert named in message, message


def test_a_colleagues_crypto_map_on_the_wan_named_like_l2tpgens_is_refused(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    running = intended.replace(" crypto map l2tpgen\n", " crypto map l2tpgen-corp\n")
    message = _refusal(site, running, intended)
    assert "`interface GigabitEthernet0/0/1 / crypto map l2tpgen-corp`" in message


def test_an_inbound_filter_holding_a_colleagues_entry_is_refused_when_it_would_go(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    running = intended.replace(
        "ip access-list extended l2tpgen-wan-in\n",
        "ip access-list extended l2tpgen-wan-in\n permit tcp any any eq 22\n",
    )
    message = _refusal(site, running, unprotected(intended))
    assert "`ip access-list extended l2tpgen-wan-in` (it holds entries" in message


def test_the_refusal_names_eight_objects_and_counts_the_rest(hub: tuple[Site, str]) -> None:
    site, intended = hub
    routes = "".join(f"ip route 0.0.0.0 0.0.0.0 192.0.2.{n} name l2tpgen-r{n}\n" for n in range(10))
    message = _refusal(site, _before_end(intended, routes), intended)
    assert message.count("`ip route ") == 8
    assert "; and 2 more." in message


# -- l2tpgen's own objects from a previous model: still removed --------------------------------


def test_a_peer_leaving_the_model_has_its_entry_profile_key_list_route_and_subinterfaces_removed(
    hub: tuple[Site, str], tmp_path: Path
) -> None:
    _, before = hub  # the model with linux-edge (entry 20)
    site, after = revealed_site(
        _without(tmp_path / "hub", "linux-edge", range(200, 203)), "hub", ENV
    )
    plan = plan_change(site, before, after)
    for line in (
        "no crypto map l2tpgen 20 ipsec-isakmp",
        "no crypto ikev2 profile l2tpgen-linux-edge",
        " no peer linux-edge",
        "no ip access-list extended l2tpgen-pw-linux-edge",
        "no interface GigabitEthernet0/0/0.200",
    ):
        assert line in plan.send, line
    assert [line for line in plan.send if line.startswith("no ip route ")] == [
        "no ip route 10.255.0.3 255.255.255.255 198.51.100.6 name l2tpgen-linux-edge"
    ]
    assert not unowned(parse(before), parse(after), site)


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        # the keyring peer's address is not the pair's
        (
            "  address 10.255.0.3\n",
            "  address 10.9.9.9\n",
            "`crypto ikev2 keyring l2tpgen / peer linux-edge`",
        ),
        # the crypto list lets more than the pair's L2TPv3 through
        (
            " permit 115 host 10.255.0.1 host 10.255.0.3\n",
            " permit 115 host 10.255.0.1 host 10.255.0.3\n permit ip any any\n",
            "`ip access-list extended l2tpgen-pw-linux-edge`",
        ),
        # another protocol to the same peer
        (
            " permit 115 host 10.255.0.1 host 10.255.0.3\n",
            (
                " permit 115 host 10.255.0.1 host 10.255.0.3\n"
                " permit gre host 10.255.0.1 host 10.255.0.3\n"
            ),
            "`ip access-list extended l2tpgen-pw-linux-edge`",
        ),
        # the profile holds a line l2tpgen never writes: no pair, so nothing of it is l2tpgen's
        (
            " match identity remote address 10.255.0.3 255.255.255.255\n",
            " match identity remote address 10.255.0.3 255.255.255.255\n dpd 10 2 on-demand\n",
            "`crypto ikev2 profile l2tpgen-linux-edge`",
        ),
        # the profile is for another address than the entry's peer
        (
            " match identity remote address 10.255.0.3 255.255.255.255\n",
            " match identity remote address 10.255.0.9 255.255.255.255\n",
            "`crypto map l2tpgen 20 ipsec-isakmp`",
        ),
    ],
    ids=[
        "keyring-address",
        "crypto-list-entry",
        "crypto-list-protocol",
        "profile-line",
        "profile-address",
    ],
)
def test_a_leaving_peers_object_changed_by_hand_is_refused_not_removed(
    hub: tuple[Site, str], tmp_path: Path, old: str, new: str, named: str
) -> None:
    _, before = hub
    site, after = revealed_site(
        _without(tmp_path / "hub", "linux-edge", range(200, 203)), "hub", ENV
    )
    assert old in before
    message = _refusal(site, before.replace(old, new), after)
    assert named in message, message


def test_an_entry_in_l2tpgens_form_whose_profile_is_a_colleagues_is_refused_with_it(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    entry = (
        "crypto map l2tpgen 90 ipsec-isakmp\n set peer 203.0.113.90\n"
        " set transform-set l2tpgen-aes-gcm-128\n set ikev2-profile l2tpgen-partner\n"
        " match address l2tpgen-pw-partner\n!\n"
    )
    message = _refusal(site, _before_end(intended, entry + PARTNER_PROFILE), intended)
    assert "`crypto map l2tpgen 90 ipsec-isakmp` (it names no l2tpgen pair" in message
    assert "`crypto ikev2 profile l2tpgen-partner`" in message


def test_a_peer_moving_from_entry_20_to_10_is_renumbered_and_the_old_peer_removed(
    hub: tuple[Site, str], tmp_path: Path
) -> None:
    _, before = hub
    site, after = revealed_site(_without(tmp_path / "hub", "branch", range(100, 106)), "hub", ENV)
    plan = plan_change(site, before, after)
    assert "no crypto map l2tpgen 20 ipsec-isakmp" in plan.send
    assert " set ikev2-profile l2tpgen-linux-edge" in plan.send  # entry 10 now linux-edge's
    assert "no crypto ikev2 profile l2tpgen-branch" in plan.send
    assert " no peer branch" in plan.send


def test_removing_protection_removes_every_object_of_l2tpgens_form(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    plan: Plan = plan_change(site, intended, unprotected(intended))
    gone = {line for line in plan.send if line.startswith("no ")}
    assert {
        "no crypto map l2tpgen 10 ipsec-isakmp",
        "no crypto map l2tpgen 20 ipsec-isakmp",
        "no crypto ikev2 keyring l2tpgen",
        "no crypto ikev2 profile l2tpgen-branch",
        "no crypto ikev2 profile l2tpgen-linux-edge",
        "no ip access-list extended l2tpgen-pw-branch",
        "no ip access-list extended l2tpgen-wan-in",
    } <= gone


def test_a_stale_marked_subinterface_in_l2tpgens_form_is_removed(hub: tuple[Site, str]) -> None:
    site, intended = hub
    ours = (
        "interface GigabitEthernet0/0/0.300\n description l2tpgen: VLAN 300 old to branch\n"
        " encapsulation dot1Q 300\n no cdp enable\n!\n"
    )
    plan = plan_change(site, _before_end(intended, ours), intended)
    assert plan.send == ("no interface GigabitEthernet0/0/0.300",)


def test_a_stale_proposal_and_transform_set_of_another_transform_are_removed(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    old = (
        "crypto ikev2 proposal l2tpgen-aes-gcm-256\n encryption aes-gcm-256\n prf sha384\n"
        " group 20\n!\ncrypto ipsec transform-set l2tpgen-aes-gcm-256 esp-gcm 256\n"
        " mode transport\n!\n"
    )
    plan = plan_change(site, _before_end(intended, old), intended)
    assert set(plan.send) == {
        "no crypto ikev2 proposal l2tpgen-aes-gcm-256",
        "no crypto ipsec transform-set l2tpgen-aes-gcm-256 esp-gcm 256",
    }


def test_every_proposal_name_the_renderer_gives_is_one_push_recognises() -> None:
    # render/crypto.py's `_proposal`: l2tpgen-TRANSFORM, and -tunnel in tunnel mode
    expected = {f"l2tpgen-{t}" for t in TRANSFORM_NAMES} | {
        f"l2tpgen-{t}-tunnel" for t in TRANSFORM_NAMES
    }
    assert proposal_names() == expected
    assert "l2tpgen-aes-gcm-128" in expected
    assert not [n for n in expected if re.search(r"\s", n)]


def test_a_marked_subinterface_with_an_l2tpv3_xconnect_is_owned_by_it_whatever_its_mark(
    hub: tuple[Site, str],
) -> None:
    # owned by its xconnect (L2TPv3 through its pw-class), as before: removed, not judged
    site, intended = hub
    theirs = (
        "interface GigabitEthernet0/0/0.150\n description l2tpgen: taken over\n"
        " encapsulation dot1Q 150\n xconnect 10.255.0.2 150 pw-class ethernet\n!\n"
    )
    plan = plan_change(site, _before_end(intended, theirs), intended)
    assert plan.send == ("no interface GigabitEthernet0/0/0.150",)


def test_a_marked_subinterface_with_an_mpls_xconnect_is_refused(hub: tuple[Site, str]) -> None:
    site, intended = hub
    theirs = (
        "interface GigabitEthernet0/0/0.151\n description l2tpgen: VLAN 151 x to y\n"
        " encapsulation dot1Q 151\n xconnect 192.0.2.9 151 encapsulation mpls\n!\n"
    )
    message = _refusal(site, _before_end(intended, theirs), intended)
    assert "`interface GigabitEthernet0/0/0.151` (l2tpgen never writes `xconnect 192.0.2.9" in (
        message
    )
