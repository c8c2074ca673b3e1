"""Site files are read as YAML 1.2 with positions, and hostile YAML stops with a located problem."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from l2tpgen import FleetValidationError, load_fleet
from l2tpgen.model.problems import Location, Problem
from l2tpgen.model.source import SourceDoc, read_source
from l2tpgen.model.yamlparse import MAX_ALIAS_NODES

if TYPE_CHECKING:
    from pathlib import Path

VALID_A = """\
name: site-a
hostname: rtr-a
management: {host: 192.0.2.1}
wan: {interface: GigabitEthernet0/1, address: 198.51.100.1/29, gateway: 198.51.100.6}
lan: {interface: GigabitEthernet0/0}
l2tp_class: {secret_env: L2TPGEN_L2TP_SECRET}
peers: [site-b]
vlans:
  - {id: 10, name: users, peer: site-b}
"""


def _read(tmp_path: Path, text: str) -> SourceDoc | Problem:
    path = tmp_path / "site-a.yaml"
    path.write_text(text, encoding="utf-8")
    return read_source(path, "site-a.yaml")


def _doc(tmp_path: Path, text: str) -> SourceDoc:
    doc = _read(tmp_path, text)
    assert isinstance(doc, SourceDoc), str(doc)
    return doc


def _problem(tmp_path: Path, text: str) -> Problem:
    problem = _read(tmp_path, text)
    assert isinstance(problem, Problem)
    return problem


def test_scalars_follow_yaml_1_2_so_yes_and_no_stay_text(tmp_path: Path) -> None:
    doc = _doc(
        tmp_path,
        "a: yes\nb: no\nc: 010\nd: 0x1F\ne: true\nf: ~\ng: 1.5\nh: '12'\ni: 1_000\nj: 2020-01-01\n",
    )
    assert doc.plain() == {
        "a": "yes",
        "b": "no",
        "c": 10,
        "d": 31,
        "e": True,
        "f": None,
        "g": 1.5,
        "h": "12",
        "i": 1000,
        "j": "2020-01-01",
    }


def test_a_merge_key_fills_in_shared_settings_and_explicit_keys_win(tmp_path: Path) -> None:
    doc = _doc(
        tmp_path,
        "defaults: &hq {in: 4096, out: 4096}\nwan:\n  hold_queue: {<<: *hq, out: 1024}\n",
    )
    assert doc.plain()["wan"] == {"hold_queue": {"out": 1024, "in": 4096}}  # type: ignore[index]
    # A merged value is located where it is written: in the anchored mapping.
    assert doc.locate(("wan", "hold_queue", "in")) == Location("site-a.yaml", 1, 20)
    assert doc.locate(("wan", "hold_queue", "out")) == Location("site-a.yaml", 3, 30)


def test_a_few_aliases_are_fine_but_an_expansion_past_the_limit_is_refused(
    tmp_path: Path,
) -> None:
    _doc(tmp_path, "x: &x [1, 2, 3]\ny: [*x, *x, *x]\n")
    items = ", ".join(["a"] * 100)
    aliases = ", ".join(["*x"] * (MAX_ALIAS_NODES // 100 + 1))
    problem = _problem(tmp_path, f"x: &x [{items}]\ny: [{aliases}]\n")
    assert problem.location is not None
    assert problem.location.line == 2
    assert problem.message == f"aliases expand to more than {MAX_ALIAS_NODES} values"


def test_an_alias_to_an_undefined_anchor_is_located(tmp_path: Path) -> None:
    problem = _problem(tmp_path, "a: 1\nb: *nowhere\n")
    assert str(problem).startswith(
        "site-a.yaml:2:4: error: not valid YAML: alias *nowhere names no anchor defined before it"
    )


@pytest.mark.parametrize("tag", ["!!python/object:os.system", "!custom", "!!binary", "!!set"])
def test_tags_beyond_the_core_schema_are_refused(tmp_path: Path, tag: str) -> None:
    problem = _problem(tmp_path, f"name: site-a\nhostname: {tag} rtr-a\n")
    assert problem.location == Location("site-a.yaml", 2, 11)
    assert "is not supported here" in problem.message


def test_core_tags_convert_their_values(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "a: !!int '12'\nb: !!str 12\nc: !!float 1\n")
    assert doc.plain() == {"a": 12, "b": "12", "c": 1.0}


def test_a_second_document_is_refused(tmp_path: Path) -> None:
    problem = _problem(tmp_path, "name: site-a\n---\nname: site-b\n")
    assert problem.location == Location("site-a.yaml", 2, 1)
    assert problem.message == "not valid YAML: a site file holds one document"


def test_a_mapping_as_a_key_is_refused(tmp_path: Path) -> None:
    problem = _problem(tmp_path, "name: site-a\n? {a: 1}\n: x\n")
    assert problem.location == Location("site-a.yaml", 2, 3)
    assert problem.message == "not valid YAML for a site file: a key must be a name"


def test_columns_count_characters_not_bytes(tmp_path: Path) -> None:
    doc = _doc(tmp_path, 'vlans:\n  - {name: "été à", id: 5000}\n')
    assert doc.locate(("vlans", 0, "id")) == Location("site-a.yaml", 2, 25)


def test_block_and_flow_styles_locate_keys_and_values(tmp_path: Path) -> None:
    doc = _doc(
        tmp_path,
        "wan:\n  hold_queue:\n    in: 10\n    out:\n      20\nvlans:\n  -\n    id: 7\n",
    )
    assert doc.locate(("wan", "hold_queue", "out")) == Location("site-a.yaml", 5, 7)
    assert doc.locate(("wan", "hold_queue", "out"), key=True) == Location("site-a.yaml", 4, 5)
    assert doc.locate(("vlans", 0, "id")) == Location("site-a.yaml", 8, 9)
    assert doc.locate(("vlans", 0, "name")) == Location("site-a.yaml", 8, 5)


def test_a_huge_quoted_number_gets_the_fields_range_message(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    sites.mkdir()
    big = "9" * 5000
    (sites / "site-a.yaml").write_text(
        VALID_A.replace("peer: site-b}", f"peer: site-b, vc_id: '{big}'}}")
    )
    (sites / "site-b.yaml").write_text(
        VALID_A.replace("site-a", "site-b").replace("site-b]", "site-a]")
    )
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    messages = [str(p) for p in caught.value.problems]
    assert any(
        "vlans[0].vc_id: a VC ID is a whole number from 1 to 4294967295" in m for m in messages
    )
    assert all(big not in m for m in messages)


@pytest.mark.parametrize(
    "value", ['"on"', '"yes"', "yes", "1", '"true"'], ids=["on", "quoted-yes", "yes", "one", "text"]
)
def test_a_true_or_false_key_takes_only_true_or_false(tmp_path: Path, value: str) -> None:
    """Issue 26: `wan.trusted: "on"` (or yes, or 1) was read as true, dropping the default IPsec.

    Site files are YAML 1.2 (docs/site-files.md): `yes` and `on` are text and 1 is a number, so
    a true/false key refuses them where they are, with the fix.
    """
    sites = tmp_path / "sites"
    sites.mkdir()
    wan = "wan: {interface: GigabitEthernet0/1, address: 198.51.100.1/29, gateway: 198.51.100.6}"
    trusted = wan.replace("}", f", trusted: {value}}}")
    (sites / "site-a.yaml").write_text(VALID_A.replace(wan, trusted))
    (sites / "site-b.yaml").write_text(
        VALID_A.replace("site-a", "site-b").replace("site-b]", "site-a]")
    )
    with pytest.raises(FleetValidationError) as caught:
        load_fleet(sites)
    (problem,) = caught.value.problems
    assert problem.location is not None
    # the value itself, 1-based
    assert (problem.location.line, problem.location.column) == (4, trusted.rindex(value) + 1)
    assert str(problem).startswith(f"{sites / 'site-a.yaml'}:4:")
    assert "wan.trusted: Input should be a valid boolean" in str(problem)
    assert "write true or false" in problem.hint


def test_true_and_false_are_still_taken(tmp_path: Path) -> None:
    sites = tmp_path / "sites"
    sites.mkdir()
    wan = "wan: {interface: GigabitEthernet0/1, address: 198.51.100.1/29, gateway: 198.51.100.6}"
    (sites / "site-a.yaml").write_text(VALID_A.replace(wan, wan.replace("}", ", trusted: true}")))
    site_b = VALID_A.replace("site-a", "site-b").replace("rtr-a", "rtr-b").replace(".1/29", ".2/29")
    (sites / "site-b.yaml").write_text(
        site_b.replace("site-b]", "site-a]").replace("peer: site-b", "peer: site-a")
    )
    assert load_fleet(sites).site("site-a").wan.trusted is True
