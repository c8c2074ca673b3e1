"""The lab checks' registry (issue 29, item 3): every check module is found, and is whole.

A check is one module of ``l2tpgen/lab/checks/`` listing its classes in ``CHECKS``; nothing else
names it. These tests find every module on disk (not through the registry), ask that each one's
checks are registered, documented, say when they apply and judge; that docs/lab.md's table is the
registry's (the checks' docstrings); and that a check written in a module the package has never
seen is planned by every runner with no other file changed.
"""

from __future__ import annotations

import ast
import sys
from typing import TYPE_CHECKING

import pytest
from conftest import ROOT, SITES
from conftest_lab import beside

import l2tpgen.lab.checks as registry
from l2tpgen import load_fleet
from l2tpgen.lab.checks import (
    NOT_CHECKS,
    Check,
    LabCheck,
    PairCheck,
    ProtectionCheck,
    checks_markdown,
    not_applicable,
    plan_checks,
    registered,
)
from l2tpgen.lab.checks.base import RUNNERS, STAGES
from l2tpgen.lab.frames import tcpdump_extras
from l2tpgen.lab.inputs import load_lab, parse_lab
from l2tpgen.lab.pairs import pairs
from l2tpgen.lab.security import reveal_secrets
from l2tpgen.lab.strongswan import protection_extras
from l2tpgen.lab.topology import build_topology

if TYPE_CHECKING:
    from pathlib import Path

    from conftest import Golden

    from l2tpgen.lab.inputs import Lab

PACKAGE = ROOT / "l2tpgen" / "lab" / "checks"
SHIPPED = [
    "reach",
    "isolation",
    "mtu",
    "multicast",
    "frames",
    "injection",
    "capture",
    "replay",
    "ike",
]
DOC = ROOT / "docs" / "lab.md"
BEGIN = "<!-- lab checks: generated from l2tpgen/lab/checks/ (pytest --update-golden) -->\n"
END = "<!-- end of the generated lab checks -->\n"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", *NOT_CHECKS))


def _classes_defined(module: str) -> set[str]:
    """The classes a module's source defines whose base names a check scope (read, not run)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    scopes = {"PairCheck", "LabCheck", "ProtectionCheck", "AttackCheck"}
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id in scopes for b in node.bases)
    }


@pytest.mark.parametrize("module", MODULES)
def test_every_check_module_on_disk_registers_each_check_it_defines(module: str) -> None:
    found = {c.__name__ for c in registered() if c.__module__ == f"l2tpgen.lab.checks.{module}"}
    defined = _classes_defined(module)
    assert defined, f"l2tpgen/lab/checks/{module}.py defines no check"
    assert found == defined, f"{module}.py: defined {sorted(defined)}, registered {sorted(found)}"


_SCOPE: dict[str, type[Check]] = {c.scope: c for c in (PairCheck, LabCheck, ProtectionCheck)}
PLANNER = {"pair": "for_pair", "lab": "plan", "protection": "for_attacked"}


@pytest.mark.parametrize("check", registered(), ids=lambda c: c.name)
def test_each_check_has_a_doc_an_applies_rule_a_planner_and_a_judge(check: type[Check]) -> None:
    assert check.summary(), f"{check.__name__} has no docstring"
    assert len(check.doc().splitlines()) > 2, f"{check.__name__}: say what it proves and how"
    assert check.judge is not Check.judge, f"{check.__name__} does not judge"
    planner = PLANNER[check.scope]
    assert getattr(check, planner).__func__ is not getattr(_SCOPE[check.scope], planner).__func__
    assert set(check.never) <= set(RUNNERS)
    for lab in (load_lab(ROOT / "labs" / "example.clab.yml"), _hub()):
        for runner in RUNNERS:  # applies, or says why not
            reason = check.applies(lab, runner)
            assert reason is None or reason.strip(), f"{check.name} N/A under {runner} says nothing"
    assert all(
        check.applies(_hub(), runner) is None for runner in RUNNERS if runner not in check.never
    )


def test_check_names_are_unique_and_each_is_the_report_rows_name() -> None:
    names = [c.name for c in registered()]
    assert len(names) == len(set(names))
    # the report's rows keep their order (a new check may come anywhere among them)
    assert [name for name in names if name in SHIPPED] == SHIPPED

    plan = plan_checks(reveal_secrets(_hub()), "vm")  # every check applies to the hub
    assert [row.check for row in plan.judge({})] == [check.name for check in plan.checks]


def _hub() -> Lab:
    fleet = load_fleet(ROOT / "examples" / "hub")
    return parse_lab(build_topology(fleet, name="hub"), "hub", beside(fleet))


def test_a_plain_lab_runs_the_pair_checks_and_says_why_not_the_others() -> None:
    lab = load_lab(ROOT / "labs" / "example.clab.yml")
    skipped = not_applicable(lab, "vm")
    assert set(skipped) == {"frames", "injection", "capture", "replay", "ike"}
    assert "no Linux or VyOS PE with a Cisco peer" in skipped["frames"]
    assert "no PE runs IPsec" in skipped["injection"]
    plan = plan_checks(lab, "vm")
    assert [c.name for c in plan.checks[:4]] == ["reach", "isolation", "mtu", "multicast"]
    assert plan.extras == ()  # nothing beyond the base guest
    assert all(plan.probes(stage) == () for stage in STAGES if stage != "usual")


def test_each_runner_plans_what_it_can_run_and_gathers_guest_extras_once() -> None:
    lab = _hub()  # protected, and its Linux and VyOS edges have a Cisco peer
    vm, live, clab = (plan_checks(lab, runner) for runner in RUNNERS)
    assert {c.name for c in vm.checks} == {c.name for c in registered()}
    assert "injection" in dict(live.skipped)
    assert "frames" not in dict(live.skipped)
    assert {"frames", "injection"} <= set(dict(clab.skipped))

    counts = [
        {n: [c.name for c in plan.checks].count(n) for n in SHIPPED} for plan in (vm, live, clab)
    ]
    pair = {"reach": 9, "isolation": 9, "mtu": 9, "multicast": 9}  # 9 stretched VLANs
    attacks = {"injection": 2, "capture": 2, "replay": 2, "ike": 2}  # 2 pairs of IPsec PEs
    assert counts[0] == {**pair, "frames": 1, **attacks}  # linux-edge and the Cisco hub
    assert counts[1] == {**pair, "frames": 1, **dict.fromkeys(attacks, 0)}
    assert counts[2] == {**pair, "frames": 0, **dict.fromkeys(attacks, 0)}
    assert vm.extras == (tcpdump_extras, protection_extras)  # four protection checks, once
    assert live.extras == (tcpdump_extras,)
    assert clab.extras == ()
    # rows: the pair checks VLAN by VLAN, then the lab checks, then each attacked pair's
    names = [c.name for c in vm.checks]
    assert names[:4] == ["reach", "isolation", "mtu", "multicast"]
    scopes = [type(c).scope for c in vm.checks]
    assert scopes == sorted(scopes, key=("pair", "lab", "protection").index)
    first_attack = names.index("injection")
    assert names[first_attack : first_attack + 4] == ["injection", "capture", "replay", "ike"]


def test_the_attacks_run_before_and_after_the_usual_probes_and_the_sa_listing_last() -> None:

    plan = plan_checks(reveal_secrets(_hub()), "vm")
    before, after, last = (plan.probes(stage) for stage in ("before", "after", "last"))
    assert before
    assert all(p.key.startswith("control.") for p in before)
    assert after
    assert all(p.key.startswith("protected.") for p in after)
    assert [p.key for p in last] == ["ike.pe-branch", "ike.pe-hub", "ike.pe-linux-edge"]
    assert not {p.key for p in plan.probes("usual")} & {p.key for p in (*before, *after, *last)}


def test_docs_lab_md_lists_the_checks_as_the_registry_documents_them(golden: Golden) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text, f"docs/lab.md lacks the marker {BEGIN!r}"
    assert END in text, f"docs/lab.md lacks the marker {END!r}"
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    if golden.update:
        DOC.write_text(head + BEGIN + checks_markdown() + END + tail, encoding="utf-8")
        return
    assert body == checks_markdown(), "docs/lab.md's table is stale: pytest --update-golden"


NEW_CHECK = '''
"""A check no one listed anywhere: the far CE's address answers a ping of 100 bytes."""

from __future__ import annotations

from dataclasses import dataclass

from l2tpgen.lab.checks.base import PairCheck
from l2tpgen.lab.probes import CheckResult, Probe


@dataclass(frozen=True)
class Small(PairCheck):
    """The far CE answers a ping of 100 bytes.

    Written for the registry's test: one module, nothing else changed.
    """

    name = "small"
    order = 50
    pair: object

    @classmethod
    def for_pair(cls, lab, pair):
        return cls(pair)

    @property
    def probes(self):
        return (Probe(f"small.{self.pair.vlan}", self.pair.near.node, "ping -c 1 -s 100 x"),)

    def judge(self, results):
        ok = results.get(f"small.{self.pair.vlan}") == "0"
        return CheckResult("small", self.pair.vlan, self.pair.sites, ok, "100 bytes")


CHECKS = (Small,)
'''


def test_a_new_check_module_is_planned_by_every_runner_with_nothing_else_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "small.py").write_text(NEW_CHECK, encoding="utf-8")
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    monkeypatch.delitem(sys.modules, "l2tpgen.lab.checks.small", raising=False)
    registered.cache_clear()
    try:
        lab = parse_lab(build_topology(load_fleet(SITES), name="example"))
        for runner in RUNNERS:
            plan = plan_checks(lab, runner)
            names = [c.name for c in plan.checks]
            assert names.count("small") == len(pairs(lab))  # one per stretched VLAN
            assert names.index("small") < names.index("reach", 1)  # among the first VLAN's
            assert "small.2996" in [p.key for p in plan.probes("usual")]
            verdicts = plan.judge({"small.2996": "0"})
            assert ("small", 2996, True) in [(v.check, v.vlan, v.ok) for v in verdicts]
        assert "| `small` | pair | The far CE answers a ping of 100 bytes. |" in checks_markdown()
    finally:
        registered.cache_clear()
        sys.modules.pop("l2tpgen.lab.checks.small", None)
