"""Serving a built site over HTTP on the loopback, for `rulebot site serve` and the browser tests."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

from rulebot.errors import SiteError


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files without logging every request to stderr."""

    def log_message(self, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser closing a connection early is not worth a traceback


class SiteServer:
    """A built site served over HTTP in a background thread; close() stops it."""

    def __init__(self, out_dir: Path, host: str, port: int):
        handler = functools.partial(_QuietHandler, directory=str(out_dir))
        try:
            self._server = _Server((host, port), handler)
        except OSError as exc:
            raise SiteError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
        self.out_dir = out_dir
        """The folder served."""
        address, bound_port = self._server.server_address[:2]
        bound_host = address.decode() if isinstance(address, bytes) else str(address)
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        self.url = f"http://{shown}:{bound_port}/"
        """The site's address, ending in a slash."""
        self._thread = threading.Thread(target=self._server.serve_forever, name="rulebot-site", daemon=True)
        self._thread.start()

    def wait(self) -> None:
        """Block until the server stops (Ctrl-C interrupts it)."""
        while self._thread.is_alive():
            self._thread.join(0.5)

    def close(self) -> None:
        """Stop serving and release the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> SiteServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(out_dir: Path, host: str = "127.0.0.1", port: int = 0) -> SiteServer:
    """Serve a built site (port 0: any free port); the caller closes the server."""
    folder = Path(out_dir).expanduser().resolve()
    if not (folder / "index.html").is_file():
        raise SiteError(f"no site in {folder}: build it first (rulebot site build)")
    return SiteServer(folder, host, port)
