"""Linux PEs (iproute2, systemd-networkd): traits, renderers."""
