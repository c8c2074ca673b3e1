"""The lab's checks, one module each, found by module (the registry)."""
