"""The marks l2tpgen writes into configs so that push knows later what it owns."""

from __future__ import annotations

MARK = "l2tpgen:"  # every managed subinterface's description starts with it
ROUTE_NAME = "l2tpgen"  # static routes to the peers' loopbacks are named l2tpgen-PEER
