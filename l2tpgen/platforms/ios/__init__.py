"""Cisco IOS and IOS-XE: traits, renderer and templates; its reader is ``l2tpgen.ios``."""
