"""Secrets of every feature a router holds are masked in every output that prints router text.

Issue 33 item 6: `rollback` and push's "someone changed the router" message printed 7 of 8
secrets loaded on a router, and over tests/realworld the mask left 10 of 47 redacted lines.
The lines come from a corpus (``tests/secrets_corpus/ios_secret_lines.yaml``): every redacted
line of tests/realworld and the forms of Cisco's command references, each with its source and
its secret between ``[[`` and ``]]``. Only l2tpgen's own placeholders, in their exact form and
place, pass unmasked.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from l2tpgen import load_fleet, render_site
from l2tpgen.cli import app
from l2tpgen.cli.push_output import print_result, result_dict
from l2tpgen.device import PushResult, confirm, confirm_fleet
from l2tpgen.device.credentials import install_redaction
from l2tpgen.device.exclusive import foreign_change, what_changed
from l2tpgen.device.manual_rollback import Copy, masked_diff
from l2tpgen.device.plan import Plan
from l2tpgen.device.result import Status
from l2tpgen.device.rollback_copy import rollback_name
from l2tpgen.device.session import parse_output
from l2tpgen.importer.notes import redact
from l2tpgen.model.keys import psk_placeholder
from l2tpgen.model.protection import cookie_placeholder
from l2tpgen.secrets import mask_line, mask_secrets, masked

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "secrets_corpus" / "ios_secret_lines.yaml"
REALWORLD = ROOT / "tests" / "realworld"
_MARK = re.compile(r"\[\[(.*?)\]\]")


@dataclass(frozen=True)
class Entry:
    """One corpus line: as a router prints it, its secrets, and where it comes from."""

    line: str
    secrets: tuple[str, ...]
    source: str


def _entries() -> list[Entry]:
    raw = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    return [
        Entry(_MARK.sub(r"\1", item["line"]), tuple(_MARK.findall(item["line"])), item["source"])
        for item in raw
    ]


ENTRIES = _entries()
SECRETS = sorted({secret for entry in ENTRIES for secret in entry.secrets})
BODY = "\n".join(entry.line for entry in ENTRIES)


def _leaks(text: str) -> list[str]:
    return [secret for secret in SECRETS if secret in text]


def test_the_corpus_has_sixty_lines_or_more_each_with_a_source_and_a_marked_secret() -> None:
    assert len(ENTRIES) >= 60
    for entry in ENTRIES:
        assert entry.secrets, entry.line
        assert entry.source.strip(), entry.line
        assert all(secret in entry.line for secret in entry.secrets)


def test_every_redacted_line_of_the_realworld_configs_is_in_the_corpus() -> None:
    by_source = {entry.source: entry.line for entry in ENTRIES}
    found = 0
    for path in sorted(REALWORLD.rglob("*.cfg")):
        text = path.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            if "REDACTED" in line:
                found += 1
                where = f"{path.relative_to(ROOT)}:{number}"
                assert by_source.get(where) == line.rstrip("\r"), where
    assert found == 47


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.line.strip()[:60])
def test_each_corpus_line_is_masked_and_keeps_its_command_words(entry: Entry) -> None:
    shown = mask_line(entry.line)
    assert not [secret for secret in entry.secrets if secret in shown], shown
    assert "<masked>" in shown
    assert shown.startswith(entry.line[: entry.line.index(entry.secrets[0])])
    no_line = re.sub(r"^(\s*)", r"\1no ", entry.line, count=1)
    assert not [secret for secret in entry.secrets if secret in mask_line(no_line)]


def _no_secret_lines() -> list[str]:
    """Every realworld line that says `authentication` and is in no corpus entry's place."""
    secret = {entry.source.split()[0] for entry in ENTRIES}
    return [
        line
        for path in sorted(REALWORLD.rglob("*.cfg"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "authentication" in line.lower() and f"{path.relative_to(ROOT)}:{number}" not in secret
    ]


@pytest.mark.parametrize(
    "line",
    [
        *_no_secret_lines(),
        " authentication local rsa-sig",
        " ip ospf authentication message-digest",
        " ip authentication mode eigrp 100 md5",
        " ip rip authentication mode md5",
        "aaa authentication login VTY group tacacs+ local",
        "+aaa authentication login VTY local",
        " dot1x pae authenticator",
        "crypto isakmp policy 10",
        "key chain EIGRP-KEYS",
        " description the key to the password vault",
    ],
)
def test_a_line_that_names_no_secret_is_left_as_it_is(line: str) -> None:
    assert mask_line(line) == line


# -- l2tpgen's own placeholders: exact form, exact place --

ENV = {
    "L2TPGEN_L2TP_SECRET": "l2tp-secret-value-1",
    "L2TPGEN_IKE_PSK": "master-key-for-the-hub-fleet-0001",
    "L2TPGEN_COOKIE_KEY": "cookie-key-for-the-fleet-000001",
}


@pytest.mark.parametrize("example", ["hub", "protected", "field"])
def test_l2tpgens_masked_renderings_pass_the_mask_unchanged(example: str) -> None:
    fleet = load_fleet(ROOT / "examples" / example)
    checked = 0
    for name in sorted(fleet.sites):
        if fleet.site(name).driver.ios_config:  # the mask reads IOS text
            text = render_site(fleet, name)
            checked += "<L2TPGEN_" in text
            assert mask_secrets(text) == text, name
    assert checked


@pytest.mark.parametrize(
    "line",
    [
        f" password 7 {masked('L2TPGEN_L2TP_SECRET')}",
        f" digest secret 7 {masked('L2TPGEN_SECRET_BACKBONE')} hash sha",
        f"  pre-shared-key {psk_placeholder('L2TPGEN_IKE_PSK', ('hub', 'branch'))}",
        "  l2tp cookie local 8 "
        + cookie_placeholder("L2TPGEN_COOKIE_KEY", ("a", "b"), 100, "a", 8),
    ],
)
def test_each_placeholder_l2tpgen_writes_stays_in_its_place(line: str) -> None:
    assert mask_line(line) == line


@pytest.mark.parametrize(
    "line",
    [
        " password 0 <L2TPGEN_L2TP_SECRET>",  # not after type 7: someone typed it
        "username u secret 0 <L2TPGEN_L2TP_SECRET>",
        " password 7 <L2TPGEN_L2TP_SECRET>x",
        " password 7 <lowercase-secret>",
        "  pre-shared-key <L2TPGEN_IKE_PSK/psk/hub/branch>x",
        "  pre-shared-key <L2TPGEN_IKE_PSK/psk/hub>",
        "  l2tp cookie local 8 <L2TPGEN_COOKIE_KEY/cookie/a/b/100/a/9>",
        "  pre-shared-key <Adm1n>",
    ],
)
def test_a_value_that_only_looks_like_a_placeholder_is_masked(line: str) -> None:
    assert mask_line(line).endswith("<masked>"), mask_line(line)


# -- every output that prints router text --


def test_rollbacks_diff_text_and_json_show_no_secret_of_the_corpus(
    capsys: pytest.CaptureFixture[str],
) -> None:
    running = "hostname r1\n!\ninterface Loopback0\n ip address 192.0.2.1 255.255.255.255\n"
    copy = Copy(rollback_name("r1", 1.8e9), on_router=True, local=None)
    for before, after in ((running, running + BODY), (running + BODY, running)):
        diff = masked_diff("r1", before, copy, after)
        assert diff.count("<masked>") >= len(ENTRIES)
        result = PushResult("r1", Status.ROLLED_BACK, "rolled back", diff=diff)
        print_result(result, "r1 (192.0.2.1)", diff=True)
        shown = capsys.readouterr()
        assert not _leaks(shown.out + shown.err)
        assert not _leaks(json.dumps(result_dict(result)))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.line.strip()[:60])
def test_push_someone_changed_the_router_message_shows_no_secret(entry: Entry) -> None:
    old = "hostname r1\n!\nline vty 0 4\n"
    for before, after in ((old, f"{old}{entry.line}\n"), (f"{old}{entry.line}\n", old)):
        said = what_changed(before, after)
        assert entry.line.split()[0] in said  # it does quote the line
        assert not _leaks(said), said
        assert not _leaks(foreign_change(after, before, before, frozenset()) or "")


def test_diff_and_push_commands_show_no_secret_of_the_corpus() -> None:
    section = "interface GigabitEthernet0/0.100\n"
    lines = tuple(entry.line for entry in ENTRIES)
    for running, intended in ((section + BODY, section), (section, section + BODY)):
        plan = Plan(running, intended, lines)
        text = plan.diff("r1") + "\n".join(plan.commands)
        assert text.count("<masked") >= len(ENTRIES)
        assert not _leaks(text)
        assert not _leaks(json.dumps({"diff": plan.diff("r1"), "commands": plan.commands}))


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_lint_of_a_config_holding_the_corpus_shows_no_secret(tmp_path: Path, fmt: str) -> None:
    config = tmp_path / "router.conf"
    config.write_text(
        "hostname r1\n!\nl2tp-class c1\n authentication\n password 0 Cleartext-pw1\n!\n"
        + BODY
        + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["lint", "--config", str(config), "--format", fmt])
    assert "L2T" in result.output  # it did lint (the clear-text class secret is a finding)
    assert not _leaks(result.output)
    assert "Cleartext-pw1" not in result.output


def test_netmiko_and_paramiko_debug_logs_show_no_secret_of_the_corpus(
    caplog: pytest.LogCaptureFixture,
) -> None:
    install_redaction("not-in-the-corpus")
    caplog.set_level(logging.DEBUG)
    for entry in ENTRIES:
        logging.getLogger("netmiko").debug("write_channel: %s", repr(f"{entry.line}\n".encode()))
        logging.getLogger("netmiko").debug("read_channel: %s\nr1(config)#", entry.line)
        logging.getLogger("paramiko").debug(entry.line)
    assert len(caplog.records) == 3 * len(ENTRIES)
    assert not _leaks(caplog.text)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.line.strip()[:60])
def test_an_import_note_quoting_a_line_shows_no_secret(entry: Entry) -> None:
    # `l2tpgen import` quotes what the model cannot express (an interface's `ip nhrp
    # authentication`, `standby ... authentication`) in its notes.
    assert not [secret for secret in entry.secrets if secret in redact(entry.line)]


def test_a_line_the_router_refused_is_echoed_without_its_secret() -> None:
    output = "".join(
        f"r1(config)#{entry.line.strip()}\n% Invalid input detected at '^' marker.\n"
        for entry in ENTRIES
    )
    refused, _ = parse_output(output, "r1")
    assert len(refused) == len(ENTRIES)
    assert not _leaks(" ".join(f"{e.line} {e.error}" for e in refused))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.line.strip()[:60])
def test_confirms_messages_quoting_what_the_router_said_show_no_secret(
    entry: Entry, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `confirm` (and push ending its own timer) quotes what the router answered to `configure
    # confirm` when the timer is still pending afterwards; a router that echoes a line quotes it.
    said = f"{entry.line.strip()}\n% Invalid input detected at '^' marker.\nr1#"
    after = f"Timer value: 5 min\n User: admin\n{entry.line.strip()}\n"

    def batch(_connection: object, commands: list[str], **_: object) -> tuple[str, str]:
        assert commands[0] == "configure confirm"
        return said, after

    monkeypatch.setattr(confirm, "exec_batch", batch)
    monkeypatch.setattr(confirm_fleet, "exec_batch", batch)
    messages = [confirm.end_timer(None), confirm_fleet._confirm_one(None)]  # noqa: SLF001
    assert all(messages), messages  # each quotes the router: the timer is still pending
    assert not _leaks(" ".join(m or "" for m in messages)), messages
