"""The pytest plugin of siwa-server (entry point ``pytest11``): an Apple ID server per test session.

Fixtures:

``siwa_server`` (session)
    A running ``siwa serve`` on a free loopback port with a temporary data folder (or the
    environment file given with ``--siwa-config``), stopped at the end of the session. Its value is a
    :class:`siwa_server.SiwaServer`: ``url``, ``admin_token``, ``demo`` (the parsed ``demo.json``),
    ``admin`` (the typed admin client) and helpers (``client_secret()``, ``authorize()``,
    ``create_apple_id()``, ``stop_using()``, ``delete_apple_id()``, ``mailbox()``,
    ``advance_clock()``, ``reset()``).
``siwa`` (function)
    The same server, reset to its seeded state before the test.
``siwa_server_args`` (session)
    Extra ``siwa serve`` arguments; override it in a ``conftest.py`` (e.g. ``["--issuer", "apple"]``).

Options: ``--siwa-config FILE`` (an environment file for ``siwa serve --config``), ``--siwa-binary
PATH`` (a siwa binary other than the bundled one; also ``SIWA_BINARY``).
"""

from __future__ import annotations

import os
from typing import Iterator, List

import pytest

from .server import SiwaServer


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("siwa", "Sign in with Apple test server (siwa-server)")
    group.addoption("--siwa-config", default=None, help="An environment file (YAML/JSON) for siwa serve --config.")
    group.addoption("--siwa-binary", default=None, help="The siwa binary to run (default: the one in this package, or SIWA_BINARY).")
    parser.addini("siwa_config", "An environment file for siwa serve --config (like --siwa-config).", default=None)


@pytest.fixture(scope="session")
def siwa_server_args() -> List[str]:
    """Extra arguments of ``siwa serve``; override in a conftest.py."""
    return []


@pytest.fixture(scope="session")
def siwa_server(request: pytest.FixtureRequest, siwa_server_args: List[str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiwaServer]:
    """One ``siwa serve`` for the test session, on a free loopback port with a temporary data folder."""
    config = request.config.getoption("--siwa-config") or request.config.getini("siwa_config") or None
    if config and not os.path.isabs(config):
        config = os.path.join(str(request.config.rootpath), config)
    binary = request.config.getoption("--siwa-binary")
    data_dir = tmp_path_factory.mktemp("siwa")
    server = SiwaServer.start(data_dir, config=config, extra_args=siwa_server_args, binary=binary)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def siwa(siwa_server: SiwaServer) -> SiwaServer:
    """The session's server, reset to its seeded state before this test."""
    siwa_server.reset()
    return siwa_server
