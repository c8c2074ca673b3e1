"""Secrets on a live router are compared by value: the same secret in another form is no change.

IOS takes ``password [0|7] X`` (0 or no number: X is the secret as typed; 7: X is its type-7
encoding; docs/l2tpv3-brief.md, Cisco's WAN guide). l2tpgen renders type 7; a router configured by
hand often holds type 0. Rebuilding every class and xconnect because of the spelling would take
every pseudowire down for nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from builders import both_ends, copy_example
from conftest import SITES

from l2tpgen import load_fleet, render_site
from l2tpgen.device.plan import plan_change
from l2tpgen.ios.type7 import encode

if TYPE_CHECKING:
    from pathlib import Path

SECRET = "123456789"  # noqa: S105 - the reference case's published example
FLEET = load_fleet(SITES)
SITE_A = FLEET.site("site-a")
INTENDED = render_site(
    FLEET, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": SECRET}
)


def _with_password(line: str) -> str:
    """The intended config, live on the router, its l2tp-class secret written as ``line``."""
    assert len(re.findall(r" password 7 \S+\n", INTENDED)) == 1
    return re.sub(r" password 7 \S+\n", f" {line}\n", INTENDED)


@pytest.mark.parametrize(
    "line",
    [f"password 0 {SECRET}", f"password {SECRET}", f"password 7 {encode(SECRET, salt=3)}"],
    ids=["type-0", "no-type", "type-7-other-salt"],
)
def test_the_same_secret_in_another_form_changes_nothing(line: str) -> None:
    plan = plan_change(SITE_A, _with_password(line), INTENDED)
    assert plan.empty, plan.commands
    assert plan.diff("site-a") == ""


@pytest.mark.parametrize(
    "line",
    ["password 0 another-secret", "password another-secret", "password 5 $1$abcd$efgh"],
    ids=["type-0", "no-type", "a-hash-that-cannot-be-compared"],
)
def test_another_secret_in_any_form_is_set_in_place_and_never_shown(line: str) -> None:
    plan = plan_change(SITE_A, _with_password(line), INTENDED)
    assert plan.send[0] == "l2tp-class class1"
    assert plan.send[1].startswith(" password 7 ")
    assert len(plan.send) == 2  # no new class version, no xconnect touched
    shown = plan.diff("site-a") + "\n".join(plan.commands) + "\n".join(plan.notes)
    value = line.rsplit(maxsplit=1)[-1]
    ours = plan.send[1].split()[-1]
    for secret in (value, ours, SECRET):
        assert secret not in shown


def test_a_digest_secret_typed_in_clear_is_the_same_as_the_rendered_type_7(tmp_path: Path) -> None:
    digest = both_ends("authentication: password,", "authentication: digest,")
    fleet = load_fleet(copy_example(SITES, tmp_path, *digest))
    want = render_site(
        fleet, "site-a", reveal_secrets=True, environ={"L2TPGEN_L2TP_SECRET": "s3cr"}
    )
    assert re.search(r"^ digest secret 7 \S+ hash sha$", want, re.MULTILINE)
    running = re.sub(r"digest secret 7 \S+ hash sha", "digest secret 0 s3cr hash sha", want)
    assert plan_change(fleet.site("site-a"), running, want).empty
