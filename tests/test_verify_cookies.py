"""verify compares the cookie a router shows with the model's (issue 25, item 8: word order [U]).

The cookie lines are read off a real capture: Cisco's "Layer 2 Tunnel Protocol Version 3" guide
(IOS 12.0(29)S and 12.2(25)S, p. 136: `local cookie, size 4 bytes, value CF DC 5B F3`), stored in
``tests/realworld/show`` (SOURCES.md there). Whether IOS prints an 8-byte cookie, and sends it,
with the `l2tp cookie local 8 LOW HIGH` low word first is unconfirmed: the sessions below are
written by hand in the guide's layout, one per case (as l2tpgen assumes, words swapped, another
cookie), and verify must name the case without printing any value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from conftest import TESTS
from support import XCONNECT_HEADER, ShowRouter

from l2tpgen import load_fleet
from l2tpgen.device.cookies import MISMATCH, WORDS_SWAPPED, compare, shown_cookies
from l2tpgen.device.verify import verify_site

if TYPE_CHECKING:
    from pathlib import Path

    from l2tpgen.model import Fleet

GUIDE = (
    TESTS / "realworld" / "show" / "cisco-ios-12-0-29s-guide-show-l2tun-session-all-fragment.txt"
)


def test_the_guides_capture_gives_both_cookies_as_the_bytes_it_prints() -> None:
    found = shown_cookies(GUIDE.read_text(encoding="utf-8"))
    assert found == {"local": bytes.fromhex("CFDC5BF3"), "remote": bytes.fromhex("FE3356C4")}


@pytest.mark.parametrize(
    ("shown", "verdict"),
    [
        ("0000000A 0000000B", ""),
        ("0000000B 0000000A", WORDS_SWAPPED),
        ("0000000A 0000000C", MISMATCH),
    ],
    ids=["low-word-first-as-l2tpgen-assumes", "high-word-first", "another-cookie"],
)
def test_an_eight_byte_cookie_is_compared_word_by_word(shown: str, verdict: str) -> None:
    assert compare(bytes.fromhex(shown.replace(" ", "")), (10, 11)) == verdict


def test_a_four_byte_cookie_is_only_equal_or_not() -> None:
    assert compare(bytes.fromhex("0000000A"), (10,)) == ""
    assert compare(bytes.fromhex("0A000000"), (10,)) == MISMATCH


_SITE = """name: {name}
hostname: {name}-rtr
management: {{host: 192.0.2.{n}, device_type: cisco_ios}}
wan: {{interface: GigabitEthernet0/1, address: 10.0.0.{n}/24, gateway: 10.0.0.254}}
lan: {{interface: GigabitEthernet0/0}}
l2tp_class: {{name: class1, authentication: none}}
pseudowire_class: {{name: ethernet, signaling: static, cookie: 8}}
peers: [{peer}]
vlans:
  - {{id: 300, name: servers, peer: {peer}, vc_id: 300}}
"""


@pytest.fixture
def fleet(tmp_path: Path) -> Fleet:
    (tmp_path / "site-a.yaml").write_text(_SITE.format(name="site-a", n=1, peer="site-b"))
    (tmp_path / "site-b.yaml").write_text(_SITE.format(name="site-b", n=2, peer="site-a"))
    return load_fleet(tmp_path)


def _session(local: bytes) -> str:
    """One session block in the layout of the guide's capture (Session id ... to the cookies)."""
    value = " ".join(f"{b:02X}" for b in local)
    return (
        "Session id 4001 is up, tunnel id 0\n"
        "Remote session id is 300, remote tunnel id 0\n"
        "Remote tunnel name is site-b-rtr\n"
        "  Internet address is 10.0.0.2\n"
        "  Session is manually signaled\n"
        "  Session state is established, time since change 00:01:00\n"
        "  Session cookie information:\n"
        f"    local cookie, size 8 bytes, value {value}\n"
        "    remote cookie, size 8 bytes, value 00 00 00 01 00 00 00 02\n"
        "  Session vcid is 300\n"
        "  Session Layer 2 circuit, type is Ethernet Vlan, name is Gi0/0.300:300\n"
        "  Circuit state is UP\n"
    )


@pytest.mark.parametrize("swapped", [False, True], ids=["as-rendered", "words-swapped"])
def test_verify_names_a_router_cookie_whose_words_are_swapped_without_its_value(
    fleet: Fleet, swapped: bool
) -> None:
    (pw,) = fleet.pseudowires("site-a")
    low, high = pw.cookies()[0]
    local = (high, low) if swapped else (low, high)
    shown = b"".join(w.to_bytes(4, "big") for w in local)
    row = "UP pri   ac Gi0/0.300:300(Eth VLAN)      UP l2tp 10.0.0.2:300             UP\n"
    router = ShowRouter(
        {"show xconnect all": XCONNECT_HEADER + row, "show l2tun session all": _session(shown)}
    )
    (state,) = verify_site(fleet, "site-a", router)
    assert state.state == "UP"
    assert state.detail == (WORDS_SWAPPED if swapped else "")
    for word in (low, high):
        assert str(word) not in state.detail
        assert f"{word:08x}" not in state.detail.lower()


def test_keyed_cookies_are_compared_only_when_their_key_is_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/security.md, cookie word order: keyed cookies are compared only when their key is in
    # the environment; without it verify leaves the cookie out, neither guessing nor failing.
    for name, n, peer in (("site-a", 1, "site-b"), ("site-b", 2, "site-a")):
        text = _SITE.format(name=name, n=n, peer=peer).replace("10.0.0.", "198.51.100.")
        (tmp_path / f"{name}.yaml").write_text(text + "protection: {mode: cookie}\n")
    fleet = load_fleet(tmp_path)
    (pw,) = fleet.pseudowires("site-a")
    assert pw.keyed_cookies
    monkeypatch.setenv("L2TPGEN_COOKIE_KEY", "verify-cookie-key-0001")
    low, high = pw.cookies()[0]
    row = "UP pri   ac Gi0/0.300:300(Eth VLAN)      UP l2tp 198.51.100.2:300         UP\n"

    def verified(local: tuple[int, int]) -> str:
        shown = b"".join(w.to_bytes(4, "big") for w in local)
        session = _session(shown).replace("10.0.0.2", "198.51.100.2")
        router = ShowRouter(
            {"show xconnect all": XCONNECT_HEADER + row, "show l2tun session all": session}
        )
        (state,) = verify_site(fleet, "site-a", router)
        assert state.state == "UP"
        return state.detail

    assert verified((low, high)) == ""
    assert verified((high, low)) == WORDS_SWAPPED
    assert verified((low, high ^ 1)) == MISMATCH
    monkeypatch.delenv("L2TPGEN_COOKIE_KEY")
    assert verified((high, low)) == ""  # no key: not compared, nothing claimed
