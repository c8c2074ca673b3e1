"""Labs: containerlab topologies built from the fleet, and a QEMU engine that runs them."""
