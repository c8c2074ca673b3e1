"""Protection in the model: safe defaults from the path, both ends agree, no secret in a file.

The expectations are worked out by hand from the rules in the brief (issue 18): a path is
untrusted when an address at either end is public; the documentation ranges stand for public
addresses; RFC 1918 / RFC 6598 / loopback / link-local / ULA do not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from ipaddress import ip_address
from typing import TYPE_CHECKING

import pytest
from builders import fleet_problems, write_site
from typer.testing import CliRunner

from l2tpgen import load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.errors import ModelError, SecretError
from l2tpgen.model.protection import keyed_cookie, reveal_cookies
from l2tpgen.public import is_public

if TYPE_CHECKING:
    from pathlib import Path

KEY = "cookie-key-0123456789"  # a master key: at least 16 characters
runner = CliRunner()


def _write(
    directory: Path,
    name: str,
    peer: str,
    wan: str,
    *,
    wan_extra: str = "",
    protection: str = "",
    peer_entry: str | None = None,
    pw: str = "",
) -> None:
    """builders.write_site with two VLANs (web, app) and the class's signaling left to its
    default unless ``pw`` says."""
    write_site(
        directory,
        name,
        peer,
        wan,
        wan_extra=wan_extra,
        protection=protection,
        peer_entry=peer_entry,
        pw=pw,
        vlans="100 web, 101 app",
    )


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("198.51.100.1", True),  # TEST-NET-2: stands for a public address in examples
        ("203.0.113.9", True),
        ("192.0.2.1", True),
        ("8.8.8.8", True),
        ("2001:db8::1", True),
        ("10.1.2.3", False),
        ("172.31.255.1", False),
        ("172.32.0.1", True),  # just past 172.16.0.0/12
        ("192.168.1.1", False),
        ("100.64.0.1", False),  # RFC 6598 shared address space
        ("100.128.0.1", True),  # just past 100.64.0.0/10
        ("127.0.0.1", False),
        ("169.254.1.1", False),
        ("fd00::1", False),
        ("fe80::1", False),
    ],
)
def test_documentation_ranges_count_as_public_and_private_ranges_do_not(
    address: str, public: bool
) -> None:
    assert is_public(ip_address(address)) is public


def test_pythons_is_private_would_call_documentation_addresses_private() -> None:
    # Why is_public does not use ipaddress.is_private: the examples' addresses would pass.
    assert ip_address("198.51.100.1").is_private
    assert is_public(ip_address("198.51.100.1"))


def test_a_private_fleet_stays_unprotected_by_default() -> None:
    fleet = load_fleet("sites")
    pw = fleet.pseudowires("site-a")[0]
    assert pw.protection.mode == "none"
    assert not pw.protection.stated
    assert "trusted path" in pw.protection.reason


def test_a_fleet_on_public_addresses_gets_ipsec_by_default_and_says_why() -> None:
    fleet = load_fleet("examples/hub")
    hub, branch = fleet.site("hub"), fleet.site("branch")
    ours, theirs = hub.protection_for(branch), branch.protection_for(hub)
    assert (ours.mode, ours.transform, ours.ipsec_mode, ours.nat_t) == (
        "ipsec",
        "aes-gcm-128",
        "transport",
        False,
    )
    assert ours == theirs  # both ends derive the same default
    # branch sorts first: its WAN address 198.51.100.9 is the first public address found
    assert ours.reason == "untrusted path: 198.51.100.9 (branch's WAN address) is public"
    assert ours.describe() == (
        "IPsec IKEv2 transport aes-gcm-128 (default; untrusted path: 198.51.100.9 "
        "(branch's WAN address) is public)"
    )


def test_a_public_loopback_behind_a_private_wan_makes_the_path_untrusted(tmp_path: Path) -> None:
    _write(tmp_path, "a", "b", "10.0.0.1")
    _write(tmp_path, "b", "a", "10.0.1.1")
    text = (tmp_path / "b.yaml").read_text()
    text = text.replace("lan:", "  loopback: {interface: Loopback0, address: 203.0.113.7/32}\nlan:")
    (tmp_path / "b.yaml").write_text(text)
    fleet = load_fleet(tmp_path)
    protection = fleet.site("a").protection_for(fleet.site("b"))
    assert protection.mode == "ipsec"
    assert protection.reason == "untrusted path: 203.0.113.7 (b's tunnel address) is public"


def test_wan_trusted_at_both_ends_makes_a_public_path_unprotected_by_default(
    tmp_path: Path,
) -> None:
    trusted = "  trusted: true\n"
    _write(tmp_path, "a", "b", "198.51.100.1", wan_extra=trusted)
    _write(tmp_path, "b", "a", "203.0.113.1", wan_extra=trusted)
    fleet = load_fleet(tmp_path)
    protection = fleet.site("a").protection_for(fleet.site("b"))
    assert (protection.mode, protection.trusted) == ("none", True)
    assert protection.reason == "trusted path: both ends state wan.trusted: true"


def test_wan_trusted_at_one_end_only_does_not_lower_the_protection(tmp_path: Path) -> None:
    _write(tmp_path, "a", "b", "198.51.100.1", wan_extra="  trusted: true\n")
    _write(tmp_path, "b", "a", "203.0.113.1")
    fleet = load_fleet(tmp_path)
    assert fleet.site("a").protection_for(fleet.site("b")).mode == "ipsec"
    assert fleet.site("b").protection_for(fleet.site("a")).mode == "ipsec"


def test_wan_trusted_false_protects_a_private_path(tmp_path: Path) -> None:
    _write(tmp_path, "a", "b", "10.0.0.1", wan_extra="  trusted: false\n")
    _write(tmp_path, "b", "a", "10.0.1.1")
    fleet = load_fleet(tmp_path)
    protection = fleet.site("b").protection_for(fleet.site("a"))
    assert protection.mode == "ipsec"
    assert protection.reason == "untrusted path: a states wan.trusted: false"


def test_ends_that_disagree_on_the_transform_are_refused_at_file_line_column(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "a", "b", "198.51.100.1", protection="protection: {transform: aes-gcm-256}\n")
    _write(tmp_path, "b", "a", "203.0.113.1")
    # protection: is line 11 of a.yaml; the value of transform starts at column 25 (13 + 11 + 1)
    assert fleet_problems(tmp_path) == [
        (
            f"{tmp_path / 'a.yaml'}:11:25: protection is ipsec (transport aes-gcm-256) here but "
            f"ipsec (transport aes-gcm-128) in {tmp_path / 'b.yaml'} (pseudowires between a and b) "
            "| both ends of a pseudowire must be protected the same way: state the same protection "
            "at both ends (or the same wan.trusted, when the mode is derived)"
        )
    ]


def test_a_peer_entry_that_disagrees_on_the_mode_is_refused_where_it_says_so(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "a", "b", "198.51.100.1", pw=", signaling: static")
    _write(
        tmp_path,
        "b",
        "a",
        "203.0.113.1",
        pw=", signaling: static",
        peer_entry="{name: a, protection: {mode: cookie}}",
    )
    problems = fleet_problems(tmp_path)
    # a sorts first and reports the pair at its peers[0] entry (line 12, column 5)
    assert problems == [
        (
            f"{tmp_path / 'a.yaml'}:12:5: protection is ipsec (transport aes-gcm-128) here but "
            "cookie "
            f"in {tmp_path / 'b.yaml'} (pseudowires between a and b) | both ends of a pseudowire "
            "must be protected the same way: state the same protection at both ends (or the same "
            "wan.trusted, when the mode is derived)"
        )
    ]


def test_mode_none_on_a_public_path_is_refused_with_the_way_out(tmp_path: Path) -> None:
    none = "protection: {mode: none}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", protection=none)
    _write(tmp_path, "b", "a", "203.0.113.1", protection=none)
    problems = fleet_problems(tmp_path)
    assert len(problems) == 2  # each file has to change
    assert problems[0].startswith(
        f"{tmp_path / 'a.yaml'}:11:20: the pseudowires to b cross an untrusted path with no "
        "protection (198.51.100.1 (a's WAN address) is public)"
    )
    assert "`wan: {trusted: true}` at both ends" in problems[0]


def test_mode_none_on_a_path_stated_trusted_is_accepted(tmp_path: Path) -> None:
    extra, none = "  trusted: true\n", "protection: {mode: none}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", wan_extra=extra, protection=none)
    _write(tmp_path, "b", "a", "203.0.113.1", wan_extra=extra, protection=none)
    assert fleet_problems(tmp_path) == []


def test_cookies_on_dynamic_sessions_without_a_cookie_size_are_refused(tmp_path: Path) -> None:
    cookie = "protection: {mode: cookie}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", protection=cookie)
    _write(tmp_path, "b", "a", "203.0.113.1", protection=cookie)
    problems = fleet_problems(tmp_path)
    assert len(problems) == 2
    assert "are dynamic and no cookie size is set" in problems[0]


@pytest.mark.parametrize(
    ("entry", "hint_names"),
    [
        ("protection: {psk: hunter2-literal}\n", "psk_env"),
        ("protection: {pre_shared_key: hunter2-literal}\n", "psk_env"),
        ("protection: {cookie_key: hunter2-literal}\n", "cookie_key_env"),
    ],
)
def test_a_literal_psk_or_cookie_key_in_a_site_file_is_refused_without_echoing_it(
    tmp_path: Path, entry: str, hint_names: str
) -> None:
    _write(tmp_path, "a", "b", "198.51.100.1", protection=entry)
    _write(tmp_path, "b", "a", "203.0.113.1")
    problems = fleet_problems(tmp_path)
    assert len(problems) == 1
    assert ": secrets must not be written in site files" in problems[0]
    assert hint_names in problems[0]
    assert "hunter2" not in problems[0]


def test_a_psk_written_where_its_variable_name_goes_is_refused_without_echoing_it(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "a", "b", "198.51.100.1", protection="protection: {psk_env: 'hunter2 x!'}\n")
    _write(tmp_path, "b", "a", "203.0.113.1")
    problems = fleet_problems(tmp_path)
    assert len(problems) == 1
    assert "psk_env must be the name of an environment variable" in problems[0]
    assert "hunter2" not in problems[0]


def _static_cookie_pair(tmp_path: Path) -> None:
    cookie = "protection: {mode: cookie}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", protection=cookie, pw=", signaling: static")
    _write(tmp_path, "b", "a", "203.0.113.1", protection=cookie, pw=", signaling: static")


def test_keyed_cookies_are_hmac_sha256_of_the_key_and_the_pseudowire(tmp_path: Path) -> None:
    _static_cookie_pair(tmp_path)
    fleet = load_fleet(tmp_path)
    pw_a = fleet.pseudowires("a")[0]
    assert (pw_a.cookie_size, pw_a.keyed_cookies) == (8, True)
    env = {"L2TPGEN_COOKIE_KEY": KEY}
    local, remote = pw_a.cookies(env)
    # By hand: HMAC-SHA256(key, "l2tpgen-cookie/v1/a/b/100/a"), first 8 bytes, two words.
    digest = hmac.new(KEY.encode(), b"l2tpgen-cookie/v1/a/b/100/a", hashlib.sha256).digest()
    assert local == (int.from_bytes(digest[:4], "big"), int.from_bytes(digest[4:8], "big"))
    assert remote != local  # each direction has its own cookie


def test_both_ends_derive_mirrored_cookies_and_another_key_gives_other_values(
    tmp_path: Path,
) -> None:
    _static_cookie_pair(tmp_path)
    fleet = load_fleet(tmp_path)
    pw_a, pw_b = fleet.pseudowires("a")[0], fleet.pseudowires("b")[0]
    env = {"L2TPGEN_COOKIE_KEY": KEY}
    a_local, a_remote = pw_a.cookies(env)
    b_local, b_remote = pw_b.cookies(env)
    assert (a_local, a_remote) == (b_remote, b_local)
    assert pw_a.cookies({"L2TPGEN_COOKIE_KEY": "another-cookie-key-0123"})[0] != a_local


def test_keyed_cookies_without_the_key_stop_with_the_variable_name_only(tmp_path: Path) -> None:
    _static_cookie_pair(tmp_path)
    pw_a = load_fleet(tmp_path).pseudowires("a")[0]
    with pytest.raises(SecretError, match="L2TPGEN_COOKIE_KEY is not set"):
        pw_a.cookies({})
    with pytest.raises(ModelError, match="keyed"):
        _ = pw_a.cookie_local  # the public legacy values never stand in for keyed ones


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("short-key", "shorter than 16 characters"),
        ("c" * 129, "longer than 128 characters"),
        ("two words cookie key", "a space"),
        ("why-a-question?-mark-key", "`?` or a quote"),
    ],
)
def test_a_cookie_key_outside_the_master_key_rules_is_refused_naming_the_variable_only(
    tmp_path: Path, value: str, why: str
) -> None:
    # docs/security.md, master keys: `cookie_key_env`'s variable obeys the same rules as
    # `psk_env`'s, and the refusal names the variable, never the value.
    _static_cookie_pair(tmp_path)
    args = ["render", "a", "--sites", str(tmp_path), "--reveal-secrets"]
    refused = runner.invoke(app, args, env={"L2TPGEN_COOKIE_KEY": value})
    assert refused.exit_code == 1
    assert "environment variable L2TPGEN_COOKIE_KEY" in refused.output
    assert why in refused.output
    assert value not in refused.output
    accepted = runner.invoke(app, args, env={"L2TPGEN_COOKIE_KEY": KEY})
    assert accepted.exit_code == 0, accepted.output


def test_an_unprotected_static_pair_keeps_the_public_crc32_cookies_without_any_key(
    tmp_path: Path,
) -> None:
    # docs/security.md: unprotected pseudowires keep the public CRC-32 cookies. Worked out by
    # hand: each end expects CRC-32 of "l2tpgen:<receiving site>:<VC ID>:0" (4 bytes): a
    # (zlib.crc32(b"l2tpgen:a:100:0")) = 3380322395, b = 4170431174.
    write_site(tmp_path, "a", "b", "10.0.0.1")  # private addresses: a trusted path
    write_site(tmp_path, "b", "a", "10.0.1.1")
    configs = {}
    for site in ("a", "b"):
        result = runner.invoke(app, ["render", site, "--sites", str(tmp_path)], env={})
        assert result.exit_code == 0, result.output  # no cookie key needed: nothing secret
        configs[site] = result.output
    assert "  l2tp cookie local 4 3380322395\n  l2tp cookie remote 4 4170431174\n" in configs["a"]
    assert "  l2tp cookie local 4 4170431174\n  l2tp cookie remote 4 3380322395\n" in configs["b"]
    assert "<L2TPGEN_COOKIE_KEY" not in configs["a"] + configs["b"]


def test_a_cookie_placeholder_reveals_to_the_derived_value(tmp_path: Path) -> None:
    _static_cookie_pair(tmp_path)
    pw_a = load_fleet(tmp_path).pseudowires("a")[0]
    local, _ = pw_a.cookie_placeholders()
    assert local == "<L2TPGEN_COOKIE_KEY/cookie/a/b/100/a/8>"
    env = {"L2TPGEN_COOKIE_KEY": KEY}
    words = keyed_cookie(KEY.encode(), ("b", "a"), 100, "a", 8)
    assert reveal_cookies(f"l2tp cookie local 8 {local}", env) == (
        f"l2tp cookie local 8 {words[0]} {words[1]}"
    )


def test_validate_says_what_each_pair_of_the_hub_fleet_gets_and_why() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["validate", "--sites", "examples/hub"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1:] == [
        (
            "branch <-> hub: 6 pseudowires, IPsec IKEv2 transport aes-gcm-128 (default; "
            "untrusted path: 198.51.100.9 (branch's WAN address) is public)"
        ),
        # branch is classic IOS (no platform: the default): esp-gcm there is [U]
        (
            "  note: [U] esp-gcm on classic IOS (branch) is unconfirmed; if the image refuses "
            "it, set `protection: {transform: aes-cbc-128-sha256}` at both ends"
        ),
        (
            "hub <-> linux-edge: 3 pseudowires, IPsec IKEv2 transport aes-gcm-128 (default; "
            "untrusted path: 198.51.100.1 (hub's WAN address) is public)"
        ),
    ]
    report = json.loads(
        runner.invoke(app, ["validate", "--sites", "examples/hub", "--format", "json"]).stdout
    )
    assert [(p["sites"], p["protection"], p["transform"]) for p in report["pairs"]] == [
        (["branch", "hub"], "ipsec", "aes-gcm-128"),
        (["hub", "linux-edge"], "ipsec", "aes-gcm-128"),
    ]


def test_cookies_on_dynamic_sessions_need_a_cookie_size_at_both_ends(tmp_path: Path) -> None:
    # `cookie size` in the l2tp-class is [U] (shared/docs/l2tpv3-brief.md: existence and default
    # unconfirmed), so it is an option: without it mode cookie is refused on dynamic sessions.
    cookie = "protection: {mode: cookie}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", protection=cookie)
    _write(tmp_path, "b", "a", "203.0.113.1", protection=cookie)
    for name in ("a", "b"):
        path = tmp_path / f"{name}.yaml"
        path.write_text(
            path.read_text().replace(
                "authentication: none}", "authentication: none, cookie_size: 8}"
            )
        )
    fleet = load_fleet(tmp_path)
    pw = fleet.pseudowires("a")[0]
    assert (pw.cookie_size, pw.keyed_cookies) == (8, False)  # each router picks the values
    # the budget counts the 8 bytes: 1500 - 20 - 4 - 8 - 14 - 4 (tag) = 1450
    assert pw.budget.max_inner_mtu == 1450
    config = render_site(fleet, "a")
    assert "l2tp-class dc\n cookie size 8\n" in config


def test_a_cookie_size_at_one_end_only_does_not_make_mode_cookie_valid(tmp_path: Path) -> None:
    cookie = "protection: {mode: cookie}\n"
    _write(tmp_path, "a", "b", "198.51.100.1", protection=cookie)
    _write(tmp_path, "b", "a", "203.0.113.1", protection=cookie)
    path = tmp_path / "a.yaml"
    path.write_text(
        path.read_text().replace("authentication: none}", "authentication: none, cookie_size: 8}")
    )
    problems = fleet_problems(tmp_path)
    assert len(problems) == 2
    assert all("no cookie size is set" in p for p in problems)
