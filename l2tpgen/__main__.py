"""``python -m l2tpgen``."""

from l2tpgen.cli import main

main()
