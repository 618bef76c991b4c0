"""`python -m tavola`: the `tavola` command, for a checkout without its script installed."""

from tavola.cli import main

main()
