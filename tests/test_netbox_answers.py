"""What NetBox (or whatever stands at its URL) may answer, and what l2tpgen then says.

Refusals and odd answers are served by a replayed recording (tests/netbox_recording.py) or, for
bodies that never end, by a small HTTP server on 127.0.0.1, so l2tpgen's own session (its size cap
and deadline) reads them.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import TYPE_CHECKING, Any

import pytest
from conftest import SITES
from netbox_recording import BASE, Recording, replaying
from typer.testing import CliRunner

from l2tpgen.cli import app
from l2tpgen.model.load import load_fleet

if TYPE_CHECKING:
    from collections.abc import Iterator

pytest.importorskip("pynetbox")

from requests.models import Response

from l2tpgen.netbox import Client, NetBoxError, Pusher, Selection
from l2tpgen.netbox import http as http_module

runner = CliRunner()
TOKEN = "nbt_abcdef123456.s3cr3tT0kenValue987654321"  # noqa: S105 - made up for the test


def _answering(*exchanges: tuple[str, str, int, Any]) -> Client:
    """A client whose NetBox answers ``(method, path, status, body)`` to those requests."""
    client = Client(BASE, TOKEN)
    recorded = Recording(
        [
            {
                "request": {"method": m, "path": p, "query": q, "body": None},
                "status": status,
                "answer": body,
            }
            for m, p, status, body in exchanges
            for q in ([], [["tag", "l2tpgen"]])
        ]
    )
    replaying(client.api.http_session, recorded)
    return client


def test_a_read_refused_with_403_says_the_token_may_not_read() -> None:
    client = _answering(("GET", "/api/dcim/devices/", 403, {"detail": "no"}))
    with pytest.raises(NetBoxError) as caught:
        client.devices(Selection(tag="l2tpgen"))
    message = str(caught.value)
    assert "HTTP 403" in message
    assert "may not read" in message
    assert "GET /api/dcim/devices/" in message


def test_a_write_refused_with_403_says_the_token_may_not_write_not_read() -> None:
    client = Client(BASE, TOKEN)
    refusal = {"detail": "This token does not have write permission."}
    recorded = Recording(
        [
            {
                "request": {
                    "method": "GET",
                    "path": "/api/extras/custom-fields/",
                    "query": q,
                    "body": None,
                },
                "status": 200,
                "answer": {"count": 0, "next": None, "previous": None, "results": []},
            }
            for q in ([["name", "l2tpgen_site"]],)
        ]
    )
    adapter = replaying(client.api.http_session, recorded)
    original = adapter.send

    def send(request: Any, **kwargs: Any) -> Any:  # noqa: ANN401
        if request.method == "POST":
            made = Response()
            made.status_code = 403
            made._content = str(refusal).replace("'", '"').encode()  # noqa: SLF001
            made.headers["Content-Type"] = "application/json"
            made.url = str(request.url)
            made.request = request
            made.reason = "Forbidden"
            return made
        return original(request, **kwargs)

    adapter.send = send  # type: ignore[method-assign,assignment]
    with pytest.raises(NetBoxError) as caught:
        Pusher(client.api, client.url, dry_run=False, tag="l2tpgen").fleet(load_fleet(SITES))
    message = str(caught.value)
    assert "refused a change (HTTP 403)" in message
    assert "may read but not write" in message
    assert "POST /api/extras/custom-fields/" in message
    assert "may not read" not in message


def test_an_error_body_that_echoes_the_authorization_header_never_shows_the_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    echoed = (
        f"Bad Request. Request headers: Authorization: Token {TOKEN}; "
        f"Accept: application/json; x-api-key={TOKEN.split('.')[1]}"
    )
    client = _answering(("GET", "/api/dcim/devices/", 400, echoed))
    with pytest.raises(NetBoxError) as caught:
        client.devices(Selection(tag="l2tpgen"))
    message = str(caught.value)
    assert "HTTP 400" in message
    for part in (TOKEN, "abcdef123456", "s3cr3tT0kenValue987654321"):
        assert part not in message
    # and through the CLI, where CI logs would keep it
    made = http_module._session  # noqa: SLF001

    def session(limit: float, budget: Any = None) -> Any:  # noqa: ANN401
        real = made(limit, budget)
        replaying(
            real,
            Recording(
                [
                    {
                        "request": {
                            "method": "GET",
                            "path": "/api/dcim/devices/",
                            "query": [["tag", "l2tpgen"]],
                            "body": None,
                        },
                        "status": 400,
                        "answer": echoed,
                    }
                ]
            ),
        )
        return real

    monkeypatch.setattr(http_module, "_session", session)
    result = runner.invoke(
        app,
        ["netbox", "pull", "--url", BASE, "-o", "/nonexistent/out", "--tag", "l2tpgen"],
        env={"L2TPGEN_NETBOX_TOKEN": TOKEN},
    )
    assert result.exit_code == 1
    assert "HTTP 400" in result.output
    assert "s3cr3tT0kenValue987654321" not in result.output
    assert "abcdef123456" not in result.output


@pytest.mark.parametrize(
    "answer",
    ["just some text", ["a", "list", "of", "strings"], {"results": "not a list"}],
    ids=["a-string", "strings", "results-not-a-list"],
)
def test_an_answer_of_the_wrong_shape_is_named_as_not_netboxs_not_a_python_error(
    answer: Any,  # noqa: ANN401
) -> None:
    client = _answering(("GET", "/api/dcim/devices/", 200, answer))
    with pytest.raises(NetBoxError) as caught:
        client.inventory(Selection(tag="l2tpgen"))
    message = str(caught.value)
    assert "not the shape of NetBox's REST API" in message
    assert "GET /api/dcim/devices/" in message
    assert "object has no attribute" not in message


@pytest.fixture
def endless_netbox() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 whose answer to /api/dcim/devices/ never ends.

    ``?slow`` in the URL's path trickles the body a byte at a time instead of flooding it.
    """
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    stop = threading.Event()
    modes: list[str] = ["flood"]

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.recv(65536)
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n"
                )
                chunk = b"[" + b'"x",' * 16000
                try:
                    while not stop.is_set():
                        if modes[0] == "flood":
                            conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        else:
                            conn.sendall(b"1\r\n \r\n")
                            time.sleep(0.05)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", modes
    stop.set()
    thread.join(5)
    server.close()


def test_an_endless_answer_is_refused_at_the_size_cap_not_read_into_memory(
    endless_netbox: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(http_module, "MAX_BODY", 4 * 1024 * 1024)
    url, _ = endless_netbox
    with pytest.raises(NetBoxError) as caught:
        Client(url, TOKEN, timeout=5).devices(Selection())
    assert "larger than 4 MiB" in str(caught.value)
    assert "GET /api/dcim/devices/" in str(caught.value)


def test_an_answer_that_trickles_for_ever_is_refused_after_its_deadline(
    endless_netbox: tuple[str, list[str]],
) -> None:
    url, modes = endless_netbox
    modes[0] = "trickle"
    with pytest.raises(NetBoxError) as caught:
        Client(url, TOKEN, timeout=0.5).devices(Selection())
    assert "still coming after 4 s" in str(caught.value)


def test_a_netbox_error_body_loses_every_kind_of_credential_the_page_names() -> None:
    """docs/netbox.md: the token, anything shaped like one and the value after Authorization,
    Token, Bearer, password or secret become ``***``. Before this test, `Authorization: Bearer X`
    kept X (the scheme was taken for the value) and `password=a secret: b` kept b."""
    echoed = (
        "Proxy error. Forwarded: Authorization: Bearer Zq9bearer0001; password=Zq9password02 "
        'secret: Zq9secret00003 {"client_secret": "Zq9json4"} another token nbt_Zq9o.Zq9key5'
    )
    client = _answering(("GET", "/api/dcim/devices/", 502, echoed))
    with pytest.raises(NetBoxError) as caught:
        client.devices(Selection(tag="l2tpgen"))
    message = str(caught.value)
    assert "HTTP 502" in message
    assert "Zq9" not in message
