"""Talking to routers: connections with verified host keys, scoped change plans, push and verify."""

from l2tpgen.device.connection import connect
from l2tpgen.device.credentials import Credentials, credentials_from_env
from l2tpgen.device.inventory import Target, load_inventory, target_for
from l2tpgen.device.options import PushOptions
from l2tpgen.device.plan import Plan, plan_change
from l2tpgen.device.push import push_site
from l2tpgen.device.result import PushResult, Status
from l2tpgen.device.scope import OwnershipError
from l2tpgen.device.verify import PseudowireState, parse, verify_site

__all__ = [
    "Credentials",
    "OwnershipError",
    "Plan",
    "PseudowireState",
    "PushOptions",
    "PushResult",
    "Status",
    "Target",
    "connect",
    "credentials_from_env",
    "load_inventory",
    "parse",
    "plan_change",
    "push_site",
    "target_for",
    "verify_site",
]
