"""No input gives a traceback, and what a CI pipeline feeds `l2tpgen lint` works as it expects.

The crash inputs were each measured to raise before (IndexError, RecursionError, ValueError from
int(), a ciscoconfparse ValueError printed with its local variables by loguru) or to give false
results (UTF-16: 0 findings; NUL-terminated lines: false errors).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from builders import copy_example
from conftest import SITES, TESTS

if TYPE_CHECKING:
    from pathlib import Path

BEFORE = TESTS / "lint" / "reference" / "before.conf"
XC = (
    "interface GigabitEthernet0/0.10\n encapsulation dot1Q 10\n xconnect 192.0.2.2 10 pw-class pw\n"
)
CRASHES: dict[str, bytes] = {
    "brace-banner": ("banner motd ^C\n}  ~~ {art} ~~\n^C\n}\n" + XC).encode(),
    "bare-ip": ("interface GigabitEthernet0/1\n ip\n" + XC).encode(),
    "deep-indent": ("".join(" " * i + f"level {i}\n" for i in range(500)) + XC).encode(),
    "huge-number": (XC.replace("192.0.2.2 10", "192.0.2.2 " + "9" * 5000) + " mtu 1").encode(),
    "utf16": ("\ufeff" + XC).encode("utf-16-le"),
    "nul-terminated": "".join(f"{line}\x00\n" for line in XC.splitlines()).encode(),
    # ciscoconfparse raised IndexError on a macro without its closing `@`, and its loguru wrapper
    # printed the traceback with the config's lines (this one's secret among them)
    "macro": (XC + "macro name ports\n switchport mode access\n@\nmacro name open\n x\n").encode(),
}


def l2tpgen(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The console script in a fresh process, as users and CI run it."""
    return subprocess.run(
        [sys.executable, "-m", "l2tpgen", *args],
        input=stdin,
        capture_output=True,
        check=False,
        cwd=cwd,
    )


@pytest.mark.parametrize("name", sorted(CRASHES))
def test_crash_inputs_give_findings_as_json_and_no_traceback(name: str, tmp_path: Path) -> None:
    config = tmp_path / f"{name}.cfg"
    config.write_bytes(CRASHES[name])
    result = l2tpgen("lint", "--config", str(config), "--format", "json")
    findings = json.loads(result.stdout)
    assert b"Traceback" not in result.stderr + result.stdout
    # each still holds the xconnect on a pw-class nobody defined: its line is read, not lost
    assert "L2T006" in {f["code"] for f in findings}
    assert result.returncode == 1


def test_nul_terminated_lines_give_the_findings_of_the_clean_text(tmp_path: Path) -> None:
    text = XC + "pseudowire-class pw\n encapsulation l2tpv3\n ip pmtu\n ip dfbit set\n"
    clean, nul = tmp_path / "clean.cfg", tmp_path / "nul.cfg"
    clean.write_text(text)
    nul.write_bytes("".join(f"{line}\x00\n" for line in text.splitlines()).encode())
    codes = [
        sorted(
            f["code"]
            for f in json.loads(l2tpgen("lint", "--config", str(p), "--format", "json").stdout)
        )
        for p in (clean, nul)
    ]
    assert codes[0] == codes[1]
    assert "L2T002" not in codes[1]  # measured before: `ip pmtu\x00` was not read


def test_lint_reads_standard_input_with_a_dash(tmp_path: Path) -> None:
    result = l2tpgen(
        "lint", "--config", "-", "--format", "json", stdin=BEFORE.read_bytes(), cwd=tmp_path
    )
    findings = json.loads(result.stdout)
    assert {f["file"] for f in findings} == {"<stdin>"}
    assert "L2T001" in {f["code"] for f in findings}


def test_paths_and_names_with_rich_markup_are_printed_literally(tmp_path: Path) -> None:
    odd = tmp_path / "[bold]x["
    odd.mkdir()
    config = odd / "]r1.cfg"  # the path holds `[bold]x[/]r1.cfg`
    config.write_bytes(BEFORE.read_bytes())
    result = l2tpgen("lint", "--config", str(config), cwd=tmp_path)
    assert result.returncode == 1
    assert f"{config}:17:2: L2T001".encode() in result.stdout
    missing = l2tpgen("lint", "--sites", str(odd / "]where"), cwd=tmp_path)
    assert missing.returncode == 2  # --sites names no directory: a usage error
    assert b"x[/]where" in missing.stderr
    assert b"Traceback" not in missing.stderr


def test_terminal_escapes_in_a_config_are_shown_not_obeyed(tmp_path: Path) -> None:
    config = tmp_path / "evil.cfg"
    config.write_bytes(b"interface Gi0/0\n xconnect 192.0.2.2 10 pw-class \x1b]0;owned\x07\n")
    result = l2tpgen("lint", "--config", str(config), cwd=tmp_path)
    assert b"\x1b" not in result.stdout + result.stderr
    assert b"\\x1b]0;owned\\x07" in result.stdout


def test_one_finding_is_not_called_findings(tmp_path: Path) -> None:
    config = tmp_path / "one.cfg"
    config.write_text(XC.replace(" xconnect", " no cdp enable\n xconnect"))
    result = l2tpgen("lint", "--config", str(config), cwd=tmp_path)
    assert result.stderr.decode().splitlines()[-1] == "1 finding (1 error)"


def test_pyproject_settings_apply_and_the_command_line_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.l2tpgen.lint]\nignore = ["single-trunk-xconnect", "L2T013"]\nfail-on = "error"\n'
    )
    config = tmp_path / "before.cfg"
    config.write_bytes(BEFORE.read_bytes())
    nested = tmp_path / "sub" / "dir"
    nested.mkdir(parents=True)
    quiet = l2tpgen("lint", "--config", str(config), "--format", "json", cwd=nested)
    codes = {f["code"] for f in json.loads(quiet.stdout)}
    assert codes.isdisjoint({"L2T001", "L2T013"})
    assert quiet.returncode == 0  # warnings only, and fail-on = error
    loud = l2tpgen(
        "lint", "--config", str(config), "--ignore", "L2T005", "--fail-on", "warning", cwd=nested
    )
    assert b"L2T001" in loud.stdout
    assert loud.returncode == 1


def test_a_malformed_lint_table_is_one_clean_error_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.l2tpgen.lint]\nselekt = ["L2T001"]\n')
    result = l2tpgen("lint", "--config", str(BEFORE), cwd=tmp_path)
    assert result.returncode == 1
    assert b"pyproject.toml: [tool.l2tpgen.lint] has unknown key selekt" in result.stderr
    assert b"did you mean select?" in result.stderr
    assert b"Traceback" not in result.stderr


def test_select_and_ignore_take_rule_names() -> None:
    result = l2tpgen(
        "lint",
        "--config",
        str(BEFORE),
        "--select",
        "single-trunk-xconnect,L2T005",
        "--format",
        "json",
    )
    assert {f["code"] for f in json.loads(result.stdout)} == {"L2T001", "L2T005"}


def test_sarif_carries_site_file_problems_as_l2t000_located_in_the_site_file(
    tmp_path: Path,
) -> None:
    sites = copy_example(SITES, tmp_path, ("site-b", "vc_id: 128", "vc_id: 129"))
    result = l2tpgen("lint", "--sites", str(sites), "--format", "sarif")
    assert result.returncode == 1
    run = json.loads(result.stdout)["runs"][0]
    (problem,) = run["results"]
    assert problem["ruleId"] == "L2T000"
    assert run["tool"]["driver"]["rules"][problem["ruleIndex"]]["id"] == "L2T000"
    location = problem["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == str(sites / "site-a.yaml")
    assert location["region"]["startLine"] == 26


def test_a_disable_comment_before_a_section_covers_its_header_and_children(tmp_path: Path) -> None:
    text = BEFORE.read_text().replace(
        "interface GigabitEthernet0/0\n",
        "! l2tpgen: disable=L2T004,single-trunk-xconnect,L2T013\ninterface GigabitEthernet0/0\n",
    )
    config = tmp_path / "x.cfg"
    config.write_text(text)
    findings = json.loads(l2tpgen("lint", "--config", str(config), "--format", "json").stdout)
    section = range(13, 20)  # the GigabitEthernet0/0 section, one line lower than in BEFORE
    assert not [f for f in findings if f["line"] in section]
    assert "L2T004" in {f["code"] for f in findings}  # GigabitEthernet0/1's, outside the section


def test_ciscoconfparse_and_loguru_never_print_and_leave_a_users_loguru_alone() -> None:
    script = (
        "import sys\n"
        "from loguru import logger\n"
        "from l2tpgen.ios.tree import _import_parser\n"
        "from l2tpgen.lint import ConfigText, lint_configs\n"
        "lint_configs([ConfigText('x', '}\\n' + open(sys.argv[1]).read())])\n"
        "logger.info('user message')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(BEFORE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""  # ciscoconfparse's stdout sink is gone
    assert "user message" in result.stderr  # the user's default sink is back
    assert "ciscoconfparse" not in result.stderr


def test_a_program_that_removed_loguru_handlers_before_importing_l2tpgen_can_lint() -> None:
    # `logger.remove()` then a handler of the program's own, as scripts do: ciscoconfparse's
    # import removed handler 0 (gone already: ValueError) and added a stdout sink.
    script = (
        "import sys\n"
        "from loguru import logger\n"
        "logger.remove()\n"
        "logger.add(sys.stderr, format='MINE {message}')\n"
        "from l2tpgen.lint import ConfigText, lint_configs\n"
        # a brace: ciscoconfparse (imported now) nests this text, not the indentation stack
        "findings = lint_configs([ConfigText('x', '}\\n' + open(sys.argv[1]).read())])\n"
        "print(len(list(findings)) > 0)\n"
        "logger.info('user message')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(BEFORE)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "True\n"  # the findings, and nothing printed by ciscoconfparse
    assert result.stderr == "MINE user message\n"  # the program's own sink, as it set it


def test_a_parser_failure_logged_by_loguru_never_prints_the_config() -> None:
    # ciscoconfparse's `logger.catch` wrappers log a failure as a record of their caller
    # (l2tpgen.ios.tree), with a traceback holding the config's text: simulate one.
    script = (
        "import sys\n"
        "from loguru import logger\n"
        "import l2tpgen.ios.tree as tree\n"
        "tree._import_parser()\n"
        "@logger.catch(reraise=True)\n"
        "def parser(lines, **options):\n"
        "    raise IndexError(lines[0])\n"
        "tree._import_parser = lambda: parser\n"
        "from l2tpgen.lint import ConfigText, lint_configs\n"
        "try:\n"
        # a banner: ciscoconfparse nests this text, not the plain indentation stack
        "    text = 'banner motd ^C\\n^C\\nusername a password 0 SECRET-TEXT\\n'\n"
        "    lint_configs([ConfigText('x', text)])\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == (
        "ConfigTextError x: ciscoconfparse cannot parse this config (IndexError)"
    )
    assert result.stderr == ""


def test_the_parser_is_loaded_once_when_many_threads_lint_at_the_same_time() -> None:
    # A fleet push lints in parallel; loading ciscoconfparse twice at once removed one loguru
    # handler twice (ValueError), failing a router's push at random.
    script = (
        "import sys, threading\n"
        "from l2tpgen.ios.tree import _import_parser\n"
        "from l2tpgen.lint import ConfigText, lint_configs\n"
        "text = open(sys.argv[1]).read()\n"
        "errors = []\n"
        "start = threading.Barrier(16)\n"
        "def run():\n"
        "    start.wait()\n"
        "    try:\n"
        "        _import_parser()\n"
        "        lint_configs([ConfigText('x', text)])\n"
        "    except Exception as exc:\n"
        "        errors.append(repr(exc))\n"
        "threads = [threading.Thread(target=run) for _ in range(16)]\n"
        "[t.start() for t in threads]\n"
        "[t.join() for t in threads]\n"
        "print(errors)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(BEFORE)], capture_output=True, text=True, check=False
    )
    assert result.stdout.strip() == "[]", result.stdout + result.stderr
