"""Import's notes say what push does (docs/push.md, "What push owns"), and only once that a line
is not in the model.

Before: importing l2tpgen's own rendered configs noted every `description l2tpgen: ...` as "not in
the model: push would remove it" (render writes it, push keeps it) and wrote that into the site
files; a routed subinterface of the LAN trunk was said to be removed by push, which never touches
it; and the text said "not in the model" after the label that already says it.

Ownership is checked against push's own scope (``l2tpgen.device.scope.own``), not restated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conftest import GOLDEN
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.device.scope import own
from l2tpgen.importer import import_configs
from l2tpgen.ios.tree import parse
from l2tpgen.model.site import Site

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()
RENDERED_A = (GOLDEN / "render" / "site-a.ios.conf").read_text()
RENDERED_B = (GOLDEN / "render" / "site-b.ios.conf").read_text()


def _with(text: str, extra: str) -> str:
    """The rendered config with ``extra`` sections added before `end` (or at its end)."""
    head, found, tail = text.rpartition("\nend\n")
    return f"{head}\n{extra}end\n{tail}" if found else text + extra


def _import(a: str) -> tuple[list[str], Site, str]:
    result = import_configs([("a.cfg", a), ("b.cfg", RENDERED_B)])
    site = next(s for s in result.sites if s.source == "a.cfg")
    return [n.message for n in result.unexpressed], Site.model_validate(site.data), site.text


def test_importing_l2tpgens_own_configs_notes_nothing_push_would_change() -> None:
    result = import_configs([("a.cfg", RENDERED_A), ("b.cfg", RENDERED_B)])
    assert result.unexpressed == ()
    for site in result.sites:
        assert "description" not in site.text
        assert "push would remove" not in site.text


ROUTED = (
    "interface GigabitEthernet0/0.50\n"
    " description management\n"
    " encapsulation dot1Q 50\n"
    " ip address 10.9.9.1 255.255.255.0\n"
    "!\n"
)
ROUTED_NOTE = (
    "GigabitEthernet0/0.50 is a subinterface of the LAN trunk without a pseudowire: push leaves "
    "it on the router (push owns only the trunk's subinterfaces that carry an L2TPv3 xconnect "
    "or l2tpgen's mark); its VLAN cannot be stretched while it is there"
)
MARKED = (
    "interface GigabitEthernet0/0.60\n"
    " description l2tpgen: VLAN 60 old to site-b\n"
    " encapsulation dot1Q 60\n"
    "!\n"
)


def test_a_routed_subinterface_of_the_trunk_is_left_by_push_and_the_note_says_so() -> None:
    config = _with(RENDERED_A, ROUTED)
    messages, site, _ = _import(config)
    assert messages == [ROUTED_NOTE]
    owned = own(parse(config, "a.cfg"), site, frozenset())
    assert "GigabitEthernet0/0.50" not in owned.subinterfaces  # push agrees: not its own


def test_a_marked_subinterface_without_a_pseudowire_is_removed_by_push_and_the_note_says_so() -> (
    None
):
    config = _with(RENDERED_A, MARKED)
    messages, site, _ = _import(config)
    assert messages == [
        (
            "GigabitEthernet0/0.60, a subinterface of the LAN trunk, has l2tpgen's mark "
            "(`description l2tpgen: ...`) but no pseudowire l2tpgen can express: push would remove "
            "it (it owns the trunk's subinterfaces that carry an L2TPv3 xconnect or its mark)"
        )
    ]
    owned = own(parse(config, "a.cfg"), site, frozenset())
    assert "GigabitEthernet0/0.60" in owned.subinterfaces  # push agrees: its own, not in the model


def test_a_users_description_on_a_pseudowire_subinterface_is_replaced_by_the_mark() -> None:
    config = RENDERED_A.replace(
        " description l2tpgen: VLAN 2996 public to site-b\n", " description web servers\n"
    )
    messages, _, text = _import(config)
    assert messages == [
        (
            "`description web servers` on GigabitEthernet0/0.2996: push replaces it with l2tpgen's "
            "mark (`description l2tpgen: VLAN ...`)"
        )
    ]
    assert "name: web-servers" in text  # the VLAN's name comes from it


def test_the_command_line_says_not_in_the_model_once_per_note(tmp_path: Path) -> None:
    a, b = tmp_path / "a.cfg", tmp_path / "b.cfg"
    a.write_text(_with(RENDERED_A, ROUTED))
    b.write_text(RENDERED_B)
    result = runner.invoke(app, ["import", str(a), str(b), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    header = a.read_text().splitlines().index("interface GigabitEthernet0/0.50") + 1
    lines = [line for line in result.stderr.splitlines() if "not in the model" in line]
    assert lines == [f"{a}:{header}:1: not in the model: {ROUTED_NOTE}"]


def test_a_description_on_the_lan_trunk_or_the_wan_interface_is_noted_as_kept_by_push() -> None:
    """The model has no description for either (model/site_fields.md) and import dropped it
    without a word (issue 34), though docs/import.md says nothing is dropped silently."""
    config = RENDERED_A.replace(
        "\ninterface GigabitEthernet0/0\n",
        "\ninterface GigabitEthernet0/0\n description to core sw1 Te1/0/1\n",
    ).replace(
        "\ninterface GigabitEthernet0/1\n",
        "\ninterface GigabitEthernet0/1\n description ISP circuit 4711 password hunter2\n",
    )
    messages, site, text = _import(config)
    assert messages == [
        "`description to core sw1 Te1/0/1` on GigabitEthernet0/0: push leaves it on the router",
        (
            "`description ISP circuit 4711 password <redacted>` on GigabitEthernet0/1: push "
            "leaves it on the router"
        ),
    ]
    assert "hunter2" not in text  # the comment in the site file is redacted as the message is
    owned = own(parse(config, "a.cfg"), site, frozenset())
    # push agrees: neither description is its own (the subinterfaces' marks are)
    assert "to core" not in owned.text
    assert "ISP circuit" not in owned.text
