"""docs/development.md keeps up with the code: every package in its map, every path it names real.

How a path is read is in ``doc_map.py``: from the repository's root, or under ``l2tpgen/``, or
(a bare module name in a package's paragraph of the map) in that package.

``PENDING`` is the one list of paths the page names before they exist: the target layout of the
issue 29 redesign, written while other branches build it. Each waits on a sign that is on main
today and that the owner's change takes away (a file that goes, or a text a file stops holding).
While the sign is there, the path may be missing; once the sign is gone the path must exist, and
the owner's entries are to drop. So after a merge this module names every path to fix, in one
place.

The README and the other pages are held to less: a path they spell out from the repository's root
(``l2tpgen/lab/cache.py``, ``tests/test_lab.py``) must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_map import (
    Named,
    Sign,
    contract_layers,
    landed,
    layer_table,
    matches,
    named_paths,
    path_problem,
    sign_present,
    table_disagreements,
    unmapped,
    without_paragraph,
)

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "development.md"

# target path as the page writes it -> its sign
PENDING: dict[str, Sign] = {}

TEXT = PAGE.read_text(encoding="utf-8")
NAMED = named_paths(TEXT)


def test_the_map_names_every_package_and_top_level_module_of_l2tpgen() -> None:
    missing = unmapped(TEXT, ROOT)
    assert not missing, f"docs/development.md's map leaves out: {', '.join(missing)}"


def test_each_package_of_l2tpgen_has_its_own_paragraph_in_the_map() -> None:
    missing = without_paragraph(TEXT, ROOT)
    assert not missing, f"the map has no paragraph (### heading) for: {', '.join(missing)}"


@pytest.mark.parametrize("named", NAMED, ids=[f"{n.package or ''}:{n.token}" for n in NAMED])
def test_every_path_the_development_page_names_exists(named: Named) -> None:
    problem = path_problem(named, ROOT, PENDING)
    assert problem is None, problem


def test_pending_holds_no_entry_of_an_owner_whose_change_has_landed() -> None:
    done = landed(ROOT, PENDING)
    assert not done, "drop from PENDING the entries of " + ", ".join(
        f"{owner} ({count})" for owner, count in done.items()
    )


def test_every_pending_path_is_one_the_page_still_names() -> None:
    tokens = {named.token for named in NAMED}
    stale = sorted(set(PENDING) - tokens)
    assert not stale, f"PENDING lists paths the page no longer names: {', '.join(stale)}"


def _recipes(text: str) -> dict[str, str]:
    start = text.index("## Recipes")
    end = text.index("\n## ", start + 1)
    parts = re.split(r"^### (.+)$", text[start:end], flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


RECIPES = _recipes(TEXT)


CONTRACT = ROOT / "tests" / "test_layers.py"


def test_the_layer_table_is_the_layer_contract_row_by_row() -> None:
    if not CONTRACT.exists():  # not merged yet: the contract must be one the page waits on
        sign = PENDING.get("tests/test_layers.py")
        assert sign is not None, "tests/test_layers.py, the layer contract, is missing"
        assert sign_present(sign, ROOT), f"{sign[0]} has landed without tests/test_layers.py"
        assert [layer for layer, _ in layer_table(TEXT)][:2] == ["errors", "ground"]
        return
    wrong = table_disagreements(TEXT, CONTRACT.read_text(encoding="utf-8"))
    assert not wrong, "docs/development.md's layer table: " + "; ".join(wrong)


def test_the_page_has_a_recipe_for_each_usual_addition() -> None:
    wanted = {
        "A lint rule",
        "A validate check",
        "A command",
        "A platform",
        "A lab check",
        "A site-file field",
    }
    assert wanted <= set(RECIPES), f"missing recipes: {sorted(wanted - set(RECIPES))}"


@pytest.mark.parametrize("title", sorted(RECIPES))
def test_each_recipe_names_the_code_its_test_and_its_doc(title: str) -> None:
    tokens = [named.token for named in named_paths(RECIPES[title])]
    assert any(t.startswith("l2tpgen/") for t in tokens), f"{title}: no file under l2tpgen/"
    assert any(t.startswith("tests/test_") for t in tokens), f"{title}: no test module"
    assert any(t.startswith(("docs/", "schema/")) for t in tokens), f"{title}: no doc"


# The other pages: a path they spell out from the repository's root names a file that exists.

# Only these: `scripts/add_rule.py` or `docs/` in a page may be another project's (ruff's).
QUALIFIED = ("l2tpgen/", "tests/", "schema/")
# docs/claims.md names tests as ``tests/test_x.py::test_name``: tests/test_claims.py checks each.
OTHER_PAGES = [ROOT / "README.md", ROOT / "labs" / "README.md"] + [
    page
    for page in sorted((ROOT / "docs").glob("*.md"))
    if page not in (PAGE, ROOT / "docs" / "claims.md")
]
OTHER_PATHS = [
    # A test's node id (docs/claims.md: `tests/test_x.py::test_name`) names its file here; that the
    # test exists is tests/test_claims.py's to check.
    (page, Named(named.token.split("::")[0], named.line, None))
    for page in OTHER_PAGES
    for named in named_paths(page.read_text(encoding="utf-8"))
    if named.token.startswith(QUALIFIED)
]


@pytest.mark.parametrize(
    ("page", "named"),
    OTHER_PATHS,
    ids=[f"{page.relative_to(ROOT)}:{named.line}:{named.token}" for page, named in OTHER_PATHS],
)
def test_every_repository_path_the_readme_and_the_other_docs_spell_out_exists(
    page: Path, named: Named
) -> None:
    assert matches(named, ROOT), (
        f"{page.relative_to(ROOT)}:{named.line}: `{named.token}` names nothing in the repository"
    )


# The checker itself, on pages written here: each kind of mistake it must see.


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for path in ("l2tpgen/lint/rules/base.py", "l2tpgen/lint/engine.py", "l2tpgen/mtu.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text('"""A module."""\n', encoding="utf-8")
    for package in ("l2tpgen", "l2tpgen/lint", "l2tpgen/lint/rules"):
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "old.py").write_text("OLD = 1\n", encoding="utf-8")
    return tmp_path


PAGE_HERE = """\
# Developing

## The map

### The top-level modules

`mtu.py`

### `l2tpgen/lint/`

`engine.py` and `lint/rules/` (`rules/base.py`)

```sh
`not/a/path.py` in a code block
```

## Recipes
"""


def test_the_checker_reads_bare_names_in_their_package_and_finds_the_map_complete(
    tree: Path,
) -> None:
    named = named_paths(PAGE_HERE)
    tokens = ["mtu.py", "l2tpgen/lint/", "engine.py", "lint/rules/", "rules/base.py"]
    assert [n.token for n in named] == tokens
    assert [path_problem(n, tree, {}) for n in named] == [None] * 5
    assert unmapped(PAGE_HERE, tree) == []


def test_the_checker_names_a_package_or_module_the_map_leaves_out(tree: Path) -> None:
    (tree / "l2tpgen" / "hosts").mkdir()
    (tree / "l2tpgen" / "hosts" / "__init__.py").write_text("", encoding="utf-8")
    (tree / "l2tpgen" / "errors.py").write_text("", encoding="utf-8")
    assert unmapped(PAGE_HERE, tree) == ["l2tpgen/errors.py", "l2tpgen/hosts"]


def test_the_checker_wants_a_paragraph_per_package_not_a_mention(tree: Path) -> None:
    (tree / "l2tpgen" / "hosts").mkdir()
    (tree / "l2tpgen" / "hosts" / "__init__.py").write_text("", encoding="utf-8")
    page = PAGE_HERE.replace("## Recipes", "`l2tpgen/hosts/` is mentioned\n\n## Recipes")
    assert unmapped(page, tree) == []
    assert without_paragraph(page, tree) == ["l2tpgen/hosts/"]


def test_the_checker_names_a_missing_path_and_a_bare_name_outside_its_package(tree: Path) -> None:
    page = "### `l2tpgen/lint/`\n\n`mtu.py` `lint/ccp.py` `tests/<name>.py` `tests/<name>.md`\n"
    problems = [path_problem(n, tree, {}) for n in named_paths(page)]
    assert problems[0] is None  # l2tpgen/lint/ itself
    assert "`mtu.py` names nothing" in str(problems[1])  # not a module of lint/
    assert "`lint/ccp.py` names nothing" in str(problems[2])
    assert problems[3] is None  # tests/old.py matches
    assert "`tests/<name>.md` names nothing" in str(problems[4])


def test_a_pending_path_may_be_missing_until_its_owner_lands_then_must_exist(tree: Path) -> None:
    named = Named("l2tpgen/lab/engines/", 1, None)
    pending = {named.token: ("h12", "tests/old.py", "OLD")}
    assert path_problem(named, tree, pending) is None
    assert landed(tree, pending) == {}
    (tree / "tests" / "old.py").write_text("NEW = 1\n", encoding="utf-8")
    assert "h12's change has landed" in str(path_problem(named, tree, pending))
    assert landed(tree, pending) == {"h12": 1}  # and its entry is to drop
    (tree / "l2tpgen" / "lab" / "engines").mkdir(parents=True)
    assert path_problem(named, tree, pending) is None


def test_an_owner_whose_sign_is_a_file_lands_when_the_file_goes(tree: Path) -> None:
    pending = {"a": ("h15", "tests/old.py", None), "b": ("h15", "tests/old.py", None)}
    assert landed(tree, pending) == {}
    (tree / "tests" / "old.py").unlink()
    assert landed(tree, pending) == {"h15": 2}


def test_the_checker_reads_a_bare_name_again_in_each_package_that_names_it(tree: Path) -> None:
    page = "### `l2tpgen/lint/`\n\n`engine.py`\n\n### `l2tpgen/lint/rules/`\n\n`engine.py`\n"
    problems = [path_problem(n, tree, {}) for n in named_paths(page)]
    assert problems[:2] == [None, None]  # the heading, and lint/engine.py
    assert "docs/development.md:7: `engine.py` names nothing" in str(problems[3])


def test_a_placeholder_in_capitals_stands_for_any_name_and_readme_for_itself(tree: Path) -> None:
    (tree / "README.md").write_text("", encoding="utf-8")
    assert matches(Named("tests/FILE.py", 1, None), tree) == [tree / "tests" / "old.py"]
    assert matches(Named("README.md", 1, None), tree) == [tree / "README.md"]
    assert matches(Named("tests/README.md", 1, None), tree) == []


CONTRACT_HERE = """\
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors", ("l2tpgen.errors",)),
    ("traits", ("l2tpgen.traits", "l2tpgen.platforms.*.traits", *(f"x{p}" for p in "ab"))),
    ("model", ("l2tpgen.model", "l2tpgen.model.*")),
    ("drivers", ("l2tpgen.platforms.*.*",)),
    ("cli", ("l2tpgen.cli", "l2tpgen.cli.*", "l2tpgen")),
]
"""
TABLE_HERE = """\
| layer | modules | what |
|---|---|---|
| errors | `errors.py` | e |
| traits | `l2tpgen/traits.py`, `l2tpgen/platforms/<name>/traits.py` | t |
| model | `model/` | m |
| drivers | `l2tpgen/platforms/<name>/driver.py` | d |
| cli | `cli/`, `l2tpgen/__init__.py` | c |
"""


def test_the_table_check_agrees_with_a_contract_it_matches() -> None:
    assert contract_layers(CONTRACT_HERE)[1] == (
        "traits",
        ["l2tpgen.traits", "l2tpgen.platforms.*.traits"],
    )
    assert table_disagreements(TABLE_HERE, CONTRACT_HERE) == []


def test_the_table_check_names_a_module_in_the_wrong_layer_and_a_missing_layer() -> None:
    swapped = TABLE_HERE.replace("| model | `model/` |", "| model | `model/`, `mtu.py` |")
    assert table_disagreements(swapped, CONTRACT_HERE) == [
        "`mtu.py` (l2tpgen.mtu) is in no layer, not in the model layer"
    ]
    moved = TABLE_HERE.replace("`l2tpgen/platforms/<name>/traits.py` |", "|").replace(
        "`model/` |", "`model/`, `l2tpgen/platforms/<name>/traits.py` |"
    )
    assert table_disagreements(moved, CONTRACT_HERE) == [
        (
            "`l2tpgen/platforms/<name>/traits.py` (l2tpgen.platforms.x.traits) is in the traits "
            "layer, not in the model layer"
        )
    ]
    dropped = TABLE_HERE.replace("| drivers | `l2tpgen/platforms/<name>/driver.py` | d |\n", "")
    assert "are not the contract's" in table_disagreements(dropped, CONTRACT_HERE)[0]


def test_a_folder_path_is_not_matched_by_a_file(tree: Path) -> None:
    assert matches(Named("l2tpgen/mtu.py/", 1, None), tree) == []
    assert matches(Named("l2tpgen/mtu.py", 1, None), tree) == [tree / "l2tpgen" / "mtu.py"]
