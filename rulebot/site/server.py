"""Serving a built site over HTTP on the loopback, for `rulebot site serve` and the browser tests."""

from __future__ import annotations

import functools
import http.server
import os
import shlex
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
    symbolic link out of the folder or to a dotfile in it, a dotfile (.git,
    .ssh), a folder listing; and a page of another site whose name resolves
    to 127.0.0.1 (DNS rebinding) sends its own Host header, which is refused
    (as is a request with two). The file sent is the one checked: opened by
    its resolved path, and refused if it is no longer the file checked (a
    link swapped in between).
    """

    server: _Server
    """The server it answers for (socketserver gives any server): a TCP one, so its address is (host, port)."""

    def log_message(self, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            self.send_error(400, "Exactly one Host header expected")
            return None
        if not self._host_allowed(hosts[0]):
            self.send_error(403, "Host not allowed")
            return None
        checked = self._servable()
        if checked is None:
            self.send_error(404, "File not found")
            return None
        path, info, folder = checked
        parts = urllib.parse.urlsplit(self.path)
        if folder and not parts.path.endswith("/"):  # as SimpleHTTPRequestHandler: a folder's page is at its slash
            self.send_response(301)
            self.send_header("Location", urllib.parse.urlunsplit((parts[0], parts[1], parts[2] + "/", parts[3], parts[4])))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            self.send_error(404, "File not found")
            return None
        opened = os.fstat(descriptor)
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino) or not stat.S_ISREG(opened.st_mode):
            os.close(descriptor)  # changed since it was checked
            self.send_error(404, "File not found")
            return None
        self.send_response(200)
        self.send_header("Content-type", self.guess_type(path))
        self.send_header("Content-Length", str(opened.st_size))
        self.send_header("Last-Modified", self.date_time_string(int(opened.st_mtime)))
        self.end_headers()
        return os.fdopen(descriptor, "rb")

    def list_directory(self, path: Any) -> Any:
        self.send_error(404, "File not found")  # a folder without index.html is no page
        return None

    def _host_allowed(self, given: str) -> bool:
        host = given.strip().lower()
        port = self.server.server_address[1]
        bound = str(self.server.server_address[0])
        names = {*LOOPBACK_NAMES, f"[{bound}]" if ":" in bound else bound}
        return host in {f"{name}:{port}" for name in names}

    def _servable(self) -> tuple[str, os.stat_result, bool] | None:
        """The resolved path, its stat and whether the request named a folder (then the path is its index.html),
        when the request names a regular file inside the folder by no dot name, nor resolves to one; else None."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors="surrogatepass")
        if any(part.startswith(".") for part in path.split("/")) or "\\" in path or "\0" in path:
            return None
        root = os.path.realpath(self.directory)
        target = os.path.realpath(self.translate_path(self.path))
        try:
            folder = stat.S_ISDIR(os.stat(target).st_mode)
            if folder:
                target = os.path.realpath(os.path.join(target, "index.html"))
            if not target.startswith(root + os.sep):
                return None  # a link out of the folder
            if any(part.startswith(".") for part in os.path.relpath(target, root).split(os.sep)):
                return None  # a link to a dotfile, or into a dot-folder, of the site's folder
            info = os.stat(target)
        except (OSError, ValueError):
            return None
        return (target, info, folder) if stat.S_ISREG(info.st_mode) else None


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
        raise SiteError(f"no site in {folder}: build it first (rulebot site build {shlex.quote(str(out_dir))})")
    return SiteServer(folder, host, port)
