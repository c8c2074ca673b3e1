"""What the platforms' renderers share: Jinja environment, marks, class and crypto views, swanctl.

Each platform renders in its own folder (``l2tpgen/platforms/<name>/render.py``); a site is
rendered through its platform's driver by ``l2tpgen.platforms.render`` (``render_files``,
``render_site``).
"""
