"""Site files name only variables of l2tpgen's secret namespace (issue 25 item 4).

`psk_env: L2TPGEN_PASSWORD` validated before, and push wrote the operator's SSH password into
the router's keyring. Every field that names a variable is refused at its line and column when
the name is outside the namespace, and the message never holds the name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
import yaml
from builders import EXAMPLES, fleet_problems, write_site

from l2tpgen.model.secret_names import COOKIE_KEY_ENV, L2TP_SECRET_ENV, PSK_ENV, in_namespace

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize(
    "name",
    [
        "L2TPGEN_PASSWORD",
        "L2TPGEN_ENABLE_SECRET",
        "L2TPGEN_USERNAME",
        "L2TPGEN_NETBOX_TOKEN",
        "HOME",
        "AWS_SECRET_ACCESS_KEY",
        "l2tpgen_ike_psk",  # lower case: another variable on a case-sensitive system
        "L2TPGEN_IKE_PSKX",  # a prefix needs its `_`
        "L2TPGEN_SECRET_",  # nothing after the prefix
        "L2TPGEN_SECRET",
    ],
)
def test_variables_outside_the_namespace_are_not_nameable(name: str) -> None:
    assert not in_namespace(name)


@pytest.mark.parametrize(
    "name",
    [
        "L2TPGEN_L2TP_SECRET",
        "L2TPGEN_IKE_PSK",
        "L2TPGEN_COOKIE_KEY",
        "L2TPGEN_IKE_PSK_AMS",
        "L2TPGEN_L2TP_SECRET_2",
        "L2TPGEN_SECRET_BACKBONE",
    ],
)
def test_the_defaults_their_suffixes_and_the_secret_prefix_are_nameable(name: str) -> None:
    assert in_namespace(name)


@pytest.mark.parametrize(
    ("site_a", "field", "line", "column"),
    [
        # The check: psk_env: L2TPGEN_PASSWORD refused at file:line.
        ({"protection": "protection: {psk_env: L2TPGEN_PASSWORD}\n"}, "protection.psk_env", 11, 23),
        (
            {"protection": "protection: {mode: cookie, cookie_key_env: L2TPGEN_ENABLE_SECRET}\n"},
            "protection.cookie_key_env",
            11,
            44,
        ),
        (
            {"l2tp": ", authentication: digest, secret_env: L2TPGEN_NETBOX_TOKEN"},
            "l2tp_class.secret_env",
            9,
            60,
        ),
        (
            {"peer_entry": "{name: b, protection: {psk_env: L2TPGEN_USERNAME}}"},
            "peers[0].protection.psk_env",
            12,
            37,
        ),
    ],
)
def test_a_site_file_aiming_a_secret_at_a_credential_is_refused_at_its_line_and_column(
    tmp_path: Path, site_a: dict[str, str], field: str, line: int, column: int
) -> None:
    path = write_site(tmp_path, "a", "b", "198.51.100.1", **site_a)
    write_site(tmp_path, "b", "a", "203.0.113.1")
    found = fleet_problems(tmp_path)
    assert len(found) == 1, found
    location, message = found[0].split(": ", 1)
    assert location == f"{path}:{line}:{column}"
    assert message.startswith(f"{field} names a variable outside l2tpgen's secret namespace")
    assert "L2TPGEN_SECRET_" in message  # the hint says what may be named
    # The name itself is not repeated: it could be a secret written where its name belongs.
    for credential in ("L2TPGEN_PASSWORD", "L2TPGEN_ENABLE_SECRET", "NETBOX_TOKEN", "USERNAME"):
        assert credential not in message.split(" | ")[0]


def test_a_namespaced_variable_validates(tmp_path: Path) -> None:
    write_site(
        tmp_path, "a", "b", "198.51.100.1", protection="protection: {psk_env: L2TPGEN_IKE_PSK_AB}\n"
    )
    write_site(
        tmp_path, "b", "a", "203.0.113.1", protection="protection: {psk_env: L2TPGEN_SECRET_AB}\n"
    )
    assert fleet_problems(tmp_path) == []


def _named_variables(node: object) -> list[str]:
    """Every value of a ``*_env`` key, at any depth of a site file."""
    if isinstance(node, dict):
        own = [v for k, v in node.items() if str(k).endswith("_env") and isinstance(v, str)]
        return own + [n for v in node.values() for n in _named_variables(v)]
    if isinstance(node, list):
        return [n for v in node for n in _named_variables(v)]
    return []


def test_every_shipped_site_file_and_default_names_a_variable_of_the_namespace() -> None:
    # docs/security.md: every example and default already lies in the namespace (the README's
    # broken example and the sites/ fleet included: a user copies them).
    files = sorted([*EXAMPLES.glob("*/*.yaml"), *(EXAMPLES.parent / "sites").glob("*.yaml")])
    named = {
        str(path.relative_to(EXAMPLES.parent)): _named_variables(yaml.safe_load(path.read_text()))
        for path in files
    }
    assert sum(map(len, named.values())) >= 10  # the walk found the examples' variables
    outside = {path: [v for v in names if not in_namespace(v)] for path, names in named.items()}
    assert {path: names for path, names in outside.items() if names} == {}
    assert all(in_namespace(v) for v in (L2TP_SECRET_ENV, PSK_ENV, COOKIE_KEY_ENV))
