"""``python -m siwa_server ...`` and the ``siwa`` console script: run the bundled binary."""

from __future__ import annotations

import os
import sys

from ._binary import SiwaNotFound, find_siwa_bin


def main() -> None:
    try:
        binary = find_siwa_bin()
    except SiwaNotFound as error:
        print(f"siwa: {error}", file=sys.stderr)
        sys.exit(127)
    # Replace this process: signals, exit codes and the terminal go straight to siwa.
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
