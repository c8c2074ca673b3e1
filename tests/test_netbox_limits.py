"""A NetBox read ends, whatever NetBox answers: one deadline per command, a page limit, no loops.

Issue 33 item 12: an answer dripped a byte at a time (each byte well within the request timeout),
or list pages whose `next` points back to themselves, ran for ever (killed at 90 s, 14,831
pages), against the documented cap of four timeouts for one answer. The "NetBox" here is a small
HTTP server on 127.0.0.1 that misbehaves in one of those ways; no real NetBox is needed. Each
command runs in a thread; should it still run long after its limit (the bug), the server is shut
down, which ends the command with another error than the one expected, so the test fails instead
of hanging. No assertion is about time: only which limit a command reports.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from conftest import SITES
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.cli import netbox as cli_netbox
from l2tpgen.netbox import http

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

pytest.importorskip("pynetbox")
runner = CliRunner()
GIVE_UP = 60  # seconds: far past every limit under test, so a slow machine never fails a build
TOKEN = {"L2TPGEN_NETBOX_TOKEN": "nbt_test.not-a-secret"}


class _Handler(BaseHTTPRequestHandler):
    """Answers every GET as ``behaviour`` says; counts the requests."""

    behaviour: ClassVar[str] = "loop"
    stop: ClassVar[threading.Event]
    requests: ClassVar[list[str]]

    def log_message(self, *_: Any) -> None:  # noqa: ANN401 - quiet
        return

    def do_GET(self) -> None:
        self.requests.append(self.path)
        if self.behaviour == "drip":
            self._drip()
            return
        query = parse_qs(urlsplit(self.path).query)
        offset = int(query.get("offset", ["0"])[0])
        if self.behaviour == "loop" and "offset" in query:
            following = self.path  # `next` is the page itself
        else:  # "endless": always one more page
            kept = {k: v[0] for k, v in query.items() if k not in {"limit", "offset"}}
            following = (
                urlsplit(self.path).path
                + "?"
                + urlencode({**kept, "limit": 50, "offset": offset + 50})
            )
        host = f"http://127.0.0.1:{self.server.server_port}"  # type: ignore[attr-defined]
        body = json.dumps(
            {"count": 10**9, "next": host + following, "previous": None, "results": []}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _drip(self) -> None:
        """A 200 whose body comes one byte at a time, each well within the request timeout."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000000")
        self.end_headers()
        try:
            while not self.stop.wait(0.05):
                self.wfile.write(b" ")
                self.wfile.flush()
        except OSError:  # l2tpgen gave up and closed the connection
            return


@pytest.fixture
def netbox() -> Iterator[Callable[[str], tuple[str, list[str]]]]:
    """Start a misbehaving NetBox: ``start(behaviour)`` gives its URL and the paths it was asked."""
    servers: list[ThreadingHTTPServer] = []
    stop = threading.Event()

    def start(behaviour: str) -> tuple[str, list[str]]:
        seen: list[str] = []
        handler = type("H", (_Handler,), {"behaviour": behaviour, "stop": stop, "requests": seen})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}", seen

    yield start
    stop.set()
    for server in servers:
        server.shutdown()
        server.server_close()


def _invoke(args: list[str], env: dict[str, str]) -> Any:  # noqa: ANN401
    """Run the CLI in a thread; fail (not hang) if it is still running after GIVE_UP seconds."""
    results: list[Any] = []
    thread = threading.Thread(target=lambda: results.append(runner.invoke(app, args, env=env)))
    thread.start()
    thread.join(GIVE_UP)
    if thread.is_alive():
        pytest.fail(f"`l2tpgen {' '.join(args)}` still ran after {GIVE_UP} s")
    return results[0]


def _flat(result: Any) -> str:  # noqa: ANN401
    return " ".join(result.output.split())


@pytest.mark.parametrize(
    "command",
    [
        ["netbox", "pull", "-o", "{out}", "--tag", "l2tpgen"],
        ["netbox", "diff", "--sites", str(SITES), "--tag", "l2tpgen"],
        ["netbox", "push", "--sites", str(SITES)],
    ],
    ids=["pull", "diff", "push"],
)
def test_an_answer_dripped_a_byte_at_a_time_ends_at_the_commands_deadline(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path, command: list[str]
) -> None:
    url, _ = netbox("drip")
    args = [part.replace("{out}", str(tmp_path / "out")) for part in command]
    result = _invoke([*args, "--url", url, "--timeout", "5", "--deadline", "1"], TOKEN)
    assert result.exit_code == 1, result.output
    flat = _flat(result)
    assert f"NetBox at {url}: l2tpgen gave up after 1 s in all, the command's deadline" in flat
    assert "raise it with --deadline SECONDS or L2TPGEN_NETBOX_DEADLINE" in flat
    assert "nbt_test" not in result.output
    assert not (tmp_path / "out").exists()


def test_a_dripped_answer_ends_at_four_request_timeouts_within_a_longer_deadline(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path
) -> None:
    url, _ = netbox("drip")
    result = _invoke(
        ["netbox", "pull", "-o", str(tmp_path / "out"), "--tag", "l2tpgen", "--url", url,
         "--timeout", "1.5"],
        TOKEN,
    )  # fmt: skip
    # 1.5 s, not less: the server's headers must come within one request timeout on a loaded
    # 2-core machine (0.25 s once timed out before the first byte, a different error).
    assert result.exit_code == 1, result.output
    assert "the answer was still coming after 6 s" in _flat(result)


def test_pages_whose_next_points_to_themselves_are_refused_at_the_repeat(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path
) -> None:
    url, asked = netbox("loop")
    result = _invoke(
        ["netbox", "pull", "-o", str(tmp_path / "out"), "--tag", "l2tpgen", "--url", url], TOKEN
    )
    assert result.exit_code == 1, result.output
    flat = _flat(result)
    assert f"NetBox at {url}: its `next` link points back to a page l2tpgen already read" in flat
    assert "(GET /api/dcim/devices/?limit=" in flat
    assert len(asked) == 2  # the first page and its `next`, never that `next` again
    assert not (tmp_path / "out").exists()


def test_pages_that_never_end_stop_at_the_page_limit(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path
) -> None:
    url, asked = netbox("endless")
    result = _invoke(
        ["netbox", "pull", "-o", str(tmp_path / "out"), "--tag", "l2tpgen", "--url", url,
         "--max-pages", "20"],
        TOKEN,
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    flat = _flat(result)
    assert f"NetBox at {url}: l2tpgen read 20 pages, the command's page limit" in flat
    assert "raise the limit with --max-pages N or L2TPGEN_NETBOX_MAX_PAGES" in flat
    assert len(asked) == 20


def test_the_limits_come_from_the_environment_too(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path
) -> None:
    url, asked = netbox("endless")
    env = {**TOKEN, "L2TPGEN_NETBOX_MAX_PAGES": "7"}
    result = _invoke(
        ["netbox", "pull", "-o", str(tmp_path / "out"), "--tag", "l2tpgen", "--url", url], env
    )
    assert result.exit_code == 1, result.output
    assert "l2tpgen read 7 pages, the command's page limit" in _flat(result)
    assert len(asked) == 7


def test_push_with_a_netbox_inventory_stops_at_the_page_limit_before_any_router(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path
) -> None:
    url, _ = netbox("endless")
    env = {
        **TOKEN,
        "L2TPGEN_NETBOX_URL": url,
        "L2TPGEN_NETBOX_MAX_PAGES": "5",
        "L2TPGEN_USERNAME": "u",
        "L2TPGEN_PASSWORD": "p",
        "L2TPGEN_STATE_DIR": str(tmp_path),
    }
    result = _invoke(
        ["push", "site-a", "--sites", str(SITES), "--inventory", "netbox", "--dry-run"], env
    )
    assert result.exit_code == 1, result.output
    assert "l2tpgen read 5 pages, the command's page limit" in _flat(result)
    assert "connecting" not in result.output


def test_the_cli_defaults_are_the_librarys() -> None:
    assert cli_netbox.DEFAULT_DEADLINE == http.DEFAULT_DEADLINE
    assert cli_netbox.DEFAULT_MAX_PAGES == http.DEFAULT_MAX_PAGES
    assert cli_netbox.DEADLINE_ENV == http.DEADLINE_ENV
    assert cli_netbox.MAX_PAGES_ENV == http.MAX_PAGES_ENV


@pytest.mark.parametrize("command", ["pull", "diff"])
def test_tag_site_and_role_each_narrow_the_devices_asked_of_netbox(
    netbox: Callable[[str], tuple[str, list[str]]], tmp_path: Path, command: str
) -> None:
    url, asked = netbox("endless")
    where = ["-o", str(tmp_path / "out")] if command == "pull" else ["--sites", str(SITES)]
    result = _invoke(
        ["netbox", command, *where, "--url", url, "--max-pages", "1",
         "--tag", "l2tpgen", "--site", "dc1", "--role", "pe"],
        TOKEN,
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    (first,) = asked
    assert urlsplit(first).path == "/api/dcim/devices/"
    query = parse_qs(urlsplit(first).query)
    assert (query["tag"], query["site"], query["role"]) == (["l2tpgen"], ["dc1"], ["pe"])


@pytest.mark.parametrize("command", ["pull", "diff", "push"])
def test_no_netbox_command_takes_the_token_on_the_command_line(command: str) -> None:
    result = runner.invoke(app, ["netbox", command, "--token", "nbt_x.y"])
    assert result.exit_code == 2
    assert "No such option: --token" in " ".join(result.output.split())
    assert "nbt_x.y" not in result.output
    help_text = runner.invoke(app, ["netbox", command, "--help"], env={"COLUMNS": "200"}).output
    assert "--token" not in help_text
    assert "L2TPGEN_NETBOX_TOKEN" in help_text
