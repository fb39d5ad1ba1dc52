"""Where the bundled ``siwa`` binary is, and how to run it."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

#: The staged distribution folder inside the package: ``bin/siwa`` with its resources beside it.
DIST = Path(__file__).resolve().parent / "_dist"


class SiwaNotFound(RuntimeError):
    """No ``siwa`` binary: neither bundled in this package nor named by ``SIWA_BINARY``."""


def find_siwa_bin() -> str:
    """The ``siwa`` binary to run.

    ``SIWA_BINARY`` wins (a development build), then the binary bundled in the wheel. The bundled
    one is run from inside the package, never copied: its resources sit beside it.
    """
    override = os.environ.get("SIWA_BINARY")
    if override:
        if not os.access(override, os.X_OK):
            raise SiwaNotFound(f"SIWA_BINARY={override} is not an executable file")
        return override
    bundled = DIST / "bin" / "siwa"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return str(bundled)
    on_path = shutil.which("siwa")
    # The console script of this package is also called siwa: only a real binary will do.
    if on_path and not _is_python_script(on_path):
        return on_path
    raise SiwaNotFound(
        f"no siwa binary in {DIST} (this install of siwa-server has no binary for {sys.platform}); "
        "set SIWA_BINARY to a siwa binary"
    )


def _is_python_script(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False
