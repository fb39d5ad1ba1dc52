#!/usr/bin/env python3
"""Writes the siwa-server wheel from a staged siwa folder, with the standard library only.

    python3 make_wheel.py <staged-folder> <dist-dir> --tag manylinux_2_NN_x86_64 --version V

The staged folder (bin/siwa, its resource bundle, lib/, share/, LICENSES/) goes into the package as
``siwa_server/_dist/`` unchanged, so bin/siwa finds ../lib and ../share as it does in the tarball.
``siwa`` on PATH is a console script that execs it (a binary in ``.data/scripts`` would be
separated from its resources).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import stat
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "siwa_server"
DISTRIBUTION = "siwa-server"

SUMMARY = "Sign in with Apple, locally: the siwa Apple ID test server as a binary, with a pytest plugin"


def metadata(version: str) -> str:
    readme = (HERE / "README.md").read_text() if (HERE / "README.md").exists() else SUMMARY
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {DISTRIBUTION}\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.8\n"
        "Classifier: Framework :: Pytest\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Topic :: Software Development :: Testing\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def wheel_file(tag: str) -> str:
    return f"Wheel-Version: 1.0\nGenerator: siwa make_wheel.py\nRoot-Is-Purelib: false\nTag: py3-none-{tag}\n"


ENTRY_POINTS = """[console_scripts]
siwa = siwa_server.__main__:main

[pytest11]
siwa_server = siwa_server.pytest_plugin
"""


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("staged")
    parser.add_argument("dist")
    parser.add_argument("--tag", required=True)
    parser.add_argument("--version", required=True)
    args = parser.parse_args()

    staged = Path(args.staged).resolve()
    if not (staged / "bin" / "siwa").is_file():
        print(f"{staged} has no bin/siwa", file=sys.stderr)
        return 1
    dist = Path(args.dist)
    dist.mkdir(parents=True, exist_ok=True)
    dist_info = f"{NAME}-{args.version}.dist-info"
    wheel_path = dist / f"{NAME}-{args.version}-py3-none-{args.tag}.whl"

    entries: list[tuple[str, bytes, int]] = []
    for source in sorted((HERE / NAME).rglob("*")):
        if source.is_file() and "__pycache__" not in source.parts:
            relative = source.relative_to(HERE).as_posix()
            data = source.read_bytes()
            if relative == f"{NAME}/__init__.py":
                data = data.replace(b'__version__ = "0.0.0"', f'__version__ = "{args.version}"'.encode())
            entries.append((relative, data, 0o644))
    for path_in_stage in sorted(staged.rglob("*")):
        # A symbolic link is stored as the file it names (a wheel has no links).
        source = path_in_stage.resolve()
        if source.is_file():
            relative = f"{NAME}/_dist/" + path_in_stage.relative_to(staged).as_posix()
            mode = 0o755 if os.stat(source).st_mode & stat.S_IXUSR else 0o644
            entries.append((relative, source.read_bytes(), mode))
    licences = staged / "LICENSES"
    entries.append((f"{dist_info}/METADATA", metadata(args.version).encode(), 0o644))
    entries.append((f"{dist_info}/WHEEL", wheel_file(args.tag).encode(), 0o644))
    entries.append((f"{dist_info}/entry_points.txt", ENTRY_POINTS.encode(), 0o644))
    entries.append((f"{dist_info}/top_level.txt", f"{NAME}\n".encode(), 0o644))
    if licences.is_dir():
        for licence in sorted(licences.iterdir()):
            if licence.is_file():
                entries.append((f"{dist_info}/licenses/{licence.name}", licence.read_bytes(), 0o644))

    record = [record_line(path, data) for path, data, _ in entries]
    record.append(f"{dist_info}/RECORD,,")
    entries.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))

    with zipfile.ZipFile(wheel_path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as wheel:
        for path, data, mode in entries:
            info = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    print(wheel_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
