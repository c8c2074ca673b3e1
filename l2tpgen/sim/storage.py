r"""Files and saving: ``write memory``, ``copy``, ``dir``, ``delete``, ``configure replace``.

A router has one file system, its flavor's (``flash:`` on classic IOS, ``bootflash:`` on IOS-XE);
naming another is refused as IOS refuses a file system it does not have. Texts, with their
sources (the research notes quote each one):

- ``%Error opening FS:NAME (No such file or directory)``: the ``Error opening`` / ``No such file
  or directory`` failures napalm, netmiko's scp_handler and RANCID look for. That a CSR prints
  exactly this for ``flash:`` is not verified.
- ``startup-config file open failed (Device or resource busy)``: ``write memory`` while NVRAM is
  busy, quoted in NetSPoC-Approve's ``go/pkg/ios/device.go`` (which retries it).
- ``%Error opening nvram:startup-config (Device or resource busy)``: the form RANCID matches
  (``%Error opening \S+:\S+ \(Device or resource busy\)``) for ``copy running-config
  startup-config``; the file name in it is inferred.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.sim import config_lock

if TYPE_CHECKING:
    from l2tpgen.sim.terminal import Terminal

WRITE_BUSY = "startup-config file open failed (Device or resource busy)"
COPY_BUSY = "%Error opening nvram:startup-config (Device or resource busy)"


def _no_such_file(path: str) -> str:
    return f"%Error opening {path} (No such file or directory)"


def _split(t: Terminal, path: str) -> tuple[str, str] | None:
    """``FS:NAME`` -> (FS, NAME) when FS is this router's file system; None otherwise."""
    system, colon, name = path.partition(":")
    if not colon or f"{system}:" != t.router.flavor.file_system:
        return None
    return system + colon, name.lstrip("/")


def _save(t: Terminal, failure: str) -> str:
    if t.router.save_fails:
        return failure
    t.router.startup = t.router.running.copy()
    return "Building configuration...\n[OK]"


def write(t: Terminal, _words: list[str]) -> str:
    """``write [memory]``."""
    return _save(t, WRITE_BUSY)


def copy_startup(t: Terminal, _words: list[str]) -> str:
    """``copy running-config startup-config``: asks for the destination, then saves."""
    return t.ask("Destination filename [startup-config]? ", lambda _answer: _save(t, COPY_BUSY))


def copy_file(t: Terminal, words: list[str]) -> str:
    """``copy running-config FS:NAME``: asks for the name, then copies."""
    target = words[-1]
    if ":" not in target or not target.partition(":")[2].lstrip("/"):
        return t.error(" ".join(words), 2, incomplete=False)
    split = _split(t, target)
    if split is None:
        return _no_such_file(target)
    system, default = split

    def confirm(answer: str) -> str:
        name = answer.removeprefix(system).lstrip("/") or default
        t.router.files[name] = t.router.running.copy()
        size = len(t.router.running.body())
        return f"{size} bytes copied in 0.012 secs ({size * 80} bytes/sec)"

    return t.ask(f"Destination filename [{default}]? ", confirm)


def configure_replace(t: Terminal, words: list[str]) -> str:
    """``configure replace FS:NAME [force]``: the running config becomes the file's."""
    split = _split(t, words[2])
    if split is None or split[1] not in t.router.files:
        return _no_such_file(words[2])
    locked = config_lock.foreign(t)
    if locked is not None:
        return locked
    t.router.running = t.router.files[split[1]].copy()
    t.router.events.append(("replace", split[1]))
    return "Total number of passes: 1\nRollback Done"


def directory(t: Terminal, words: list[str]) -> str:
    """``dir [FS:[NAME]]``."""
    system, name = t.router.flavor.file_system, ""
    if len(words) > 1:
        path = words[1] if ":" in words[1] else system + words[1]
        split = _split(t, path)
        if split is None or (split[1] and split[1] not in t.router.files):
            return _no_such_file(path)
        system, name = split
    rows = [f"Directory of {system}/", ""]
    listed = sorted(x for x in t.router.files.items() if not name or x[0] == name)
    for number, (file, config) in enumerate(listed, start=1):
        rows.append(
            f"{number:>4}  -rw-  {len(config.body()):>10}  Nov 21 2026 00:00:00 +00:00  {file}"
        )
    if not listed:
        rows.append("No files in directory")
    rows += ["", "256487424 bytes total (255000000 bytes free)"]
    return "\n".join(rows)


def delete(t: Terminal, words: list[str]) -> str:
    """``delete [/force] FS:NAME``."""
    split = _split(t, words[-1])
    if split is None or t.router.files.pop(split[1], None) is None:
        return f"%Error deleting {words[-1]} (No such file or directory)"
    return ""
