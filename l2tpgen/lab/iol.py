"""The cisco_iol flavor: each PE is a Cisco IOL node that runs its rendered config as generated.

* Interface names come from the model mapped onto IOL's: the WAN on ``Ethernet0/1``, the LAN
  trunk on ``Ethernet0/2`` (``Ethernet0/0`` is containerlab's management interface, in its own
  VRF). Duplex and speed are left out: IOL's virtual ports have none to set.
* The config is a *partial* startup config (``SITE.partial.cfg``): containerlab appends it to its
  own bootstrap (management address, VRF, SSH) instead of replacing it.
* The L2TP secret is written as ``${VARIABLE}`` (the site's ``secret_env``): containerlab expands
  environment variables in startup configs at deploy time, so the secret lives in the deploying
  shell's environment only, never in a file. ``service password-encryption`` makes IOS keep it
  as type 7 from then on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from l2tpgen.lab.kinds import IOL_KIND
from l2tpgen.model import Fleet
from l2tpgen.platforms.render import render_site
from l2tpgen.secrets import masked

if TYPE_CHECKING:
    from l2tpgen.model import Site

IOL_WAN, IOL_LAN = "Ethernet0/1", "Ethernet0/2"


def partial_config_name(site: str) -> str:
    """A site's IOL startup config file (``.partial``: containerlab keeps its bootstrap)."""
    return f"{site}.partial.cfg"


def iol_site(site: Site) -> Site:
    """The site with its WAN and LAN on IOL's ports and no duplex or speed."""
    wan = site.wan.model_copy(update={"interface": IOL_WAN, "duplex": None, "speed": None})
    lan = site.lan.model_copy(update={"interface": IOL_LAN, "duplex": None, "speed": None})
    return site.model_copy(update={"wan": wan, "lan": lan})


def partial_config(fleet: Fleet, name: str) -> str:
    """The site's rendered IOS config for IOL, its secret as ``${VARIABLE}``."""
    sites = {n: iol_site(s) for n, s in fleet.sites.items()}
    text = render_site(Fleet(sites, fleet.files), name)
    variable = fleet.site(name).l2tp_class.secret_env
    if variable:
        text = text.replace(f" 7 {masked(variable)}", f" 0 ${{{variable}}}")
    header, _, body = text.partition("\n")
    note = "! secrets: filled in by containerlab from the environment at deploy time"
    return f"{header}\n{note}\nservice password-encryption\n{body.rstrip()}\n"


def startup_configs(fleet: Fleet) -> dict[str, str]:
    """Every Cisco site's partial startup config, by file name (a Linux PE runs exec commands)."""
    return {
        partial_config_name(name): partial_config(fleet, name)
        for name, site in sorted(fleet.sites.items())
        if site.driver.lab_kind == IOL_KIND
    }
