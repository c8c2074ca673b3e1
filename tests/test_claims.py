"""The claims table is complete and true to the suite: every promise of the docs and the help has
a row, every row's tests exist, and docs/claims.md is generated from the rows (issue 34)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claims import (
    TABLE,
    Row,
    Sentence,
    all_rows,
    all_sentences,
    doc_sentences,
    problems,
    split_sentences,
    table_markdown,
)

if TYPE_CHECKING:
    from conftest import Golden


def test_every_promise_in_the_docs_and_the_help_has_a_row_naming_what_holds_it() -> None:
    found = problems(all_sentences(), all_rows())
    assert not found, f"{len(found)} problems; fill tests/claims/*.yaml:\n" + "\n".join(found)


def test_the_claims_table_is_generated_from_the_rows(golden: Golden) -> None:
    golden.check(TABLE, table_markdown(all_rows()))


def test_a_new_unbacked_never_in_a_doc_fails_the_check() -> None:
    backed = "l2tpgen renders one subinterface per VLAN."
    text = f"# Push\n\n{backed} It never deletes a VRF it does not own.\n"
    sentences = doc_sentences("docs/push.md", text)
    assert sentences == [Sentence("docs/push.md", 3, "It never deletes a VRF it does not own.")]
    (problem,) = problems(sentences, {})
    assert problem == (
        "docs/push.md: no row in tests/claims/push.yaml for: "
        "It never deletes a VRF it does not own."
    )


def test_a_row_naming_a_test_that_does_not_exist_fails_the_check() -> None:
    sentence = Sentence("docs/push.md", 1, "Push never deletes a VRF.")
    rows = {"docs/push.md": [Row(sentence.text, tests=["tests/test_claims.py::test_no_such_test"])]}
    (problem,) = problems([sentence], rows)
    assert problem == (
        "tests/claims/push.yaml: no such test tests/test_claims.py::test_no_such_test "
        "(named for: Push never deletes a VRF.)"
    )
    rows = {"docs/push.md": [Row(sentence.text, tests=[f"tests/test_claims.py::{_this()}"])]}
    assert problems([sentence], rows) == []


def test_a_row_whose_claim_was_reworded_is_stale() -> None:
    rows = {"docs/push.md": [Row("Push never deletes a VRF.", advice="x")]}
    (problem,) = problems([], rows)
    assert problem.endswith("stale row, no such claim in docs/push.md: Push never deletes a VRF.")


def test_an_option_or_code_named_all_is_not_a_promise() -> None:
    text = "Use `confirm --all` to confirm every router.\n\nRun `lint` [as shown](docs/all.md).\n"
    assert [s.text for s in doc_sentences("README.md", text)] == [
        "Use `confirm --all` to confirm every router."
    ]


def test_sentences_split_outside_code_and_after_abbreviations_only() -> None:
    text = "Ends, e.g. two routers, never drift. Run `a. b` always! Then stop? Yes"
    assert split_sentences(text) == [
        "Ends, e.g. two routers, never drift.",
        "Run `a. b` always!",
        "Then stop?",
        "Yes",
    ]


def test_code_fences_and_comments_hold_no_claims() -> None:
    text = "```\nnever here\n```\n<!-- never here -->\nAll of it here.\n"
    assert [s.text for s in doc_sentences("README.md", text)] == ["All of it here."]


def _this() -> str:
    return "test_a_row_naming_a_test_that_does_not_exist_fails_the_check"


def test_a_quotation_a_page_number_or_an_initial_ends_no_sentence() -> None:
    text = (
        'Cisco forwards "the frames ... in their entirety" (guide p. 22), as R. W. M. Jones '
        "wrote; every frame. Next"
    )
    assert split_sentences(text) == [text.removesuffix(" Next"), "Next"]
