"""What docs/site-files.md promises, checked from the command line on copies of the reference pair.

Each test edits a copy of ``sites/`` as a user would and reads what ``l2tpgen`` prints (issue 34,
the claims table): render never connects to a router; an optional setting is written only when
the site file gives it; an attachment circuit gets ``no cdp enable`` whatever the site's ``cdp``;
a cookie on a dynamic class and a literal secret are refused; every ``--sites`` finds the sites
the documented way; the fleet page holds no date.
"""

from __future__ import annotations

import re
import socket
from typing import TYPE_CHECKING, Any

import pytest
import typer
from builders import copy_example
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app

if TYPE_CHECKING:
    from pathlib import Path

runner = CliRunner()


def _render(sites: Path, site: str = "site-a") -> str:
    result = runner.invoke(app, ["render", site, "--sites", str(sites)])
    assert result.exit_code == 0, result.output
    return result.stdout


def _section(config: str, header: str) -> str:
    """The lines of the section ``header`` starts (up to the next line that is not indented)."""
    match = re.search(rf"^{re.escape(header)}\n((?: .*\n)*)", config, re.MULTILINE)
    assert match is not None, header
    return match.group(1)


def test_render_never_opens_a_connection_to_the_router(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The management host is the loopback, where something could answer: render must not try.
    sites = copy_example(SITES, tmp_path, ("site-a", "host: 192.0.2.11", "host: 127.0.0.1"))
    tried: list[object] = []

    def refuse(_: socket.socket, address: object) -> None:
        tried.append(address)
        raise OSError("render must not connect")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    assert "xconnect" in _render(sites)
    assert tried == []


def test_duplex_speed_and_hello_are_rendered_only_when_the_site_gives_them(tmp_path: Path) -> None:
    given = copy_example(
        SITES,
        tmp_path,
        ("site-a", "L2TPGEN_L2TP_SECRET}", "L2TPGEN_L2TP_SECRET, hello: 30}"),
        name="given",
    )
    config = _render(given)
    assert " duplex auto\n speed auto\n" in _section(config, "interface GigabitEthernet0/1")
    assert " hello 30\n" in _section(config, "l2tp-class class1")
    left_out = copy_example(
        SITES, tmp_path, ("site-a", "  duplex: auto\n  speed: auto\n", ""), name="left-out"
    )
    config = _render(left_out)
    wan = _section(config, "interface GigabitEthernet0/1")
    assert "duplex" not in wan
    assert "speed" not in wan
    assert "hello" not in _section(config, "l2tp-class class1")


def test_the_digest_hash_is_rendered_with_digest_and_refused_without_it(tmp_path: Path) -> None:
    digest = copy_example(
        SITES,
        tmp_path,
        *[
            (site, "authentication: password,", "authentication: digest,")
            for site in ("site-a", "site-b")
        ],
        name="digest",
    )
    # sha, l2tpgen's default, is written out: IOS's own default is md5 (l2tpv3-brief, `digest`).
    assert " hash sha" in _section(_render(digest), "l2tp-class class1")
    password = copy_example(
        SITES,
        tmp_path,
        *[
            (site, "authentication: password,", "authentication: password, hash: md5,")
            for site in ("site-a", "site-b")
        ],
        name="password",
    )
    result = runner.invoke(app, ["render", "site-a", "--sites", str(password)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "site-a.yaml:20:60: error: hash applies only to digest authentication" in result.stderr


def test_attachment_circuits_get_no_cdp_enable_even_when_the_site_runs_cdp(tmp_path: Path) -> None:
    cdp = ("site-a", "peers: [site-b]", "cdp: true\npeers: [site-b]")
    sites = copy_example(SITES, tmp_path, cdp)
    config = _render(sites)
    assert "no cdp run" not in config  # the site runs CDP ...
    assert "no cdp enable" not in _section(config, "interface GigabitEthernet0/1")  # ... on its WAN
    for vlan in (2996, 2997, 2998, 2999):  # ... but never into a pseudowire
        assert " no cdp enable\n" in _section(config, f"interface GigabitEthernet0/0.{vlan}")


def _validate(sites: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["validate", "--sites", str(sites)])
    return result.exit_code, result.stderr


def test_a_cookie_on_a_dynamic_class_is_refused_at_each_end(tmp_path: Path) -> None:
    # pseudowire_class.cookie: "static only" (a dynamic session's cookie is cookie_size's).
    cookie = "signaling: dynamic, pmtu: true", "signaling: dynamic, cookie: 4, pmtu: true"
    sites = copy_example(SITES, tmp_path, *[(site, *cookie) for site in ("site-a", "site-b")])
    code, stderr = _validate(sites)
    assert code == 1
    for site in ("site-a", "site-b"):
        assert (
            f"{site}.yaml:21:64: error: cookies are configured for static sessions only" in stderr
        )


@pytest.mark.parametrize("key", ["secret", "password"])
def test_a_literal_secret_in_the_l2tp_class_is_refused_and_not_echoed(
    tmp_path: Path, key: str
) -> None:
    literal = ("site-a", "L2TPGEN_L2TP_SECRET}", f"L2TPGEN_L2TP_SECRET, {key}: Hunter2-literal}}")
    code, stderr = _validate(copy_example(SITES, tmp_path, literal))
    assert code == 1
    assert f"l2tp_class.{key}: secrets must not be written in site files" in stderr
    assert "Hunter2" not in stderr


def test_every_command_that_takes_sites_finds_them_the_one_documented_way() -> None:
    # "every command that reads sites (each one with --sites) takes the first of these that
    # answers": the search itself is tests/test_discovery.py's; here, each --sites runs it.
    root = typer.main.get_command(app)
    found: dict[str, object] = {}

    def walk(command: Any, path: str, ctx: Any) -> None:  # noqa: ANN401 - click's own types
        for param in command.params:
            if "--sites" in getattr(param, "opts", ()):
                found[path] = param.callback
        if hasattr(command, "list_commands"):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                walk(sub, f"{path} {name}", sub.context_class(sub, parent=ctx, info_name=name))

    walk(root, "l2tpgen", root.context_class(root, info_name="l2tpgen"))
    assert {"l2tpgen validate", "l2tpgen render", "l2tpgen push", "l2tpgen lab build"} <= set(found)

    def how(callback: object) -> str:
        return f"{getattr(callback, '__module__', '')}.{getattr(callback, '__qualname__', '')}"

    assert how(found["l2tpgen validate"]) == "l2tpgen.cli.app._sites"
    others = {
        path for path, callback in found.items() if how(callback) != how(found["l2tpgen validate"])
    }
    # The exception the page names: NetBox's commands read --sites DIR, else ./sites.
    assert others == {"l2tpgen netbox diff", "l2tpgen netbox push"}
