"""NetBox's HTTP answers, read with care: bounded bodies, the token never shown, clear errors.

Another service, or a proxy, may answer at NetBox's URL: bodies are read in bounded pieces, an
error body is shown shortened and scrubbed of anything like a token, and every failure becomes one
:class:`NetBoxError` line that names the URL and the request (``GET /api/dcim/devices/``).
"""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode, urlsplit

from l2tpgen.errors import L2tpgenError

DEFAULT_TIMEOUT = 30.0  # seconds one HTTP request to NetBox may take
# The whole command's reads and writes of NetBox: a total time, and a number of pages (GET
# requests). Each ends a command that would otherwise never end: an answer trickled a byte at a
# time (each read within the request timeout), or list pages whose `next` leads on for ever.
DEFAULT_DEADLINE = 300.0  # seconds, for every request of one command together
DEFAULT_MAX_PAGES = 5000  # GET requests of one command (pages of 50 to 1000 records each)
DEADLINE_ENV = "L2TPGEN_NETBOX_DEADLINE"
MAX_PAGES_ENV = "L2TPGEN_NETBOX_MAX_PAGES"

# What reading a record of the wrong shape raises (a string where a record was, a missing field).
_SHAPE_ERRORS = (AttributeError, TypeError, KeyError, ValueError, IndexError)


class NetBoxError(L2tpgenError):
    """NetBox cannot be read: unreachable, the token refused, or an answer l2tpgen cannot use."""


MAX_BODY = 64 * 1024 * 1024  # bytes one answer may have: a fleet's inventory is far smaller


class LimitError(NetBoxError):
    """The command reached one of its limits (``Budget``).

    The message says which, and how to raise it; ``_explain`` puts NetBox's URL in front.
    """


class Budget:
    """One command's limits over all its requests: a total time and a number of pages.

    ``deadline`` seconds from its start, when the command first turns to NetBox
    (``DEFAULT_DEADLINE``), at most ``max_pages`` GET requests (``DEFAULT_MAX_PAGES``), and never
    the same list page twice (a ``next`` link back to a page already read loops for ever,
    whatever the limits).
    """

    def __init__(
        self, deadline: float = DEFAULT_DEADLINE, max_pages: int = DEFAULT_MAX_PAGES
    ) -> None:
        self.deadline = deadline
        self.max_pages = max_pages
        self.ends = time.monotonic() + deadline
        self.pages = 0
        self.seen: set[str] = set()

    def left(self) -> float:
        """Seconds left before the deadline (0 or less: passed)."""
        return self.ends - time.monotonic()

    def passed(self, asked: str) -> LimitError:
        """The error of a command past its deadline, during ``asked`` (``GET /api/...``)."""
        return LimitError(
            f"l2tpgen gave up after {self.deadline:g} s in all, the command's deadline ({asked}): "
            "NetBox answered too slowly for the whole command (an answer trickling in, or too "
            f"many pages); raise it with --deadline SECONDS or {DEADLINE_ENV}"
        )

    def request(self, method: str, url: str) -> None:
        """Count one request, refusing it past a limit or as a page already read.

        Raises:
            LimitError: the deadline passed, the page limit is reached, or the page repeats.
        """
        asked = f"{method} {_path(url)}"
        if self.left() <= 0:
            raise self.passed(asked)
        if method != "GET":
            return
        self.pages += 1
        if self.pages > self.max_pages:
            raise LimitError(
                f"l2tpgen read {self.max_pages} pages, the command's page limit, and was asked "
                f"for more ({asked}): NetBox's `next` links did not end; if the selection really "
                f"is that large, raise the limit with --max-pages N or {MAX_PAGES_ENV}"
            )
        if not _paged(url):
            return
        if not _continued(url):
            # A list's first ask (``?limit=0``) starts a listing: a command may list the same
            # thing twice. Within a listing no page comes twice (pynetbox follows ``next``).
            self.seen = set()
            return
        if url in self.seen:
            raise LimitError(
                f"its `next` link points back to a page l2tpgen already read ({asked}"
                f"{_query(url)}): its list pages loop and would never end (a proxy rewriting "
                "NetBox's links, or not NetBox?); no limit helps, fix the answer's `next` link"
            )
        self.seen.add(url)


def _paged(url: str) -> bool:
    """Whether ``url`` asks for one page of a list (NetBox's ``limit``, ``offset``, ``start``)."""
    return bool({"limit", "offset", "start", "cursor"} & set(parse_qs(urlsplit(url).query)))


def _continued(url: str) -> bool:
    """Whether ``url`` is a page a ``next`` link gave (an ``offset``, ``start`` or ``cursor``)."""
    return bool({"offset", "start", "cursor"} & set(parse_qs(urlsplit(url).query)))


def _query(url: str) -> str:
    """The page's place in its list (``?limit=50&offset=50``), never anything else of the URL."""
    keep = [(k, v) for k, v in parse_qsl(urlsplit(url).query) if k in {"limit", "offset", "start"}]
    return f"?{urlencode(keep)}" if keep else ""


def _read_capped(response: Any, limit: float, budget: Budget | None = None) -> None:  # noqa: ANN401 - a requests.Response
    """Read ``response``'s body, refusing one over MAX_BODY or one that keeps coming past ``limit``.

    requests reads a body whole into memory, and its timeout is per read: a server that answers an
    endless body, or trickles one, would exhaust memory or keep l2tpgen waiting for ever. The body
    is read with ``read1`` (whatever has arrived, at most one wait of the request timeout), so a
    body trickled a byte at a time is measured against the time at every byte: four request
    timeouts for one answer, and the command's deadline (``budget``), whichever comes first.
    """
    own = max(limit, 1.0) * 4
    deadline = time.monotonic() + own
    chunks: list[bytes] = []
    size = 0
    while chunk := response.raw.read1(65536, decode_content=True):
        size += len(chunk)
        if size > MAX_BODY:
            response.close()
            raise BodyTooLargeError(f"the answer is larger than {MAX_BODY // (1024 * 1024)} MiB")
        if budget is not None and budget.left() <= 0:
            response.close()
            raise budget.passed(f"{response.request.method} {_path(response.url or '')}")
        if time.monotonic() > deadline:
            response.close()
            raise BodyTooSlowError(f"the answer was still coming after {own:g} s")
        chunks.append(chunk)
    response._content = b"".join(chunks)  # noqa: SLF001 - what requests.Response.content fills
    response._content_consumed = True  # noqa: SLF001


class BodyTooLargeError(Exception):
    """An answer's body passed MAX_BODY."""


class BodyTooSlowError(Exception):
    """An answer's body kept coming past its deadline."""


def _session(limit: float, budget: Budget | None = None) -> Any:  # noqa: ANN401 - a requests.Session
    """A requests session whose every request gives up after ``limit`` seconds.

    requests waits for ever by default, and pynetbox passes no timeout: a NetBox that accepts the
    connection and never answers would hang l2tpgen. The body is read in bounded pieces
    (:func:`_read_capped`), and the last request is kept (``session.l2tpgen_last``) so that an
    answer l2tpgen cannot read is reported with the request that got it. ``budget``: the whole
    command's deadline and page limit (a fresh default one unless given), counted at each request.
    """
    counted = budget or Budget()
    import requests  # noqa: PLC0415 - extra [netbox]: pynetbox brings requests
    from requests.adapters import HTTPAdapter  # noqa: PLC0415 - extra [netbox]: requests' adapter

    class _Session(requests.Session):
        l2tpgen_last = ""  # the last request, "GET /api/dcim/devices/", for messages

        def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # noqa: ANN401
            self.l2tpgen_last = f"{request.method} {_path(request.url or '')}"
            counted.request(request.method or "", request.url or "")
            return super().send(request, **kwargs)

    class _Timeout(HTTPAdapter):
        def send(  # noqa: PLR0917 - requests' signature
            self,
            request: requests.PreparedRequest,
            stream: bool = False,  # noqa: FBT001, FBT002, ARG002 - requests' signature
            timeout: float | tuple[float | None, float | None] | None = None,
            verify: bool | str = True,  # noqa: FBT001, FBT002 - requests' signature
            cert: str | tuple[str, str] | None = None,
            proxies: dict[str, str] | None = None,
        ) -> requests.Response:
            wait = limit if timeout is None else timeout
            response = super().send(
                request,
                stream=True,
                timeout=_within(wait, counted.left()),
                verify=verify,
                cert=cert,
                proxies=proxies,
            )
            _read_capped(response, limit, counted)
            return response

    session = _Session()
    for prefix in ("http://", "https://"):
        session.mount(prefix, _Timeout())
    return session


def _within(
    wait: float | tuple[float | None, float | None], left: float
) -> float | tuple[float | None, float | None]:
    """A request's timeout, never past the command's deadline (``left`` seconds away)."""
    left = max(left, 0.01)
    if isinstance(wait, tuple):
        return (min(wait[0] or left, left), min(wait[1] or left, left))
    return min(wait, left)


def _path(url: str) -> str:
    """``url`` without scheme, host and query: what a message may show of a request."""
    return urlsplit(url).path or "/"


# What NetBox (Django REST framework) says when the token itself is refused, not a permission.
_TOKEN_REFUSED = re.compile(
    r"(?i)invalid (?:v\d )?token|token (?:has )?expired|credentials were not provided|"
    r"authentication"
)
# A credential's name (and what follows it in the name: `secret_key`, `x-api-key`), its separator
# (`: `, `=`, `": "`), an optional scheme (`Authorization: Bearer X`: X is the value), the value.
_SECRETISH = re.compile(
    r"(?i)(authorization|token|bearer|x-api-key|password|secret)[\w-]*[\\\"']*[\s:=]*[\\\"']*"
    r"(?:(?:bearer|token|basic)\s+)?[^\s,;\\\"'}]*"
)
_TOKENISH = re.compile(r"nbt_[^\s,;\\\"'}]*")


def _scrub(text: str, token: str = "") -> str:
    """``text`` (an error body NetBox or a proxy sent) without the token or anything like one."""
    if token:
        text = text.replace(token, "***")
        for part in re.split(r"[.\s]", token):
            if len(part) >= 8:  # noqa: PLR2004 - a fragment long enough to be the key
                text = text.replace(part, "***")
    return _SECRETISH.sub(lambda m: f"{m.group(1)} ***", _TOKENISH.sub("***", text))


def _explain(  # noqa: PLR0911 - one message per kind of failure
    exc: Exception,
    url: str,
    timeout: float = DEFAULT_TIMEOUT,
    *,
    token: str = "",
    writing: bool = False,
    request: str = "",
) -> NetBoxError:
    """``exc`` as one line naming the URL (and the request), never the token.

    ``writing``: the request would change NetBox (push), so a refusal is about writing.
    """
    status = getattr(getattr(exc, "req", None), "status_code", None)
    asked = f" ({request})" if request else ""
    said = _scrub(str(getattr(exc, "error", "") or ""), token)[:200]
    if status in {401, 403} and (status == 401 or _TOKEN_REFUSED.search(said)):  # noqa: PLR2004
        return NetBoxError(
            f"NetBox at {url} refused the API token (HTTP {status}){asked}: set "
            "L2TPGEN_NETBOX_TOKEN to a valid token of a user that may read devices, interfaces, "
            f"IP addresses and L2VPNs (NetBox said: {said or 'nothing'})"
        )
    if status == 403 and (writing or "write permission" in said.lower()):  # noqa: PLR2004
        return NetBoxError(
            f"NetBox at {url} refused a change (HTTP 403){asked}: the token may read but not "
            "write; give it write permission (Write enabled) and its user the add and change "
            "permissions on devices, interfaces, IP addresses, VLANs, L2VPNs and tunnels"
        )
    if status == 403:  # noqa: PLR2004 - HTTP's code for "not allowed"
        return NetBoxError(
            f"NetBox at {url} refused to answer (HTTP 403){asked}: the token's user may not "
            "read devices, interfaces, IP addresses and L2VPNs; give it view permission on them"
        )
    if status is not None:
        detail = _scrub(str(getattr(exc, "error", "") or ""), token)[:300]
        return NetBoxError(
            f"NetBox at {url} answered HTTP {status}{asked}: {detail or type(exc).__name__}"
        )
    name = type(exc).__name__
    if isinstance(exc, LimitError | BodyTooLargeError | BodyTooSlowError):
        return _limited(exc, url, asked)
    if "ReadTimeout" in name:
        return NetBoxError(
            f"NetBox at {url} accepted the connection but did not answer within {timeout:g} s "
            f"({name}): is it overloaded or is the URL another service? (--timeout waits longer)"
        )
    if "Connection" in name or "Timeout" in name:
        return NetBoxError(f"cannot reach NetBox at {url} ({name}): is the URL right and up?")
    if isinstance(exc, _SHAPE_ERRORS):
        return NetBoxError(
            f"NetBox at {url} gave an answer l2tpgen cannot read{asked}: not the shape of "
            "NetBox's REST API (is the URL NetBox's, and is NetBox 4.x?)"
        )
    reason = _scrub(str(exc).split(":")[-1].strip(), token) or name
    return NetBoxError(f"NetBox at {url} gave an answer l2tpgen cannot read{asked}: {reason[:200]}")


def _limited(exc: Exception, url: str, asked: str) -> NetBoxError:
    """A limit reached: the command's (``Budget``), or one answer's (size, time)."""
    if isinstance(exc, LimitError):
        return NetBoxError(f"NetBox at {url}: {exc}")
    return NetBoxError(f"NetBox at {url} sent an answer l2tpgen will not read{asked}: {exc}")
