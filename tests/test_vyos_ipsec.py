"""VyOS IPsec (issue 19, item 5): l2tpgen's ``set vpn ipsec ...``, VyOS's own swanctl from it.

Expectations are worked out by hand from VyOS's documentation and vyos-1x, never from l2tpgen:

- the commands, VyOS 1.4 (sagitta) and later:
  https://docs.vyos.io/en/sagitta/configuration/vpn/site2site_ipsec.html (``site-to-site peer``
  with ``authentication mode pre-shared-secret``, ``local-id``, ``remote-id``, ``ike-group``,
  ``default-esp-group``, ``local-address``, ``remote-address``, ``tunnel N protocol``; the key in
  ``vpn ipsec authentication psk NAME id ... secret ...``; ``esp-group ... mode transport``;
  ``ike-group ... key-exchange ikev2``) and their definition, vyos/vyos-1x
  ``interface-definitions/vpn_ipsec.xml.in`` (names of ciphers in
  ``include/vpn-ipsec-encryption.xml.i``: AES-GCM with a 16-byte ICV is ``aes128gcm128``);
- what VyOS makes of them: vyos-1x ``src/conf_mode/vpn_ipsec.py`` reads ``vpn ipsec`` with
  ``get_config_dict(key_mangling=('-', '_'), no_tag_node_value_mangle=True, get_first_key=True)``
  and merges the XML's defaults (``_vyos_config``), then renders ``ipsec/swanctl.conf.j2``, which
  is vendored here with its filters (tests/vendor/vyos-1x/SOURCE.md: repository, commit, licence).

The proof that counts is the lab test at the end: VyOS's swanctl.conf, rendered by VyOS's own
templates from l2tpgen's commands, negotiates in the lab VM with the swanctl.conf l2tpgen renders
for the Linux peer (strongSwan on both PEs, the real kernel's ESP and L2TPv3).
"""

from __future__ import annotations

import importlib.util
import json
import re
import secrets
import shlex
from typing import TYPE_CHECKING, Any

import jinja2
import pytest
from builders import vyos_ipsec_fleet
from conftest import ROOT
from conftest_lab import requires_protection, requires_vm
from typer.testing import CliRunner

from l2tpgen import load_fleet
from l2tpgen.cli import app
from l2tpgen.errors import RenderError, SecretError
from l2tpgen.lab.engines.vm import run_vm
from l2tpgen.lab.inputs import parse_lab
from l2tpgen.lab.topology import build_topology, protection_files
from l2tpgen.model.keys import pair_psk
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from pathlib import Path

VENDOR = ROOT / "tests" / "vendor" / "vyos-1x"
runner = CliRunner()
A, B = "10.197.251.215", "10.216.44.47"  # the two tunnel (WAN) addresses of the example


def _ipsec_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("set vpn ipsec ")]


def _expected(secret: str) -> list[str]:
    """site-b's IPsec towards site-a, by hand: aes-gcm-128 is IKE AES-GCM-16 with PRF SHA-256 and
    ECP group 19, ESP AES-GCM-16 (l2tpgen's model, docs/security.md), in VyOS's names."""
    ike, esp, psk = "ike-group l2tpgen-site-a", "esp-group l2tpgen-site-a", "psk l2tpgen-site-a"
    peer = "site-to-site peer l2tpgen-site-a"
    return [
        f"set vpn ipsec {line}"
        for line in (
            f"{ike} key-exchange 'ikev2'",
            f"{ike} disable-mobike",
            f"{ike} proposal 1 encryption 'aes128gcm128'",
            f"{ike} proposal 1 hash 'sha256'",
            f"{ike} proposal 1 dh-group '19'",
            f"{esp} mode 'transport'",
            f"{esp} pfs 'disable'",
            f"{esp} proposal 1 encryption 'aes128gcm128'",
            f"{esp} proposal 1 hash 'sha256'",
            f"authentication {psk} id '{B}'",
            f"authentication {psk} id '{A}'",
            f"authentication {psk} secret {secret}",
            f"{peer} authentication mode 'pre-shared-secret'",
            f"{peer} authentication local-id '{B}'",
            f"{peer} authentication remote-id '{A}'",
            f"{peer} connection-type 'respond'",
            f"{peer} ike-group 'l2tpgen-site-a'",
            f"{peer} default-esp-group 'l2tpgen-site-a'",
            f"{peer} local-address '{B}'",
            f"{peer} remote-address '{A}'",
            f"{peer} tunnel 1 protocol '115'",
        )
    ]


def test_a_vyos_pe_renders_ikev2_transport_esp_for_protocol_115_with_the_key_masked(
    tmp_path: Path,
) -> None:
    result = runner.invoke(app, ["render", "site-b", "--sites", str(vyos_ipsec_fleet(tmp_path))])
    assert result.exit_code == 0, result.output
    assert _ipsec_lines(result.stdout) == _expected(
        "<L2TPGEN_IKE_PSK/psk/site-a/site-b>"
    )  # unquoted
    # The sessions are still there, at the ESP budget: 1500 - 20 IP - 8 ESP header - 8 IV - 16
    # ICV - 2 trailer (1446 + 2 a multiple of 4) - 4 session - 4 sublayer - 14 Ethernet = 1424.
    assert "set interfaces l2tpv3 l2tpeth2996 mtu '1424'" in result.stdout


def test_reveal_secrets_writes_the_key_from_its_variable_as_hex_and_nowhere_else(
    tmp_path: Path,
) -> None:
    env = {"L2TPGEN_IKE_PSK": "s3cret-master-key-01"}
    args = ["render", "site-b", "--sites", str(vyos_ipsec_fleet(tmp_path)), "--reveal-secrets"]
    result = runner.invoke(app, args, env=env)
    assert result.exit_code == 0, result.output
    # The pair's key in UTF-8 as hex (swanctl reads 0x... as those bytes).
    key = pair_psk(b"s3cret-master-key-01", ("site-a", "site-b")).encode().hex()
    assert _ipsec_lines(result.stdout) == _expected(f"'0x{key}'")
    assert "s3cret" not in result.output


def test_reveal_secrets_without_the_variable_names_it_and_shows_no_traceback(
    tmp_path: Path,
) -> None:
    args = ["render", "site-b", "--sites", str(vyos_ipsec_fleet(tmp_path)), "--reveal-secrets"]
    result = runner.invoke(app, args, env={"L2TPGEN_IKE_PSK": ""})
    assert result.exit_code == 1
    assert "environment variable L2TPGEN_IKE_PSK is not set or is empty" in result.stderr
    assert "Traceback" not in result.output
    with pytest.raises(SecretError, match="L2TPGEN_IKE_PSK"):
        render_files(load_fleet(vyos_ipsec_fleet(tmp_path / "lib")), "site-b", reveal_secrets=True,
                     environ={})  # fmt: skip


def test_nat_t_forces_udp_encapsulation_on_the_vyos_peer(tmp_path: Path) -> None:
    nat = ("ipsec_mode: transport}", "ipsec_mode: transport, nat_t: true}")
    sites = vyos_ipsec_fleet(tmp_path, ("site-a", *nat), ("site-b", *nat))
    text = render_files(load_fleet(sites), "site-b")[""]
    peer = "set vpn ipsec site-to-site peer l2tpgen-site-a"
    assert f"{peer} force-udp-encapsulation" in _ipsec_lines(text)


def test_tunnel_mode_is_refused_for_vyos_naming_the_fix(tmp_path: Path) -> None:
    tunnel = ("ipsec_mode: transport}", "ipsec_mode: tunnel}")
    sites = vyos_ipsec_fleet(tmp_path, ("site-a", *tunnel), ("site-b", *tunnel))
    with pytest.raises(RenderError, match="transport mode only; set `ipsec_mode: transport`"):
        render_files(load_fleet(sites), "site-b")


# What vpn_ipsec.xml.in defaults (its <defaultValue>s, for the nodes l2tpgen's commands create):
# vpn_ipsec.py merges them into the config dict (dead-peer-detection's only when it is set).
DEFAULTS: dict[str, dict[str, str]] = {
    "esp_group": {"lifetime": "3600", "mode": "tunnel", "pfs": "enable"},
    "ike_group": {"close_action": "none", "lifetime": "28800", "mode": "main"},
    "peer": {"replay_window": "32"},
}
TAG_NODES = {"ike-group", "esp-group", "psk", "peer", "proposal", "tunnel"}
MULTI = {"id", "remote-address"}  # <multi/> leaves: a list
VALUELESS = {"disable-mobike", "force-udp-encapsulation"}  # <valueless/> leaves: {}


def _vyos_config(commands: list[str]) -> dict[str, Any]:
    """``vpn ipsec`` as vpn_ipsec.py's get_config builds it from ``set`` commands.

    Keys are mangled (``-`` to ``_``), a tag node's value is not; a leaf's value is a string, a
    multi leaf's a list, a valueless leaf's ``{}``; defaults are merged under what is set.
    """
    config: dict[str, Any] = {}
    for command in commands:
        words = shlex.split(command)[3:]  # after `set vpn ipsec`
        node, index = config, 0
        while True:
            word, rest = words[index], words[index + 1 :]
            key = word.replace("-", "_")
            if word in TAG_NODES and len(rest) > 1:  # `peer X ike-group Y`: a leaf there
                node = node.setdefault(key, {}).setdefault(rest[0], {})
                index += 2
            elif word in VALUELESS and not rest:
                node[key] = {}
                break
            elif len(rest) == 1:  # a leaf and its value
                if word in MULTI:
                    node.setdefault(key, []).append(rest[0])
                else:
                    node[key] = rest[0]
                break
            else:
                node = node.setdefault(key, {})
                index += 1
    for group in ("esp_group", "ike_group"):
        for name, values in config.get(group, {}).items():
            config[group][name] = {**DEFAULTS[group], **values}
    for name, values in config.get("site_to_site", {}).get("peer", {}).items():
        config["site_to_site"]["peer"][name] = {**DEFAULTS["peer"], **values}
    config["dhcp_no_address"] = {}  # vpn_ipsec.py: no peer waits for a DHCP address
    return config


def _vyos_swanctl(commands: list[str]) -> str:
    """VyOS's swanctl.conf: vyos-1x's template and filters on the config dict, as vyos.template
    sets up Jinja (trim_blocks, ChainableUndefined, loopcontrols)."""
    spec = importlib.util.spec_from_file_location("vyos1x_filters", VENDOR / "filters.py")
    assert spec is not None
    assert spec.loader is not None
    filters = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(filters)
    env = jinja2.Environment(  # noqa: S701 - swanctl.conf, not HTML
        loader=jinja2.FileSystemLoader(VENDOR / "templates"),
        trim_blocks=True,
        undefined=jinja2.ChainableUndefined,
        extensions=["jinja2.ext.loopcontrols"],
    )
    env.filters.update(filters.FILTERS)
    env.tests.update(filters.TESTS)
    return env.get_template("ipsec/swanctl.conf.j2").render(**_vyos_config(commands))


# VyOS's swanctl.conf for site-b, worked out by hand from swanctl/peer.j2 and swanctl.conf.j2:
# proposals from get_esp_ike_cipher (`encryption-hash-dhgroup`; ESP with `pfs disable` has no
# group), version 2 from `ikev2`, `# dhcp:no` after local_addrs, mobike no (disable-mobike),
# keyingtries 1 and start_action trap (connection-type respond), the child named
# PEER-tunnel-1 with transport traffic selectors `local-address[protocol/]`, the defaults'
# lifetimes, close_action and replay_window; the secret section keyed `ike-PSKNAME`, each id
# under a random `id-UUID`, the secret in double quotes.
SWANCTL = """connections {
    l2tpgen-site-a {
        proposals = aes128gcm128-sha256-ecp256
        version = 2
        local_addrs = {b} # dhcp:no
        remote_addrs = {a}
        rekey_time = 28800s
        mobike = no
        keyingtries = 1
        local {
            id = "{b}"
            auth = psk
        }
        remote {
            id = "{a}"
            auth = psk
        }
        children {
            l2tpgen-site-a-tunnel-1 {
                esp_proposals = aes128gcm128-sha256
                life_time = 3600s
                local_ts = {b}[115/]
                remote_ts = {a}[115/]
                ipcomp = no
                mode = transport
                start_action = trap
                close_action = none
                replay_window = 32
            }
        }
    }
}
pools {
}
secrets {
    ike-l2tpgen-site-a {
        # ID's from auth psk <tag> id xxx
        id-UUID = "{b}"
        id-UUID = "{a}"
        secret = "{secret}"
    }
}
"""
_UUID = re.compile(r"id-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12} ")


def _normal(text: str) -> str:
    """Without the header comment and blank lines; random ids as ``id-UUID``."""
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("###")]
    return _UUID.sub("id-UUID ", "\n".join(lines) + "\n")


def test_vyos_own_templates_turn_the_commands_into_the_swanctl_worked_out_by_hand(
    tmp_path: Path,
) -> None:
    text = render_files(load_fleet(vyos_ipsec_fleet(tmp_path)), "site-b")[""]
    rendered = _vyos_swanctl(_ipsec_lines(text))
    expected = SWANCTL.replace("{a}", A).replace("{b}", B)
    assert _normal(rendered) == expected.replace("{secret}", "<L2TPGEN_IKE_PSK/psk/site-a/site-b>")


def test_the_linux_peer_and_vyos_offer_the_same_ike_and_esp_algorithms(tmp_path: Path) -> None:
    """By strongSwan's names (proposal keywords): aes128gcm128 is aes128gcm16, and in an AEAD
    proposal strongSwan takes sha256 as the PRF in IKE and drops it in ESP. The lab test shows
    strongSwan agreeing; this pins the two files' strings."""
    fleet = load_fleet(vyos_ipsec_fleet(tmp_path))
    linux = render_files(fleet, "site-a")["swanctl.conf"]
    assert "proposals = aes128gcm16-prfsha256-ecp256" in linux
    assert "esp_proposals = aes128gcm16" in linux
    assert f"local_ts = {A}/32[115]" in linux
    assert "mode = transport" in linux


def _lab_files(
    sites: Path, psk: str, vyos: str = "site-b"
) -> tuple[dict[str, Any], dict[str, str]]:
    """The lab of the pair, VyOS's PE with the swanctl.conf VyOS makes of l2tpgen's commands.

    Both ends revealed with one throwaway key (never a user's). The lab runs the VyOS PE's own
    set commands (no inbound xfrm policy: l2tpgen renders no inbound filter for VyOS); any
    `ip xfrm` line is taken out all the same.
    """
    linux_end = "site-a" if vyos == "site-b" else "site-b"
    fleet = load_fleet(sites)
    environ = {"L2TPGEN_IKE_PSK": psk}
    vyos_text = render_files(fleet, vyos, reveal_secrets=True, environ=environ)[""]
    linux = render_files(fleet, linux_end, reveal_secrets=True, environ=environ)
    files = protection_files(fleet)
    assert sorted(files) == ["pe-site-a.swanctl.conf", "pe-site-b.swanctl.conf"]
    # vyos-1x writes the template's text as Jinja returns it, without a final newline: the lab
    # (start_charon's here-document) must take it as it is.
    files = {
        f"pe-{linux_end}.swanctl.conf": linux["swanctl.conf"],
        f"pe-{vyos}.swanctl.conf": _vyos_swanctl(_ipsec_lines(vyos_text)),
    }
    topology = build_topology(fleet, name="vyos-ipsec")
    pe = topology["topology"]["nodes"][f"pe-{vyos}"]
    pe["exec"] = [c for c in pe["exec"] if not c.startswith("ip xfrm ")]
    return topology, files


def test_the_lab_gives_the_vyos_pe_vyos_own_swanctl_with_the_key_in_hex(tmp_path: Path) -> None:
    topology, files = _lab_files(vyos_ipsec_fleet(tmp_path), "0123abcd" * 2)
    vyos = files["pe-site-b.swanctl.conf"]
    key = pair_psk(b"0123abcd" * 2, ("site-a", "site-b")).encode().hex()  # the pair's, in UTF-8
    assert f'secret = "0x{key}"' in vyos
    assert f"secret = 0x{key}" in files["pe-site-a.swanctl.conf"]
    assert "l2tpgen-site-a-tunnel-1 {" in vyos
    lab = parse_lab(topology, "vyos-ipsec", files)
    assert not [c for c in lab.node("pe-site-b").exec if c.startswith("ip xfrm")]
    assert [c for c in lab.node("pe-site-a").exec if c.startswith("ip xfrm")]  # Linux's


@pytest.mark.lab
@requires_vm
@requires_protection
@pytest.mark.parametrize("vyos", ["site-b", "site-a"], ids=["vyos-responds", "vyos-initiates"])
def test_vyos_swanctl_from_l2tpgen_commands_negotiates_with_the_linux_peer_on_the_real_kernel(
    tmp_path: Path, vyos: str
) -> None:
    """strongSwan on both PEs: the Linux end's swanctl.conf as l2tpgen renders it, the VyOS end's
    as vyos-1x's templates render l2tpgen's `set vpn ipsec` commands. The lab initiates from
    site-a's PE (the near end): the Linux PE, or the VyOS PE (its proposals are then the offer).

    IKEv2 is established and a transport-mode ESP SA for protocol 115 installed on both; frames
    cross (reach, isolation, multicast, MTU at the ESP budget) and only as ESP (capture: no clear
    L2TPv3 and no payload on the WAN); a captured ESP packet sent again is not delivered (ESP's
    replay window: XfrmInStateSeqError).

    Every check passes or says what does not apply (issue 27): the forger (pwprobe) sends the
    L2-specific sublayer these sessions carry, so its forgeries reach the far CE before
    protection (the control, 5/5 each); a VyOS far end has no inbound filter, so the forgeries
    from the attacker's own address are reported N/A, not failed; a clear packet replayed on a
    session that numbers its packets (`sequencing: transmit` on the Linux end, and then on the
    VyOS end too: the kernel starts sending them once it receives them) is dropped by the
    kernel's sequence check, so that control is reported N/A too.
    """
    topology, files = _lab_files(vyos_ipsec_fleet(tmp_path, vyos=vyos), secrets.token_hex(16), vyos)
    report = run_vm(parse_lab(topology, "vyos-ipsec", files))
    results = {(r.check, r.vlan): r for r in report.results}
    failed = sorted({check for (check, _), r in results.items() if not r.ok})
    details = json.dumps({f"{c} {v}": r.detail for (c, v), r in results.items()}, indent=1)
    assert report.setup_errors == (), details
    assert failed == [], details
    ike = results["ike", 2996].detail
    assert ike.count("ESTABLISHED (IKEv2, AES_GCM_16-128/PRF_HMAC_SHA2_256/ECP_256") == 2, ike
    assert ike.count("INSTALLED TRANSPORT ESP:AES_GCM_16-128") == 2, ike
    capture = results["capture", 2996].detail
    assert f"0 clear L2TPv3 packets between {A} and {B}, 0 payload" in capture
    esp = re.search(r"(\d+) ESP packets", capture)
    assert esp is not None
    assert int(esp.group(1)) > 0, capture
    replay = results["replay", 2996].detail
    assert re.search(
        r"ESP packet sent again 3 times: 0 delivered .*XfrmInStateSeqError \+3", replay
    )
    injection = results["injection", 2996].detail
    assert "control before protection: 5/5 and 5/5" in injection
    assert "(spoofed): 0/5" in injection
    # The Linux end sends sequence numbers, and the VyOS end then does too (l2tp_core.c).
    assert "N/A as a control: the session numbers its packets" in replay
    if vyos == "site-b":  # the far end is VyOS: no inbound filter, the own-address half is N/A
        assert "N/A, pe-site-b has no inbound filter" in injection
    else:  # the far end is the Linux PE with its catch-all: judged, 0 delivered
        assert re.search(r"own address \S+: 0/5 reached", injection), injection
    # 1500 - 20 IP - 8 ESP - 8 IV - 16 ICV - 2 trailer - 4 session - 4 sublayer - 14 Ethernet
    # = 1424; the lab's CEs are Linux to Linux, and the model counts no tag here.
    assert all(
        results["mtu", vlan].detail.startswith("predicted 1424: 1424 crosses unfragmented")
        for vlan in (2996, 2997, 2998, 2999)
    ), details


def test_validate_says_a_vyos_ipsec_end_does_not_fail_closed(tmp_path: Path) -> None:
    # l2tpgen renders no xfrm blocks for VyOS (issue 25): with IPsec allowed there (the path is
    # private, the inbound filter off), validate says what stays open and what to do.
    result = runner.invoke(app, ["validate", "--sites", str(vyos_ipsec_fleet(tmp_path))])
    assert result.exit_code == 0, result.output
    note = " ".join(result.output.split())
    assert (
        "note: site-b (VyOS) does not fail closed: l2tpgen renders no xfrm block for it, so while "
        "its IKE daemon is down (a restart, a crash, a boot before the IPsec configuration loads) "
        "its L2TPv3 leaves and is accepted in clear; block IP protocol 115 that is not ESP on its "
        "WAN yourself, both ways"
    ) in note
    assert "site-a (" not in note  # the Linux end renders its blocks
