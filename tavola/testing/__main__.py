"""`python -m tavola.testing [NAME...]`: the conformance suite over the named games (default:
every game found), one line per broken property; the exit status is the number of games that
failed, at most 100."""

from __future__ import annotations

import sys

from .. import registry
from . import failures


def main(names: list[str]) -> int:
    failed = 0
    for name in names or registry.available():
        found = list(failures(registry.kit(name)))
        print(f"{name}: {'ok' if not found else f'{len(found)} checks fail'}")
        for message in found:
            print(f"  {message}")
        failed += bool(found)
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
