"""Session IDs and cookies the two ends must agree on (L2T105): what its findings say.

Every expectation below was worked out by reading the rules' documentation and the snippets.
"""

from __future__ import annotations

from lint_cases import example, lint_case


def _l2t105_messages(name: str) -> list[str]:
    case = example("L2T105", name)
    return [f"{f.message} {f.fix}" for f in lint_case(case) if f.code == "L2T105"]


def test_l2t105_says_when_the_two_ends_cookie_sizes_differ() -> None:
    # a.conf expects a 4-byte cookie (`l2tp cookie local 4`), b.conf sends 8 (`remote 8`).
    (message,) = _l2t105_messages("same-cookie-value-of-another-size")
    assert "differ in size: 4 bytes here, 8 bytes there (b.conf)" in message


def test_l2t105_says_same_size_other_value_without_showing_a_cookie() -> None:
    messages = _l2t105_messages("cookies-not-crossed")
    assert len(messages) == 2
    assert all("differ in value (both 4 bytes)" in m for m in messages)
    assert not any(value in m for m in messages for value in ("1111", "2222"))
