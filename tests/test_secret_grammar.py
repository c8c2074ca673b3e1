"""Every secret-bearing IOS command of the one table is masked, row by row, in every output.

The table is ``l2tpgen.ios.secret_commands.SECRET_COMMANDS`` (docs/security.md, "Secrets IOS
prints", lists it with its sources). Issue 25 item 5: `pre-shared-key local KEY`, `remote KEY`
and `hex KEY` were masked on the keyword, not the key, and `ntp authentication-key N md5 KEY` and
HSRP `authentication text` passed through. Item 6: rotating the cookie key sent `no l2tp cookie
local 4 <old value>`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from builders import write_site
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from l2tpgen import load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.device.manual_rollback import Copy, masked_diff
from l2tpgen.device.plan import plan_change
from l2tpgen.device.rollback_copy import rollback_name
from l2tpgen.ios.secret_commands import SECRET_COMMANDS
from l2tpgen.ios.secret_grammar import secret_free_no
from l2tpgen.secrets import mask_secrets

if TYPE_CHECKING:
    from l2tpgen.model import Site

ROOT = Path(__file__).resolve().parent.parent
# One line per row as IOS prints it, and the secrets in it (each unique in this file).
EXAMPLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "pre-shared-key address A [MASK]|hostname H key [0|6] KEY": (
        "  pre-shared-key address 192.0.2.42 key Kr-v1-key",
        ("Kr-v1-key",),
    ),
    "pre-shared-key [local|remote] hex KEY": (
        "  pre-shared-key local hex 6b65792d686578",
        ("6b65792d686578",),
    ),
    "pre-shared-key [local|remote] [0|6] KEY": (
        "  pre-shared-key remote Rkey-remote1",
        ("Rkey-remote1",),
    ),
    "crypto isakmp key [0|6] KEY address|hostname ...": (
        "crypto isakmp key Isa-kmp-k3y address 192.0.2.9",
        ("Isa-kmp-k3y",),
    ),
    "l2tp cookie local|remote 4|8 LOW [HIGH]": (
        "  l2tp cookie local 8 3141592653 2718281828",
        ("3141592653", "2718281828"),
    ),
    "digest secret [0|7] KEY [hash md5|sha]": (
        " digest secret 0 Dig-est-s3c hash sha",
        ("Dig-est-s3c",),
    ),
    "enable secret|password [level N] [0|5|7|8|9] KEY": (
        "enable secret 9 $9$En4bleHashValue",
        ("$9$En4bleHashValue",),
    ),
    "username NAME ... secret|password [0|5|7|8|9] KEY": (
        "username ops privilege 15 secret 9 $9$UserHashValue",
        ("$9$UserHashValue",),
    ),
    "snmp-server community STRING [view V] [ro|rw] [ACL]": (
        "snmp-server community Comm-un1ty RO 10",
        ("Comm-un1ty",),
    ),
    "snmp-server user U G v3 auth md5|sha KEY [priv des|aes N KEY]": (
        "snmp-server user mon grp v3 auth sha Auth-p4ss priv aes 128 Priv-p4ss",
        ("Auth-p4ss", "Priv-p4ss"),
    ),
    "ntp authentication-key N md5 KEY [7]": (
        "ntp authentication-key 1 md5 104D000A0618 7",
        ("104D000A0618",),
    ),
    "standby [N] authentication md5 key-string [0|7] KEY [timeout S]": (
        " standby 1 authentication md5 key-string 7 Hsrp-md5-k timeout 30",
        ("Hsrp-md5-k",),
    ),
    "standby [N] authentication [text] STRING": (
        " standby 2 authentication text Hsrptxt",
        ("Hsrptxt",),
    ),
    "glbp N authentication md5 key-string [0|7] KEY": (
        " glbp 1 authentication md5 key-string 7 Glbp-md5-k",
        ("Glbp-md5-k",),
    ),
    "glbp N authentication text STRING": (" glbp 2 authentication text Glbptxt", ("Glbptxt",)),
    "vrrp N authentication md5 key-string [0|7] KEY": (
        " vrrp 3 authentication md5 key-string Vrrp-md5-k",
        ("Vrrp-md5-k",),
    ),
    "vrrp N authentication [text] STRING": (" vrrp 4 authentication text Vrrptxt", ("Vrrptxt",)),
    "key-string [0|7] KEY": ("  key-string 7 Key-str1ng", ("Key-str1ng",)),
    "ip ospf authentication-key [0|7] KEY": (
        " ip ospf authentication-key Ospf-pl4in",
        ("Ospf-pl4in",),
    ),
    "ip ospf message-digest-key N md5 [0|7] KEY": (
        " ip ospf message-digest-key 1 md5 7 Ospf-md5k",
        ("Ospf-md5k",),
    ),
    "tacacs-server|radius-server ... key [0|6|7] KEY": (
        "tacacs-server host 192.0.2.7 key 7 Tac-acs-k",
        ("Tac-acs-k",),
    ),
    "key [0|6|7] KEY (tacacs server / radius server)": (" key 7 Srv-grp-k", ("Srv-grp-k",)),
    "server-private ADDRESS ... key [0|7] KEY": (
        " server-private 192.0.2.8 timeout 5 key 7 Priv-srv-k",
        ("Priv-srv-k",),
    ),
    "neighbor X password [0|7] KEY": (" neighbor 192.0.2.6 password 7 Bgp-n3igh", ("Bgp-n3igh",)),
    "l2tp tunnel password [0|7] KEY": (" l2tp tunnel password 0 L2tp-tunn3l", ("L2tp-tunn3l",)),
    "ppp chap|pap ... password [0|7] KEY": (" ppp chap password 7 Ppp-ch4p", ("Ppp-ch4p",)),
    "ospfv3|ipv6|area ... authentication|encryption ipsec spi N ... md5|sha1 [0|7] KEY": (
        " ospfv3 encryption ipsec spi 1002 esp aes-cbc 128 0 Ospf3-enc sha1 0 Ospf3-auth",
        ("Ospf3-enc", "Ospf3-auth"),
    ),
    "ip nhrp authentication STRING": (" ip nhrp authentication Nhrp-k", ("Nhrp-k",)),
    "snmp-server host H [vrf V] [informs|traps] [version 1|2c|3 LEVEL] COMMUNITY ...": (
        "snmp-server host 192.0.2.30 informs version 2c Trap-c0mm udp-port 2162",
        ("Trap-c0mm",),
    ),
    "area-password|domain-password [0|7] PASSWORD [authenticate snp ...]": (
        " domain-password Isis-d0m authenticate snp validate",
        ("Isis-d0m",),
    ),
    "isis password PASSWORD [level-1|level-2]": (" isis password Isis-if level-2", ("Isis-if",)),
    "wpa-psk ascii|hex [0|7|8] KEY": (" wpa-psk ascii 0 Wpa-psk-k3y", ("Wpa-psk-k3y",)),
    "client ADDRESS ... server-key [0|6|7] KEY (or server-key alone)": (
        " client 192.0.2.13 server-key 7 Coa-k3y",
        ("Coa-k3y",),
    ),
    "password [0|7] KEY (l2tp-class, line)": (
        " password 0 Tw0-w0rds Words-pw",
        ("Tw0-w0rds", "Words-pw"),
    ),
    "any other `authentication` [KEYWORD ...] WORD": (
        " ip rsvp authentication key Rsvp-k3y",
        ("Rsvp-k3y",),
    ),
    "any other `password|secret|key|key-string|authentication-key|community|passphrase|"
    "server-key|password-encrypt|authentication text|md5` WORD": (
        " dot1x credentials passphrase Wlan-k3y",
        ("Wlan-k3y",),
    ),
}


def test_every_row_of_the_table_has_an_example_here() -> None:
    assert sorted(EXAMPLES) == sorted(row.command for row in SECRET_COMMANDS)


@pytest.mark.parametrize("row", SECRET_COMMANDS, ids=lambda row: row.command)
def test_each_row_masks_its_secret_and_keeps_the_command(row: object) -> None:
    line, secrets = EXAMPLES[row.command]  # type: ignore[attr-defined]
    masked = mask_secrets(line)
    for secret in secrets:
        assert secret not in masked
    assert "<masked>" in masked
    # The words before the secret stay (what changed is visible, the value is not).
    assert masked.startswith(line[: line.index(secrets[0])])
    no_line = re.sub(r"^(\s*)", r"\1no ", line, count=1)
    assert all(secret not in mask_secrets(no_line) for secret in secrets)


@pytest.mark.parametrize(
    ("line", "free"),
    [
        ("  no l2tp cookie local 8 3141592653 2718281828", "  no l2tp cookie local"),
        ("  no l2tp cookie remote 4 12345", "  no l2tp cookie remote"),
        (" no password 7 0822455D0A16", " no password"),
        (" no digest secret 7 0822455D0A16 hash sha", " no digest"),
        ("  no pre-shared-key local Rkey-local1", "  no pre-shared-key local"),
        ("  no pre-shared-key hex 6b6579", "  no pre-shared-key"),
        ("  no pre-shared-key Whole-k3y", "  no pre-shared-key"),
        ("no ntp authentication-key 1 md5 104D000A0618 7", "no ntp authentication-key 1"),
        # IOS's no form needs the value: nothing is sent
        ("no crypto isakmp key Isa-kmp-k3y address 192.0.2.9", None),
        ("no snmp-server community Comm-un1ty RO", None),
        # no secret in it: not this function's business
        (" no xconnect 192.0.2.1 100", None),
        (" password 7 0822455D0A16", None),
    ],
)
def test_a_secret_bearing_no_line_is_rewritten_without_its_value(
    line: str, free: str | None
) -> None:
    assert secret_free_no(line) == free


# -- the outputs: diff and push (the plan's diff, commands and JSON), rollback's diff, lint --

HUB = ROOT / "examples" / "hub"
ENV = {
    "L2TPGEN_L2TP_SECRET": "l2tp-secret-value-1",
    "L2TPGEN_IKE_PSK": "master-key-for-the-hub-fleet-0001",
}


@pytest.fixture(scope="module")
def hub() -> tuple[Site, str]:
    fleet = load_fleet(HUB)
    return fleet.site("hub"), render_site(fleet, "hub", reveal_secrets=True, environ=ENV)


def _keyring_edited_by_hand(intended: str, line: str) -> str:
    """The running config: the first keyring peer's key replaced by ``line`` (by hand)."""
    return re.sub(r"^  pre-shared-key \S+$", line, intended, count=1, flags=re.MULTILINE)


@pytest.mark.parametrize(
    "line",
    [
        "  pre-shared-key local Rkey-local1",
        "  pre-shared-key remote Rkey-remote1",
        "  pre-shared-key hex 6b65792d686578",
        "  pre-shared-key local 0 Rkey-zero1",
        "  pre-shared-key local hex 6b65792d6c6f63",
    ],
)
def test_a_hand_edited_keyring_key_reaches_no_output_of_diff_or_push(
    hub: tuple[Site, str], line: str
) -> None:
    site, intended = hub
    running = _keyring_edited_by_hand(intended, line)
    plan = plan_change(site, running, intended)
    secret = line.rsplit(maxsplit=1)[-1]
    text = plan.diff("hub") + "\n".join(plan.commands)
    as_json = json.dumps({"diff": plan.diff("hub"), "commands": list(plan.commands)})
    assert plan.send  # there is a change to show
    for output in (text, as_json):
        assert secret not in output
    assert not [sent for sent in plan.send if secret in sent]  # and it is never typed


def test_rollbacks_diff_shows_no_key_of_any_row(hub: tuple[Site, str]) -> None:
    _, intended = hub
    copy = Copy(rollback_name("hub", 1.8e9), on_router=True, local=None)
    hand = "\n".join(line for line, _ in EXAMPLES.values())
    diff = masked_diff("hub", intended, copy, intended + hand + "\n")
    assert "+" in diff
    for _, secrets in EXAMPLES.values():
        for secret in secrets:
            assert secret not in diff


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_lint_of_a_config_holding_every_row_shows_no_key(tmp_path: Path, fmt: str) -> None:
    config = tmp_path / "router.conf"
    body = "\n".join(line for line, _ in EXAMPLES.values())
    config.write_text(
        "hostname r1\n!\nl2tp-class c1\n authentication\n password 0 Cleartext-pw1\n!\n"
        + body
        + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["lint", "--config", str(config), "--format", fmt])
    assert "L2T" in result.output  # it did lint (the clear-text class secret is a finding)
    for _, secrets in EXAMPLES.values():
        for secret in secrets:
            assert secret not in result.output
    assert "Cleartext-pw1" not in result.output


def _cookie_pair(directory: Path) -> None:
    for name, peer, wan in (("a", "b", "198.51.100.1"), ("b", "a", "203.0.113.1")):
        write_site(
            directory,
            name,
            peer,
            wan,
            protection="protection: {mode: cookie}\n",
            l2tp=", authentication: digest, secret_env: L2TPGEN_L2TP_SECRET",
        )


def test_rotating_the_cookie_key_never_types_an_old_cookie_or_secret(tmp_path: Path) -> None:
    _cookie_pair(tmp_path)
    fleet = load_fleet(tmp_path)
    old_env = {"L2TPGEN_COOKIE_KEY": "old-cookie-key-0123456789", "L2TPGEN_L2TP_SECRET": "old-s3c"}
    new_env = {"L2TPGEN_COOKIE_KEY": "new-cookie-key-0123456789", "L2TPGEN_L2TP_SECRET": "new-s3c"}
    running = render_site(fleet, "a", reveal_secrets=True, environ=old_env)
    intended = render_site(fleet, "a", reveal_secrets=True, environ=new_env)
    old_values = re.findall(r"l2tp cookie (?:local|remote) 8 (\d+) (\d+)", running)
    old_values += [re.search(r"digest secret 7 (\S+)", running).group(1)]  # type: ignore[union-attr]
    flat = [
        value for pair in old_values for value in (pair if isinstance(pair, tuple) else (pair,))
    ]
    plan = plan_change(fleet.site("a"), running, intended)
    # IOS replaces a single-instance command set again: the new values are re-entered...
    assert [line for line in plan.send if "l2tp cookie" in line] == [
        line for line in intended.splitlines() if "l2tp cookie" in line
    ]
    # ...and no `no` line names an old value.
    for value in flat:
        assert not [line for line in plan.send if value in line], value
    assert not [line for line in plan.send if line.strip().startswith("no ")]


def test_a_cookie_removed_for_good_is_removed_without_its_value(tmp_path: Path) -> None:
    _cookie_pair(tmp_path)
    fleet = load_fleet(tmp_path)
    env = {"L2TPGEN_COOKIE_KEY": "a-cookie-key-0123456789", "L2TPGEN_L2TP_SECRET": "s3c"}
    running = render_site(fleet, "a", reveal_secrets=True, environ=env)
    values = re.findall(r"l2tp cookie (?:local|remote) 8 (\d+) (\d+)", running)
    # The intended config without the cookies (made by hand: the mechanism, not a model case).
    intended = "".join(
        line for line in running.splitlines(keepends=True) if "l2tp cookie" not in line
    )
    plan = plan_change(fleet.site("a"), running, intended)
    assert [line for line in plan.send if "l2tp cookie" in line] == [
        "  no l2tp cookie local",
        "  no l2tp cookie remote",
    ]
    for pair in values:
        for value in pair:
            assert not [line for line in plan.send if value in line]


@pytest.mark.parametrize(
    "line",
    [
        "% Invalid input detected at '^' marker: pre-shared-key local Rkey-local1",
        "refused `  l2tp cookie local 8 3141592653 2718281828`",
        "error near: ntp authentication-key 1 md5 104D000A0618 7",
    ],
)
def test_a_secret_bearing_command_quoted_inside_a_line_is_masked(line: str) -> None:
    masked = mask_secrets(line)
    for secret in ("Rkey-local1", "3141592653", "2718281828", "104D000A0618"):
        assert secret not in masked
    assert "<masked>" in masked


# The catch-all's keywords as the table's last row lists them, and words that are no keyword.
_CATCH_ALL = (
    "password", "secret", "key", "key-string", "authentication-key", "community", "passphrase",
    "server-key", "password-encrypt", "authentication text", "md5",
)  # fmt: skip
_NEUTRAL = ("ip", "ftp", "set", "server", "tunnel", "vpdn", "group", "x25", "mgmt", "web", "ppp")
_SECRET = st.from_regex(r"[A-Za-z][A-Za-z0-9_.!#%+=@-]{5,15}", fullmatch=True).filter(
    lambda word: word.lower() not in {*_CATCH_ALL, "level", "ascii", "hex", "chain", "text"}
)


@given(
    indent=st.sampled_from(["", " ", "  "]),
    no=st.booleans(),
    before=st.lists(st.sampled_from(_NEUTRAL), max_size=3),
    keyword=st.sampled_from(_CATCH_ALL),
    kind=st.sampled_from(["", "0 ", "5 ", "7 ", "8 ", "9 "]),
    secret=_SECRET,
    after=st.lists(st.sampled_from(_NEUTRAL), max_size=2),
)
def test_the_catch_all_never_misses_the_word_after_its_keyword_and_type_number(
    *,
    indent: str,
    no: bool,
    before: list[str],
    keyword: str,
    kind: str,
    secret: str,
    after: list[str],
) -> None:
    # docs/security.md, the table's last row: any command no row covers, written `... KEYWORD
    # [TYPE] WORD ...`, has WORD masked, whatever words come before and after.
    words = [*before, keyword, f"{kind}{secret}", *after]
    line = indent + ("no " if no else "") + " ".join(words)
    masked = mask_secrets(line)
    assert secret not in masked, (line, masked)
    assert "<masked>" in masked
