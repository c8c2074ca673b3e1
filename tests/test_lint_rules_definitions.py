"""Rules about what a config defines and names (L2T005, L2T016): what their findings say.

Where each finding is, is pinned by the rules' examples (``l2tpgen/lint/rules/examples``, run by
``test_lint_rules.py``); these tests run the same examples for what a finding must never say or
how often it is said.
"""

from __future__ import annotations

import pytest
from lint_cases import Case, examples, lint_case, param


@pytest.mark.parametrize("case", [param(c) for c in examples("L2T005")])
def test_l2t005_never_repeats_the_secret_it_found(case: Case) -> None:
    said = " ".join(f"{f.message} {f.fix}" for f in lint_case(case))
    assert not any(secret in said for secret in ("123456789", "s3cret", "0822455D0A16"))


@pytest.mark.parametrize("case", [param(c) for c in examples("L2T016") if c.expected])
def test_l2t016_reports_no_ip_cef_once_however_many_xconnects(case: Case) -> None:
    assert [f.code for f in lint_case(case) if f.code == "L2T016"] == ["L2T016"]
