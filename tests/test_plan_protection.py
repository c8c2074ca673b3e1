"""Push plans for adding, changing and removing protection (IKEv2/IPsec) on a running pair.

The order is the rollout of docs/security.md ("Adding protection to a running pair"), worked out
by hand from Cisco's behaviour: an inbound filter that still admits clear L2TPv3 from the peers
goes first, the IKEv2 objects are inert until a crypto map uses them, and the WAN's ``crypto map``
line starts encrypting, so it goes last. IOS appends lines typed into an existing access list at
its end (after ``permit ip any any``, where they never match), so a changed list is removed and
sent whole. Cisco: [IKEV2-LEGACY]
https://www.cisco.com/en/US/docs/ios-xml/ios/sec_conn_ike2vpn/configuration/15-2mt/sec-apx-ikev2-legacy.html
(crypto ikev2 proposal/policy/keyring/profile, crypto map entries, `crypto map NAME` on the
interface).

The running configs are the example hub's rendering with the protection taken out (an input, not
an expectation); every expected line below is written by hand.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import HUB, revealed_site, unprotected

from l2tpgen.device.plan import Plan, plan_change
from l2tpgen.device.scope import OwnershipError
from l2tpgen.model.keys import pair_psk

if TYPE_CHECKING:
    from l2tpgen.model import Site

PSK = "Psk-new-only-in-env-7"
OLD_PSK = "Psk-old-on-the-router-3"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": PSK}
WAN = "interface GigabitEthernet0/0/1"


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    return revealed_site(HUB, "hub", ENV)


def _at(plan: Plan, line: str) -> int:
    return plan.send.index(line)


def test_protecting_a_running_pair_sends_the_filter_first_and_the_wan_crypto_map_last(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    plan = plan_change(site, unprotected(intended), intended)
    send = plan.send
    # 1. the inbound filter (admits clear L2TPv3 from the peers, IKE and ESP) before anything
    assert send[0] == "ip access-list extended l2tpgen-pw-branch"
    assert _at(plan, "ip access-list extended l2tpgen-wan-in") < _at(
        plan, " ip access-group l2tpgen-wan-in in"
    )
    # 2. IKEv2 objects before the map entries that name them, transform set too
    order = [
        "ip access-list extended l2tpgen-wan-in",
        " ip access-group l2tpgen-wan-in in",
        "crypto ikev2 proposal l2tpgen-aes-gcm-128",
        "crypto ikev2 policy l2tpgen",
        "crypto ikev2 keyring l2tpgen",
        "crypto ikev2 profile l2tpgen-branch",
        "crypto ipsec transform-set l2tpgen-aes-gcm-128 esp-gcm 128",
        "crypto map l2tpgen 10 ipsec-isakmp",
        "crypto map l2tpgen 20 ipsec-isakmp",
    ]
    assert [_at(plan, line) for line in order] == sorted(_at(plan, line) for line in order)
    # 3. the WAN's crypto map line is the very last: encrypting starts there
    assert send[-2:] == (WAN, " crypto map l2tpgen")
    # the running pseudowires are not touched at all
    assert not [line for line in send if "xconnect" in line or line.startswith("no ")]
    assert any("down from that line until each peer" in note for note in plan.notes)


def test_removing_protection_takes_the_wan_crypto_map_off_first_and_the_filter_last(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    plan = plan_change(site, intended, unprotected(intended))
    assert plan.send[:2] == (WAN, " no crypto map l2tpgen")
    order = [
        " no crypto map l2tpgen",
        "no crypto map l2tpgen 10 ipsec-isakmp",
        "no crypto ikev2 profile l2tpgen-branch",
        "no crypto ikev2 keyring l2tpgen",
        "no crypto ikev2 policy l2tpgen",
        "no crypto ikev2 proposal l2tpgen-aes-gcm-128",
        " no ip access-group l2tpgen-wan-in in",
        "no ip access-list extended l2tpgen-wan-in",
    ]
    assert [_at(plan, line) for line in order] == sorted(_at(plan, line) for line in order)
    assert plan.send[-1] == "no ip access-list extended l2tpgen-wan-in"
    assert not [line for line in plan.send if "interface GigabitEthernet0/0/0" in line]
    # the peer still encrypts (and drops clear traffic for its crypto ACL): an outage until it
    # is pushed too, from the first line on
    (note,) = plan.notes
    assert "removes the crypto map" in note
    assert f"`{WAN}` / `no crypto map l2tpgen` (line 2 of" in note
    assert "until each peer has been pushed the same change" in note


def test_a_changed_access_list_is_edited_by_sequence_number_never_deleted_or_retyped(
    hub: tuple[Site, str],
) -> None:
    # Issue 33: `no ip access-list extended l2tpgen-wan-in` and the list typed again while it is
    # applied drops everything inbound until its `permit ip any any` arrives. The router's filter
    # here is the one l2tpgen rendered before issue 33 and knows only the branch.
    site, intended = hub
    old_filter = (
        "ip access-list extended l2tpgen-wan-in\n"
        " permit 115 host 10.255.0.2 host 10.255.0.1\n"
        " permit esp host 10.255.0.2 host 10.255.0.1\n"
        " permit udp host 10.255.0.2 host 10.255.0.1 eq 500\n"
        " permit udp host 10.255.0.2 host 10.255.0.1 eq 4500\n"
        " deny 115 any any\n"
        " deny esp any any\n"
        " deny udp any any eq 500\n"
        " deny udp any any eq 4500\n"
        " permit ip any any\n"
    )
    start = intended.index("ip access-list extended l2tpgen-wan-in\n")
    end = intended.index("!", start)
    running = intended[:start] + old_filter + intended[end:]
    plan = plan_change(site, running, intended)
    assert "no ip access-list extended l2tpgen-wan-in" not in plan.send
    # By hand: three new entries in a row at most, so the nine old ones are renumbered 40, 80,
    # ... 360 (Cisco's `ip access-list resequence NAME START STEP`); the new ones go between the
    # branch's 115 entry (40) and the next old entry (80); the old ones that go leave bottom up.
    assert plan.send == (
        "ip access-list resequence l2tpgen-wan-in 40 40",
        "ip access-list extended l2tpgen-wan-in",
        " 50 permit 115 host 10.255.0.3 host 10.255.0.1",
        " 60 deny 115 any host 10.255.0.1",
        " 70 deny 115 any host 198.51.100.1",
        " no 320",
        " no 280",
        " no 240",
        " no 200",
        " no 160",
        " no 120",
        " no 80",
        "ip access-list resequence l2tpgen-wan-in 10 10",
    )


def test_a_changed_ike_key_is_masked_and_the_old_key_is_never_sent(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    key = pair_psk(PSK.encode(), ("hub", "branch"))  # the pair's key, derived from the master
    running = intended.replace(f"pre-shared-key {key}\n", f"pre-shared-key {OLD_PSK}\n")
    plan = plan_change(site, running, intended)
    shown = plan.diff("hub") + "\n".join(plan.commands)
    assert "pre-shared-key <masked" in shown
    assert key not in shown
    assert OLD_PSK not in shown
    assert not [line for line in plan.send if OLD_PSK in line]  # no `no pre-shared-key OLD`
    assert "  pre-shared-key " + key in plan.send  # the new key is what is sent


def test_a_users_crypto_sections_and_access_lists_are_never_touched(
    hub: tuple[Site, str],
) -> None:
    site, intended = hub
    users = (
        "crypto ikev2 proposal corp\n encryption aes-cbc-256\n integrity sha256\n group 14\n!\n"
        "crypto ikev2 keyring l2tpgenx\n peer hq\n  address 192.0.2.9\n!\n"
        "crypto ipsec transform-set corp-ts esp-aes esp-sha-hmac\n!\n"
        "crypto map CORP 10 ipsec-isakmp\n set peer 192.0.2.9\n!\n"
        "ip access-list extended l2tpgen-mgmt\n permit tcp any any eq 22\n!\n"
        "ip access-list extended CORP-VPN\n permit ip any any\n!\n"
    )
    plan = plan_change(site, intended + users, intended)
    # Nothing of the user's is removed, and the filter needs nothing for the user's IKE peer
    # 192.0.2.9: it judges L2TPv3 only, never ESP or IKE (issue 33).
    assert plan.empty
    plan = plan_change(site, unprotected(intended) + users, intended)
    for name in ("corp", "l2tpgenx", "corp-ts", "CORP", "l2tpgen-mgmt", "CORP-VPN"):
        assert not [line for line in plan.send if re.search(rf"\b{name}(\s|$)", line)], name


@pytest.mark.parametrize(
    ("theirs", "what"),
    [
        (" ip access-group EDGE-IN in\n", "ip access-group EDGE-IN in"),
        (" crypto map CORP\n", "crypto map CORP"),
    ],
)
def test_a_users_access_group_or_crypto_map_on_the_wan_refuses_the_push(
    hub: tuple[Site, str], theirs: str, what: str
) -> None:
    # IOS holds one inbound access group and one crypto map per interface: l2tpgen's would
    # silently replace the user's, so push refuses and says what to do.
    site, intended = hub
    running = unprotected(intended).replace(
        "interface GigabitEthernet0/0/1\n", "interface GigabitEthernet0/0/1\n" + theirs
    )
    with pytest.raises(OwnershipError, match=re.escape(what)):
        plan_change(site, running, intended)


def test_a_crypto_access_list_an_applied_map_names_is_edited_never_deleted(
    hub: tuple[Site, str],
) -> None:
    # Issue 33: `match address l2tpgen-pw-branch` of the applied crypto map names this list; the
    # router's entry (from an older tunnel address, 10.255.0.99) goes only after the new one is in.
    site, intended = hub
    entry = " permit 115 host 10.255.0.1 host 10.255.0.2\n"
    running = intended.replace(entry, " permit 115 host 10.255.0.99 host 10.255.0.2\n")
    assert running != intended
    plan = plan_change(site, running, intended)
    assert plan.send == (
        "ip access-list resequence l2tpgen-pw-branch 20 20",
        "ip access-list extended l2tpgen-pw-branch",
        " 10 permit 115 host 10.255.0.1 host 10.255.0.2",
        " no 20",
        "ip access-list resequence l2tpgen-pw-branch 10 10",
    )
