"""``netbox pull``: site files from NetBox's devices, addresses and VPWS L2VPNs, and the overlay."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from l2tpgen.errors import FleetValidationError
from l2tpgen.importer.writer import site_yaml
from l2tpgen.model.interface_checks import raw_name_problems
from l2tpgen.model.load import load_fleet
from l2tpgen.model.site import Site
from l2tpgen.netbox.mapping import Unmapped, map_inventory
from l2tpgen.netbox.overlay import Overlay, fill_leaves, set_leaves
from l2tpgen.netbox.tunnels import check_tunnels

if TYPE_CHECKING:
    from l2tpgen.netbox.client import Inventory
    from l2tpgen.netbox.mapping import Draft


@dataclass(frozen=True)
class PulledSite:
    """One site file's text, and the NetBox device it came from."""

    name: str
    device_url: str
    text: str


@dataclass(frozen=True)
class PullResult:
    """The sites that map, and every NetBox object (or overlay entry) that does not."""

    sites: tuple[PulledSite, ...]
    unmapped: tuple[Unmapped, ...]


def _ordered(data: dict[str, object], model: type[BaseModel]) -> dict[str, object]:
    """``data``'s keys in the model's field order (the order of ``sites/``), nested too."""
    order = {(f.alias or name): i for i, (name, f) in enumerate(model.model_fields.items())}
    result: dict[str, object] = {}
    for key in sorted(data, key=lambda k: order.get(k, len(order))):
        value = data[key]
        field = model.model_fields.get(key)
        annotation = getattr(field, "annotation", None)
        inner = next(
            (
                t
                for t in (annotation, *getattr(annotation, "__args__", ()))
                if isinstance(t, type) and issubclass(t, BaseModel)
            ),
            None,
        )
        result[key] = _ordered(value, inner) if isinstance(value, dict) and inner else value
    return result


def _merge(draft: Draft, overlay: Overlay, problems: list[Unmapped]) -> dict[str, object] | None:
    data = draft.data
    name = str(data["name"])
    mine = {k: v for k, v in overlay.sites.get(name, {}).items() if k != "peers"}
    clashes = set_leaves(data, _copy(mine))
    problems.extend(
        Unmapped(
            draft.device.url,
            f"overlay {overlay.source}: sites.{name}.{clash} is held by NetBox for "
            f"{draft.device.name}; remove it from the overlay or from NetBox",
        )
        for clash in clashes
    )
    peer_settings = overlay.sites.get(name, {}).get("peers") or {}
    assert isinstance(peer_settings, dict)  # noqa: S101 - load_overlay checked it
    peers: list[object] = []
    for peer in data.get("peers", []):  # type: ignore[attr-defined]
        extra = peer_settings.get(peer)
        peers.append({"name": peer, **extra} if isinstance(extra, dict) else peer)
    for unknown in sorted(set(peer_settings) - set(data.get("peers", []))):  # type: ignore[call-overload]
        problems.append(
            Unmapped(
                draft.device.url,
                f"overlay {overlay.source}: sites.{name}.peers.{unknown}: {name} has no "
                f"pseudowire to {unknown} in NetBox",
            )
        )
        clashes.append(unknown)
    data["peers"] = peers
    fill_leaves(data, _copy(overlay.defaults))
    return None if clashes else data


def _copy(value: dict[str, object]) -> dict[str, object]:
    return {k: _copy(v) if isinstance(v, dict) else v for k, v in value.items()}


def build_sites(inventory: Inventory, overlay: Overlay, netbox_url: str) -> PullResult:
    """The site files of ``inventory`` (see docs/netbox.md), checked against the site model."""
    drafts, found = map_inventory(inventory)
    problems = [*found, *check_tunnels(drafts, inventory.tunnel_ends)]
    sites = []
    for draft in drafts:
        data = _merge(draft, overlay, problems)
        if data is None:
            continue
        try:
            Site.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors():
                if error["type"] == "missing" and error["loc"] in {(f,) for f in draft.unfilled}:
                    continue  # reported by the mapping, with the NetBox object to fix
                where = ".".join(str(p) for p in error["loc"])
                problems.append(
                    Unmapped(
                        draft.device.url,
                        f"site {data['name']} (device {draft.device.name}): {where}: "
                        f"{error['msg']} (from NetBox or overlay {overlay.source})",
                    )
                )
            continue
        # Interface names as the site's platform takes them (the model checks them on load).
        named = [p.message for p in raw_name_problems(str(data["name"]), data)]
        problems.extend(
            Unmapped(
                draft.device.url,
                f"site {data['name']} (device {draft.device.name}): {message} (from NetBox or "
                f"overlay {overlay.source})",
            )
            for message in named
        )
        if named:
            continue
        header = [
            f"Pulled from NetBox {netbox_url}: device {draft.device.name} ({draft.device.url}).",
            "Edit it in NetBox (or the overlay) and pull again: l2tpgen netbox pull.",
        ]
        text = site_yaml(_ordered(data, Site), header)
        sites.append(PulledSite(str(data["name"]), draft.device.url, text))
    sites.sort(key=lambda s: s.name)
    if not problems:  # else the fleet is incomplete anyway: what maps is checked on its own
        problems.extend(check_fleet(sites))
    return PullResult(tuple(sites), tuple(problems))


def check_fleet(sites: list[PulledSite]) -> list[Unmapped]:
    """What ``validate`` would say of the pulled site files as one fleet, as NetBox problems.

    Each site is checked on its own while it is built; this finds what only the fleet shows (two
    L2VPNs of one pair with the same identifier, a hostname twice, ...), so ``pull`` never writes
    files that ``validate`` refuses. A problem names the device its site came from.
    """
    if not sites:
        return []
    urls = {s.name: s.device_url for s in sites}
    with tempfile.TemporaryDirectory(prefix="l2tpgen-pull-") as tmp:
        for pulled in sites:
            (Path(tmp) / f"{pulled.name}.yaml").write_text(pulled.text, encoding="utf-8")
        try:
            load_fleet(tmp)
        except FleetValidationError as exc:
            found = [p for p in exc.problems if p.level == "error"]
        else:
            return []
    problems = []
    for problem in found:
        where = f"{problem.site}.yaml"
        if problem.location is not None:
            where += f":{problem.location.line}:{problem.location.column}"
        hint = f" ({problem.hint})" if problem.hint else ""
        problems.append(
            Unmapped(
                urls.get(problem.site, ""),
                f"the pulled site file {where} would not validate: {problem.message}{hint}; "
                "fix it in NetBox (or the overlay)",
            )
        )
    return problems
