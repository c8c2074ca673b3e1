"""Inventory files: every malformed one stops at load time with one line at file:line:column."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from l2tpgen.device.inventory import InventoryError, load_inventory

if TYPE_CHECKING:
    from pathlib import Path

SHAPE = "a `sites:` mapping of site -> {host, port, device_type, known_hosts}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The Python parser's words and places, with or without libyaml (see yamlparse); the
        # unclosed JSON text (30 characters, no newline) ends at line 1, column 31.
        ("sites: {a: {host: h\n", ":2:1: inventory is not valid YAML/JSON: expected ',' or '}'"),
        ("sites:\n\ta: {}\n", ":2:1: inventory is not valid YAML/JSON: found character '\\t'"),
        ('{"sites": {"a": {"host": "h"}}', ":1:31: inventory is not valid YAML/JSON: expected ','"),
        ("sites: {a: {host: h, host: i}}\n", ":1:22: not valid YAML: duplicate key host"),
        ("- a\n", f":1:1: not an inventory: it needs {SHAPE}"),
        ("sites: [a]\n", f":1:1: not an inventory: it needs {SHAPE}"),
        ("sites: {a: {host: h}}\nsite: {b: {host: h}}\n", ":2:1: unknown key site in the inv"),
        ("sites: {a: [h]}\n", ":1:12: inventory entry a: write a mapping such as {host: 127.0"),
        ("sites: {a: {host: h, prot: 22}}\n", ":1:22: inventory entry a: unknown key prot (known"),
        ("sites: {a: {port: 22}}\n", ":1:12: inventory entry a: `host` is required (an address"),
        ("sites: {a: {host: 12}}\n", ":1:19: inventory entry a: `host` is an address or a DNS"),
        ("sites: {a: {host: 'a b'}}\n", ":1:19: inventory entry a: `host` is an address or a DN"),
        ("sites: {a: {host: h, port: 0}}\n", ":1:28: inventory entry a: `port` is a whole number"),
        ("sites: {a: {host: h, port: 70000}}\n", ":1:28: inventory entry a: `port` is a whole nu"),
        ("sites: {a: {host: h, port: abc}}\n", ":1:28: inventory entry a: `port` is a whole numb"),
        ("sites: {a: {host: h, port: 22.0}}\n", ":1:28: inventory entry a: `port` is a whole num"),
        ("sites: {a: {host: h, port: true}}\n", ":1:28: inventory entry a: `port` is a whole num"),
        ("sites: {a: {host: h, device_type: junos}}\n", ":1:35: inventory entry a: `device_typ"),
        ("sites: {a: {host: h, known_hosts: ''}}\n", ":1:35: inventory entry a: `known_hosts` is"),
        ("sites: {a: {host: h, known_hosts: 7}}\n", ":1:35: inventory entry a: `known_hosts` is"),
    ],
    ids=[
        "unclosed-brace",
        "tab",
        "json-unclosed",
        "duplicate-key",
        "not-a-mapping",
        "sites-not-a-mapping",
        "unknown-top-key",
        "entry-not-a-mapping",
        "unknown-entry-key",
        "no-host",
        "host-not-text",
        "host-two-words",
        "port-0",
        "port-70000",
        "port-text",
        "port-float",
        "port-bool",
        "device-type",
        "known-hosts-empty",
        "known-hosts-number",
    ],
)
def test_a_malformed_inventory_is_one_line_at_file_line_column(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = tmp_path / "inventory.yaml"
    path.write_text(text)
    with pytest.raises(InventoryError) as caught:
        load_inventory(path)
    message = str(caught.value)
    assert message.startswith(f"{path}{expected}")
    assert "\n" not in message


def test_a_bad_port_is_quoted_so_the_user_sees_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "inventory.yaml"
    path.write_text("sites:\n  site-a:\n    host: 127.0.0.1\n    port: '2222'\n")
    with pytest.raises(InventoryError) as caught:
        load_inventory(path)
    assert str(caught.value) == (
        f"{path}:4:11: inventory entry site-a: `port` is a whole number from 1 to 65535, not '2222'"
    )


def test_a_well_formed_inventory_in_yaml_or_json_loads_every_entry(tmp_path: Path) -> None:
    yaml_file = tmp_path / "inventory.yaml"
    yaml_file.write_text(
        "sites:\n  site-a: {host: 127.0.0.1, port: 2222, device_type: cisco_xe}\n"
        "  site-b: {host: rtr-b.example, known_hosts: ~/kh}\n"
    )
    json_file = tmp_path / "inventory.json"
    json_file.write_text('{"sites": {"site-a": {"host": "127.0.0.1", "port": 2222}}}')
    assert load_inventory(yaml_file) == {
        "site-a": {"host": "127.0.0.1", "port": 2222, "device_type": "cisco_xe"},
        "site-b": {"host": "rtr-b.example", "known_hosts": "~/kh"},
    }
    assert load_inventory(json_file) == {"site-a": {"host": "127.0.0.1", "port": 2222}}


def test_an_unreadable_inventory_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InventoryError, match=r"cannot read inventory .*: No such file"):
        load_inventory(tmp_path / "missing.yaml")
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InventoryError, match=r"inventory .*binary\.yaml is not UTF-8 text"):
        load_inventory(binary)
