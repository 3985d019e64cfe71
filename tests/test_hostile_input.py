"""Hostile input: corpus text that would drive a terminal, files that lie about their format, odd names,
oversized entries, configuration that cannot be read, the locale, and what `site serve` hands out.

Each test gives the input an attacker or a careless tool could leave and
checks that rulebot reports it (FILE:LINE, a one-line error) and carries on.
"""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from rulebot.site import server as site_server

# -- site serve ---------------------------------------------------------------


@pytest.fixture
def served_tree(tmp_path: Path) -> Path:
    """A site folder holding a page, a link out of it, a dotfile, a dot-folder and a folder without index.html."""
    site = tmp_path / "site"
    (site / "game").mkdir(parents=True)
    (site / "index.html").write_text("<p>home</p>", encoding="utf-8")
    (site / "game" / "index.html").write_text("<p>game</p>", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("outside the site", encoding="utf-8")
    (site / "out.txt").symlink_to(secret)
    (site / "outdir").symlink_to(tmp_path)
    (site / ".ssh").mkdir()
    (site / ".ssh" / "id_rsa").write_text("private key", encoding="utf-8")
    (site / ".env").write_text("TOKEN=1", encoding="utf-8")
    (site / "empty").mkdir()
    (site / "empty" / "note.txt").write_text("listed?", encoding="utf-8")
    return site


def fetch(server: site_server.SiteServer, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET a path from the server with the given Host header (default: the one it serves on)."""
    port = int(server.url.rstrip("/").rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


class TestSiteServe:
    def test_pages_are_served(self, served_tree: Path):
        """The site's own pages and folders with an index.html are served, by any loopback name."""
        with site_server.serve(served_tree) as server:
            port = server.url.rstrip("/").rsplit(":", 1)[1]
            assert fetch(server, "/") == (200, b"<p>home</p>")
            assert fetch(server, "/game/") == (200, b"<p>game</p>")
            assert fetch(server, "/game/index.html", host=f"localhost:{port}")[0] == 200

    @pytest.mark.parametrize("path", ["/out.txt", "/outdir/secret.txt", "/outdir/", "/.ssh/id_rsa", "/.env", "/%2eenv", "/empty/", "/empty", "/../secret.txt"])
    def test_nothing_outside_the_pages(self, served_tree: Path, path: str):
        """A link out of the folder, a dotfile or dot-folder, a folder without index.html: 404, no content."""
        with site_server.serve(served_tree) as server:
            status, body = fetch(server, path)
        assert status == 404, (path, status)
        assert b"outside the site" not in body and b"private key" not in body and b"note.txt" not in body

    @pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1", "localhost:1", "", "127.0.0.1:{port}.evil.example"])
    def test_foreign_host_is_refused(self, served_tree: Path, host: str):
        """A Host header other than the loopback names with the port served on (DNS rebinding) is refused."""
        with site_server.serve(served_tree) as server:
            port = server.url.rstrip("/").rsplit(":", 1)[1]
            status, body = fetch(server, "/", host=host.format(port=port))
        assert status in (400, 403) and b"home" not in body
