"""What docs/netbox.md promises, held from the command line (issue 34, the claims table).

No NetBox runs here: each command talks to a replay of what the real NetBox 4.7 answered
(``tests/netbox/recorded/*.json``, see ``tests/netbox_recording.py``), or to a recording written
here for one request. A request the replay does not hold fails the command, so what each test
lets through is all l2tpgen asked.
"""

from __future__ import annotations

import json
import re
import shutil
from typing import TYPE_CHECKING, Any

import pytest
import typer.main
from conftest import ROOT, SITES
from netbox_recording import BASE, Recording, replaying
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

pytest.importorskip("pynetbox")

runner = CliRunner()
RECORDED = ROOT / "tests" / "netbox" / "recorded"
TOKEN = "nbt_recorded.not-a-secret-0123456789"  # noqa: S105 - the replay accepts any token
SECRET = "claims-l2tp-secret-5d1f0c"  # noqa: S105 - made up: must never leave the machine
NO_DEVICES: dict[str, Any] = {"count": 0, "next": None, "previous": None, "results": []}


def _replay(monkeypatch: pytest.MonkeyPatch, recorded: Recording) -> list[dict[str, Any]]:
    """Every NetBox session the CLI opens answers from ``recorded``; returns what was asked."""
    from l2tpgen.netbox import http as module  # noqa: PLC0415

    made = module._session  # noqa: SLF001
    asked: list[dict[str, Any]] = []

    def session(limit: float, budget: Any = None) -> Any:  # noqa: ANN401
        real = made(limit, budget)
        transport = replaying(real, recorded)
        transport.asked = asked
        return real

    monkeypatch.setattr(module, "_session", session)
    monkeypatch.setenv("L2TPGEN_NETBOX_URL", BASE)
    monkeypatch.setenv("L2TPGEN_NETBOX_TOKEN", TOKEN)
    return asked


def _devices_query(query: list[list[str]]) -> Recording:
    request = {"method": "GET", "path": "/api/dcim/devices/", "query": query, "body": None}
    return Recording([{"request": request, "status": 200, "answer": NO_DEVICES}])


def _commands() -> dict[str, Any]:
    """Every command of the CLI by its path (``netbox pull``), as click lists them."""
    found: dict[str, Any] = {}

    def walk(command: Any, path: str, ctx: Any) -> None:  # noqa: ANN401
        names = command.list_commands(ctx) if hasattr(command, "list_commands") else None
        if names is None:
            found[path] = command
            return
        for name in names:
            sub = command.get_command(ctx, name)
            if sub is not None:
                context = sub.context_class(sub, parent=ctx, info_name=name)
                walk(sub, f"{path} {name}".strip(), context)

    root = typer.main.get_command(app)
    walk(root, "", root.context_class(root, info_name="l2tpgen"))
    return found


def test_no_command_takes_the_netbox_token_as_an_option() -> None:
    commands = _commands()
    assert "netbox pull" in commands
    assert "netbox push" in commands
    for path, command in commands.items():
        for param in command.params:
            words = [*getattr(param, "opts", []), str(getattr(param, "envvar", "") or "")]
            assert not [w for w in words if "token" in w.lower()], (path, param.name)


@pytest.mark.parametrize(
    ("options", "query"),
    [
        (
            ["--tag", "l2tpgen", "--site", "dc1", "--role", "pe"],
            [["role", "pe"], ["site", "dc1"], ["tag", "l2tpgen"]],
        ),
        ([], []),
    ],
    ids=["all-three-together", "none-every-device"],
)
def test_pull_asks_netbox_for_the_devices_matching_every_filter_given_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, options: list[str], query: list[list[str]]
) -> None:
    asked = _replay(monkeypatch, _devices_query(query))
    result = runner.invoke(app, ["netbox", "pull", "-o", str(tmp_path / "out"), *options])
    assert "no device in NetBox matches the selection" in result.output
    assert [(a["path"], a["query"]) for a in asked] == [("/api/dcim/devices/", query)]


def test_a_push_sends_netbox_no_secret_and_a_pull_writes_only_the_variables_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("L2TPGEN_L2TP_SECRET", SECRET)
    asked = _replay(monkeypatch, Recording.load(RECORDED / "push-sites.json"))
    pushed = runner.invoke(app, ["netbox", "push", "--sites", str(SITES)])
    assert pushed.exit_code == 0, pushed.output
    sent = json.dumps([a["body"] for a in asked if a["body"] is not None])
    assert '"custom_fields"' in sent  # the bodies were read
    assert SECRET not in sent
    assert "L2TPGEN_L2TP_SECRET" not in sent  # not even the variable's name: it is the overlay's
    # Pulled back, a site file names the variable (from the overlay) and holds no secret.
    _replay(monkeypatch, Recording.load(RECORDED / "pull-sites.json"))
    out = tmp_path / "out"
    overlay = ROOT / "tests" / "netbox" / "overlay-sites.yaml"
    pulled = runner.invoke(
        app, ["netbox", "pull", "--tag", "l2tpgen", "--overlay", str(overlay), "-o", str(out)]
    )
    assert pulled.exit_code == 0, pulled.output
    texts = [path.read_text() for path in sorted(out.glob("*.yaml"))]
    assert len(texts) == 2
    for text in texts:
        assert "secret_env: L2TPGEN_L2TP_SECRET" in text
        assert SECRET not in text
        assert not re.search(r"\bsecret:", text)


def test_a_dry_run_push_lists_every_change_and_sends_netbox_no_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _replay(monkeypatch, Recording.load(RECORDED / "push-sites.json"))
    dry = runner.invoke(app, ["netbox", "push", "--sites", str(SITES), "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert {a["method"] for a in asked} == {"GET"}
    listed = sorted(line.removeprefix("would ") for line in dry.stdout.splitlines())
    listed = [line for line in listed if line.startswith(("create ", "update "))]
    # The same push for real: each object it makes is listed, a new interface with the device
    # it would be made on (both devices have a GigabitEthernet0/1); the real push then tags what
    # it made, which the dry run counts in the creation.
    asked.clear()
    real = runner.invoke(app, ["netbox", "push", "--sites", str(SITES)])
    assert real.exit_code == 0, real.output
    lines = real.stdout.splitlines()
    made = list(lines)
    tagged = [line for line in made if line.startswith("update tags ")]
    made = sorted(m for m in made if m.startswith(("create ", "update ")) and m not in tagged)
    assert listed == made
    assert sum(m.startswith("update device ") for m in made) == 2  # their primary IPv4
    assert len(tagged) == 4  # the two devices and their WAN interfaces, tagged once made
    assert {a["method"] for a in asked} > {"GET"}  # the real push wrote


def test_a_push_of_a_smaller_fleet_deletes_nothing_netbox_holds_beyond_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # NetBox holds sites/ (the recording of a second push); the fleet pushed lacks VLAN 2999.
    smaller = tmp_path / "sites"
    shutil.copytree(SITES, smaller)
    for path in smaller.glob("*.yaml"):
        lines = path.read_text().splitlines(keepends=True)
        path.write_text("".join(line for line in lines if "{id: 2999," not in line))
    asked = _replay(monkeypatch, Recording.load(RECORDED / "push-sites-again.json"))
    result = runner.invoke(app, ["netbox", "push", "--sites", str(smaller)])
    assert result.exit_code == 0, result.output
    assert "no change" in result.output
    assert {a["method"] for a in asked} == {"GET"}  # no DELETE, nor anything else that writes


INVENTORY_COMMANDS = [
    ["push", "site-a", "--yes"],
    ["diff", "site-a"],
    ["verify", "site-a"],
    ["rollback", "site-a"],
    ["confirm", "site-a"],
]


def test_every_command_with_an_inventory_option_reads_a_netbox_inventory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    having = {path for path, c in _commands().items() if "inventory" in {p.name for p in c.params}}
    assert having == {args[0] for args in INVENTORY_COMMANDS}
    monkeypatch.setenv("L2TPGEN_USERNAME", "u")
    monkeypatch.setenv("L2TPGEN_PASSWORD", "p")
    monkeypatch.setenv("L2TPGEN_STATE_DIR", str(tmp_path))
    monkeypatch.delenv("L2TPGEN_NETBOX_URL", raising=False)
    for args in INVENTORY_COMMANDS:
        base = [*args, "--sites", str(SITES), "--inventory"]
        # netbox's own filter keys, checked before anything is contacted
        bad = runner.invoke(app, [*base, "netbox:color=red"])
        assert bad.exit_code == 1, args
        assert "is not one of tag, site, role, known_hosts" in " ".join(bad.output.split()), args
        # and NetBox is where the routers' addresses come from
        unset = runner.invoke(app, [*base, "netbox:tag=l2tpgen"])
        assert unset.exit_code == 1, args
        assert "set L2TPGEN_NETBOX_URL" in " ".join(unset.output.split()), args


def _without_primary_ip(name: str) -> Recording:
    """Recording ``name`` with its first device's primary IPv4 address taken away."""
    recorded = Recording.load(RECORDED / f"{name}.json")
    for exchange in recorded.exchanges:
        if exchange["request"]["path"] == "/api/dcim/devices/" and exchange["answer"]:
            exchange["answer"]["results"][0]["primary_ip4"] = None
            return recorded
    raise AssertionError(name)


def test_pull_reports_a_device_without_a_primary_ip_once_not_again_as_a_missing_field(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The mapping names the device and what to set in NetBox; the site model's "management:
    # Field required" for the same gap would say it a second time, less usefully.
    _replay(monkeypatch, _without_primary_ip("pull-pair"))
    result = runner.invoke(
        app, ["netbox", "pull", "--tag", "l2tpgen", "-o", str(tmp_path / "out"), "--format", "json"]
    )
    assert result.exit_code == 1
    unmapped = json.loads(result.stdout)["unmapped"]
    assert [u["message"] for u in unmapped] == ["device r1 has no primary IPv4 address (SSH)"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_pull_prints_each_object_it_cannot_map_with_its_netbox_url_and_why(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fmt: str
) -> None:
    _replay(monkeypatch, _without_primary_ip("pull-pair"))
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["netbox", "pull", "--tag", "l2tpgen", "-o", str(out), "--format", fmt]
    )
    assert result.exit_code == 1
    assert not out.exists()
    url = f"{BASE}/dcim/devices/1/"
    why = "device r1 has no primary IPv4 address"
    if fmt == "json":
        unmapped = json.loads(result.stdout)["unmapped"]
        assert {"url": url, "message": f"{why} (SSH)"} in unmapped
    else:
        assert f"{url}: not mapped: {why}" in " ".join(result.output.split())
