"""docs/development.md's recipe for a site-file field, followed step by step in a checkout's copy.

The recipe ("A site-file field") is read from the page, and each of its steps is done here as a
developer would do it, on a copy (``tmp_path``) so that the source tree stays as it is: a VLAN's
``comment`` (a trial field) written into the VLAN's description and read back by ``import``. Then
the tests the recipe names run in the copy, whose l2tpgen is first on ``PYTHONPATH``, and must
pass; the field must be where the recipe says: the schema (described by its row), the site-file
reference, the rendered description, and the imported site.

An edit whose anchor is gone (the code moved) fails with the step's number: the recipe is then to
be brought up to date with the code, not this test loosened.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from conftest import ROOT
from support import checkout_copy, run_in_copy

if TYPE_CHECKING:
    from pathlib import Path

ROW = (
    "| `vlans[].comment` | 1-40 letters, digits, `.`, `_`, `-`, none | a note on the VLAN, "
    "written into its description after its name and read back by `import` |\n"
)
# step -> the file it edits -> (what is there, what it becomes)
EDITS: dict[int, list[tuple[str, str, str]]] = {
    1: [
        (
            "l2tpgen/model/site.py",
            "    native: Flag = False\n",
            (
                "    native: Flag = False\n"
                '    comment: str | None = Field(None, pattern=r"^[A-Za-z0-9._-]{1,40}$")\n'
            ),
        )
    ],
    2: [
        (
            "l2tpgen/model/site_fields.md",
            "| `vlans[].peer` |",
            ROW + "| `vlans[].peer` |",
        )
    ],
    3: [
        (
            "l2tpgen/render/marks.py",
            r'_DESCRIPTION = re.compile(r"^VLAN (\d+) (\S+) to (\S+)$")',
            r'_DESCRIPTION = re.compile(r"^VLAN (\d+) (\S+) to (\S+)(?: \((\S+)\))?$")',
        ),
        (
            "l2tpgen/render/marks.py",
            "    peer: str\n",
            "    peer: str\n    comment: str | None = None\n",
        ),
        (
            "l2tpgen/render/marks.py",
            '        words = f"VLAN {self.vlan} {self.name} to {self.peer}"\n',
            (
                '        words = f"VLAN {self.vlan} {self.name} to {self.peer}"\n'
                '        words += f" ({self.comment})" if self.comment else ""\n'
            ),
        ),
        (
            "l2tpgen/render/marks.py",
            "found.group(2), found.group(3))",
            "found.group(2), found.group(3), found.group(4))",
        ),
        (
            "l2tpgen/platforms/ios/render.py",
            "VlanDescription(pw_end.vlan.id, pw_end.vlan.name, pw_end.peer.name)",
            (
                "VlanDescription(pw_end.vlan.id, pw_end.vlan.name, pw_end.peer.name, "
                "pw_end.vlan.comment)"
            ),
        ),
        (
            "l2tpgen/platforms/vyos/render.py",
            "VlanDescription(pw.vlan.id, pw.vlan.name, pw.peer.name)",
            "VlanDescription(pw.vlan.id, pw.vlan.name, pw.peer.name, pw.vlan.comment)",
        ),
    ],
    4: [
        (
            "l2tpgen/importer/__init__.py",
            "from l2tpgen.model.site import NAME_PATTERN\n",
            (
                "from l2tpgen.model.site import NAME_PATTERN\n"
                "from l2tpgen.render.marks import read_description\n"
            ),
        ),
        (
            "l2tpgen/importer/__init__.py",
            '        entry["native"] = True  # `encapsulation dot1Q N native`\n',
            (
                '        entry["native"] = True  # `encapsulation dot1Q N native`\n'
                "    marked = read_description(peering.circuit.interface.description)\n"
                "    if peering.circuit.vlan and marked is not None and marked.comment:\n"
                '        entry["comment"] = marked.comment\n'
            ),
        ),
    ],
    5: [
        (
            "tests/strategies.py",
            '                    entry["vc_id"] = vc_id\n',
            (
                '                    entry["vc_id"] = vc_id\n'
                "                if draw(st.booleans()):\n"
                '                    entry["comment"] = f"rack-{vc_id % 100}.{me}"\n'
            ),
        )
    ],
}
TESTS = (
    "tests/test_site_fields.py", "tests/test_schema.py", "tests/test_docs_complete.py",
    "tests/test_render_ios.py", "tests/test_import_roundtrip.py",
)  # fmt: skip
# Render a fleet whose VLAN has a comment, import it back: the description and the imported value.
TRIAL = """
import json
from l2tpgen.importer import import_configs
from l2tpgen.model import Fleet, Site
from l2tpgen.model.load import load_fleet
from l2tpgen.platforms.render import render_site
fleet = load_fleet("sites")
sites = []
for site in fleet.sites.values():
    data = site.model_dump(mode="json", exclude_none=True)
    data["vlans"][0]["comment"] = "rack-4"  # VLAN 2996, first in both sites
    sites.append(Site.model_validate(data))
fleet = Fleet.build(sites)
configs = [(f"{name}.cfg", render_site(fleet, name)) for name in sorted(fleet.sites)]
back = import_configs(configs)
print(json.dumps({
    "config": configs[0][1],
    "imported": [v.get("comment") for s in back.sites for v in s.data["vlans"]],
}))
"""


def _recipe() -> dict[int, str]:
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    start = page.index("### A site-file field\n")
    text = page[start : page.index("\n### ", start + 1)]
    steps = re.split(r"^(\d)\. ", text, flags=re.MULTILINE)
    return {
        int(number): " ".join(body.split())
        for number, body in zip(steps[1::2], steps[2::2], strict=False)
    }


def _edit(copy: Path, step: int) -> None:
    for path, there, becomes in EDITS[step]:
        target = copy / path
        text = target.read_text(encoding="utf-8")
        assert text.count(there) == 1, f"step {step}: {path} no longer holds {there!r}"
        target.write_text(text.replace(there, becomes), encoding="utf-8")


def test_a_field_added_by_following_the_recipe_reaches_schema_docs_render_and_import(
    tmp_path: Path,
) -> None:
    recipe = _recipe()
    assert sorted(recipe) == list(range(1, 9)), recipe
    copy = checkout_copy(tmp_path)
    # Steps 1-5: each edits the files its step of the page names, and no other.
    for step in range(1, 6):
        for path, _, _ in EDITS[step]:
            assert f"`{path}`" in recipe[step] or path.startswith("l2tpgen/platforms/"), (
                f"step {step} of the recipe does not name {path}: {recipe[step]}"
            )
        _edit(copy, step)
    # Step 6: the reference page, with the command the recipe gives.
    assert "`pytest -q tests/test_site_fields.py --update-golden`" in recipe[6]
    copied = run_in_copy(copy, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--update-golden",
                  "tests/test_site_fields.py")  # fmt: skip
    assert copied.returncode == 0, copied.stdout[-3000:]
    # Step 7: the schema, with the command the recipe gives.
    assert "`l2tpgen schema -o schema/site.schema.json`" in recipe[7]
    schema = run_in_copy(copy, "-m", "l2tpgen", "schema", "-o", "schema/site.schema.json")
    assert schema.returncode == 0, schema.stderr
    # Step 8: the tests the recipe names pass in the copy.
    assert all(test in recipe[8] for test in TESTS), recipe[8]
    ran = run_in_copy(copy, "-m", "pytest", "-p", "no:cacheprovider", "-q", *TESTS)
    assert ran.returncode == 0, ran.stdout[-3000:]
    assert re.search(r"\b\d{3} passed", ran.stdout), ran.stdout[-500:]
    # The field is where the recipe says: the schema (its row's text), the reference page.
    written = json.loads((copy / "schema" / "site.schema.json").read_text(encoding="utf-8"))
    vlan = next(d for d in written["definitions"].values() if "carries" in d.get("properties", {}))
    assert vlan["properties"]["comment"]["description"].startswith("1-40 letters, digits")
    assert ROW in (copy / "docs" / "site-files.md").read_text(encoding="utf-8")
    # Render writes it into the description, and import reads it back.
    trial = run_in_copy(copy, "-c", TRIAL)
    assert trial.returncode == 0, trial.stderr[-3000:]
    result = json.loads(trial.stdout)
    assert " description l2tpgen: VLAN 2996 public to site-b (rack-4)\n" in result["config"]
    # Both sites' first VLAN has it (site-a and site-b, four VLANs each): back on those two alone.
    assert sorted(result["imported"], key=str) == [None] * 6 + ["rack-4"] * 2
