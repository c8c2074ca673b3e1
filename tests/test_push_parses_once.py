"""A dry-run push reads each text once (issue 35).

The site is rendered once; each text a push handles (the masked rendering the lint gate reads,
the peer's rendering lint reads beside it, the rendering with its secrets, the router's running
config, the intended config after class versions) is cleaned once (``ios/text.py clean``), built
into a tree once (``ios/tree.py build``) and has its facts extracted at most once
(``ios/extract.py extract``), however many checks read it: the lint gate, the plan, ownership
(``device/scope.py``), the claims on marked objects (``device/claims.py``,
``device/mark_claims.py``) and the other VPNs' peers (``device/foreign_vpn.py``). hier_config
reads each of its two texts once. Counted by wrapping each function wherever l2tpgen imported it.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

import hier_config
import pytest
import typer
from builders import HUB, revealed_site
from conftest_sim import PASSWORD, USERNAME, Lab
from push_runs import cli, on_a_terminal, push

import l2tpgen.ios.extract
import l2tpgen.ios.text
import l2tpgen.ios.tree
import l2tpgen.platforms.render
from l2tpgen.device.credentials import Credentials
from l2tpgen.device.inventory import Target
from l2tpgen.device.options import PushOptions
from l2tpgen.device.plan import plan_change
from l2tpgen.device.push import push_site
from l2tpgen.device.result import Status

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

SECRETS = ("L2TPGEN_L2TP_SECRET", "L2TPGEN_IKE_PSK")


class Counts:
    """How many times each reading step ran, per text (per site for the renderer)."""

    def __init__(self) -> None:
        self.render: Counter[str] = Counter()
        self.clean: Counter[str] = Counter()
        self.build: Counter[tuple[str, ...]] = Counter()
        self.extract: Counter[tuple[str, ...]] = Counter()
        self.hier_config: Counter[str] = Counter()

    def reset(self) -> None:
        """Forget what was counted so far (the set-up's own readings)."""
        for counter in self.steps().values():
            counter.clear()

    def steps(self) -> dict[str, Counter[Any]]:
        return {
            "render": self.render,
            "clean": self.clean,
            "build": self.build,
            "extract": self.extract,
            "hier_config": self.hier_config,
        }

    def repeated(self) -> dict[str, list[int]]:
        """Each step that ran more than once on one text, with its counts."""
        return {
            step: sorted(n for n in counter.values() if n > 1)
            for step, counter in self.steps().items()
            if any(n > 1 for n in counter.values())
        }


def _everywhere(
    monkeypatch: pytest.MonkeyPatch,
    module: Any,  # noqa: ANN401 - any l2tpgen module
    name: str,
    count: Callable[..., None],
) -> None:
    """Wrap ``module.name`` in every l2tpgen module that holds it (``from x import name`` too)."""
    original = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        count(*args)
        return original(*args, **kwargs)

    for loaded in list(sys.modules.values()):
        if getattr(loaded, "__name__", "").startswith("l2tpgen") and (
            getattr(loaded, name, None) is original
        ):
            monkeypatch.setattr(loaded, name, counted)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    """Count, per text, each render, clean-up, tree, fact extraction and hier_config reading."""
    counts = Counts()
    renderers = l2tpgen.platforms.render.RENDERERS
    for platform, renderer in list(renderers.items()):

        def rendering(*args: Any, _renderer: Any = renderer, **kwargs: Any) -> Any:  # noqa: ANN401
            counts.render[args[1]] += 1  # (fleet, site name, format)
            return _renderer(*args, **kwargs)

        monkeypatch.setitem(renderers, platform, rendering)

    def on_clean(text: str) -> None:
        counts.clean[text] += 1

    def on_build(text: Any, *_: Any) -> None:  # noqa: ANN401 - CleanText, name
        counts.build[tuple(text.lines)] += 1

    def on_extract(_file: str, config: Any) -> None:  # noqa: ANN401 - a Config
        counts.extract[tuple(config.text.lines)] += 1

    def on_hier_config(_platform: object, text: str) -> None:
        counts.hier_config[text] += 1

    _everywhere(monkeypatch, l2tpgen.ios.text, "clean", on_clean)
    _everywhere(monkeypatch, l2tpgen.ios.tree, "build", on_build)
    _everywhere(monkeypatch, l2tpgen.ios.extract, "extract", on_extract)
    original = hier_config.get_hconfig  # imported where it is called: the attribute is read then

    def get_hconfig(*args: Any) -> Any:  # noqa: ANN401
        on_hier_config(*args)
        return original(*args)

    monkeypatch.setattr(hier_config, "get_hconfig", get_hconfig)
    return counts


def test_a_dry_run_push_renders_the_site_once_and_reads_each_text_once(
    lab: Lab, counts: Counts
) -> None:
    code, (result,) = push(lab, "site-a", "--dry-run")
    assert (code, result["status"]) == (0, "would-change"), result
    assert counts.repeated() == {}
    assert counts.render == {"site-a": 1, "site-b": 1}  # site-b: its end of the pairs, for lint
    # The masked renderings of site-a and site-b, site-a's with its secrets, the running config,
    # the intended config after class versions: each read once, into one tree.
    assert len(counts.clean) == len(counts.build) == 5
    assert len(counts.hier_config) == 2  # the owned part of running, the intended


def test_without_the_secrets_the_text_the_lint_gate_read_is_the_one_planned(
    lab: Lab, counts: Counts, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in SECRETS:
        monkeypatch.delenv(variable)
    code, (result,) = push(lab, "site-a", "--dry-run")
    assert (code, result["status"]) == (0, "would-change"), result
    assert counts.repeated() == {}
    masked = [text for text in counts.clean if text.startswith("! l2tpgen: site-a ")]
    assert len(masked) == 1  # linted and planned: one text, read once
    # site-a's and site-b's renderings, the running config, the intended after class versions.
    assert len(counts.clean) == len(counts.build) == 4


def test_push_site_alone_reads_the_rendering_once_for_its_lint_gate_and_its_plan(
    lab: Lab, counts: Counts, tmp_path: Path
) -> None:
    device = lab.device("site-a")
    known = lab.inventory.with_name(lab.inventory.name + ".known_hosts")
    target = Target("site-a", "127.0.0.1", device.port, device.router.flavor.device_type, known)
    options = PushOptions(dry_run=True, state_dir=tmp_path / "state", environ={})
    result = push_site(lab.fleet, "site-a", target, Credentials(USERNAME, PASSWORD), options)
    assert result.status is Status.WOULD_CHANGE, result.message
    assert counts.repeated() == {}
    assert counts.render == {"site-a": 1, "site-b": 1}
    assert len(counts.clean) == 4  # as above: push_site runs the lint gate itself


def test_planning_reads_the_running_config_once_for_ownership_and_the_marks(
    counts: Counts,
) -> None:
    # A stale subinterface owned by l2tpgen's mark alone: ownership (`scope.own`, twice) and
    # the claims on marked objects (`mark_claims`) all read the running config's facts.
    site, intended = revealed_site(
        HUB, "hub", {"L2TPGEN_L2TP_SECRET": "l2tp-secret", "L2TPGEN_IKE_PSK": "Psk-only-in-env-7"}
    )
    stale = (
        "interface GigabitEthernet0/0/0.300\n description l2tpgen: VLAN 300 old to branch\n"
        " encapsulation dot1Q 300\n no cdp enable\n!\n"
    )
    running = (
        intended.replace("\nend\n", f"\n{stale}end\n")
        if "\nend\n" in intended
        else (intended + stale)
    )
    counts.reset()
    plan = plan_change(site, running, intended)
    assert plan.send == ("no interface GigabitEthernet0/0/0.300",)
    assert counts.repeated() == {}
    assert counts.clean[running] == 1
    assert len(counts.extract) == 2  # the running config and the intended: once each


def test_a_push_reads_each_rendering_once_for_the_diff_and_the_change(
    lab: Lab, counts: Counts
) -> None:
    # `push --yes`: the change is planned, then checked against the config read after it. The
    # renderings (masked, with secrets) and the intended config after class versions are read
    # once for all of it; each config the router shows is a text of its own, read once.
    code, (result,) = push(lab, "site-a")
    assert (code, result["status"]) == (0, "changed"), result
    assert counts.render == {"site-a": 1, "site-b": 1}
    # hier_config's own tree of the intended part is built at each of the three plans (diff,
    # push, check): its objects go into its remediation, and are not shared.
    assert counts.repeated() == {"hier_config": [3]}
    renderings = [t for t in counts.clean if t.startswith("! l2tpgen: site-a ")]
    assert len(renderings) == 2  # masked, and with its secrets


def test_a_push_asked_on_a_terminal_reads_each_rendering_once_for_the_diff_and_the_change(
    lab: Lab, counts: Counts, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Asked first: a dry run (lint gate, diff shown), then, once approved, the change. The two
    # rounds share their readings of the renderings; the router's config is read again for the
    # change (it may have changed meanwhile), so the same text may be read once per round.
    on_a_terminal(monkeypatch)
    monkeypatch.setattr(typer, "confirm", lambda *_, **__: True)
    result = cli(lab, "push", "site-a")
    assert result.exit_code == 0, result.output
    assert counts.render == {"site-a": 1, "site-b": 1}
    router = {t: n for t, n in counts.clean.items() if t.startswith("Building configuration")}
    ours = {t: n for t, n in counts.clean.items() if t not in router}
    # site-a's masked and revealed renderings, site-b's, the intended after class versions
    assert list(ours.values()) == [1, 1, 1, 1]
    assert sorted(router.values()) == [1, 2]  # before: once per round; after the change: once
