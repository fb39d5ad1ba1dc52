"""siwa-server: the Sign in with Apple test server (``siwa``) as a Python package, with a pytest plugin.

``pip install siwa-server`` puts ``siwa`` on PATH; ``python -m siwa_server serve`` runs it too.
In tests, use the ``siwa_server`` fixture (see :mod:`siwa_server.pytest_plugin`) or
:meth:`SiwaServer.start` directly.
"""

from ._binary import SiwaNotFound, find_siwa_bin
from .admin import AdminClient, AdminError
from .server import Authorization, SiwaServer, SiwaStartError, free_port

__version__ = "0.0.0"

__all__ = ["AdminClient", "AdminError", "Authorization", "SiwaNotFound", "SiwaServer", "SiwaStartError", "find_siwa_bin", "free_port", "__version__"]
