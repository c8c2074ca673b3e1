"""The tree lint reads is the tree ciscoconfparse builds, on every config text of the tests.

``ios.tree.build`` nests most configs with a plain indentation stack (``nest``, 13x faster than
ciscoconfparse on 50,000 lines: bench/lint_bench.py) and hands to ciscoconfparse, the reference,
only texts holding what it reads otherwise than by indentation (braces, banners, macros, comments).
The texts: every config l2tpgen renders, every text file under tests/ (captures, corpora,
goldens, samples), and every string of several lines written in a test module.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import pytest
from conftest import SITES, TESTS

from l2tpgen import load_fleet
from l2tpgen.errors import L2tpgenError
from l2tpgen.ios import tree
from l2tpgen.ios.text import clean
from l2tpgen.ios.tree import build, build_by_parser
from l2tpgen.platforms.render import render_files

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from l2tpgen.ios.tree import Node

PLAIN = (
    "hostname r1\ninterface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n"
    " xconnect 192.0.2.2 10 encapsulation l2tpv3 pw-class pw\n  l2tp hello 30\n"
    "interface Loopback0\n ip address 192.0.2.1 255.255.255.255\n"
)


def _shape(nodes: Sequence[Node]) -> list[object]:
    return [(n.text, n.line, n.column, _shape(n.children)) for n in nodes]


def _strings(source: str) -> Iterator[str]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value:
            yield node.value


def _texts() -> Iterator[tuple[str, str]]:
    fleet = load_fleet(SITES)
    for name in fleet.sites:
        for file, text in render_files(fleet, name).items():
            yield f"rendered:{name}{file}", text
    for path in sorted(TESTS.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        raw = path.read_bytes()
        if b"\0" in raw:
            continue
        text = raw.decode("utf-8", errors="replace")
        if path.suffix == ".py":
            yield from ((f"{path.name}#{i}", s) for i, s in enumerate(_strings(text)))
        else:
            yield str(path.relative_to(TESTS)), text


def test_every_config_text_of_the_tests_gets_the_tree_ciscoconfparse_builds() -> None:
    compared, differ = 0, []
    for name, text in _texts():
        try:
            cleaned = clean(text)
            reference = build_by_parser(cleaned, name)
        except L2tpgenError:  # not a config at all (the parser refuses it): nothing to compare
            continue
        compared += 1
        if _shape(build(cleaned, name).roots) != _shape(reference.roots):
            differ.append(name)
    assert not differ
    assert compared > 1000  # the corpus is read, not skipped


@pytest.mark.parametrize(
    "text",
    [
        "banner motd ^C\nNo entry\n^C\nhostname r1\n",
        "interface Loopback0\n description {core}\n",
        "macro name edge\n switchport\n@\nhostname r1\n",
        "aaa authentication fail-message ^C\nNo\n^C\n",
    ],
    ids=["banner", "braces", "macro", "fail-message"],
)
def test_a_text_ciscoconfparse_reads_otherwise_than_by_indentation_is_still_its_to_nest(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy(monkeypatch)
    build(clean(text))
    assert calls


def test_a_plain_indented_config_is_nested_without_ciscoconfparse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _spy(monkeypatch)
    config = build(clean(PLAIN))
    assert not calls
    assert _shape(config.roots) == _shape(build_by_parser(clean(PLAIN)).roots)


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of lines of each call to ciscoconfparse, from now on."""
    parser = tree._import_parser()  # noqa: SLF001 - the parser itself, behind the spy
    calls: list[int] = []

    def spy(lines: list[str], **options: object) -> object:
        calls.append(len(lines))
        return parser(lines, **options)

    monkeypatch.setattr(tree, "_import_parser", lambda: spy)
    return calls
