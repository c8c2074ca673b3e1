"""The lab's runners: the vm engine (QEMU), a lab that stays up, containerlab, the attacker."""
