"""A colleague's objects named like l2tpgen's survive a push, over real SSH (issue 33 item 3).

The protected hub (``examples/hub``) is pushed; then a colleague, in their own SSH session,
merges a partner VPN into l2tpgen's crypto map by hand (IOS applies one crypto map per
interface) as entry 90, with a keyring and a profile ``l2tpgen-partner`` (Cisco's IKEv2 and
crypto-map forms: "Appendix: IKEv2 and Legacy VPNs",
https://www.cisco.com/en/US/docs/ios-xml/ios/sec_conn_ike2vpn/configuration/15-2mt/sec-apx-ikev2-legacy.html).
The next push and diff used to delete all three, exit 0, no note. Now they are refused by name,
exit 1 (``push --help``: "Exit 1: nothing changed (input, access, ownership, ...)"), before
configuration mode: the router is left exactly as the colleague left it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from push_runs import cli, push, section

if TYPE_CHECKING:
    from collections.abc import Callable

    from conftest_sim import Lab

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
PARTNER_KEY = "Partner-key-of-a-colleague-9"
COLLEAGUE = [
    "crypto ipsec transform-set CORP-TS esp-aes esp-sha-hmac",
    "crypto ikev2 keyring l2tpgen-partner",
    "peer partner",
    "address 203.0.113.90",
    f"pre-shared-key {PARTNER_KEY}",
    "exit",
    "exit",
    "crypto ikev2 profile l2tpgen-partner",
    "match identity remote address 203.0.113.90 255.255.255.255",
    "authentication remote pre-share",
    "authentication local pre-share",
    "keyring local l2tpgen-partner",
    "exit",
    "crypto map l2tpgen 90 ipsec-isakmp",
    "set peer 203.0.113.90",
    "set transform-set CORP-TS",
    "set ikev2-profile l2tpgen-partner",
    "match address CORP-ACL",
    "exit",
]
THEIRS = (
    "crypto map l2tpgen 90 ipsec-isakmp",
    "crypto ikev2 keyring l2tpgen-partner",
    "crypto ikev2 profile l2tpgen-partner",
)


def _changes_after(lab: Lab, name: str, start: int) -> list[tuple[str, str]]:
    """What was typed on the router from event ``start`` on: configuration lines and
    ``configure`` commands (push's reads aside)."""
    events = lab.device(name).router.events[start:]
    return [
        (kind, text)
        for kind, text in events
        if (kind == "config" and not text.startswith("do show"))
        or (kind == "exec" and text.startswith("conf"))
    ]


def test_a_colleagues_crypto_map_entry_and_partner_keyring_and_profile_survive_a_push(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB)
    code, results = push(lab, "hub", "branch", sites=HUB)
    assert code == 0, results
    colleague = lab.connect("hub")
    try:
        colleague.send_config_set(COLLEAGUE)
    finally:
        colleague.disconnect()
    before = lab.running("hub")
    for header in THEIRS:
        assert section(before, header), header  # the simulator took the colleague's lines
    start = len(lab.device("hub").router.events)

    result = cli(lab, "push", "hub", "--yes", "--format", "json", sites=HUB)
    assert result.exit_code == 1, result.output
    (pushed,) = json.loads(result.stdout)["results"]
    assert pushed["status"] == "refused", pushed
    message = pushed["message"]
    assert message.startswith("not pushed: the router holds 3 object(s) named like l2tpgen's")
    for header in THEIRS:
        assert f"`{header}`" in message, header
    assert "rename each out of l2tpgen's namespace" in message
    assert "merge it into the site model" in message
    assert PARTNER_KEY not in result.stdout + result.stderr
    # before configuration mode: nothing typed, the router exactly as the colleague left it
    assert _changes_after(lab, "hub", start) == []
    assert lab.running("hub") == before

    diff = cli(lab, "diff", "hub", "--format", "json", sites=HUB)
    assert diff.exit_code == 1, diff.output
    (shown,) = json.loads(diff.stdout)["results"]
    assert shown["status"] == "refused"
    assert "`crypto map l2tpgen 90 ipsec-isakmp`" in shown["message"]
    assert lab.running("hub") == before


def test_once_renamed_out_of_the_namespace_the_colleagues_vpn_is_left_alone(
    new_lab: Callable[..., Lab],
) -> None:
    lab = new_lab(sites=HUB)
    assert push(lab, "hub", "branch", sites=HUB)[0] == 0
    colleague = lab.connect("hub")
    renamed = [line.replace("l2tpgen-partner", "partner") for line in COLLEAGUE[:13]]
    try:
        colleague.send_config_set(renamed)
    finally:
        colleague.disconnect()
    code, results = push(lab, "hub", sites=HUB)
    (pushed,) = results
    assert code == 0, pushed
    assert pushed["status"] in {"unchanged", "changed"}, pushed  # the filter may admit the peer
    running = lab.running("hub")
    assert section(running, "crypto ikev2 keyring partner")
    assert section(running, "crypto ikev2 profile partner")
