"""NetBox's answers recorded from the real NetBox in CI, and served back without one.

A recording is the list of HTTP exchanges one l2tpgen operation had with NetBox (method, path,
query, request body; status and answer body), normalised so that two runs compare equal: the
address of the NetBox becomes ``http://netbox.test`` and creation and change times become
``<time>``. The NetBox tests reset the database to one template between tests, so object ids
repeat and a recording is stable.

:func:`recording` captures a live run (requests' response hook, so every request still goes
through l2tpgen's own session: timeout, size cap). :func:`replaying` mounts a transport on the
session that answers from a recording and refuses any request the recording does not hold, so an
offline test fails when l2tpgen asks NetBox something else than it did live.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from requests.adapters import BaseAdapter
from requests.models import Response

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    import requests

BASE = "http://netbox.test"
_TIMES = {"created", "last_updated", "last_used", "expires"}
_VOLATILE_QUERY = {"limit", "offset"}  # pynetbox's paging, not l2tpgen's question


def normalise(value: Any, base: str) -> Any:  # noqa: ANN401 - JSON
    """``value`` with ``base`` (the live NetBox's address) as BASE, and times as ``<time>``."""
    if isinstance(value, dict):
        return {
            k: "<time>" if k in _TIMES and v is not None else normalise(v, base)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [normalise(v, base) for v in value]
    if isinstance(value, str):
        return value.replace(base, BASE)
    return value


def _query(url: str) -> list[list[str]]:
    pairs = parse_qsl(urlsplit(url).query, keep_blank_values=True)
    return sorted([k, v] for k, v in pairs if k not in _VOLATILE_QUERY)


def _body(raw: object) -> Any:  # noqa: ANN401 - JSON
    if not raw or not isinstance(raw, bytes | str):
        return None
    text = raw.decode() if isinstance(raw, bytes) else raw
    try:
        return json.loads(text)
    except ValueError:
        return text


@dataclass
class Recording:
    """The exchanges of one operation, in order."""

    exchanges: list[dict[str, Any]] = field(default_factory=list)

    def dump(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.exchanges, indent=1, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: Path) -> Recording:
        return cls(json.loads(path.read_text()))


def request_key(method: str, url: str, body: Any, base: str) -> dict[str, Any]:  # noqa: ANN401
    """How a request is matched: method, path, query (without paging) and JSON body."""
    return {
        "method": method,
        "path": urlsplit(url).path,
        "query": _query(url),
        "body": normalise(body, base),
    }


@contextmanager
def recording(session: requests.Session, base: str) -> Iterator[Recording]:
    """Record every exchange ``session`` has while the block runs."""
    found = Recording()

    def hook(response: requests.Response, *_args: object, **_kwargs: object) -> None:
        request = response.request
        found.exchanges.append(
            {
                "request": request_key(
                    str(request.method), str(request.url), _body(request.body), base
                ),
                "status": response.status_code,
                "answer": normalise(_body(response.content), base),
            }
        )

    session.hooks["response"].append(hook)
    try:
        yield found
    finally:
        session.hooks["response"].remove(hook)


class _Replay(BaseAdapter):
    def __init__(self, recorded: Recording, base: str) -> None:
        super().__init__()
        self.left = list(recorded.exchanges)
        self.base = base
        self.asked: list[dict[str, Any]] = []

    def send(  # noqa: PLR0917 - requests' signature
        self,
        request: requests.PreparedRequest,
        stream: bool = False,  # noqa: ARG002, FBT002
        timeout: float | tuple[float | None, float | None] | None = None,  # noqa: ARG002
        verify: bool | str = True,  # noqa: ARG002, FBT002
        cert: str | tuple[str, str] | None = None,  # noqa: ARG002
        proxies: dict[str, str] | None = None,  # noqa: ARG002
    ) -> Response:
        key = request_key(str(request.method), str(request.url), _body(request.body), BASE)
        self.asked.append(key)
        for i, exchange in enumerate(self.left):
            if exchange["request"] == key:
                del self.left[i]
                break
        else:
            msg = f"l2tpgen asked NetBox what the recording does not hold: {key}"
            raise AssertionError(msg)
        response = Response()
        response.status_code = exchange["status"]
        answer = exchange["answer"]
        response._content = (  # noqa: SLF001 - a made response, as requests' own adapters do
            b"" if answer is None else json.dumps(answer).replace(BASE, self.base).encode()
        )
        response.headers["Content-Type"] = "application/json"
        response.headers["API-Version"] = "4.7"
        response.url = str(request.url)
        response.request = request
        response.reason = "OK" if response.status_code < 400 else "Error"
        return response

    def close(self) -> None:
        pass


def replaying(session: requests.Session, recorded: Recording, base: str = BASE) -> _Replay:
    """Make ``session`` answer from ``recorded`` (mounted for ``base``); returns the transport."""
    adapter = _Replay(recorded, base)
    session.mount(base, adapter)
    session.mount(re.sub(r"^http:", "https:", base), adapter)
    return adapter
