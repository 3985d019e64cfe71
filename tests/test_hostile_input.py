"""Hostile input: corpus text that would drive a terminal, files that lie about their format, odd names,
oversized entries, configuration that cannot be read, the locale, and what `site serve` hands out.

Each test gives the input an attacker or a careless tool could leave and
checks that rulebot reports it (FILE:LINE, a one-line error) and carries on.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINIMAL, TOY_GAME_TOML, write_corpus

from rulebot.cli.main import cli
from rulebot.corpus import load as corpus
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
    (site / "alias-env").symlink_to(site / ".env")
    (site / "alias-key").symlink_to(site / ".ssh" / "id_rsa")
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

    @pytest.mark.parametrize("path", ["/out.txt", "/outdir/secret.txt", "/outdir/", "/.ssh/id_rsa", "/.env", "/%2eenv", "/empty/", "/empty", "/../secret.txt", "/alias-env", "/alias-key"])
    def test_nothing_outside_the_pages(self, served_tree: Path, path: str):
        """A link out of the folder, a dotfile or dot-folder, a folder without index.html: 404, no content."""
        with site_server.serve(served_tree) as server:
            status, body = fetch(server, path)
        assert status == 404, (path, status)
        assert b"outside the site" not in body and b"private key" not in body and b"note.txt" not in body and b"TOKEN" not in body

    def test_two_host_headers_are_refused(self, served_tree: Path):
        """A request with the served Host and a foreign one is refused (400), whichever comes first."""
        with site_server.serve(served_tree) as server:
            port = int(server.url.rstrip("/").rsplit(":", 1)[1])
            for hosts in ([f"127.0.0.1:{port}", "evil.example"], ["evil.example", f"127.0.0.1:{port}"]):
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                try:
                    connection.putrequest("GET", "/", skip_host=True)
                    for host in hosts:
                        connection.putheader("Host", host)
                    connection.endheaders()
                    response = connection.getresponse()
                    assert (response.status, b"home" in response.read()) == (400, False), hosts
                finally:
                    connection.close()

    def test_the_file_sent_is_the_file_checked(self, served_tree: Path, monkeypatch: pytest.MonkeyPatch):
        """A page swapped for a link to a secret between its check and its opening is not sent."""
        checked = site_server._QuietHandler._servable

        def then_swapped(handler: site_server._QuietHandler):
            found = checked(handler)
            page = served_tree / "game" / "index.html"
            page.unlink()
            page.symlink_to(served_tree.parent / "secret.txt")
            return found

        monkeypatch.setattr(site_server._QuietHandler, "_servable", then_swapped)
        with site_server.serve(served_tree) as server:
            status, body = fetch(server, "/game/")
        assert status == 404 and b"outside the site" not in body, (status, body)

    @pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1", "localhost:1", "", "127.0.0.1:{port}.evil.example"])
    def test_foreign_host_is_refused(self, served_tree: Path, host: str):
        """A Host header other than the loopback names with the port served on (DNS rebinding) is refused."""
        with site_server.serve(served_tree) as server:
            port = server.url.rstrip("/").rsplit(":", 1)[1]
            status, body = fetch(server, "/", host=host.format(port=port))
        assert status in (400, 403) and b"home" not in body


# -- corpus text that would drive a terminal ------------------------------------

OSC_52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
"""Sets the clipboard of the terminal that prints it (to `rm -rf ~`, in base64)."""
TITLE = "\x1b]0;pwned\x1b\\"
"""Sets the terminal window's title, ended by ST."""
CONTROLS = "\x07\x08\x9b2J\x90dcs\x9c"
"""A bell, a backspace, a C1 CSI erasing the screen, a C1 DCS string."""


def hostile_entry(entry_id: str, title: str, text: str) -> str:
    return f"## {entry_id}\ntitle: {title}\nkind: rule\nsection: Part 1\naliases: lantern{TITLE}\n\n{text}\n"


@pytest.fixture
def hostile_corpus(tmp_path: Path) -> Path:
    """A toy game with one entry full of escape sequences, and a clean one."""
    rules = hostile_entry("toy-lantern", "Lantern", f"The lantern{OSC_52} lights the harbour{CONTROLS} at night.")
    clean = "## toy-harbour\ntitle: Harbour\nkind: rule\nsection: Part 2\n\nThe harbour holds the boats.\n"
    return write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": rules + "\n" + clean})


def no_terminal_control(output: bytes, styles: bool = False) -> None:
    """Nothing in the output a terminal acts on: no ESC but the commands' own SGR styles (with colour), no C0 but
    newline and tab, no DEL, no C1 (a sequence may be shown escaped, as `\\x1b`)."""
    text = output.decode("utf-8")
    if styles:
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text), repr(text)


class TestTerminalText:
    def test_printable_removes_every_sequence(self):
        """printable() removes OSC/DCS/APC strings with BEL or ST, CSI, lone escapes and control characters."""
        from rulebot.text import printable

        assert printable(f"a{OSC_52}b{TITLE}c{CONTROLS}d\x1b_apc\x07e\x1bcf\r\x7fg\th\ni") == "abcdefg\th\ni"
        assert printable("\x1b[1mbold\x1b[0m\x1b[2J", styles=True) == "\x1b[1mbold\x1b[0m"
        assert printable("\x1b[1mbold\x1b[0m") == "bold"

    def test_check_reports_each_control_character(self, hostile_corpus: Path, run_cli):
        """`check` names the file and line of an escape sequence, in an alias and in the text."""
        result = CliRunner().invoke(cli, ["--no-shipped", "check", str(hostile_corpus)])
        assert result.exit_code == 1
        assert "rules.md:5: an escape sequence (U+001B)" in result.stdout, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output

    def test_check_names_page_breaks_and_reports_each_line(self, tmp_path: Path):
        """A form feed, a vertical tab and NEL are named, with what to write instead; each line with a control is reported."""
        text = "Page one.\fPage two.\nA\vB.\nC\x85D.\nE\x9eF."
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": hostile_entry("toy-a", "A", text).replace(f"aliases: lantern{TITLE}\n", "")})
        _, problems = corpus.check([root])
        assert [(p.line, p.message.split(" in the entry")[0]) for p in problems] == [
            (6, "a form feed (U+000C)"), (7, "a vertical tab (U+000B)"), (8, "a next-line character (NEL) (U+0085)"), (9, "an escape sequence (U+009E)"),
        ]
        assert "use a blank line or a line break instead" in problems[0].message

    def test_check_warns_of_bidirectional_controls(self, tmp_path: Path):
        """An override (U+202E) or an isolate (U+2066) can show a ruling in another order than it reads: a warning at
        its line (a problem with --strict); the entry still loads."""
        rules = "## toy-a\ntitle: A\nkind: rule\nsection: S\naliases: \u2066gain\u2069\n\nYou \u202egain\u202c 2 coins.\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": rules})
        result = CliRunner().invoke(cli, ["--no-shipped", "check", str(root)])
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines() == [
            f"{root / 'toy' / 'rules.md'}:5: warning: a bidirectional control (U+2066) in 'toy-a': the text may show in another order than it reads",
            f"{root / 'toy' / 'rules.md'}:7: warning: a bidirectional control (U+202E) in 'toy-a': the text may show in another order than it reads",
        ]
        assert CliRunner().invoke(cli, ["--no-shipped", "check", "--strict", str(root)]).exit_code == 1

    def test_check_reports_a_control_character_in_toml(self, tmp_path: Path):
        """A TOML string may hold an escape as \\u001b: reported at its line, the game left out."""
        game = TOY_GAME_TOML.replace('name = "Toy Game"', 'name = "Toy\\u001b]0;x\\u0007 Game"')
        root = write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": hostile_entry("toy-a", "A", "Text.")})
        _, problems = corpus.check([root])
        assert [(Path(p.path).name, p.line) for p in problems if "control character" in p.message] == [("game.toml", 2)]

    @pytest.mark.parametrize("color", ["never", "always"])
    def test_ask_show_list_print_no_escape(self, hostile_corpus: Path, color: str):
        """A real process: what ask, show and list print holds no byte a terminal acts on (but colour styles)."""
        for args in (["ask", "lantern harbour"], ["show", "toy-lantern"], ["list", "--game", "toy"], ["games"]):
            result = run_process("--color", color, "--no-shipped", "--corpus", str(hostile_corpus), *args)
            assert result.returncode in (0, 1, 2, 3), result
            no_terminal_control(result.stdout, styles=color == "always")
            no_terminal_control(result.stderr)

    def test_the_entry_is_left_out(self, hostile_corpus: Path):
        """The usable corpus leaves the entry out; the clean entry of the same file stays."""
        loaded = corpus.load_usable([hostile_corpus])
        assert "toy-lantern" not in loaded.entries and "toy-harbour" in loaded.entries

    def test_json_escapes_c1(self):
        """JSON output writes DEL and C1 controls as \\u escapes (json.dumps lets them through)."""
        from rulebot.cli.output import to_json

        assert to_json({"t": "a\x9b2Jb\x7f"}) == '{\n  "t": "a\\u009b2Jb\\u007f"\n}'


def run_process(*args: str, env: dict | None = None, input: bytes | None = None) -> subprocess.CompletedProcess:
    """`python -m rulebot ARGS` as a real process, its output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "rulebot", *args], capture_output=True, env={**os.environ, **(env or {})}, input=input, timeout=120
    )


# -- code fences left open ----------------------------------------------------------------------------------------


class TestUnclosedFence:
    def test_reported_and_the_later_entries_load(self, tmp_path: Path):
        """An unclosed fence is reported at its line; the entries after it still load (one with a fence of its own)."""
        rules = (
            "## toy-a\ntitle: A\nkind: rule\nsection: S\n\nText.\n\n```\ncode never closed\n\n"
            "## toy-b\ntitle: B\nkind: rule\nsection: S\n\nB text.\n\n~~~\n## not a heading\n~~~\n\n"
            "## toy-c\ntitle: C\nkind: rule\nsection: S\n\nC text.\n"
        )
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": rules})
        loaded, problems = corpus.check([root])
        assert [(Path(p.path).name, p.line, p.message.split(" (")[0]) for p in problems] == [("rules.md", 8, "code fence opened here is never closed")]
        assert sorted(loaded.entries) == ["toy-b", "toy-c"]
        assert "not a heading" in loaded.entries["toy-b"].text

    def test_check_strict_and_new_append(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """`check --strict` fails on it; an entry appended after it by `new --append` exists."""
        rules = "## toy-a\ntitle: A\nkind: rule\nsection: S\n\n```\nopen\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": rules})
        result = CliRunner().invoke(cli, ["--no-shipped", "check", "--strict", str(root)])
        assert result.exit_code == 1 and "rules.md:6: code fence opened here is never closed" in result.stdout, result.output
        monkeypatch.setenv("EDITOR", "true")
        result = CliRunner().invoke(cli, ["--no-shipped", "--corpus", str(root), "new", "--game", "toy", "--kind", "rule", "--source", "rules", "--title", "Appended", "--append"])
        assert result.exit_code == 0, result.output
        rules_file = root / "toy" / "rules.md"
        rules_file.write_text(rules_file.read_text(encoding="utf-8").replace("section:\n", "section: S\n") + "\nAppended text.\n", encoding="utf-8")
        loaded, _ = corpus.check([root])
        assert any(e.title == "Appended" for e in loaded.entries.values()), (sorted(loaded.entries), _)


    def test_recovery_is_linear_in_a_huge_file(self, monkeypatch: pytest.MonkeyPatch):
        """Two megabytes of fences each holding a heading, one left open: found by a bounded number of passes over the
        file's marks (comparing every fence with every hidden heading would not end before the suite's patience)."""
        from rulebot.corpus import format as entries_format

        looked_at = []
        real_starts = entries_format._starts

        def counted(lines: list[str], marks: list[int], ignored: set[int]):
            looked_at.append(len(marks))
            return real_starts(lines, marks, ignored)

        monkeypatch.setattr(entries_format, "_starts", counted)
        repeats = 160_001  # odd: the last fence is never closed
        raw = list(entries_format.split_entries(Path("rules.md"), "```\n## toy-h\n" * repeats))
        assert len(raw) == (repeats + 1) // 2  # every other heading, and the one after the fence left open
        never_closed = [line for r in raw for line, message in r.problems if "never closed" in message]
        assert never_closed == [2 * repeats - 1]
        assert sum(looked_at) <= entries_format.MAX_FENCE_WORK + 3 * 2 * repeats, looked_at


# -- TOML files: tables and names -------------------------------------------------------------------------------


class TestGameToml:
    def test_unknown_table_at_its_line(self, tmp_path: Path):
        """An unknown table is reported at its own line, not line 1."""
        game = TOY_GAME_TOML + "\n[extras]\nx = 1\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": hostile_entry("toy-a", "A", "Text.").replace(f"aliases: lantern{TITLE}\n", "")})
        _, problems = corpus.check([root])
        line = TOY_GAME_TOML.count("\n") + 2
        assert [(p.line, p.message.split(" (")[0]) for p in problems] == [(line, "unknown key 'extras'")]

    @pytest.mark.parametrize(("old", "new", "key"), [('id = "rules"', 'id = "ru\\"les"', "source id"), ('slug = "extra"', 'slug = "ex tra"', "expansion slug")])
    def test_source_ids_and_expansion_slugs(self, tmp_path: Path, old: str, new: str, key: str):
        """A source id or an expansion slug is lower case letters, digits and hyphens, as a game slug."""
        game = TOY_GAME_TOML.replace(old, new)
        root = write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": "## toy-a\ntitle: A\nkind: rule\nsection: S\n\nText.\n"})
        _, problems = corpus.check([root])
        line = game.split("\n").index(new) + 1
        assert any(p.line == line and p.message.startswith(key) for p in problems), problems


    @pytest.mark.parametrize(("value", "expected"), [("Core_Rules", "; say 'core-rules'"), ("ru--les", "; say 'ru-les'")])
    def test_a_source_id_that_used_to_pass_gets_its_fixed_form(self, tmp_path: Path, value: str, expected: str):
        """Capitals, `_` and double hyphens: the message says single hyphens, and gives the id to use instead."""
        game = TOY_GAME_TOML.replace('id = "rules"', f'id = "{value}"')
        root = write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": "## toy-a\ntitle: A\nkind: rule\nsection: S\n\nText.\n"})
        _, problems = corpus.check([root])
        assert any(p.message == f"source id {value!r} must be lower case letters and digits joined by single hyphens{expected} (it names the file SOURCE-ID.md)" for p in problems), problems

    def test_a_carriage_return_escape_at_its_line(self, tmp_path: Path):
        """A TOML "\\r" escape in a value is reported at its own line, not line 0."""
        game = TOY_GAME_TOML.replace('name = "Toy Game"', 'name = "Toy\\rGame"')
        root = write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": "## toy-a\ntitle: A\nkind: rule\nsection: S\n\nText.\n"})
        _, problems = corpus.check([root])
        assert [(p.line, "control character" in p.message) for p in problems] == [(2, True)], problems


class TestTerminalSink:
    """What the commands print is printable even when escape sequences get past the corpus checks."""

    @pytest.fixture
    def unchecked(self, hostile_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        """The hostile corpus with the loader's control-character check switched off."""
        import re as regex

        from rulebot.corpus import format as entries_format

        monkeypatch.setattr(entries_format, "CONTROL_CHARACTER", regex.compile(r"(?!)"))
        assert "toy-lantern" in corpus.load_usable([hostile_corpus]).entries
        return hostile_corpus

    @pytest.mark.parametrize("color", ["never", "always"])
    def test_commands_print_no_escape(self, unchecked: Path, color: str):
        for args in (["ask", "lantern harbour"], ["show", "toy-lantern"], ["list", "--game", "toy"]):
            result = CliRunner().invoke(cli, ["--color", color, "--no-shipped", "--corpus", str(unchecked), *args])
            assert result.exit_code in (0, 1, 3), (args, result.output)
            assert "lantern" in result.output.lower()
            no_terminal_control(result.stdout_bytes, styles=color == "always")

    def test_file_names_in_warnings(self, tmp_path: Path):
        """A file named with an escape sequence is named without it in the warning `ask` prints (a real process)."""
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": "## toy-a\ntitle: A\nkind: rule\nsection: S\n\nThe lantern.\n"})
        (root / "toy" / f"x{OSC_52}.md").write_text("## toy-b\n", encoding="utf-8")
        result = run_process("--no-shipped", "--corpus", str(root), "ask", "lantern")
        assert b"Warning" in result.stderr, result
        no_terminal_control(result.stdout)
        no_terminal_control(result.stderr)


    def test_problem_paths_in_site_build(self, tmp_path: Path, run_cli):
        """`site build` names a file whose name holds an escape sequence with the sequence escaped, as it is
        (in a real process and in click's runner alike)."""
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": hostile_entry("toy-a", "A", "Text.")})
        (root / "toy" / "x\x1b]0;PWNED\x07.md").write_text("## toy-b\n", encoding="utf-8")
        shown = "x\\x1b]0;PWNED\\x07.md"
        done = run_process("--no-shipped", "--corpus", str(root), "site", "build", str(tmp_path / "out"))
        assert shown.encode() in done.stderr, done.stderr
        no_terminal_control(done.stderr)
        result = run_cli("--no-shipped", "--corpus", str(root), "site", "build", str(tmp_path / "out2"))
        assert shown in result.stderr and "\x1b" not in result.output, result.output

    def test_import_cleans_the_document(self, tmp_path: Path, run_cli):
        """A document's escape sequences never reach the screen nor, with --append, the corpus; its form feeds
        (a converted PDF's page breaks) become paragraph breaks, vertical tabs and NEL line breaks."""
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": hostile_entry("toy-a", "A", "Text.").replace(f"aliases: lantern{TITLE}\n", "")})
        document = tmp_path / "doc.md"
        document.write_text(f"# Lantern\n\nThe lantern{OSC_52} lights.\fNext page.\vNext line.\x85Last line.\n", encoding="utf-8")
        done = run_process("--no-shipped", "--corpus", str(root), "import", str(document), "--game", "toy", "--source", "rules")
        assert done.returncode == 0, done.stderr
        no_terminal_control(done.stdout)
        assert b"The lantern lights.\n\nNext page.\nNext line.\nLast line." in done.stdout, done.stdout
        result = run_cli("--no-shipped", "--corpus", str(root), "import", str(document), "--game", "toy", "--source", "rules", "--append")
        assert result.exit_code == 0, result.output
        written = (root / "toy" / "rules.md").read_text(encoding="utf-8")
        assert "Next page." in written and not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", written), repr(written)

    def test_config_get_prints_a_value_cleaned(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run_cli):
        """A value of config.toml holding an escape sequence (TOML allows \\u001b) is printed without it."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        (tmp_path / "config.toml").write_text('[toy]\nwith = ["\\u001b]52;c;eA==\\u0007deep"]\n', encoding="utf-8")
        result = run_cli("config", "get", "toy.with")
        assert (result.exit_code, result.stdout) == (0, "deep\n"), result.output

    def test_any_write_to_the_standard_streams(self, capsys: pytest.CaptureFixture[str]):
        """Whatever prints, while rulebot runs (an unexpected error's message, a plain print): cleaned, colours kept."""
        from rulebot.cli.failures import exit_unexpected
        from rulebot.cli.terminal import cleaned_output

        with cleaned_output(), pytest.raises(SystemExit) as exited:
            print(f"value{OSC_52} \x1b[1mbold\x1b[0m")
            exit_unexpected(RuntimeError(f"boom{TITLE}{CONTROLS}"))
        assert exited.value.code == 70
        out, err = capsys.readouterr()
        assert out == "value \x1b[1mbold\x1b[0m\n" and err == "Error: unexpected RuntimeError: boom (set RULEBOT_DEBUG=1 for details)\n", (out, err)


# -- names and contents that are not UTF-8 -------------------------------------------------------------------------

ENTRY_TEXT = "## toy-lantern\ntitle: Lantern\nkind: rule\nsection: Part 1\n\nThe lantern lights the harbour.\n"


@pytest.fixture
def badly_named(tmp_path: Path) -> Path:
    """A toy corpus beside a game folder and an entries file whose names are not UTF-8, and a file in Latin-1."""
    root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": ENTRY_TEXT})
    os.mkdir(os.fsencode(root) + b"/\xe9checs")
    (Path(os.fsdecode(os.fsencode(root / "toy") + b"/r\xe8gles.md"))).write_text("## toy-x\n", encoding="utf-8")
    return root


class TestNotUtf8:
    @pytest.mark.parametrize("args", [["ask", "lantern"], ["list"], ["games"], ["play"], ["check"]])
    def test_named_not_utf8(self, badly_named: Path, args: list[str]):
        """Every command warns of the two names, shown with escapes, and carries on (a real process)."""
        result = run_process("--no-shipped", "--corpus", str(badly_named), *args, input=b"lantern\n")
        assert result.returncode == (1 if args == ["check"] else 0), result
        # `check` lists its findings on standard output, the other commands warn on standard error
        err = (result.stdout if args == ["check"] else result.stderr).decode("utf-8")
        assert "\\xe9checs:0: the name is not valid UTF-8" in err and "r\\xe8gles.md:0: the name is not valid UTF-8" in err, err
        assert "Traceback" not in err and "surrogates" not in err
        if args != ["check"]:
            assert (b"Toy Game" if args == ["games"] else b"antern") in result.stdout

    def test_library(self, badly_named: Path):
        """The Python API opens such a corpus and answers from it."""
        from rulebot.api import Library

        library = Library(corpora=[badly_named], shipped=False)
        assert library.ask("lantern").rulings[0].title == "Lantern"

    def test_corpus_folder_named_not_utf8(self, tmp_path: Path):
        """A corpus folder whose own name is not UTF-8 is read; its paths are shown with escapes."""
        root = Path(os.fsdecode(os.fsencode(tmp_path) + b"/corpus\xff"))
        write_corpus(root, {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": ENTRY_TEXT + "\n## toy-bad\ntitle: B\nkind: law\nsection: S\n\nB.\n"})
        result = run_process("--no-shipped", "--corpus", str(root), "ask", "lantern")
        assert result.returncode == 0 and b"Lantern" in result.stdout, result
        assert "corpus\\xff/toy/rules.md:10: unknown kind" in result.stderr.decode("utf-8")

    def test_contents_not_utf8(self, tmp_path: Path):
        """An entries file in Latin-1 is reported at each line that has such a byte, with its other problems, in
        line order (not one fix at a time); it is left out, and the other files load."""
        faq = "## toy-faq\ntitle: Caf\xe9\n\n## toy-faq-2\ntitle: Th\xe9\nkind: law\nsection: S\n\nT\xe9 \xe0 l'eau.\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML.replace('title = "Toy rules"', 'title = "Toy rules"\n\n[[sources]]\nid = "faq"\ntitle = "FAQ"'), "toy/rules.md": ENTRY_TEXT, "toy/faq.md": faq.encode("latin-1")})
        loaded, problems = corpus.check([root])
        assert [(Path(p.path).name, p.line, p.message) for p in problems] == [
            ("faq.md", 1, "entry 'toy-faq' has no kind"),
            ("faq.md", 1, "entry 'toy-faq' has no section"),
            ("faq.md", 1, "entry 'toy-faq' has no text"),
            ("faq.md", 2, "not valid UTF-8 (byte 0xe9)"),
            ("faq.md", 5, "not valid UTF-8 (byte 0xe9)"),
            ("faq.md", 6, "unknown kind 'law' (one of: rule, setup, faq, errata, fine-point, term, variant, house-rule)"),
            ("faq.md", 9, "not valid UTF-8 (byte 0xe9)"),
        ]
        assert "toy-lantern" in loaded.entries and not any(entry_id.startswith("toy-faq") for entry_id in loaded.entries)


# -- configuration that cannot be read, and the locale -------------------------------------------------------------


class TestConfig:
    @pytest.fixture
    def config_file(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path / "config"))
        (tmp_path / "config").mkdir()
        return tmp_path / "config" / "config.toml"

    def test_nested_too_deeply(self, config_file: Path, run_cli):
        """`a = [[[...` 500 deep is a one-line error with exit 2, not a RecursionError (exit 70)."""
        config_file.write_text("a = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
        result = CliRunner().invoke(cli, ["--no-shipped", "--corpus", str(MINIMAL), "ask", "lantern"])
        assert result.exit_code == 2 and "nested too deeply" in result.stderr, (result.output, result.exception)

    def test_not_utf8(self, config_file: Path):
        config_file.write_bytes(b'lang = "fr"\n["caf\xe9"]\n')
        result = CliRunner().invoke(cli, ["config", "get", "lang"])
        assert result.exit_code == 2 and "not valid UTF-8 (byte 0xe9 at line 2)" in result.stderr, result.output

    def test_a_broken_file_says_how_to_get_out(self, config_file: Path):
        """Every command reads the file, `config unset` too: its error says to fix it or delete it."""
        config_file.write_text("res-arcana = [\n", encoding="utf-8")
        for args in (["config", "unset", "res-arcana.with"], ["config", "get", "lang"]):
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 2 and f"cannot read {config_file}:" in result.stderr, result.output
            assert result.stderr.rstrip().endswith("; fix the file, or delete it to go back to the defaults"), result.stderr

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
    def test_fifo_does_not_hang(self, config_file: Path):
        """A FIFO named config.toml is refused at once (a real process: a hang would time out)."""
        os.mkfifo(config_file)
        result = run_process("--no-shipped", "--corpus", str(MINIMAL), "ask", "lantern", env={"RULEBOT_CONFIG_DIR": str(config_file.parent)})
        assert result.returncode == 2 and b"not a regular file" in result.stderr, result

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
    def test_corpus_toml_fifo_and_depth(self, tmp_path: Path):
        """A FIFO setup.toml or vocabulary.toml, and a game.toml nested too deeply, are problems at their file."""
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": ENTRY_TEXT, "deep/game.toml": "a = " + "[" * 500 + "]" * 500 + "\n"})
        os.mkfifo(root / "toy" / "setup.toml")
        os.mkfifo(root / "vocabulary.toml")
        loaded, problems = corpus.check([root])
        found = {(Path(p.path).name, p.message) for p in problems}
        assert ("game.toml", "invalid TOML: arrays or tables nested too deeply") in found, found
        assert ("setup.toml", "not a regular file") in found and ("vocabulary.toml", "not a regular file") in found, found
        assert "toy-lantern" in loaded.entries


FRENCH_QUESTION = "Qui gagne en cas d'égalité ?"
NOT_UTF8_LOCALE = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": "", "LANG": "C"}
"""A locale whose encoding is ASCII, Python's UTF-8 mode off."""


class TestLocale:
    def test_question_read_alike(self, tmp_path: Path):
        """Under LC_ALL=C with PYTHONUTF8=0, a French question (argument or standard input) and `play` are read
        and answered exactly as under a UTF-8 locale (a real process; the first one builds the index)."""
        utf8 = {"LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
        for args, given in ((["ask", FRENCH_QUESTION], None), (["ask", "-"], FRENCH_QUESTION), (["play"], "égalité\n")):
            stdin = given.encode("utf-8") if given else None
            plain = run_process(*args, env=NOT_UTF8_LOCALE, input=stdin)
            assert plain.returncode in (0, 3) and b"Traceback" not in plain.stderr, plain
            assert plain.stdout == run_process(*args, env=utf8, input=stdin).stdout
        assert "égalité".encode() in plain.stdout or "Égalité".encode() in plain.stdout or b"Tie" in plain.stdout


    def test_real_latin1_locale(self, tmp_path: Path):
        """Under a real Latin-1 locale, a question typed in Latin-1 is read as its letters (not U+FFFD) and the
        answer printed in Latin-1: the same answer as under a UTF-8 locale."""
        import shutil

        if shutil.which("localedef") is None:
            pytest.skip("no localedef to make a Latin-1 locale with")
        made = subprocess.run(["localedef", "-i", "fr_FR", "-f", "ISO-8859-1", str(tmp_path / "fr_FR.ISO-8859-1")], capture_output=True)
        if not (tmp_path / "fr_FR.ISO-8859-1").exists():
            pytest.skip(f"localedef cannot make a Latin-1 locale here: {made.stderr.decode(errors='replace')[:200]}")
        latin1 = {"LOCPATH": str(tmp_path), "LC_ALL": "fr_FR.ISO-8859-1", "LANG": "fr_FR.ISO-8859-1", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
        question = os.fsdecode(FRENCH_QUESTION.encode("latin-1"))  # the bytes a Latin-1 terminal sends
        done = subprocess.run([sys.executable, "-m", "rulebot", "ask", question], capture_output=True, env={**os.environ, **latin1}, timeout=120)
        utf8 = run_process("ask", FRENCH_QUESTION, env={"LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"})
        assert done.returncode == utf8.returncode and b"Traceback" not in done.stderr, done
        shown = done.stdout.decode("latin-1")
        assert "\ufffd" not in shown and shown == utf8.stdout.decode("utf-8").encode("latin-1", "replace").decode("latin-1")


# -- size -----------------------------------------------------------------------------------------------------------


class TestSize:
    def test_oversized_entry(self, tmp_path: Path):
        """An entry over MAX_ENTRY_CHARS is refused at its heading's line; the entries around it load."""
        from rulebot.corpus.format import MAX_ENTRY_CHARS

        huge = "## toy-huge\ntitle: Huge\nkind: rule\nsection: S\n\n" + "The lantern lights the harbour. " * (MAX_ENTRY_CHARS // 30) + "\n"
        after = "## toy-after\ntitle: After\nkind: rule\nsection: S\n\nAfter.\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": ENTRY_TEXT + "\n" + huge + "\n" + after})
        loaded, problems = corpus.check([root])
        assert [(Path(p.path).name, p.line, p.message.startswith("entry of ")) for p in problems] == [("rules.md", 8, True)]
        assert problems[0].message.endswith(f"characters: at most {MAX_ENTRY_CHARS:,} (split it)")
        assert sorted(loaded.entries) == ["toy-after", "toy-lantern"]

    def test_entry_at_the_limit_loads(self, tmp_path: Path):
        from rulebot.corpus.format import MAX_ENTRY_CHARS

        head = "## toy-long\ntitle: Long\nkind: rule\nsection: S\n\n"
        text = ("word " * MAX_ENTRY_CHARS)[: MAX_ENTRY_CHARS - len(head) - 2].rstrip() + "\n"
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": head + text})
        loaded, problems = corpus.check([root])
        assert problems == [] and "toy-long" in loaded.entries

    def test_many_broken_entries_are_counted(self, tmp_path: Path):
        """20,000 broken entries in one file: 50 problems and a count of the rest, in `check` and in what the
        index keeps for the warning before each answer."""
        from rulebot.index.cache import open_index

        broken = "\n".join(f"## toy-b{i}\ntitle: B{i}\nkind: law\nsection: S\n\nBroken {i}.\n" for i in range(20_000))
        root = write_corpus(tmp_path / "c", {"toy/game.toml": TOY_GAME_TOML, "toy/rules.md": ENTRY_TEXT + "\n" + broken})
        _, problems = corpus.check([root])
        assert len(problems) == 20_000  # every one: `check --json` lists them all
        listed = corpus.at_most_per_file(problems)
        assert len(listed) == corpus.MAX_PROBLEMS_PER_FILE + 1
        assert listed[-1].message == f"and {20_000 - corpus.MAX_PROBLEMS_PER_FILE} more problems in this file (fix these first)"
        result = CliRunner().invoke(cli, ["--no-shipped", "check", str(root)])
        assert len(result.stdout.splitlines()) == corpus.MAX_PROBLEMS_PER_FILE + 1
        assert result.exit_code == 1 and result.stderr.splitlines()[-1] == "Error: 20000 problems found", result.stderr
        result = CliRunner().invoke(cli, ["--no-shipped", "check", "--json", str(root)])
        found = json.loads(result.stdout)
        assert found["summary"]["errors"] == len(found["problems"]) == 20_000
        assert not any("more problems" in p["message"] for p in found["problems"])
        opened = open_index([root])
        assert len(opened.meta["problems"]) == corpus.MAX_PROBLEMS_PER_FILE + 1
        result = run_process("--no-shipped", "--corpus", str(root), "ask", "lantern")
        assert result.returncode == 0 and b"Lantern" in result.stdout and len(result.stderr.splitlines()) < 30, result.stderr[-2000:]
