"""A router that stores keys as type 6 converges: a second push sends nothing.

Issue 33 item 7: with `password encryption aes` the router prints `pre-shared-key 6 ...`, and
every push re-sent every keyring key. Cisco, "Encrypted Preshared Key"
(https://www.cisco.com/c/en/us/td/docs/ios-xml/ios/sec_conn_ikevpn/configuration/12-4/
sec-ike-for-ipsec-vpns-12-4-book/sec-encrypt-preshare.html): keys are then stored as type 6,
encrypted with the router's master key, which the running config never shows; l2tpgen cannot
derive that text, so it compares presence, not value (``l2tpgen.device.type6``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import send_plan

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.device.type6 import is_type6, keep_type6
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.ios.render import render_base
from l2tpgen.sim.router import Router

if TYPE_CHECKING:
    from l2tpgen.model import Site

HUB = Path(__file__).resolve().parent.parent / "examples" / "hub"
ENV = {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-sim-only-master-5"}
TYPE6 = re.compile(r"^  pre-shared-key 6 (\S+)$", re.MULTILINE)


@pytest.fixture
def hub() -> tuple[Site, str, str]:
    fleet = load_fleet(HUB)
    intended = render_site(fleet, "hub", reveal_secrets=True, environ=ENV)
    return fleet.site("hub"), render_base(fleet, "hub"), intended


def _aes_router(base: str) -> Router:
    router = Router("dc-pe1")
    assert router.load(base + "password encryption aes\n") == []
    return router


def test_a_router_with_password_encryption_aes_stores_the_keyring_keys_as_type_6(
    hub: tuple[Site, str, str],
) -> None:
    site, base, intended = hub
    router = _aes_router(base)
    assert send_plan(router, plan_change(site, router.running.body(), intended).send) == []
    running = router.running.body()
    key = pair_psk(b"Psk-sim-only-master-5", ("hub", "branch"))
    assert key not in running  # the simulator shows what such a router shows
    assert len(TYPE6.findall(running)) == intended.count("  pre-shared-key ")


def test_a_second_push_to_a_type_6_router_sends_nothing(hub: tuple[Site, str, str]) -> None:
    site, base, intended = hub
    router = _aes_router(base)
    assert send_plan(router, plan_change(site, router.running.body(), intended).send) == []
    again = plan_change(site, router.running.body(), intended)
    assert again.empty, again.send
    assert again.diff("hub") == ""
    assert any("type 6" in note for note in again.notes)  # and says why it trusts the keys
    # ...naming where, never a value (docs/security.md, Type 6 keys)
    ciphertexts = re.findall(r"^  pre-shared-key 6 (\S+)$", router.running.body(), re.MULTILINE)
    assert ciphertexts
    assert not [c for c in ciphertexts if any(c in note for note in again.notes)]


def test_turning_password_encryption_on_after_the_push_still_converges(
    hub: tuple[Site, str, str],
) -> None:
    site, base, intended = hub
    router = Router("dc-pe1")
    router.load(base)
    assert send_plan(router, plan_change(site, router.running.body(), intended).send) == []
    assert not TYPE6.findall(router.running.body())
    assert send_plan(router, ("password encryption aes",)) == []
    assert TYPE6.findall(router.running.body())  # IOS converts the keys already there
    assert plan_change(site, router.running.body(), intended).empty


def test_a_type_6_key_is_never_compared_by_its_text(hub: tuple[Site, str, str]) -> None:
    site, base, intended = hub
    router = _aes_router(base)
    send_plan(router, plan_change(site, router.running.body(), intended).send)
    first = router.running.body()
    # The same key entered again is another ciphertext: still no change.
    rekeyed = _aes_router(base)
    send_plan(rekeyed, plan_change(site, rekeyed.running.body(), intended).send)
    assert TYPE6.findall(first) != TYPE6.findall(rekeyed.running.body())
    assert plan_change(site, rekeyed.running.body(), intended).empty


def test_a_key_in_clear_that_differs_is_still_sent(hub: tuple[Site, str, str]) -> None:
    site, _, intended = hub
    running = re.sub(
        r"^  pre-shared-key \S+$",
        "  pre-shared-key Other-k3y",
        intended,
        count=1,
        flags=re.MULTILINE,
    )
    plan = plan_change(site, running, intended)
    assert [line for line in plan.send if line.startswith("  pre-shared-key ")]
    assert not plan.notes or not any("type 6" in note for note in plan.notes)


@pytest.mark.parametrize(
    ("line", "six"),
    [
        ("  pre-shared-key 6 FLgBaJHXdYY_AVZ", True),
        ("  pre-shared-key local 6 FLgBaJHXdYY_AVZ", True),
        (" pre-shared-key address 192.0.2.1 key 6 FLgBaJHX", True),
        (" key 6 FLgBaJHXdYY", True),
        ("  pre-shared-key 0 Clear-k3y", False),
        (" password 7 0822455D0A16", False),
        ("  pre-shared-key 6", False),  # the key is `6`, typed in clear
        (" description type 6 keys", False),
    ],
)
def test_a_type_6_secret_is_told_by_its_type_number(line: str, six: bool) -> None:
    assert is_type6(line) is six


def test_only_the_secret_in_the_same_place_is_kept() -> None:
    running = (
        "crypto ikev2 keyring l2tpgen\n peer a\n  address 192.0.2.1\n  pre-shared-key 6 AAAA\n"
    )
    intended = (
        "crypto ikev2 keyring l2tpgen\n peer a\n  address 192.0.2.1\n  pre-shared-key k-a\n"
        " peer b\n  address 192.0.2.2\n  pre-shared-key k-b\n"
    )
    text, kept = keep_type6(running, intended)
    assert text == intended.replace("pre-shared-key k-a", "pre-shared-key 6 AAAA")
    assert kept == (("crypto ikev2 keyring l2tpgen", "peer a", "pre-shared-key"),)


def test_an_l2tp_class_secret_the_router_holds_as_type_6_is_kept_too() -> None:
    # Releases that extend type 6 beyond keyrings print `password 6 ...` ([U] for l2tp-class).
    fleet = load_fleet(Path(__file__).resolve().parent.parent / "sites")
    intended = render_site(
        fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": "x1"}
    )
    running = re.sub(
        r"^ password 7 \S+$", " password 6 FAKEaesCiphertext[]^_", intended, flags=re.MULTILINE
    )
    assert running != intended
    plan = plan_change(fleet.site("site-a"), running, intended)
    assert plan.empty, plan.send
    note = (
        "1 secret(s) the router holds as type 6 (`password encryption aes`) kept as they are "
        "(l2tp-class class1 > password): l2tpgen cannot read type 6, so a changed key is not "
        "sent; docs/security.md (Type 6 keys) says how to send one"
    )
    assert plan.notes == (note,)
