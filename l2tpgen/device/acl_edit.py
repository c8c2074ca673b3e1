"""An access list that exists on the router is edited entry by entry, never deleted and retyped.

IOS applies an access list as it stands after every line typed: ``no ip access-list extended
l2tpgen-wan-in`` and the list typed again while ``ip access-group l2tpgen-wan-in in`` is on the WAN
drops everything inbound (SSH included) from its first entry until its ``permit ip any any``, and
a crypto map's ``match address`` list likewise. Push edits an existing list with sequence numbers
instead (Cisco, "IP Access List Entry Sequence Numbering", IOS 12.2(14)S, 12.2(15)T, 12.3(2)T:
``ip access-list resequence NAME START STEP`` renumbers the entries in their order; in the list's
mode ``SEQ permit|deny ...`` puts an entry at SEQ and ``no SEQ`` removes one; copies read at
https://manualsbrain.com/en/manuals/1643333/?page=9 and
https://pdfslide.us/documents/ip-access-list-entry-sequence-numbering-summary-steps-1-enable-2-configure-terminal.html;
the CLI help ``<1-2147483647> Starting Sequence Number`` / ``Step to increment`` as a router printed
it: https://robinward.com/?m=201401):

1. ``ip access-list resequence NAME STEP STEP``: the running entries are numbered STEP, 2*STEP, ...
   (``show running-config`` does not print the numbers on classic IOS, and they are not kept over
   a reload: renumbering first makes them known; it changes no entry and no order);
2. the new entries, top down, each at a number between its neighbours;
3. the old entries that go, bottom up (``no SEQ``);
4. ``ip access-list resequence NAME 10 10``: tidy numbers again.

Why no moment is more restrictive than both the old and the new list: let a packet be admitted by
both. While entries are added (top down, in the new list's order, common entries in the same
order in both lists), its first match is either an old entry (the old list's first match: a
permit) or an added one; an added entry that matched it with a deny comes, in the new list, after
the new list's first match for it (a permit), which is either common (present) or was added
earlier. While old entries are removed (bottom up), symmetrically. ``tests/test_acl_edit.py``
checks it on every prefix of the commands with the project's own evaluator (``l2tpgen.ios.acl``).

That argument needs the entries both lists hold in the same relative order. Entries of one action
in a row can be reordered without changing what the list does (the first match among them gives
the same action), so the intended list takes the router's order for those (``adopt_order``); an
entry that would still have to move is refused (``AclEditError``): moving it means removing it
first, a moment without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.device.scope import OwnershipError
from l2tpgen.ios.acl import entry_text

if TYPE_CHECKING:
    from l2tpgen.ios.tree import Config

TIDY = 10  # IOS's own numbering: the first entry 10, then every 10
_SEQ_MAX = 2147483647


class AclEditError(OwnershipError):
    """An access list on the router cannot become the intended one by adding and removing.

    A refusal, like the other ownership refusals: nothing is sent.
    """


def _is_entry(text: str) -> bool:
    return text.split()[:1] in (["permit"], ["deny"])


def _runs(entries: list[str]) -> list[list[str]]:
    """Consecutive entries with the same first word (``permit``, ``deny``, ``remark``...)."""
    runs: list[list[str]] = []
    for text in entries:
        if runs and runs[-1][0].split()[0] == text.split()[0]:
            runs[-1].append(text)
        else:
            runs.append([text])
    return runs


def adopt_order(old: list[str], new: list[str]) -> list[str]:
    """``new`` with each run of same-action entries in the router's order where it has them.

    A run is reordered only as a whole set of same-action entries: what the list does is the same.
    Entries of the run the router does not have keep their place after those it has.
    """
    rank = {text: i for i, text in enumerate(old)}
    out: list[str] = []
    for run in _runs(new):
        if run[0].split()[0] not in {"permit", "deny"}:
            out += run
            continue
        known = sorted((t for t in run if t in rank), key=rank.__getitem__)
        out += known + [t for t in run if t not in rank]
    return out


def _check_no_moves(name: str, old: list[str], new: list[str]) -> None:
    common = set(old) & set(new)
    in_old = [t for t in old if t in common]
    in_new = [t for t in new if t in common]
    for was, will in zip(in_old, in_new, strict=True):
        if was != will:
            raise AclEditError(
                f"access list {name} on the router holds `{will}` in another place than the "
                f"intended list, among entries whose order matters; moving it would leave a "
                f"moment without it, so nothing was sent: put the router's {name} in the "
                f"intended order by hand (`show ip access-lists {name}`, then `no SEQ` and `SEQ "
                f"...` in the list's mode), or remove the list where it is applied first"
            )


def _merged(old: list[str], new: list[str]) -> list[tuple[str, str]]:
    """Old and new entries in one order that keeps both lists' orders: ("old"|"new"|"both", text).

    Between two common entries, the new ones come before the old ones.
    """
    common = set(old) & set(new)
    out: list[tuple[str, str]] = []
    i = 0
    for text in new:
        if text in common:
            while old[i] != text:
                out.append(("old", old[i]))
                i += 1
            out.append(("both", text))
            i += 1
        else:
            out.append(("new", text))
    out += [("old", t) for t in old[i:]]
    # new entries placed before the old ones of the same gap: move each gap's "old" after "new"
    result: list[tuple[str, str]] = []
    gap_old: list[tuple[str, str]] = []
    gap_new: list[tuple[str, str]] = []
    for kind, text in out:
        if kind == "both":
            result += gap_new + gap_old + [(kind, text)]
            gap_old, gap_new = [], []
        else:
            (gap_old if kind == "old" else gap_new).append((kind, text))
    return result + gap_new + gap_old


def _step(merged: list[tuple[str, str]]) -> int:
    """A renumbering step that leaves room for the longest run of new entries between old ones."""
    longest = run = 0
    for kind, _ in merged:
        run = run + 1 if kind == "new" else 0
        longest = max(longest, run)
    return TIDY * (longest + 1)


def edit_commands(header: str, old_lines: list[str], new_lines: list[str]) -> list[str]:
    """The commands that take the router's list ``header`` from ``old_lines`` to ``new_lines``.

    Empty when they already hold the same entries in the same order.

    Raises:
        AclEditError: an entry would have to move among entries whose order matters.
    """
    name = header.rsplit(maxsplit=1)[-1]
    old = [entry_text(line) for line in old_lines]
    new = [entry_text(line) for line in new_lines]
    if old == new:
        return []
    # A remark has no sequence number of its own: it is left out of the numbering, and one the
    # intended list does not hold goes last, by its text (``no remark ...``).
    extra = [t for t in old if not _is_entry(t) and t not in new]
    old = [t for t in old if _is_entry(t)]
    new = [t for t in new if _is_entry(t)]
    _check_no_moves(name, old, new)
    merged = _merged(old, new)
    step = _step(merged)
    number: dict[int, int] = {}  # index in merged -> sequence number
    old_seen = 0
    for at, (kind, _) in enumerate(merged):
        if kind != "new":
            old_seen += 1
            number[at] = old_seen * step
    if old_seen * step > _SEQ_MAX:
        raise AclEditError(f"access list {name} is too long to renumber; edit it by hand")
    _number_new(merged, number, step)
    adds = [f" {number[at]} {text}" for at, (kind, text) in enumerate(merged) if kind == "new"]
    removes = [f" no {number[at]}" for at, (kind, _) in enumerate(merged) if kind == "old"]
    return [
        f"ip access-list resequence {name} {step} {step}",
        header,
        *adds,
        *reversed(removes),
        *(f" no {text}" for text in extra),
        f"ip access-list resequence {name} {TIDY} {TIDY}",
    ]


def _number_new(merged: list[tuple[str, str]], number: dict[int, int], step: int) -> None:
    """Numbers for the new entries: evenly between the old numbers around each run of them."""
    at = 0
    while at < len(merged):
        if merged[at][0] != "new":
            at += 1
            continue
        end = at
        while end < len(merged) and merged[end][0] == "new":
            end += 1
        low = number[at - 1] if at > 0 else 0
        high = number[end] if end < len(merged) else low + step
        count = end - at
        for k in range(count):
            number[at + k] = low + (high - low) * (k + 1) // (count + 1)
        at = end


def adopt_lists(running: Config, intended: str) -> str:
    """``intended`` with each access list the router has in the router's order where it can be.

    See ``adopt_order``: only runs of same-action entries are reordered, so the list does the
    same; push then neither moves an entry nor finds a change in the next run.
    """
    old = {
        root.text: [entry_text(c.text) for c in root.children]
        for root in running.roots
        if root.text.startswith("ip access-list ")
    }
    out: list[str] = []
    lines = intended.splitlines(keepends=True)
    at = 0
    while at < len(lines):
        header = lines[at].rstrip("\n")
        end = at + 1
        while end < len(lines) and lines[end].startswith(" "):
            end += 1
        body = lines[at + 1 : end]
        if header in old and body:
            adopted = adopt_order(old[header], [entry_text(b) for b in body])
            body = [f" {text}\n" for text in adopted]
        out += [lines[at], *body]
        at = end
    return "".join(out)
