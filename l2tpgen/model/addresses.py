"""Underlay addresses in site files: IPv4 or IPv6, each field parsed and worded by l2tpgen.

A site's underlay is one family (``checks.py`` relates the fields); each field here takes either,
so that a wrong family is reported as such at its place, and input that is neither gets
l2tpgen's words rather than pydantic's ("Input is not a valid IPv4 interface").
"""

from __future__ import annotations

from ipaddress import (
    IPv4Address,
    IPv4Interface,
    IPv4Network,
    IPv6Address,
    IPv6Interface,
    IPv6Network,
    ip_address,
    ip_interface,
    ip_network,
)
from typing import Annotated

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

ADDRESS_ERROR = "ip_address_form"


def _require_prefix(value: object) -> object:
    """An IPv4 or IPv6 address with its prefix length (the underlay may be either family)."""
    if isinstance(value, IPv4Interface | IPv6Interface):
        return value
    if isinstance(value, str) and "/" not in value:
        raise PydanticCustomError(
            ADDRESS_ERROR,
            "write the address with its prefix length, e.g. 10.197.251.215/28 or 2001:db8:1::2/64",
        )
    try:
        return ip_interface(value)  # type: ignore[arg-type]
    except ValueError:
        raise PydanticCustomError(
            ADDRESS_ERROR,
            "this is not an IPv4 or IPv6 address with a prefix length (e.g. 10.197.251.215/28 "
            "or 2001:db8:1::2/64)",
        ) from None


def _any_address(value: object) -> object:
    if isinstance(value, IPv4Address | IPv6Address):
        return value
    try:
        return ip_address(value)  # type: ignore[arg-type]
    except ValueError:
        raise PydanticCustomError(
            ADDRESS_ERROR, "this is not an IPv4 or IPv6 address (e.g. 10.0.0.1 or 2001:db8:1::1)"
        ) from None


def _any_network(value: object) -> object:
    if isinstance(value, IPv4Network | IPv6Network):
        return value
    try:
        return ip_network(value)  # type: ignore[arg-type]
    except ValueError:
        raise PydanticCustomError(
            ADDRESS_ERROR,
            "this is not an IPv4 or IPv6 prefix with its host bits zero (e.g. 10.0.0.0/8, "
            "0.0.0.0/0 or 2001:db8::/32, ::/0)",
        ) from None


PrefixedIP = Annotated[
    IPv4Interface | IPv6Interface,
    BeforeValidator(_require_prefix, json_schema_input_type=IPv4Interface | IPv6Interface),
]
AnyAddress = Annotated[
    IPv4Address | IPv6Address,
    BeforeValidator(_any_address, json_schema_input_type=IPv4Address | IPv6Address),
]
AnyNetwork = Annotated[
    IPv4Network | IPv6Network,
    BeforeValidator(_any_network, json_schema_input_type=IPv4Network | IPv6Network),
]
DEFAULT_ROUTES: dict[int, IPv4Network | IPv6Network] = {
    4: IPv4Network("0.0.0.0/0"),
    6: IPv6Network("::/0"),
}
