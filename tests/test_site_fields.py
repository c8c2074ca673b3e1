"""One source for the site-file reference (issue 28, item 7): docs/site-files.md and the schema.

``l2tpgen/model/site_fields.md`` is the table; docs/site-files.md shows it between its
``site-fields`` markers (``pytest tests/test_site_fields.py --update-golden`` copies it there), and
every property of ``l2tpgen schema`` carries its row as plain text, which editors show on hover
(the YAML language server shows ``description`` as it is: Markdown or reStructuredText markup
would show as literal backticks).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from conftest import ROOT

from l2tpgen.model.fields import plain, row_for, rows, table
from l2tpgen.model.schema import property_paths, site_schema
from l2tpgen.model.site import Site

if TYPE_CHECKING:
    from conftest import Golden

DOC = ROOT / "docs" / "site-files.md"
BLOCK = re.compile(r"(<!-- site-fields: [^\n]*-->\n)(.*?)(<!-- end site-fields -->)", re.DOTALL)


def _properties(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    found = [("", name, prop) for name, prop in schema["properties"].items()]
    for owner, definition in schema["definitions"].items():
        found += [(owner, name, prop) for name, prop in definition.get("properties", {}).items()]
    return found


def _descriptions(node: object) -> list[str]:
    if isinstance(node, list):
        return [text for item in node for text in _descriptions(item)]
    if not isinstance(node, dict):
        return []
    own = [node["description"]] if isinstance(node.get("description"), str) else []
    return own + [text for value in node.values() for text in _descriptions(value)]


def test_every_property_of_the_schema_has_a_description() -> None:
    schema = site_schema()
    properties = _properties(schema)
    assert len(properties) >= 74  # the issue counted 74 properties, none described
    missing = [f"{owner}.{name}" for owner, name, prop in properties if not prop.get("description")]
    assert missing == []


def test_each_property_is_described_by_its_row_of_the_table() -> None:
    schema = site_schema()
    for (owner, name), path in property_paths(schema).items():
        node = schema["definitions"][owner] if owner else schema
        row = row_for(path)
        assert row is not None, path
        assert node["properties"][name]["description"] == row.description, path


def test_the_row_of_a_field_is_its_own_and_not_a_neighbours() -> None:
    # Spot checks of the path rules: `.out` continues `wan.hold_queue.in`, `.*` an object.
    assert row_for("wan.hold_queue.out") == row_for("wan.hold_queue.in")
    hold_queue = row_for("wan.hold_queue")
    assert hold_queue is not None
    assert hold_queue.paths == ("wan.hold_queue", "lan.hold_queue")
    assert row_for("protection.nat_t") == row_for("protection.transform")
    pseudowire = row_for("peers[].pseudowire.cookie")
    assert pseudowire is not None
    assert pseudowire.paths == ("peers[].pseudowire.*",)
    assert row_for("peers[].pseudowire") == pseudowire
    assert row_for("pseudowire_class.cookie") != pseudowire
    assert row_for("peers[].pseudowirex") is None


def test_every_row_describes_fields_the_schema_has() -> None:
    paths = set(property_paths(site_schema(), every=True).values())
    for row in rows():
        for written in row.paths:
            stem = written.removesuffix(".*")
            assert stem in paths, f"{row.label}: {written} is not a field of a site file"


def test_descriptions_are_plain_text_for_editors() -> None:
    texts = _descriptions(site_schema())
    marked = [t for t in texts if "`" in t or "**" in t or "](" in t or "\\|" in t]
    assert marked == []
    wan = site_schema()["definitions"]["Wan"]["properties"]["interface"]["description"]
    assert wan.startswith("interface, required: as the platform names it: IOS's name on ios")


def test_a_description_given_in_the_models_is_its_rows_notes() -> None:
    # The table is the one source: a model field may carry a description too (for help text),
    # but only the words of its row, so that the two never drift apart.
    raw = Site.model_json_schema(by_alias=True, ref_template="#/definitions/{model}")
    raw["definitions"] = raw.pop("$defs")
    for (owner, name), path in property_paths(raw).items():
        node = raw["definitions"][owner] if owner else raw
        given = node["properties"][name].get("description")
        if given is not None:
            row = row_for(path)
            assert row is not None, path
            assert plain(given) == plain(row.notes), (
                f"{path}: say it in l2tpgen/model/site_fields.md"
            )


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("`gi0/1`", "gi0/1"),
        ("``ip pmtu``", "ip pmtu"),
        ("**[U]**", "[U]"),
        ("[security.md](security.md#cookies)", "security.md"),
        ("`ios` \\| `iosxe`", "ios | iosxe"),
    ],
)
def test_markup_becomes_plain_text(markup: str, text: str) -> None:
    assert plain(markup) == text


def test_docs_site_files_shows_the_table_word_for_word(golden: Golden) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BLOCK.search(text), "docs/site-files.md has lost its site-fields markers"
    golden.check(DOC, BLOCK.sub(lambda m: m[1] + table() + m[3], text))
