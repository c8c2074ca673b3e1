"""known_hosts files read line by line before any connection, so a broken one is named, not hit.

paramiko's own loader stops at the first key that is not base64 with an exception that names no
file, skips lines it cannot split without a word, and takes a truncated key for a key (which then
looks like a changed host key). Here each line goes through paramiko's own line parser, and a key
must also take exactly the bytes it was read from.
"""

from __future__ import annotations

import re
from base64 import decodebytes
from functools import lru_cache
from pathlib import Path

from paramiko.hostkeys import HostKeyEntry, InvalidHostKey

from l2tpgen.errors import HostKeyError

_FIELDS = re.compile(" |\t")  # how paramiko splits a line
_KEY_TYPE = re.compile(r"(?:ssh|ecdsa|sk|x509v3)-\S+")  # ssh-ed25519, ecdsa-sha2-nistp256, ...
_NOT_A_LINE = "not a host key line (host names, key type, base64 key)"
_FIX = "fix or delete that line (nothing was contacted)"


def check_known_hosts(path: Path) -> None:
    """Raise ``HostKeyError`` naming the file and line of the first line paramiko cannot use."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise HostKeyError(f"cannot read known_hosts file {path}: {exc.strerror}") from None
    problem = _first_problem(str(path), stat.st_mtime_ns, stat.st_size)
    if problem is not None:
        raise HostKeyError(problem)


# One fleet shares one file: read it once per version of it, not once per router.
@lru_cache(maxsize=32)
def _first_problem(path: str, _mtime_ns: int, _size: int) -> str | None:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        return f"cannot read known_hosts file {path}: {exc.strerror}"
    for number, raw in enumerate(data.splitlines(), 1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            return f"known_hosts file {path}, line {number}: not UTF-8 text; {_FIX}"
        if not line or line.startswith("#"):
            continue
        problem = line_problem(line)
        if problem is not None:
            return f"known_hosts file {path}, line {number}: {problem}; {_FIX}"
    return None


def line_problem(line: str) -> str | None:
    """What is wrong with one known_hosts line (None: paramiko reads it, or skips a key type).

    A key type paramiko does not know (a security-key type, say) is skipped, as paramiko does.
    """
    fields = _FIELDS.split(line)
    if line.startswith("@"):
        return f"{fields[0]} lines are not supported (plain host keys only)"
    if len(fields) < 3 or not _KEY_TYPE.fullmatch(fields[1]):  # noqa: PLR2004 - names, type, key
        return _NOT_A_LINE
    return _key_problem(line, fields[1], fields[2])


def _key_problem(line: str, kind: str, blob: str) -> str | None:
    try:
        entry = HostKeyEntry.from_line(line)
    except InvalidHostKey:
        return f"the {kind} key is not valid base64"
    except Exception:  # noqa: BLE001 - paramiko and the crypto libraries raise many kinds here
        return f"the {kind} key is not a valid {kind} key"
    if entry is None:
        return None
    # paramiko pads a short key with zeros and ignores extra bytes: a cut key reads as another key.
    if len(entry.key.asbytes()) != len(decodebytes(blob.encode("utf-8"))):
        return f"the {kind} key is cut short or has extra bytes"
    return None
