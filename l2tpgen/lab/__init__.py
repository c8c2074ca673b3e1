"""Labs: containerlab topologies built from the fleet, and a QEMU engine that runs them.

``engines/`` holds the runners (the vm engine and its QEMU guest, a lab that stays up,
containerlab, the independent attacker); ``checks/`` one module per check, found by the
registry there (``checks/__init__.py``); the modules here are what both share: the lab's inputs
and topology, the pairs, probes and attacks, strongSwan's and the frame capture's machinery.
"""
