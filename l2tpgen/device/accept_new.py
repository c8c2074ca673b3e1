"""First contact with a router: learn its host key, as OpenSSH's ``accept-new``.

ssh_config(5), StrictHostKeyChecking: "If this flag is set to accept-new then ssh will
automatically add new host keys to the user's known_hosts file, but will not permit connections
to hosts with changed host keys" (https://man.openbsd.org/ssh_config#StrictHostKeyChecking).

paramiko asks its missing-host-key policy only for a host that has no entry at all (a host whose
entry holds another key fails with ``BadHostKeyException`` before any policy is asked), during the
key exchange, before authentication: so credentials are never sent to a key that was refused.
``AcceptNew`` is that policy. It appends one line in OpenSSH's format: ``host`` on port 22,
``[host]:port`` on any other, then the key type and its base64 (sshd(8), SSH_KNOWN_HOSTS FILE
FORMAT: "A hostname or address may optionally be enclosed within '[' and ']' brackets then
followed by ':' and a non-standard port number", https://man.openbsd.org/sshd.8). It appends under
an exclusive ``flock`` of the file, after reading the file again under the lock: another worker,
or another l2tpgen, may have learned that host since the connection loaded it. The file is created
0600 and a missing directory 0700 (as OpenSSH's ``hostfile_create_user_ssh_dir`` creates ``~/.ssh``,
openssh/openssh-portable hostfile.c). Nothing already in the file is rewritten (paramiko's own
``AutoAddPolicy`` rewrites the whole file, comments lost).

Each key learned is logged (``LOGGER``, level WARNING): the host, the key type, its SHA256
fingerprint as ``ssh-keygen -l`` prints it, and the file. The CLI prints those records.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import logging
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import paramiko
from paramiko.hostkeys import HostKeys

from l2tpgen.errors import HostKeyError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

LOGGER = logging.getLogger("l2tpgen.host_keys")
ACCEPT_NEW_OPTION = "--accept-new-host-keys"


def fingerprint(key: paramiko.PKey) -> str:
    """``SHA256:`` and the unpadded base64 of the key blob's SHA-256, as ``ssh-keygen -l`` shows."""
    digest = hashlib.sha256(key.asbytes()).digest()
    return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")


def known_hosts_name(host: str, port: int) -> str:
    """How a host is written in a known_hosts file: ``host`` on port 22, else ``[host]:port``."""
    return host if port == 22 else f"[{host}]:{port}"  # noqa: PLR2004 - SSH's own port


@dataclass(frozen=True)
class Learned:
    """A host key written to a known_hosts file."""

    host: str
    key_type: str
    fingerprint: str
    known_hosts: Path

    def __str__(self) -> str:
        return (
            f"learned the {self.key_type} host key {self.fingerprint} of {self.host} "
            f"(first contact, {ACCEPT_NEW_OPTION}) into {self.known_hosts}"
        )


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[int]:
    """The known_hosts file opened for appending (created 0600, its directory 0700), locked."""
    if not path.parent.is_dir():
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise HostKeyError(
                f"cannot create the directory of known_hosts file {path}: {exc.strerror}"
            ) from None
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError as exc:
        raise HostKeyError(f"cannot write known_hosts file {path}: {exc.strerror}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield descriptor
    finally:
        os.close(descriptor)  # closing releases the lock


def _ends_a_line(path: Path) -> bool:
    """Whether the file is empty or ends with a newline (a line appended starts a line)."""
    with path.open("rb") as current:
        size = current.seek(0, os.SEEK_END)
        if size == 0:
            return True
        current.seek(size - 1)
        return current.read(1) == b"\n"


def learn(path: Path, host: str, key: paramiko.PKey) -> Learned | None:
    """Append ``host``'s ``key`` to ``path`` unless the file has an entry for ``host`` by now.

    Returns what was learned, or None when the file already holds this very key (another worker
    learned it first).

    Raises:
        HostKeyError: the file holds another key for ``host`` (never overwritten), or cannot be
            written.
    """
    with _locked(path) as descriptor:
        known = HostKeys()
        with contextlib.suppress(OSError):  # an empty file just created reads as no entries
            known.load(str(path))
        entry = known.lookup(host)
        if entry is not None:
            if entry.get(key.get_name()) == key:
                return None
            raise HostKeyError(
                f"{host} offered a {key.get_name()} key {fingerprint(key)}, but {path} already "
                "holds another key for it (written meanwhile); refusing to connect (credentials "
                "were not sent), and the entry is left as it is"
            )
        line = f"{host} {key.get_name()} {key.get_base64()}\n"
        if not _ends_a_line(path):
            line = "\n" + line
        os.write(descriptor, line.encode("ascii"))
    learned = Learned(host, key.get_name(), fingerprint(key), path)
    LOGGER.warning("%s", learned)
    return learned


class AcceptNew(paramiko.MissingHostKeyPolicy):  # type: ignore[misc]  # paramiko is untyped
    """paramiko's policy for a host with no known_hosts entry: learn its key (``learn``)."""

    def __init__(self, known_hosts: Path) -> None:
        self.known_hosts = known_hosts

    def missing_host_key(
        self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey
    ) -> None:
        """Learn the key (``hostname`` is paramiko's known_hosts form of the host and port)."""
        del client
        learn(self.known_hosts, hostname, key)
