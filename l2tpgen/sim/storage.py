"""Files and saving: ``write memory``, ``copy``, ``dir``, ``delete``, ``configure replace``.

The router keeps its files on ``flash:``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from l2tpgen.sim.terminal import Terminal


def write(t: Terminal, _words: list[str]) -> str:
    """``write [memory]``."""
    t.router.startup = t.router.running.copy()
    return "Building configuration...\n[OK]"


def copy_startup(t: Terminal, _words: list[str]) -> str:
    """``copy running-config startup-config``: asks for the destination, then saves."""
    return t.ask("Destination filename [startup-config]? ", lambda _answer: write(t, []))


def copy_file(t: Terminal, words: list[str]) -> str:
    """``copy running-config flash:NAME``: asks for the name, then copies."""
    target = words[-1]
    if not target.startswith("flash:"):
        return t.error(" ".join(words), 2, incomplete=False)
    default = target.removeprefix("flash:")

    def confirm(answer: str) -> str:
        name = answer or default
        t.router.files[name] = t.router.running.copy()
        size = len(t.router.running.body())
        return f"{size} bytes copied in 0.012 secs ({size * 80} bytes/sec)"

    return t.ask(f"Destination filename [{default}]? ", confirm)


def configure_replace(t: Terminal, words: list[str]) -> str:
    """``configure replace flash:NAME [force]``: the running config becomes the file's."""
    name = words[2].removeprefix("flash:")
    if name not in t.router.files:
        return f"%Error opening flash:{name} (File not found)"
    t.router.running = t.router.files[name].copy()
    t.router.events.append(("replace", name))
    return "Total number of passes: 1\nRollback Done"


def directory(t: Terminal, _words: list[str]) -> str:
    """``dir [WORD]``."""
    rows = ["Directory of flash:/", ""]
    for number, (name, config) in enumerate(sorted(t.router.files.items()), start=1):
        rows.append(
            f"{number:>4}  -rw-  {len(config.body()):>10}  Nov 21 2026 00:00:00 +00:00  {name}"
        )
    rows.append("")
    rows.append("256487424 bytes total (255000000 bytes free)")
    return "\n".join(rows)


def delete(t: Terminal, words: list[str]) -> str:
    """``delete [/force] flash:NAME``."""
    name = words[-1].removeprefix("flash:")
    if t.router.files.pop(name, None) is None:
        return f"%Error deleting flash:{name} (No such file or directory)"
    return ""
