"""Site rules at their boundaries: WAN prefix lengths, the WAN on the LAN trunk, safe names."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from strategies import site_dict

from l2tpgen import FleetValidationError
from l2tpgen.model import Fleet, Site


def _pair(**changes: Any) -> list[dict[str, Any]]:  # noqa: ANN401 - site-file values
    a, b = site_dict(0, loopback=False), site_dict(1, loopback=False)
    a["peers"], b["peers"] = ["site-1"], ["site-0"]
    a["vlans"] = [{"id": 10, "name": "users", "peer": "site-1"}]
    b["vlans"] = [{"id": 10, "name": "users", "peer": "site-0"}]
    for key, value in changes.items():
        a[key] = value
    return [a, b]


def _messages(raw: list[dict[str, Any]]) -> list[str]:
    try:
        Fleet.build(Site.model_validate(site) for site in raw)
    except FleetValidationError as exc:
        return [p.message for p in exc.problems]
    return []


@pytest.mark.parametrize(("prefix", "accepted"), [(0, False), (7, False), (8, True), (30, True)])
def test_a_wan_prefix_shorter_than_8_is_refused(prefix: int, accepted: bool) -> None:
    wan = {"interface": "Gi0/1", "address": f"10.1.2.2/{prefix}", "gateway": "10.1.2.1"}
    messages = _messages(_pair(wan=wan))
    refused = [m for m in messages if m.startswith(f"WAN prefix /{prefix} is shorter than /8")]
    assert bool(refused) is not accepted
    assert messages == refused  # nothing else is said about such a subnet


@pytest.mark.parametrize(
    ("wan", "refused"),
    [("Gi0/0.100", True), ("GigabitEthernet0/0.10", True), ("Gi0/0/0", False), ("Gi0/2.7", False)],
)
def test_a_wan_on_a_subinterface_of_the_lan_trunk_is_refused(wan: str, refused: bool) -> None:
    interface = {"interface": wan, "address": "198.51.100.1/29", "gateway": "198.51.100.6"}
    messages = _messages(_pair(wan=interface))
    assert any("is a subinterface of the LAN trunk GigabitEthernet0/0" in m for m in messages) is (
        refused
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "site a"),
        ("name", "-site"),
        ("hostname", "rtr;reboot"),
        ("hostname", "r" * 64),
        ("hostname", "rtr\nreboot"),
        ("peers", ["$(id)"]),
    ],
)
def test_names_a_shell_would_interpret_are_refused(field: str, value: object) -> None:
    raw = site_dict(0, loopback=False) | {field: value}
    with pytest.raises(ValidationError, match="a name is 1-63 letters, digits"):
        Site.model_validate(raw)


@pytest.mark.parametrize("host", ["192.0.2.1", "2001:db8::1", "rtr-a.example.net", "rtr_a"])
def test_management_hosts_are_addresses_or_dns_names(host: str) -> None:
    raw = site_dict(0, loopback=False) | {"management": {"host": host}}
    assert Site.model_validate(raw).management.host == host


@pytest.mark.parametrize("host", ["rtr a", "-oProxyCommand=x", "a`b`", "host:22", "a/b"])
def test_management_hosts_a_shell_or_ssh_would_interpret_are_refused(host: str) -> None:
    raw = site_dict(0, loopback=False) | {"management": {"host": host}}
    with pytest.raises(ValidationError, match="write an IP address or a DNS name"):
        Site.model_validate(raw)


@pytest.mark.parametrize("name", ["-eth1", ".", "eth1 up", "a" * 16, "eth1;id"])
def test_linux_interface_names_that_ip_would_misread_are_refused(name: str) -> None:
    raw = site_dict(0, loopback=False) | {"linux": {"wan": name}}
    with pytest.raises(ValidationError, match="a Linux interface name is 1-15"):
        Site.model_validate(raw)
