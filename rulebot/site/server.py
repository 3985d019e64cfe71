"""Serving a built site over HTTP on the loopback, for `rulebot site serve` and the browser tests."""

from __future__ import annotations

import functools
import http.server
import os
import stat
import threading
import urllib.parse
from pathlib import Path
from typing import Any

from rulebot.errors import SiteError

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
"""The host names a request may give for the server on the loopback (with its port)."""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the regular files inside the site folder only, without logging every request to stderr.

    What a browser on the same machine could otherwise be led to read: a
    symbolic link out of the folder, a dotfile (.git, .ssh), a folder
    listing; and a page of another site whose name resolves to 127.0.0.1
    (DNS rebinding) sends its own Host header, which is refused.
    """

    server: _Server
    """The server it answers for (socketserver gives any server): a TCP one, so its address is (host, port)."""

    def log_message(self, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        if not self._host_allowed():
            self.send_error(403, "Host not allowed")
            return None
        if not self._servable():
            self.send_error(404, "File not found")
            return None
        return super().send_head()

    def list_directory(self, path: Any) -> Any:
        self.send_error(404, "File not found")  # a folder without index.html is no page
        return None

    def _host_allowed(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        port = self.server.server_address[1]
        bound = str(self.server.server_address[0])
        names = {*LOOPBACK_NAMES, f"[{bound}]" if ":" in bound else bound}
        return host in {f"{name}:{port}" for name in names}

    def _servable(self) -> bool:
        """Whether the request names a regular file inside the folder (a folder: its index.html), by no dot name."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors="surrogatepass")
        if any(part.startswith(".") for part in path.split("/")) or "\\" in path or "\0" in path:
            return False
        root = os.path.realpath(self.directory)
        target = os.path.realpath(self.translate_path(self.path))
        if target != root and not target.startswith(root + os.sep):
            return False  # a link out of the folder
        try:
            info = os.stat(target)
            if stat.S_ISDIR(info.st_mode):
                index = os.path.realpath(os.path.join(target, "index.html"))
                return index.startswith(root + os.sep) and stat.S_ISREG(os.stat(index).st_mode)
            return stat.S_ISREG(info.st_mode)
        except (OSError, ValueError):
            return False


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
