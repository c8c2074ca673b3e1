"""Site rules at their boundaries: WAN prefix lengths, the WAN on the LAN trunk, safe names."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
import yaml
from builders import pair_dicts
from strategies import site_dict

from l2tpgen import FleetValidationError, load_fleet
from l2tpgen.model import Fleet, Site
from l2tpgen.platforms.ios.render import render_base

if TYPE_CHECKING:
    from pathlib import Path


def _messages(raw: list[dict[str, Any]]) -> list[str]:
    try:
        Fleet.build(Site.model_validate(site) for site in raw)
    except FleetValidationError as exc:
        return [p.message for p in exc.problems]
    return []


@pytest.mark.parametrize(("prefix", "accepted"), [(0, False), (7, False), (8, True), (30, True)])
def test_a_wan_prefix_shorter_than_8_is_refused(prefix: int, accepted: bool) -> None:
    wan = {"interface": "Gi0/1", "address": f"10.1.2.2/{prefix}", "gateway": "10.1.2.1"}
    messages = _messages(pair_dicts(wan=wan))
    refused = [m for m in messages if m.startswith(f"WAN prefix /{prefix} is shorter than /8")]
    assert bool(refused) is not accepted
    assert messages == refused  # nothing else is said about such a subnet


@pytest.mark.parametrize(
    ("wan", "refused"),
    [("Gi0/0.100", True), ("GigabitEthernet0/0.10", True), ("Gi0/0/0", False), ("Gi0/2.7", False)],
)
def test_a_wan_on_a_subinterface_of_the_lan_trunk_is_refused(wan: str, refused: bool) -> None:
    interface = {"interface": wan, "address": "198.51.100.1/29", "gateway": "198.51.100.6"}
    messages = _messages(pair_dicts(wan=interface))
    assert any("is a subinterface of the LAN trunk GigabitEthernet0/0" in m for m in messages) is (
        refused
    )


def _file_messages(directory: Path, **changes: Any) -> list[str]:  # noqa: ANN401 - values
    """Validate the pair as site files, site-0 changed; every message as `validate` says it."""
    for site in pair_dicts(**changes):
        path = directory / f"{site['name']}.yaml"
        path.write_text(yaml.safe_dump(site), encoding="utf-8")
    try:
        load_fleet(directory)
    except FleetValidationError as exc:
        return [f"{p.message} / {p.hint}" for p in exc.problems]
    return []


NAME_RULE = "a name is 1-63 letters, digits, `.`, `_` or `-`, starting with a letter or digit"
WHY = "it reaches router configs, file names, shell commands and lab scripts"


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("hostname", "rtr;reboot", "hostname"),
        ("hostname", "r" * 64, "hostname"),
        ("hostname", "-rtr", "hostname"),
        ("peers", ["$(id)"], "peers[0].name"),
        ("vlans", [{"id": 10, "name": "users|x", "peer": "site-1"}], "vlans[0].name"),
        ("l2tp_class", {"name": "a b", "secret_env": "L2TPGEN_L2TP_SECRET"}, "l2tp_class.name"),
        ("pseudowire_class", {"name": "pw'"}, "pseudowire_class.name"),
    ],
)
def test_names_a_shell_would_interpret_are_refused(
    tmp_path: Path,
    field: str,
    value: object,
    where: str,
) -> None:
    messages = _file_messages(tmp_path, **{field: value})
    assert any(m.startswith(f"{where}: {NAME_RULE} / {WHY}") for m in messages), messages


@pytest.mark.parametrize("host", ["192.0.2.1", "2001:db8::1", "rtr-a.example.net", "rtr_a"])
def test_management_hosts_are_addresses_or_dns_names(host: str) -> None:
    raw = site_dict(0, loopback=False) | {"management": {"host": host}}
    assert Site.model_validate(raw).management.host == host


@pytest.mark.parametrize("host", ["rtr a", "-oProxyCommand=x", "a`b`", "host:22", "a/b"])
def test_management_hosts_a_shell_or_ssh_would_interpret_are_refused(
    tmp_path: Path, host: str
) -> None:
    messages = _file_messages(tmp_path, management={"host": host})
    (message,) = messages
    assert message.startswith(
        "management.host: write an IP address or a DNS name (letters, digits, `.`, `_`, `-`) / "
        f"{WHY}"
    )


@pytest.mark.parametrize("name", ["-eth1", ".", "eth1 up", "a" * 16, "eth1;id"])
def test_linux_interface_names_that_ip_would_misread_are_refused(tmp_path: Path, name: str) -> None:
    (message,) = _file_messages(tmp_path, linux={"wan": name})
    assert message.startswith("linux.wan: a Linux interface name is 1-15 letters, digits")


# Hostnames that differ only in case (issue 17). IOS keeps a hostname's case as typed (the prompt
# and `show running-config` print it so), but a hostname is also the router's DNS label and the
# name syslog, AAA and NMS tools file it under, and DNS compares names case-insensitively (RFC 4343,
# section 3: "rtr-a" and "RTR-A" are one name). Two routers may not share one: the fleet check
# compares hostnames without case and refuses, and the rendered config keeps the case given.
@pytest.mark.parametrize("other", ["RTR-0", "Rtr-0", "rtr-0"])
def test_hostnames_that_differ_only_in_case_are_one_name_and_refused(
    tmp_path: Path, other: str
) -> None:
    a, b = pair_dicts()
    b["hostname"] = other
    messages = _file_messages_of(tmp_path, [a, b])
    first = tmp_path / "site-0.yaml"
    assert messages == [
        f"hostname {other} is also used by site-0 ({first}) / give every router its own hostname"
    ]


def test_hostnames_that_differ_by_more_than_case_are_accepted(tmp_path: Path) -> None:
    a, b = pair_dicts()
    a["hostname"], b["hostname"] = "RTR-0", "rtr-00"
    assert _file_messages_of(tmp_path, [a, b]) == []


def test_the_routers_config_keeps_the_hostnames_case(tmp_path: Path) -> None:
    a, b = pair_dicts()
    a["hostname"] = "Lab-A-Rtr1"
    for site in (a, b):
        (tmp_path / f"{site['name']}.yaml").write_text(yaml.safe_dump(site), encoding="utf-8")
    rendered = render_base(load_fleet(tmp_path), "site-0")
    assert "\nhostname Lab-A-Rtr1\n" in f"\n{rendered}"


def _file_messages_of(directory: Path, sites: list[dict[str, Any]]) -> list[str]:
    for site in sites:
        path = directory / f"{site['name']}.yaml"
        path.write_text(yaml.safe_dump(site), encoding="utf-8")
    try:
        load_fleet(directory)
    except FleetValidationError as exc:
        return [f"{p.message} / {p.hint}" for p in exc.problems]
    return []
