"""The simulator does not use the code it is there to check (issue 17).

It keeps, orders and reads its configuration, names interfaces and decides UP/DOWN without
``l2tpgen.ios``, ``l2tpgen.device``, ``l2tpgen.render`` or ``l2tpgen.lint``, directly or through
another l2tpgen module. Two checks: every module under ``l2tpgen/sim/`` read statically (every
import statement, wherever it is, and every ``importlib.import_module``/``__import__`` call with a
literal name), and a fresh interpreter that imports the simulator, runs two routers through
configuration, ``show running-config`` and ``show xconnect all``, and lists what got imported.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import module_imports

import l2tpgen.sim

SIM = Path(l2tpgen.sim.__file__).parent
FORBIDDEN = ("l2tpgen.ios", "l2tpgen.device", "l2tpgen.render", "l2tpgen.lint")
# What the simulator may use of l2tpgen: the package itself (whose __init__ loads errors and
# mtu), the exception root, and its own modules.
ALLOWED_OUTSIDE_SIM = {"l2tpgen", "l2tpgen.errors", "l2tpgen.mtu"}


def _is_forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import in a module of ``l2tpgen.sim``, relative ones resolved."""
    return module_imports(path, "l2tpgen.sim")


MODULES = sorted(SIM.rglob("*.py"))


def test_the_static_check_sees_every_kind_of_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import l2tpgen.ios.tree\n"
        "from ..ios import names\n"
        "from l2tpgen.render import x\n"
        "def f():\n"
        "    from l2tpgen.lint.rules import y\n"
        "    import importlib\n"
        "    importlib.import_module('l2tpgen.device.plan')\n",
        encoding="utf-8",
    )
    bad = sorted({m.split(".")[1] for _, m in _imports(probe) if _is_forbidden(m)})
    assert bad == ["device", "ios", "lint", "render"]


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_simulator_module_imports_the_code_it_checks(path: Path) -> None:
    bad = [
        f"{path.name}:{line}: {module}" for line, module in _imports(path) if _is_forbidden(module)
    ]
    assert bad == []


PROBE = """
import json, sys
from l2tpgen.sim import Router
from l2tpgen.sim.pseudowires import show_factory

routers = []
show = show_factory(lambda: routers)
for name, me, peer in (("pe-a", "192.0.2.1", "192.0.2.2"), ("pe-b", "192.0.2.2", "192.0.2.1")):
    router = Router(name, show_pseudowires=show)
    refused = router.load(
        "l2tp-class cc\\n authentication\\n password 0 s3cret\\n"
        "pseudowire-class pw\\n encapsulation l2tpv3\\n protocol l2tpv3 cc\\n"
        " ip local interface Loopback0\\n"
        f"interface Loopback0\\n ip address {me} 255.255.255.255\\n"
        f"interface gi0/0.100\\n encapsulation dot1Q 100\\n xconnect {peer} 100 pw-class pw\\n"
    )
    assert refused == [], refused
    routers.append(router)
a = routers[0]
for line in ("configure terminal", "interface Gi0/0.200", "encapsulation dot1Q 200", "end"):
    a.handle(line)
assert "interface GigabitEthernet0/0.200" in a.handle("show running-config")
assert a.handle("show xconnect all").splitlines()[-1].startswith("UP ")
a.handle("show l2tun session all")
print(json.dumps(sorted(m for m in sys.modules if m == "l2tpgen" or m.startswith("l2tpgen."))))
"""


def test_a_running_simulator_loads_no_l2tpgen_module_but_its_own_errors_and_mtu() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(json.loads(out))
    assert "l2tpgen.sim.pseudowires" in loaded  # the probe did run the simulator
    assert [m for m in loaded if _is_forbidden(m)] == []
    assert {m for m in loaded if not m.startswith("l2tpgen.sim")} <= ALLOWED_OUTSIDE_SIM
