"""The docs keep up with the code: every command and option, every site-file key."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from conftest import ROOT

from l2tpgen.cli import app
from l2tpgen.cli.groups import load_all
from l2tpgen.model.schema import site_schema

DOCS = sorted((ROOT / "docs").glob("*.md"))
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in DOCS}


def _commands() -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []

    def walk(command: Any, path: list[str]) -> None:  # noqa: ANN401 - click's command types
        if path:
            found.append((" ".join(path), command))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])

    load_all()  # each command is loaded when invoked: the whole tree needs them all
    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _commands()


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_command_and_each_of_its_options_is_in_the_docs(name: str, command: Any) -> None:  # noqa: ANN401
    pages = [text for text in TEXTS.values() if f"l2tpgen {name}" in text]
    assert pages, f"no page in docs/ mentions `l2tpgen {name}`"
    text = "\n".join(pages)
    for param in command.params:
        names = [opt for opt in param.opts if opt.startswith("-")]
        if not names or "--help" in names or getattr(param, "hidden", False):
            continue
        assert any(opt in text for opt in names), (
            f"`l2tpgen {name}`'s option {'/'.join(names)} is in none of the pages that "
            "document the command"
        )


def _keys(schema: dict[str, Any], node: dict[str, Any], prefix: str) -> list[str]:
    """Every key path of a site file (`wan.hold_queue.in`, `vlans[].vc_id`)."""
    definitions = schema["definitions"]
    while "$ref" in node or "anyOf" in node:
        if "$ref" in node:
            node = definitions[node["$ref"].rsplit("/", 1)[1]]
            continue
        refs = [n for n in node["anyOf"] if "$ref" in n or n.get("type") == "array"]
        if not refs:
            break
        node = refs[0]
    if node.get("type") == "array" and "items" in node:
        return _keys(schema, node["items"], f"{prefix}[]")
    properties = node.get("properties")
    if not properties:
        return [prefix]  # a leaf: a value, a list of values
    return [
        key
        for name, sub in properties.items()
        for key in _keys(schema, sub, f"{prefix}.{name}" if prefix else name)
    ]


SITE_KEYS = _keys(site_schema(), site_schema(), "")


@pytest.mark.parametrize("key", SITE_KEYS)
def test_every_site_file_key_is_in_the_site_file_reference(key: str) -> None:
    text = TEXTS["site-files.md"]
    spelled = {key, key.replace("[]", "[i]"), key.replace("[].", "."), key.removesuffix("[]")}
    if any(f"`{form}`" in text or f"`{form} " in text for form in spelled):
        return
    # A row may document a group at once: `wan.hold_queue.in` / `.out`, or `peers[].l2tp_class.*`
    # (the same fields as the site's own).
    parent, _, leaf = key.rpartition(".")
    assert f"`.{leaf}`" in text or f"`{parent}.*`" in text, (
        f"docs/site-files.md does not document the site-file key `{key}`"
    )
