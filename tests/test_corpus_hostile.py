"""Hostile corpora: whatever is on disk, the loader reports FILE:LINE problems, never crashes or hangs.

tests/test_corpus.py holds the table of ordinary mistakes; these are the
files a curator does not make on purpose: huge, looping, not files at all,
random bytes, other encodings and line endings.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import write_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_corpus import ENTRY, GAME_TOML

from rulebot.cli.main import cli
from rulebot.corpus import checks
from rulebot.corpus import load as corpus
from rulebot.corpus.files import MAX_FILE_BYTES
from rulebot.corpus.model import Corpus

pytestmark = pytest.mark.filterwarnings("ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")


BAD_ENTRY = ENTRY.replace("toy-one", "toy-two").replace("kind: rule", "kind: law")
"""An entry whose kind is wrong: its problem shows whether line numbers are right."""

PROBLEM_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<message>.+)$")


def toy(tmp_path: Path, rules: str | bytes = ENTRY, game: str | bytes = GAME_TOML) -> Path:
    """A one-game corpus with the given entries file and game.toml."""
    return write_corpus(tmp_path / "c", {"toy/game.toml": game, "toy/rules.md": rules})


def problems_of(root: Path) -> list[str]:
    """The corpus's problems as 'NAME:LINE: message' (file name only)."""
    _, problems = corpus.check([root])
    return [f"{Path(p.path).name}:{p.line}: {p.message}" for p in problems]


def check_cli(root: Path) -> list[str]:
    """Run `rulebot check ROOT` in-process: exit 1, every stdout line is FILE:LINE: message, and stderr ends with the count."""
    result = CliRunner().invoke(cli, ["check", str(root)])
    assert result.exit_code == 1, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    summary, lines = result.stderr.splitlines(), result.stdout.splitlines()
    assert lines and re.fullmatch(r"Error: (1 problem|\d+ problems) found", summary[-1]), summary[-1]
    for line in lines:
        assert PROBLEM_LINE.match(line), line
    return lines


def expect(root: Path, expected: str) -> None:
    """The corpus has the expected problem, and `rulebot check` reports it with exit 1."""
    found = problems_of(root)
    assert any(p.startswith(expected) for p in found), found
    assert any(expected.split(":", 2)[2].strip() in line for line in check_cli(root))


class TestNotReadable:
    def test_huge_entries_file(self, tmp_path: Path):
        """An entries file over the size limit is refused without being read."""
        root = toy(tmp_path)
        with (root / "toy/rules.md").open("r+b") as handle:
            handle.truncate(MAX_FILE_BYTES + 1)  # sparse: instant, no disk used
        expect(root, f"rules.md:0: file larger than {MAX_FILE_BYTES >> 20} MiB")

    def test_huge_game_toml(self, tmp_path: Path):
        """A game.toml over the limit is refused too."""
        root = toy(tmp_path)
        with (root / "toy/game.toml").open("r+b") as handle:
            handle.truncate(64 * MAX_FILE_BYTES)
        expect(root, f"game.toml:0: file larger than {MAX_FILE_BYTES >> 20} MiB")

    def test_huge_file_is_not_read_to_fingerprint(self, tmp_path: Path):
        """`ask` on a corpus with a 64 GiB (sparse) file fails at once with the problem, not after reading it."""
        root = toy(tmp_path)
        with (root / "toy/rules.md").open("r+b") as handle:
            handle.truncate(64 << 30)
        env = dict(os.environ, RULEBOT_CACHE_DIR=str(tmp_path / "cache"))
        done = subprocess.run(
            [sys.executable, "-m", "rulebot", "--no-shipped", "--corpus", str(root), "ask", "one"],
            capture_output=True, text=True, env=env, timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert f"rules.md:0: file larger than {MAX_FILE_BYTES >> 20} MiB" in done.stderr
        assert "Traceback" not in done.stderr

    def test_symlink_loop_of_an_entries_file(self, tmp_path: Path):
        """An entries file that is a link to itself is reported, not followed."""
        root = toy(tmp_path)
        (root / "toy/rules.md").unlink()
        (root / "toy/rules.md").symlink_to("rules.md")
        expect(root, "rules.md:0: cannot read: Too many levels of symbolic links")

    def test_two_link_loop(self, tmp_path: Path):
        """Two entries files linking to each other are reported."""
        root = toy(tmp_path, game=GAME_TOML + '\n[[sources]]\nid = "faq"\ntitle = "Toy FAQ"\n')
        (root / "toy/rules.md").unlink()
        (root / "toy/rules.md").symlink_to("faq.md")
        (root / "toy/faq.md").symlink_to("rules.md")
        found = problems_of(root)
        assert "faq.md:0: cannot read: Too many levels of symbolic links" in found
        assert "rules.md:0: cannot read: Too many levels of symbolic links" in found
        check_cli(root)

    def test_directory_named_like_an_entries_file(self, tmp_path: Path):
        """A folder called rules.md is not read as a file."""
        root = toy(tmp_path)
        (root / "toy/rules.md").unlink()
        (root / "toy/rules.md").mkdir()
        expect(root, "rules.md:0: not a regular file")

    def test_directory_named_game_toml(self, tmp_path: Path):
        """A folder called game.toml is there, and no file: said so at it (rather than "no game.toml")."""
        root = toy(tmp_path)
        (root / "toy/game.toml").unlink()
        (root / "toy/game.toml").mkdir()
        expect(root, "game.toml:0: not a regular file")

    def test_fifo_does_not_hang(self, tmp_path: Path):
        """A named pipe called rules.md is refused without opening it for a blocking read."""
        root = toy(tmp_path)
        (root / "toy/rules.md").unlink()
        os.mkfifo(root / "toy/rules.md")
        expect(root, "rules.md:0: not a regular file")

    def test_link_to_an_endless_device(self, tmp_path: Path):
        """A link to /dev/zero (endless, and of size 0) is refused instead of read for ever."""
        root = toy(tmp_path)
        (root / "toy/rules.md").unlink()
        (root / "toy/rules.md").symlink_to("/dev/zero")
        expect(root, "rules.md:0: not a regular file")

    @pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
    def test_unreadable_file(self, tmp_path: Path):
        """A file without read permission is reported."""
        root = toy(tmp_path)
        (root / "toy/rules.md").chmod(0)
        expect(root, "rules.md:0: cannot read: Permission denied")

    def test_real_process_does_not_hang_on_a_fifo(self, tmp_path: Path):
        """`rulebot check` (exit 1: problems found) and `rulebot ask` (exit 2: a corpus it cannot use) end on a FIFO entries file."""
        root = toy(tmp_path)
        (root / "toy/rules.md").unlink()
        os.mkfifo(root / "toy/rules.md")
        env = dict(os.environ, RULEBOT_CACHE_DIR=str(tmp_path / "cache"))
        for args, code in ((["check", str(root)], 1), (["--no-shipped", "--corpus", str(root), "ask", "one"], 2)):
            done = subprocess.run([sys.executable, "-m", "rulebot", *args], capture_output=True, text=True, env=env, timeout=60)
            assert done.returncode == code and "rules.md:0: not a regular file" in done.stdout + done.stderr, done.stderr


class TestEncodings:
    def test_utf8_bom_is_accepted(self, tmp_path: Path):
        """A UTF-8 byte order mark at the start of a file is dropped; line numbers stay right."""
        root = toy(tmp_path, rules="\ufeff" + ENTRY + "\n" + BAD_ENTRY, game="\ufeff" + GAME_TOML)
        assert problems_of(root) == ["rules.md:10: unknown kind 'law' (one of: rule, setup, faq, errata, fine-point, term, variant, house-rule)"]

    def test_bom_inside_a_file(self, tmp_path: Path):
        """A byte order mark further down (two files joined) would hide a heading: it is reported at its line."""
        root = toy(tmp_path, rules=ENTRY + "\n\ufeff" + ENTRY.replace("toy-one", "toy-two"))
        expect(root, "rules.md:8: byte order mark (U+FEFF) after the start of the file")

    def test_utf16_file(self, tmp_path: Path):
        """A UTF-16 file (Windows 'Unicode') is reported as not UTF-8, at line 1."""
        root = toy(tmp_path, rules=ENTRY.encode("utf-16"))
        expect(root, "rules.md:1: not valid UTF-8 (byte 0xff)")

    def test_latin1_byte_line(self, tmp_path: Path):
        """A Latin-1 byte is reported at its line."""
        root = toy(tmp_path, rules=ENTRY.encode() + b"\nCaf\xe9\n")
        expect(root, "rules.md:8: not valid UTF-8 (byte 0xe9)")

    @pytest.mark.parametrize(("where", "expected"), [("rules", "rules.md:3: contains a NUL character"), ("game", "game.toml:2: contains a NUL character")])
    def test_nul_byte(self, tmp_path: Path, where: str, expected: str):
        """A NUL character is reported at its line, in an entries file or a game.toml."""
        if where == "rules":
            root = toy(tmp_path, rules=ENTRY.replace("kind: rule", "kind: ru\0le"))
        else:
            root = toy(tmp_path, game=GAME_TOML.replace("Toy Game", "Toy\0Game"))
        expect(root, expected)

    def test_deeply_nested_toml(self, tmp_path: Path):
        """A game.toml nested deeper than the TOML parser recurses is a problem, not a RecursionError."""
        root = toy(tmp_path, game=GAME_TOML + "deep = " + "[" * 5000 + "]" * 5000 + "\n")
        expect(root, "game.toml:0: invalid TOML: arrays or tables nested too deeply")


class TestLineEndings:
    @pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
    def test_line_endings_are_accepted(self, tmp_path: Path, newline: str):
        """CRLF and CR line endings load like LF ones, with the same line numbers."""
        rules = (ENTRY + "\n" + BAD_ENTRY).replace("\n", newline)
        game = GAME_TOML.replace("\n", "\r\n")  # TOML allows LF and CRLF only
        root = toy(tmp_path, rules=rules, game=game)
        assert problems_of(root) == ["rules.md:10: unknown kind 'law' (one of: rule, setup, faq, errata, fine-point, term, variant, house-rule)"]
        loaded, _ = corpus.check([root])
        assert loaded.entry("toy-one").title == "One" and "\r" not in loaded.entry("toy-one").text

    def test_mixed_line_endings(self, tmp_path: Path):
        """A file mixing LF and CRLF lines loads, and problems are at the right lines."""
        lines = (ENTRY + "\n" + BAD_ENTRY).split("\n")
        rules = "".join(line + ("\r\n" if i % 2 else "\n") for i, line in enumerate(lines))
        assert problems_of(toy(tmp_path, rules=rules))[0].startswith("rules.md:10: unknown kind 'law'")

    @pytest.mark.parametrize("separator", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
    def test_unicode_line_separators_do_not_shift_lines(self, tmp_path: Path, separator: str):
        """Characters that str.splitlines cuts at but editors do not (form feed, U+2028...) keep line numbers right
        (the control characters among them are reported at their own line, which is the entry's sixth)."""
        rules = ENTRY.replace("first rule", f"first{separator}rule") + "\n" + BAD_ENTRY
        found = problems_of(toy(tmp_path, rules=rules))
        assert any(f.startswith("rules.md:10: unknown kind 'law'") for f in found), found
        assert all(f.startswith(("rules.md:10:", "rules.md:6: a ")) and "U+2028" not in f for f in found), found

    def test_toml_error_line_with_crlf(self, tmp_path: Path):
        """A game.toml mistake is reported at its line with CRLF endings too."""
        game = GAME_TOML.replace('id_prefix = "toy"', "id_prefix = 3").replace("\n", "\r\n")
        expect(toy(tmp_path, game=game), "game.toml:3: id_prefix must be a non-empty string")


class TestScale:
    def test_each_file_is_read_once_to_locate_problems(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Thousands of problems in one file read it once for their lines, not once each (was quadratic)."""
        count = 2000
        rules = "\n".join(
            ENTRY.replace("toy-one", f"toy-e{i}").replace("title: One", f"title: T{i}").replace("section: Part 1", "section: Part 1\naliases: same name")
            for i in range(count)
        )
        root = toy(tmp_path, rules=rules)
        reads: list[str] = []
        real = checks.file_lines
        monkeypatch.setattr(checks, "file_lines", lambda path: reads.append(path) or real(path))
        _, found = corpus.check([root])
        assert len(found) == count - 1  # every one found (check --json lists them all)
        problems = [f"{Path(p.path).name}:{p.line}: {p.message}" for p in corpus.at_most_per_file(found)]
        assert len(problems) == corpus.MAX_PROBLEMS_PER_FILE + 1  # as listed: and a line counting the others
        assert problems[-1].endswith(f"and {count - 1 - corpus.MAX_PROBLEMS_PER_FILE} more problems in this file (fix these first)")
        assert problems[0].startswith("rules.md:13: alias 'same name' is also claimed by 'toy-e0'")
        assert len(reads) == 1

    def test_large_valid_file(self, tmp_path: Path):
        """A valid file of 20,000 entries with aliases loads whole."""
        rules = "\n".join(
            ENTRY.replace("toy-one", f"toy-e{i}").replace("title: One", f"title: T{i}").replace("section: Part 1", f"section: Part 1\naliases: name {i}")
            for i in range(20_000)
        )
        loaded, problems = corpus.check([toy(tmp_path, rules=rules)])
        assert problems == [] and len(loaded.entries) == 20_000

    def test_undecodable_file_name(self, tmp_path: Path):
        """A file name that is not UTF-8 is reported (its bytes shown as escapes), printable, without a crash."""
        root = toy(tmp_path)
        (root / "toy").joinpath(os.fsdecode(b"r\xffles.md")).write_text(ENTRY, encoding="utf-8")
        found = problems_of(root)
        assert "r\\xffles.md:0: the name is not valid UTF-8: rename it" in found, found
        done = subprocess.run([sys.executable, "-m", "rulebot", "check", str(root)], capture_output=True, timeout=60)
        assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr

    @pytest.mark.parametrize("command", [["list"], ["games"], ["ask", "one"], ["setup", "toy"]])
    def test_undecodable_names_once_their_stamps_are_kept(self, tmp_path: Path, command: list[str]):
        """Files unchanged for a while have their stamps kept in the cache: undecodable names must not break writing them."""
        root = write_corpus(tmp_path / os.fsdecode(b"corpus\xff"), {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY})
        os.mkdir(root / os.fsdecode(b"\xe9checs"))
        (root / "toy" / os.fsdecode(b"r\xe8gles.md")).write_text(ENTRY, encoding="utf-8")
        old = 1_000_000_000  # 2001: long settled, so that the fingerprint keeps every file's stamp
        for folder, dirs, files in os.walk(root):
            for name in [*dirs, *files]:
                os.utime(os.path.join(folder, name), (old, old))
        for _ in range(2):  # writes the stamps, then trusts them
            result = CliRunner().invoke(cli, ["--no-shipped", "--corpus", str(root), *command])
            assert result.exit_code in (0, 1, 2) and "unexpected" not in result.output, (result.output, result.exception)
            assert "r\\xe8gles.md" in result.stderr and "Traceback" not in result.output


# -- random bytes ---------------------------------------------------------------

LINES = [
    "## toy-one", "## toy-two", "## Toy One", "## ", "##", "### toy-three", "title: One", "title:", "kind: rule",
    "kind: law", "section: S", "aliases: a; b;;", "aliases-fr: un", "aliases-x: y", "see_also: toy-one",
    "see_also: toy-two", "modifies: toy-one", "modifies: toy-two", "revised: 2024-02-30", "revised: 2024-02-03",
    "expansion: base", "expansion: nope", "draft: true", "draft: maybe", "key: value: more", "", " ", "text",
    "```", "~~~", "    ## indented", "\ufeff## toy-bom", "\x00", "\udcff", "\u2028", "\r", "é" * 300, "x" * 10_000,
]


def _raw(data: bytes | str) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")


entries_bytes = st.one_of(
    st.binary(max_size=2000),
    st.lists(st.sampled_from(LINES), max_size=60).map("\n".join).map(_raw),
    st.lists(st.one_of(st.sampled_from(LINES).map(_raw), st.binary(max_size=20)), max_size=60).map(b"\r\n".join),
)
toml_bytes = st.one_of(
    st.binary(max_size=1000),
    st.lists(
        st.one_of(
            st.sampled_from(GAME_TOML.splitlines()),
            st.sampled_from(["[[sources]]", "[[expansions]]", "[vocabulary]", "synonyms = [[\"a\", \"b\"]]", "terms = 3",
                             'id = "rules"', 'slug = "x"', "year = 1e400", "date = 2024-02-30", "x = [", "[[", "= 1"]),
        ),
        max_size=30,
    ).map("\n".join).map(_raw),
)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder rewritten by each generated example."""
    return tmp_path_factory.mktemp("hostile-corpus")


def outcome_of(root: Path) -> None:
    """check() returns a Corpus and a list of well-formed problems, whatever is on disk."""
    loaded, problems = corpus.check([root])
    assert isinstance(loaded, Corpus)
    for problem in problems:
        assert problem.line >= 0 and "\n" not in str(problem) and "\r" not in str(problem), str(problem)
        assert PROBLEM_LINE.match(str(problem)), str(problem)


SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


class TestRandomBytes:
    @SETTINGS
    @given(data=entries_bytes)
    def test_random_entries_file(self, scratch: Path, data: bytes):
        """Any bytes as an entries file give a Corpus and problems, never an exception."""
        shutil.rmtree(scratch / "c", ignore_errors=True)
        outcome_of(write_corpus(scratch / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": data}))

    @SETTINGS
    @given(data=toml_bytes)
    def test_random_game_toml(self, scratch: Path, data: bytes):
        """Any bytes as a game.toml give a Corpus and problems, never an exception."""
        shutil.rmtree(scratch / "c", ignore_errors=True)
        outcome_of(write_corpus(scratch / "c", {"toy/game.toml": data, "toy/rules.md": ENTRY}))

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=entries_bytes)
    def test_random_entries_through_check(self, scratch: Path, data: bytes):
        """`rulebot check` on any entries file exits 0 or 1, with FILE:LINE lines and no traceback."""
        shutil.rmtree(scratch / "c", ignore_errors=True)
        root = write_corpus(scratch / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": data})
        result = CliRunner().invoke(cli, ["check", str(root)])
        assert result.exit_code in (0, 1), result.exception
        assert result.exception is None or isinstance(result.exception, SystemExit)
        if result.exit_code == 1:
            for line in result.stdout.splitlines():
                assert PROBLEM_LINE.match(line), line
