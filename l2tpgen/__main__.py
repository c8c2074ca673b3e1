"""``l2tpgen`` (the console script) and ``python -m l2tpgen``: the command line's entry.

The collector is paused while the command line loads (``l2tpgen/startup.py``).
"""

from l2tpgen.startup import pause


def main() -> None:
    """Run the command line, its start-up spared the garbage collector."""
    pause()
    from l2tpgen.cli import main as run  # noqa: PLC0415 - startup: loaded with the collector paused

    run()


if __name__ == "__main__":
    main()
