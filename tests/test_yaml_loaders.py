"""A broken site file gets the same message at the same place with libyaml or without it.

PyYAML 6.0.4's bundled libyaml refuses nesting deeper than 1000 levels while it scans ahead (a
``[`` may start a key, so it reads up to 1024 characters before the first event): its verdict
came before l2tpgen's own 20-level limit and gave another message at another column. Each case
runs once with libyaml's parser and once with PyYAML's pure-Python parser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
import yaml

from l2tpgen.model import yamlparse
from l2tpgen.model.problems import Location, Problem
from l2tpgen.model.source import read_source

if TYPE_CHECKING:
    from pathlib import Path

_LOADERS = [
    pytest.param(
        getattr(yaml, "CSafeLoader", None),
        id="libyaml",
        marks=pytest.mark.skipif(
            not getattr(yaml, "__with_libyaml__", False), reason="PyYAML built without libyaml"
        ),
    ),
    pytest.param(yaml.SafeLoader, id="python"),
]

_DEEP_HINT = "a site file nests a few levels (vlans -> item -> key); check the brackets"
_SYNTAX_HINT = "check the indentation and quoting near this line"


@pytest.fixture(params=_LOADERS)
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlparse, "_LOADER", request.param)


def _read(tmp_path: Path, text: str) -> object:
    path = tmp_path / "site-a.yaml"
    path.write_text(text, encoding="utf-8")
    return read_source(path, "site-a.yaml")


@pytest.mark.usefixtures("loader")
@pytest.mark.parametrize("brackets", [25, 1001, 5000], ids=["25", "1001", "5000"])
def test_deep_flow_nesting_stops_at_the_21st_level_with_either_parser(
    tmp_path: Path, brackets: int
) -> None:
    # `extra: ` is 7 characters: the first `[` is column 8 and level 2 (the file's mapping is
    # level 1), so the 20th `[` (column 27) is level 21, the first past the limit of 20.
    text = "name: site-a\nextra: " + "[" * brackets + "]" * brackets + "\n"
    assert _read(tmp_path, text) == Problem(
        "site-a",
        (),
        "not valid YAML for a site file: nested more than 20 levels deep",
        _DEEP_HINT,
        location=Location("site-a.yaml", 2, 27),
    )


@pytest.mark.usefixtures("loader")
def test_deep_block_nesting_stops_at_the_21st_level_with_either_parser(tmp_path: Path) -> None:
    # Level n is `kn:` indented by n-1 spaces; the value of `k20:` (line 21) is the mapping
    # that starts at `k21` on line 22, column 21.
    text = "".join(f"{' ' * n}k{n + 1}:\n" for n in range(1200)) + " " * 1200 + "x\n"
    assert _read(tmp_path, text) == Problem(
        "site-a",
        (),
        "not valid YAML for a site file: nested more than 20 levels deep",
        _DEEP_HINT,
        location=Location("site-a.yaml", 21, 21),
    )


@pytest.mark.usefixtures("loader")
def test_an_unclosed_flow_sequence_is_reported_in_the_same_words_with_either_parser(
    tmp_path: Path,
) -> None:
    # libyaml alone says "did not find expected ',' or ']'"; the Python parser names what it
    # met. The plain scalar `b` runs on to the next line (`b c`), then `:` (line 3, column 2).
    text = "name: site-a\npeers: [a, b\nc: d\n"
    assert _read(tmp_path, text) == Problem(
        "site-a",
        (),
        "not valid YAML: while parsing a flow sequence expected ',' or ']', but got ':'",
        _SYNTAX_HINT,
        location=Location("site-a.yaml", 3, 2),
    )


@pytest.mark.usefixtures("loader")
def test_a_tab_indent_is_reported_in_the_same_words_with_either_parser(tmp_path: Path) -> None:
    text = "name: site-a\nwan:\n\tinterface: Gi0/1\n"
    problem = _read(tmp_path, text)
    assert isinstance(problem, Problem)
    assert problem.location == Location("site-a.yaml", 3, 1)
    assert problem.message == (
        "not valid YAML: while scanning for the next token found character '\\t' that cannot "
        "start any token"
    )
