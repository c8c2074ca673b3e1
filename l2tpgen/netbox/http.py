"""NetBox's HTTP answers, read with care: bounded bodies, the token never shown, clear errors.

Another service, or a proxy, may answer at NetBox's URL: bodies are read in bounded pieces, an
error body is shown shortened and scrubbed of anything like a token, and every failure becomes one
:class:`NetBoxError` line that names the URL and the request (``GET /api/dcim/devices/``).
"""

from __future__ import annotations

import re
from typing import Any

from l2tpgen.errors import L2tpgenError

DEFAULT_TIMEOUT = 30.0  # seconds one HTTP request to NetBox may take

# What reading a record of the wrong shape raises (a string where a record was, a missing field).
_SHAPE_ERRORS = (AttributeError, TypeError, KeyError, ValueError, IndexError)


class NetBoxError(L2tpgenError):
    """NetBox cannot be read: unreachable, the token refused, or an answer l2tpgen cannot use."""


MAX_BODY = 64 * 1024 * 1024  # bytes one answer may have: a fleet's inventory is far smaller


def _read_capped(response: Any, limit: float) -> None:  # noqa: ANN401 - a requests.Response
    """Read ``response``'s body, refusing one over MAX_BODY or one that keeps coming past ``limit``.

    requests reads a body whole into memory, and its timeout is per read: a server that answers an
    endless body, or trickles one, would exhaust memory or keep l2tpgen waiting for ever.
    """
    import time  # noqa: PLC0415

    deadline = time.monotonic() + max(limit, 1.0) * 4
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_content(chunk_size=65536):
        size += len(chunk)
        if size > MAX_BODY:
            response.close()
            raise BodyTooLargeError(f"the answer is larger than {MAX_BODY // (1024 * 1024)} MiB")
        if time.monotonic() > deadline:
            response.close()
            raise BodyTooSlowError(f"the answer was still coming after {max(limit, 1.0) * 4:g} s")
        chunks.append(chunk)
    response._content = b"".join(chunks)  # noqa: SLF001 - what requests.Response.content fills
    response._content_consumed = True  # noqa: SLF001


class BodyTooLargeError(Exception):
    """An answer's body passed MAX_BODY."""


class BodyTooSlowError(Exception):
    """An answer's body kept coming past its deadline."""


def _session(limit: float) -> Any:  # noqa: ANN401 - a requests.Session
    """A requests session whose every request gives up after ``limit`` seconds.

    requests waits for ever by default, and pynetbox passes no timeout: a NetBox that accepts the
    connection and never answers would hang l2tpgen. The body is read in bounded pieces
    (:func:`_read_capped`), and the last request is kept (``session.l2tpgen_last``) so that an
    answer l2tpgen cannot read is reported with the request that got it.
    """
    import requests  # noqa: PLC0415 - pynetbox's own dependency
    from requests.adapters import HTTPAdapter  # noqa: PLC0415

    class _Session(requests.Session):
        l2tpgen_last = ""  # the last request, "GET /api/dcim/devices/", for messages

        def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # noqa: ANN401
            self.l2tpgen_last = f"{request.method} {_path(request.url or '')}"
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
            response = super().send(
                request,
                stream=True,
                timeout=limit if timeout is None else timeout,
                verify=verify,
                cert=cert,
                proxies=proxies,
            )
            _read_capped(response, limit)
            return response

    session = _Session()
    for prefix in ("http://", "https://"):
        session.mount(prefix, _Timeout())
    return session


def _path(url: str) -> str:
    """``url`` without scheme, host and query: what a message may show of a request."""
    from urllib.parse import urlsplit  # noqa: PLC0415

    return urlsplit(url).path or "/"


# What NetBox (Django REST framework) says when the token itself is refused, not a permission.
_TOKEN_REFUSED = re.compile(
    r"(?i)invalid (?:v\d )?token|token (?:has )?expired|credentials were not provided|"
    r"authentication"
)
_SECRETISH = re.compile(
    r"(?i)(authorization|token|bearer|nbt_|x-api-key|password|secret)\S*[\s:=\"']*[^\s,;\"'}]*"
)


def _scrub(text: str, token: str = "") -> str:
    """``text`` (an error body NetBox or a proxy sent) without the token or anything like one."""
    if token:
        text = text.replace(token, "***")
        for part in re.split(r"[.\s]", token):
            if len(part) >= 8:  # noqa: PLR2004 - a fragment long enough to be the key
                text = text.replace(part, "***")
    return _SECRETISH.sub(lambda m: f"{m.group(1)} ***", text)


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
    if isinstance(exc, BodyTooLargeError | BodyTooSlowError):
        return NetBoxError(f"NetBox at {url} sent an answer l2tpgen will not read{asked}: {exc}")
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
