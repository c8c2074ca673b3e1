"""VyOS PEs: traits, renderer and template."""
