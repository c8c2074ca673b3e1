"""Linux rendering of pseudowire protection: strongSwan's swanctl.conf, keyed cookies on
``ip l2tp add session``, and the catch-all inbound xfrm policy.

Expectations are worked out by hand from the example site files and from outside references:
swanctl.conf(5) (https://docs.strongswan.org/docs/latest/swanctl/swanctlConf.html: ``version``,
``local_addrs``/``remote_addrs``, ``proposals``, ``children.<child>.mode``, ``local_ts`` with a
protocol in brackets, ``esp_proposals``, ``secrets.ike<suffix>.secret`` with a ``0x`` hex form);
ip-l2tp(8) (``cookie`` / ``peer_cookie``) and the kernel's l2tp_core.c (the transmit path copies
``session->cookie``, the receive path compares with ``session->peer_cookie``); ip-xfrm(8)
(``dir in|out action block priority``). The fail-closed order of the script is tested over
every example in ``test_render_linux_failclosed.py``. The lab (test_lab_security.py) runs this
configuration with strongSwan 5.9.8 on the real kernel.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING

import pytest
from builders import HUB, cookie_fleet
from conftest import SITES

from l2tpgen import load_fleet
from l2tpgen.errors import RenderError, SecretError
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path


def test_a_public_path_gets_an_ikev2_transport_connection_on_protocol_115() -> None:
    files = render_files(load_fleet(HUB), "linux-edge", platform="linux")
    conf = files["swanctl.conf"]
    # linux-edge's loopback 10.255.0.3, the hub's 10.255.0.1: the tunnel addresses
    for line in (
        "  l2tpgen-hub {",
        "    version = 2",
        "    local_addrs = 10.255.0.3",
        "    remote_addrs = 10.255.0.1",
        "    proposals = aes128gcm16-prfsha256-ecp256",
        "      auth = psk",
        "        mode = transport",
        "        local_ts = 10.255.0.3/32[115]",
        "        remote_ts = 10.255.0.1/32[115]",
        "        esp_proposals = aes128gcm16",
        "    secret = <L2TPGEN_IKE_PSK/psk/hub/linux-edge>",
    ):
        assert f"\n{line}\n" in conf, line
    commands = [c for c in files["iproute2.sh"].splitlines() if c.startswith("ip xfrm")]
    assert commands[:4] == [
        f"ip xfrm policy update src {anywhere} dst {anywhere} proto 115 dir {direction} "
        "action block priority 2000000"
        for direction in ("in", "out")  # the inbound blocks first (issue 33), then outbound
        for anywhere in ("0.0.0.0/0", "::/0")
    ]
    assert not [c for c in commands[4:] if c.startswith("ip xfrm")]  # the hub is IPsec: no allow
    assert "(needs esp4 and xfrm_user)" in files["iproute2.sh"]  # IPv4: esp4 (IPv6: test_ipv6.py)


def test_both_ends_render_mirrored_connections() -> None:
    fleet = load_fleet(HUB)
    hub = render_files(fleet, "hub", platform="linux")["swanctl.conf"]
    assert "  l2tpgen-linux-edge {\n" in hub
    assert "        local_ts = 10.255.0.1/32[115]\n        remote_ts = 10.255.0.3/32[115]\n" in hub


def test_the_psk_is_revealed_hex_encoded_from_the_environment_only() -> None:
    fleet = load_fleet(HUB)
    environ = {"L2TPGEN_IKE_PSK": "s3cr3t-master-key-01", "L2TPGEN_L2TP_SECRET": "x"}
    files = render_files(
        fleet, "linux-edge", platform="linux", reveal_secrets=True, environ=environ
    )
    # The pair's key (as the hub's IOS keyring holds it), as swanctl reads any bytes: 0x + hex.
    key = pair_psk(b"s3cr3t-master-key-01", ("hub", "linux-edge"))
    assert f"    secret = 0x{key.encode().hex()}\n" in files["swanctl.conf"]
    assert "s3cr3t" not in files["swanctl.conf"]
    with pytest.raises(SecretError, match="L2TPGEN_IKE_PSK is not set") as caught:
        render_files(fleet, "linux-edge", platform="linux", reveal_secrets=True, environ={})
    assert "s3cr3t" not in str(caught.value)


def test_an_unprotected_fleet_renders_one_script_without_xfrm_or_strongswan() -> None:
    files = render_files(load_fleet(SITES), "site-a", platform="linux")
    assert list(files) == [""]
    assert "xfrm" not in files[""]


def _keyed(key: bytes, vc: int, receiver: str) -> str:
    """By hand: HMAC-SHA256 over the pair (sorted), the VC and the receiver, first 8 bytes."""
    message = f"l2tpgen-cookie/v1/hub/linux-edge/{vc}/{receiver}".encode()
    return hmac.new(key, message, hashlib.sha256).digest()[:8].hex()


def test_keyed_cookies_are_masked_and_revealed_as_the_peer_expects_them(tmp_path: Path) -> None:
    fleet = load_fleet(cookie_fleet(tmp_path))
    masked = render_files(fleet, "linux-edge", platform="linux")[""]
    # Linux sends `cookie` (what the hub expects), checks `peer_cookie` (what it expects itself)
    assert (
        "session_id 200 peer_session_id 200 l2spec_type none "
        "cookie <L2TPGEN_COOKIE_KEY/cookie/hub/linux-edge/200/hub/8> "
        "peer_cookie <L2TPGEN_COOKIE_KEY/cookie/hub/linux-edge/200/linux-edge/8> || "
    ) in masked
    environ = {
        "L2TPGEN_COOKIE_KEY": "lab-cookie-key-0001",
        "L2TPGEN_IKE_PSK": "psk-master-key-0001",
    }  # the hub's branch: IPsec
    revealed = render_files(
        fleet, "linux-edge", platform="linux", reveal_secrets=True, environ=environ
    )[""]
    sent, expected = (
        _keyed(b"lab-cookie-key-0001", 200, "hub"),
        _keyed(b"lab-cookie-key-0001", 200, "linux-edge"),
    )
    assert f" cookie {sent} peer_cookie {expected} || " in revealed
    hub_files = render_files(fleet, "hub", platform="linux", reveal_secrets=True, environ=environ)
    hub = hub_files["iproute2.sh"]
    assert f" cookie {expected} peer_cookie {sent} || " in hub  # the mirror
    assert "lab-key" not in revealed + hub


def test_peers_left_in_clear_are_allowed_above_the_catch_all(tmp_path: Path) -> None:
    # Cookies only towards linux-edge: its L2TPv3 arrives in clear and must still be admitted
    # from its own address; the branch's path stays IPsec (charon's policy); the rest blocked.
    fleet = load_fleet(cookie_fleet(tmp_path))
    files = render_files(fleet, "hub", platform="linux")
    policies = [c for c in files["iproute2.sh"].splitlines() if c.startswith("ip xfrm")]
    assert policies[4:] == [
        (
            "ip xfrm policy update src 10.255.0.1/32 dst 10.255.0.3/32 proto 115 dir out "
            "priority 1999999"
        ),
        (
            "ip xfrm policy update src 10.255.0.3/32 dst 10.255.0.1/32 proto 115 dir in "
            "priority 1999999"
        ),
    ]
    assert all(" action block priority 2000000" in p for p in policies[:4])
    assert "l2tpgen-branch {" in files["swanctl.conf"]
    assert "linux-edge" not in files["swanctl.conf"]


def test_networkd_refuses_keyed_cookies_too(tmp_path: Path) -> None:
    fleet = load_fleet(cookie_fleet(tmp_path))
    with pytest.raises(RenderError, match="networkd cannot configure the inbound filter"):
        render_files(fleet, "linux-edge", "networkd")


def test_render_writes_the_commands_and_swanctl_conf_into_a_directory(tmp_path: Path) -> None:
    from typer.testing import CliRunner  # noqa: PLC0415 - the one CLI test here

    from l2tpgen.cli import app  # noqa: PLC0415

    out = tmp_path / "edge"
    args = ["render", "linux-edge", "--sites", str(HUB), "-o", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["iproute2.sh", "swanctl.conf"]
    assert "secret = <L2TPGEN_IKE_PSK/psk/hub/linux-edge>" in (out / "swanctl.conf").read_text()
    revealed = tmp_path / "revealed"
    environ = {"L2TPGEN_IKE_PSK": "k" * 16, "L2TPGEN_L2TP_SECRET": "s"}
    args = ["render", "linux-edge", "--sites", str(HUB), "--reveal-secrets", "-o", str(revealed)]
    result = CliRunner().invoke(app, args, env=environ)
    assert result.exit_code == 0, result.output
    key = pair_psk(b"k" * 16, ("hub", "linux-edge")).encode().hex()
    assert f"secret = 0x{key}\n" in (revealed / "swanctl.conf").read_text()
    assert (revealed / "swanctl.conf").stat().st_mode & 0o777 == 0o600
