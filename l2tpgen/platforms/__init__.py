"""Platforms, the way hier_config has them: one folder per platform holds what differs.

``l2tpgen/platforms/<name>/`` holds a platform's traits as plain data (``traits.py``: how a
site of it is checked, rendered, diffed, saved, linted, simulated and run in the lab; the ground
floor, found by ``l2tpgen.traits``, which the model and every layer above read), its renderer
and templates (``render.py``, ``templates/``), and the binding of the two (``driver.py``, found
by ``l2tpgen.platforms.render``). A new platform is one folder plus its tests; no module outside
this package names a platform (tests/test_platform_registry.py).

This package's own module stays empty of imports: the model reaches the traits through it.
"""
