"""Class names IOS accepts but site files cannot hold are refused at their line, in words.

IOS takes almost any word as a pseudowire-class or l2tp-class name (`PW:ETH`, `-x`, `é`, `a$b`);
a site file's names reach file names, shell commands and lab scripts, so l2tpgen takes 1-63
letters, digits, `.`, `_`, `-`. Before: a pseudowire-class name ended in `internal error
(ValidationError)`, an l2tp-class name was refused without a line and with pydantic's regular
expression in the message.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.importer import ImportRefusedError, import_configs

runner = CliRunner()
RULE = "a name is 1-63 letters, digits, `.`, `_` or `-`, starting with a letter or digit"


def _config(pw: str = "ethernet", l2tp: str = "class1", *, xconnect: bool = True) -> str:
    # Line 3: the l2tp-class; line 7: the pseudowire-class; line 19: the xconnect.
    lines = [
        "hostname rtr-a",
        "!",
        f"l2tp-class {l2tp}",
        " digest secret 7 0822455D0A16",
        " hello 30",
        "!",
        f"pseudowire-class {pw}",
        " encapsulation l2tpv3",
        f" protocol l2tpv3 {l2tp}",
        " ip local interface GigabitEthernet0/1",
        " ip pmtu",
        " ip dfbit set",
        "!",
        "interface GigabitEthernet0/0",
        " no ip address",
        "!",
        "interface GigabitEthernet0/0.10",
        " encapsulation dot1Q 10",
        " xconnect 198.51.100.2 10 encapsulation l2tpv3 pw-class "
        + (pw if xconnect else "ethernet"),
        "!",
        "interface GigabitEthernet0/1",
        " ip address 198.51.100.1 255.255.255.248",
        "!",
        "ip route 0.0.0.0 0.0.0.0 198.51.100.6",
        "end",
    ]
    if not xconnect:
        del lines[16:20]  # no pseudowire: the router's one pseudowire-class is read alone
    return "\n".join(lines) + "\n"


def _refusals(text: str) -> list[str]:
    with pytest.raises(ImportRefusedError) as caught:
        import_configs([("rtr-a.cfg", text)])
    return [str(note) for note in caught.value.notes]


def test_a_valid_config_imports_so_the_refusals_below_are_the_names_alone() -> None:
    result = import_configs([("rtr-a.cfg", _config())])
    assert [site.name for site in result.sites if not site.stub] == ["rtr-a"]


@pytest.mark.parametrize(
    ("name", "example"),
    [("PW:ETH", " (e.g. PW_ETH)"), ("-x", " (e.g. x)"), ("é", ""), ("a$b", " (e.g. a_b)")],
    ids=["colon", "leading-dash", "non-ascii", "dollar"],
)
def test_a_pseudowire_class_name_is_refused_at_its_line_with_the_rule(
    name: str, example: str
) -> None:
    assert _refusals(_config(pw=name)) == [
        (
            f"rtr-a.cfg:7:1: refused: pseudowire-class `{name}`: l2tpgen cannot take this name: "
            f"{RULE}. Rename the class{example} on the router, or in this copy of its config, and "
            "import again"
        )
    ]


def test_an_l2tp_class_name_is_refused_at_its_line_without_a_regular_expression() -> None:
    refusals = _refusals(_config(l2tp="a$b"))
    assert refusals == [
        (
            f"rtr-a.cfg:3:1: refused: l2tp-class `a$b`: l2tpgen cannot take this name: {RULE}. "
            "Rename the class (e.g. a_b) on the router, or in this copy of its config, and import "
            "again"
        )
    ]
    assert not any("^[" in r or "pattern" in r for r in refusals)


def test_a_class_name_of_a_router_without_pseudowires_is_refused_too() -> None:
    assert _refusals(_config(pw="PW:ETH", xconnect=False)) == [
        (
            f"rtr-a.cfg:7:1: refused: pseudowire-class `PW:ETH`: l2tpgen cannot take this name: "
            f"{RULE}. Rename the class (e.g. PW_ETH) on the router, or in this copy of its config, "
            "and import again"
        )
    ]


def test_the_command_line_says_so_and_exits_1_without_an_internal_error(tmp_path: object) -> None:
    config = f"{tmp_path}/rtr-a.cfg"
    with open(config, "w", encoding="utf-8") as stream:  # noqa: PTH123 - a plain file
        stream.write(_config(pw="PW:ETH"))
    result = runner.invoke(app, ["import", config, "-o", f"{tmp_path}/out"])
    assert result.exit_code == 1
    assert "internal error" not in result.stderr
    assert f"{config}:7:1: refused: pseudowire-class `PW:ETH`" in result.stderr


def test_an_undefined_class_named_by_an_xconnect_is_refused_at_the_xconnect() -> None:
    text = _config().replace("pw-class ethernet", "pw-class PW:X")
    assert _refusals(text) == [
        (
            f"rtr-a.cfg:19:2: refused: pseudowire-class `PW:X`: l2tpgen cannot take this name: "
            f"{RULE}. Rename the class (e.g. PW_X) on the router, or in this copy of its config, "
            "and import again"
        )
    ]
