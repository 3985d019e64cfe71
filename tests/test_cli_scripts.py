"""The command line as scripts and bots use it: exit statuses, standard input, pipes, colour,
`check --json`, validation with suggestions, and output that fits the terminal."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import MINIMAL, docs_text, rulebot_process

from rulebot.cli.main import cli

TOY = ("--no-shipped", "--corpus", str(MINIMAL))
CLEAR, NOTHING, UNCLEAR = ("ferry", "gull"), ("zzqx", "blorf"), ("tie", "zzqx", "blorf", "qqq")
"""Questions of the minimal corpus answered clearly, not at all, and not clearly."""
ESCAPE = "\x1b["


def draft(corpus: Path) -> Path:
    """Mark the corpus's lh-setup entry as a draft."""
    path = corpus / "lantern-harbor" / "rulebook.md"
    path.write_text(path.read_text(encoding="utf-8").replace("section: Setup\n", "section: Setup\ndraft: true\n", 1), encoding="utf-8")
    return corpus


class TestExitStatus:
    """0 success, 1 a negative result, 2 an error, 3 no clear answer, 70 internal, 130 interrupted."""

    def test_clear_answer(self, run_cli):
        """An answer rulebot stands by exits 0."""
        assert run_cli(*TOY, "ask", *CLEAR).exit_code == 0

    def test_nothing_matches(self, run_cli):
        """Nothing that matches at all exits 1."""
        result = run_cli(*TOY, "ask", *NOTHING)
        assert result.exit_code == 1 and "Nothing in the corpus matches 'zzqx blorf'." in result.stdout

    def test_no_clear_answer(self, run_cli):
        """No entry answering clearly exits 3, with the closest entries shown."""
        result = run_cli(*TOY, "ask", *UNCLEAR)
        assert result.exit_code == 3 and "No entry answers this clearly" in result.stdout and "id: lh-lantern-keeper" in result.stdout

    @pytest.mark.parametrize("words, confident, found", [(CLEAR, True, True), (NOTHING, False, False), (UNCLEAR, False, True)])
    def test_json_exits_0_once_printed(self, run_cli, words: tuple[str, ...], confident: bool, found: bool):
        """With --json, ask exits 0 whatever it found: the object's confident and results tell."""
        result = run_cli(*TOY, "ask", "--json", *words)
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["confident"] is confident and bool(data["results"]) is found

    def test_json_error_is_2_on_stderr(self, run_cli):
        """An error under --json exits 2 with its message on stderr and nothing on stdout."""
        result = run_cli(*TOY, "ask", "--json", "--game", "chess", "tie")
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith("Error: no game 'chess'")

    @pytest.mark.parametrize(
        "args, message",
        [
            (("ask", "--game", "chess", "tie"), "Error: no game 'chess'"),
            (("ask", "--with", "atlantis", "tie"), "Error: no expansion 'atlantis'"),
            (("show", "lh-nowhere"), "Error: no entry 'lh-nowhere'"),
            (("changes", "chess"), "Error: no game 'chess'"),
            (("new", "-g", "lantern-harbor", "-k", "faq", "-s", "nope"), "Error: no source 'nope'"),
            (("config", "set", "lantern-harbor.colour", "blue"), "Error: unknown setting"),
            (("list", "--kind", "law"), "Invalid value for '-k' / '--kind'"),
            (("list", "--expansion", "atlantis"), "Invalid value for '-e' / '--expansion': no expansion 'atlantis'"),
            (("ask", "--frobnicate", "x"), "No such option"),
            (("show",), "Missing argument"),
        ],
    )
    def test_errors_exit_2(self, run_cli, args: tuple[str, ...], message: str):
        """Every error rulebot reports, and every usage error, exits 2 with a one-line message."""
        result = run_cli(*TOY, *args)
        assert result.exit_code == 2 and message in result.stderr, result.output

    def test_bad_kind_and_expansion_are_told_alike(self, run_cli):
        """An unknown --kind and an unknown --expansion of `list` are both bad values of their option, with the usage."""
        for option, value in (("-k", "fqa"), ("-e", "nosuch")):
            result = run_cli(*TOY, "list", option, value)
            assert result.exit_code == 2 and result.stderr.startswith("Usage: cli list [OPTIONS]\n"), result.stderr
            assert f"Error: Invalid value for '{option}' / '--" in result.stderr

    def test_a_file_that_cannot_be_written_is_2(self, run_cli, tmp_path: Path):
        """import --out into a folder that does not exist exits 2."""
        document = tmp_path / "faq.md"
        document.write_text("# FAQ\n\n**Gulls** — They fly.\n", encoding="utf-8")
        result = run_cli(*TOY, "import", str(document), "-g", "lantern-harbor", "-s", "tides-faq", "--out", str(tmp_path / "no" / "x.md"))
        assert result.exit_code == 2 and "Error: cannot write" in result.stderr

    def test_a_broken_corpus_is_2(self, run_cli, minimal_copy: Path):
        """A corpus rulebot cannot use (no valid entry) exits 2; check of it exits 1: problems found."""
        for path in (minimal_copy / "lantern-harbor").glob("*.md"):
            path.write_text(path.read_text(encoding="utf-8").replace("\nkind: ", "\nkind: nonsense-"), encoding="utf-8")
        assert run_cli("--no-shipped", "--corpus", str(minimal_copy), "list").exit_code == 2
        assert run_cli("check", str(minimal_copy)).exit_code == 1

    def test_interrupt_is_130(self, run_cli, monkeypatch: pytest.MonkeyPatch):
        """Ctrl-C during a command exits 130 with "Aborted!"."""
        from rulebot import answering

        def interrupted(*args, **kwargs):
            raise KeyboardInterrupt

        monkeypatch.setattr(answering.Answerer, "ask", interrupted)
        result = run_cli(*TOY, "ask", "--limit", "2", *CLEAR)
        assert result.exit_code == 130 and result.stderr.strip() == "Aborted!"

    def test_unexpected_error_is_70(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
        """An error no command expected exits 70, in one line."""
        from rulebot.cli import main as cli_module
        from rulebot.cli.shared import Settings

        def broken(self):
            raise RuntimeError("the disk is on fire")

        monkeypatch.setattr(Settings, "searcher", broken)
        monkeypatch.delenv("RULEBOT_DEBUG", raising=False)
        monkeypatch.setattr(sys, "argv", ["rulebot", *TOY, "games"])
        with pytest.raises(SystemExit) as ended:
            cli_module.main()
        assert ended.value.code == 70
        assert capsys.readouterr().err == "Error: unexpected RuntimeError: the disk is on fire (set RULEBOT_DEBUG=1 for details)\n"

    @pytest.mark.parametrize(
        "args, code",
        [
            (("ask", *CLEAR), 0),
            (("ask", *NOTHING), 1),
            (("ask", *UNCLEAR), 3),
            (("ask", "--limit", "3", *CLEAR), 0),
            (("ask", "--limit", "3", *NOTHING), 1),
            (("ask", "--limit", "3", *UNCLEAR), 3),
            (("ask", "--json", *NOTHING), 0),
            (("ask", "--json", *UNCLEAR), 0),
            (("ask", "--game", "chess", "tie"), 2),
            (("show", "lh-nowhere"), 2),
        ],
    )
    def test_real_process(self, args: tuple[str, ...], code: int):
        """As a process, the quick path (a plain `ask WORDS`) and click give the same statuses."""
        process = rulebot_process(*TOY, *args)
        assert process.returncode == code, process.stderr
        assert "Traceback" not in process.stderr

    def test_quick_path_error_is_2(self, tmp_path: Path):
        """A plain `ask WORDS` on a corpus it cannot use exits 2, as click's `ask` does."""
        corpus = shutil.copytree(MINIMAL, tmp_path / "corpus")
        for path in (corpus / "lantern-harbor").glob("*.md"):
            path.write_text(path.read_text(encoding="utf-8").replace("\nkind: ", "\nkind: nonsense-"), encoding="utf-8")
        process = rulebot_process("--no-shipped", "--corpus", str(corpus), "ask", "ferry", "gull")
        assert process.returncode == 2 and "Error: the corpus has 6 problems " in process.stderr


class TestStdin:
    """`rulebot ask -` reads the question from standard input."""

    def test_reads_the_whole_input_as_one_question(self, run_cli):
        """Lines on stdin make one question, answered as if typed."""
        from_stdin = run_cli(*TOY, "ask", "--json", "-", input="ferry\ngull\n")
        typed = run_cli(*TOY, "ask", "--json", *CLEAR)
        assert from_stdin.exit_code == 0
        assert json.loads(from_stdin.stdout)["results"] == json.loads(typed.stdout)["results"]
        assert json.loads(from_stdin.stdout)["query"] == "ferry\ngull"  # the newline that ends the input is not asked

    @pytest.mark.parametrize("given", ["", "  \n\t\n"])
    def test_empty_input_is_a_usage_error(self, run_cli, given: str):
        """An empty standard input is a usage error (exit 2)."""
        result = run_cli(*TOY, "ask", "-", input=given)
        assert result.exit_code == 2 and "Error: standard input is empty" in result.stderr

    def test_a_dash_among_words_is_a_word(self, run_cli):
        """Only a lone `-` reads standard input."""
        result = run_cli(*TOY, "ask", "--json", "ferry", "-", "gull", input="")
        assert result.exit_code == 0 and json.loads(result.stdout)["query"] == "ferry - gull"

    def test_real_pipe(self):
        """`echo QUESTION | rulebot ask -` prints what `rulebot ask QUESTION` prints, with its status."""
        typed = rulebot_process(*TOY, "ask", *UNCLEAR)
        piped = subprocess.run(
            [sys.executable, "-m", "rulebot", *TOY, "ask", "-"], input=" ".join(UNCLEAR) + "\n", capture_output=True, text=True, timeout=60
        )
        assert piped.returncode == typed.returncode == 3, piped.stderr
        assert piped.stdout == typed.stdout

    def test_real_empty_input(self):
        """`rulebot ask - < /dev/null` is a usage error."""
        with open(os.devnull, "rb") as empty:
            process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, "ask", "-"], stdin=empty, capture_output=True, text=True, timeout=60)
        assert process.returncode == 2 and "Error: standard input is empty" in process.stderr

    def test_undecodable_input(self):
        """Bytes that are not UTF-8 on stdin are answered or refused cleanly."""
        process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, "ask", "-"], input=b"ferry \xff\xfe gull", capture_output=True, timeout=60)
        assert process.returncode == 0 and b"Traceback" not in process.stderr


class TestCheckJson:
    """`rulebot check --json` prints one object, and exits as without --json."""

    def test_valid_corpus(self, run_cli):
        """A valid corpus: ok, no problems, a summary with the counts."""
        result = run_cli("check", "--json", str(MINIMAL))
        assert result.exit_code == 0
        assert json.loads(result.stdout) == {
            "ok": True,
            "problems": [],
            "summary": {"entries": 6, "games": {"lantern-harbor": 6}, "errors": 0, "warnings": 0, "notes": []},
        }

    def test_problems_are_errors(self, run_cli, minimal_copy: Path):
        """Each problem has its file, line, message and severity error; exit 1; nothing on stderr."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu"), encoding="utf-8")
        result = run_cli("check", "--json", str(minimal_copy))
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and result.stderr == ""
        assert data["ok"] is False and data["summary"]["errors"] == 1
        [problem] = data["problems"]
        assert problem["message"].startswith("unknown kind 'setpu'")
        assert problem == {"file": str(rules), "line": 5, "message": problem["message"], "severity": "error"}

    def test_drafts_are_warnings(self, run_cli, minimal_copy: Path):
        """A draft is a warning: ok, exit 0."""
        result = run_cli("check", "--json", str(draft(minimal_copy)))
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["ok"] is True
        assert [(p["line"], p["message"], p["severity"]) for p in data["problems"]] == [(3, "entry 'lh-setup' is a draft", "warning")]
        assert data["summary"]["warnings"] == 1

    def test_strict_makes_warnings_errors(self, run_cli, minimal_copy: Path):
        """With --strict a draft is an error: not ok, exit 1."""
        result = run_cli("check", "--json", "--strict", str(draft(minimal_copy)))
        data = json.loads(result.stdout)
        assert result.exit_code == 1 and data["ok"] is False
        assert [p["severity"] for p in data["problems"]] == ["error"]

    def test_ambiguous_citations_are_warnings(self, run_cli, tmp_path: Path):
        """check --sources: an ambiguous citation is a warning (an error with --strict); the citations note is in the summary."""
        from test_curation import RULEBOOK_COPY

        sources = tmp_path / "sources"
        sources.mkdir()
        text = RULEBOOK_COPY + "\n**Lantern Keeper** — wins ties.\n\n## Cards\n\n**Lantern Keeper** — a promo.\n"
        (sources / "rulebook.md").write_text(text, encoding="utf-8")
        result = run_cli(*TOY, "check", "--json", "--sources", str(sources))
        data = json.loads(result.stdout)
        assert result.exit_code == 0 and data["ok"] is True
        assert [(p["severity"], p["message"].split(":")[0]) for p in data["problems"]] == [("warning", "ambiguous citation")]
        assert data["summary"]["notes"] == ["citations: 3 verified, 0 dangling, 1 ambiguous; 2 not checked (no document for lantern-harbor/tides-faq)"]
        strict = run_cli(*TOY, "check", "--json", "--strict", "--sources", str(sources))
        assert strict.exit_code == 1 and [p["severity"] for p in json.loads(strict.stdout)["problems"]] == ["error"]


class TestCheckOutput:
    """`rulebot check` prints as a linter: findings on standard output, the summary on standard error."""

    def test_findings_on_stdout(self, run_cli, minimal_copy: Path):
        """Each problem is a FILE:LINE: message line of stdout (`check | grep`); the count is on stderr."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu"), encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        assert result.exit_code == 1
        assert result.stdout.startswith(f"{rules}:5: unknown kind 'setpu'") and len(result.stdout.splitlines()) == 1
        assert result.stderr == "Error: 1 problem found\n"

    def test_summary_on_stderr(self, run_cli):
        """A corpus without problems: nothing on stdout, the one-line summary on stderr."""
        result = run_cli("check", str(MINIMAL))
        assert (result.exit_code, result.stdout) == (0, "")
        assert result.stderr == "OK: 6 entries in 1 game (lantern-harbor 6)\n"

    def test_warnings_are_findings(self, run_cli, tmp_path: Path):
        """A warning with a place (an ambiguous citation) is a finding too, marked as a warning; the citations note is a summary."""
        from test_curation import RULEBOOK_COPY

        sources = tmp_path / "sources"
        sources.mkdir()
        text = RULEBOOK_COPY + "\n**Lantern Keeper** — wins ties.\n\n## Cards\n\n**Lantern Keeper** — a promo.\n"
        (sources / "rulebook.md").write_text(text, encoding="utf-8")
        result = run_cli(*TOY, "check", "--sources", str(sources))
        assert result.exit_code == 0, result.output
        [finding] = result.stdout.splitlines()
        assert re.match(r".+rulebook\.md:\d+: warning: ambiguous citation: ", finding)
        assert result.stderr.startswith("citations: 3 verified") and result.stderr.endswith("OK: 6 entries in 1 game (lantern-harbor 6)\n")

    def test_real_pipe(self, minimal_copy: Path):
        """As a process, `rulebot check | grep` sees the problems, and --json stays one object on stdout."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu"), encoding="utf-8")
        process = rulebot_process("check", str(minimal_copy))
        assert process.returncode == 1 and [line for line in process.stdout.splitlines() if "setpu" in line]
        as_json = rulebot_process("check", "--json", str(minimal_copy))
        assert as_json.returncode == 1 and json.loads(as_json.stdout)["summary"]["errors"] == 1 and as_json.stderr == ""

    @pytest.mark.parametrize("where", ["nowhere", "a-file.md"])
    def test_a_folder_that_is_not_there_is_a_usage_error(self, run_cli, tmp_path: Path, where: str):
        """check of a missing folder (or of a file) is a usage error, 2, as --sources of one is; not problems found (1)."""
        (tmp_path / "a-file.md").write_text("# not a corpus\n", encoding="utf-8")
        result = run_cli("check", str(tmp_path / where))
        assert result.exit_code == 2 and "Invalid value for '[CORPUS_DIR]...'" in result.stderr and result.stdout == ""


class TestColor:
    """`--color auto|always|never`, decided in one place (rulebot.cli.output.color)."""

    @pytest.mark.parametrize(
        "args",
        [("ask", *CLEAR), ("ask", "--limit", "1", *CLEAR), ("show", "lh-setup"), ("list",), ("games",), ("changes", "lantern-harbor")],
    )
    def test_always_colours_every_command(self, run_cli, args: tuple[str, ...]):
        """--color always colours into a pipe (the runner's output), for every command; never and auto do not."""
        assert ESCAPE in run_cli("--color", "always", *TOY, *args).stdout
        assert ESCAPE not in run_cli("--color", "never", *TOY, *args).stdout
        assert ESCAPE not in run_cli(*TOY, *args).stdout

    @pytest.mark.parametrize("args", [("ask", *CLEAR), ("show", "lh-setup"), ("list",), ("games",), ("changes", "lantern-harbor")])
    def test_global_options_after_the_command(self, run_cli, args: tuple[str, ...]):
        """`--color`, `--corpus` and `--no-shipped` are taken after the command's name too (`rulebot list --color always`),
        with what they say before it."""
        after = run_cli(args[0], "--color", "always", *TOY, *args[1:])
        before = run_cli("--color", "always", *TOY, *args)
        assert (after.exit_code, after.stdout) == (before.exit_code, before.stdout)
        assert ESCAPE in after.stdout
        assert ESCAPE not in run_cli("--color", "always", *TOY, args[0], "--color", "never", *args[1:]).stdout
        split = run_cli("--no-shipped", args[0], "--corpus", str(MINIMAL), *args[1:])
        assert split.stdout == run_cli(*TOY, *args).stdout

    @pytest.mark.parametrize("args", [("check",), ("index",), ("config", "set", "lantern-harbor.with", "deep-tides")])
    def test_corpus_options_after_a_command_that_reads_one(self, run_cli, args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A command that reads a corpus and prints no colour takes `--corpus` and `--no-shipped` after its name, not `--color`."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))  # `config set` writes this test's own
        where = len(args) - 2 if args[0] == "config" else 1
        run_cli(*TOY, *args)  # what a second run says (`index`: "already up to date"), whichever tests ran before
        after = run_cli(*args[:where], *TOY, *args[where:])
        assert (after.exit_code, after.stdout) == (0, run_cli(*TOY, *args).stdout), after.output
        refused = run_cli(*args[:where], "--color", "never", *args[where:])
        assert refused.exit_code == 2 and "No such option '--color'" in refused.stderr

    @pytest.mark.parametrize(
        "args", [("version",), ("help",), ("config", "get", "lang"), ("config", "path"), ("config", "unset", "lang"), ("site", "serve")]
    )
    def test_commands_without_a_corpus_refuse_its_options(self, run_cli, args: tuple[str, ...]):
        """A command that reads no corpus and prints no colour has none of the group's options: given after its name,
        they would be ignored. Its help does not list them."""
        for option in (("--corpus", str(MINIMAL)), ("--no-shipped",), ("--color", "never")):
            result = run_cli(*args, *option)
            assert result.exit_code == 2 and f"No such option '{option[0]}'" in result.stderr, result.output
        shown = run_cli(*args, "--help").stdout
        assert not any(option in shown for option in ("--corpus", "--no-shipped", "--color")), shown

    def test_every_command_is_placed(self):
        """Each command either reads a corpus (and may colour) and takes the group's options after its name, or is
        one of the few that do neither: a new command is placed on purpose."""
        from rulebot.cli import main, upkeep

        def leaves(command: click.Command) -> list[click.Command]:
            return [c for sub in command.commands.values() for c in leaves(sub)] if isinstance(command, click.Group) else [command]

        commands = [c for command in main.COMMANDS for c in leaves(command)]
        without = [main.version, main.help_, upkeep.config_get, upkeep.config_unset, upkeep.config_path, upkeep.site_serve]
        assert sorted(c.name or "" for c in commands) == sorted(c.name or "" for c in (*main.COLOURED, *main.READ_A_CORPUS, *without))

    def test_group_help_says_where_its_options_go(self, run_cli):
        """The group's help says its options may follow a command's name."""
        assert "may also follow the\n  name of a command that reads a corpus" in run_cli("--help").stdout

    @pytest.mark.parametrize("args", [("ask", "--color", "always", *CLEAR), ("list", "--color", "always"), ("ask", *CLEAR, "--color", "always")])
    def test_real_process_after_the_command(self, args: tuple[str, ...]):
        """As a process, the quick path (`ask`) and click take `--color` after the command alike."""
        process = rulebot_process(*TOY, *args)
        assert process.returncode == 0 and ESCAPE in process.stdout, process.stderr

    def test_always_beats_no_color(self, run_cli, monkeypatch: pytest.MonkeyPatch):
        """NO_COLOR turns off the automatic colour only."""
        monkeypatch.setenv("NO_COLOR", "1")
        assert ESCAPE in run_cli("--color", "always", *TOY, "show", "lh-setup").stdout

    def test_unknown_mode_is_a_usage_error(self, run_cli):
        """--color sometimes is a usage error."""
        assert run_cli("--color", "sometimes", *TOY, "games").exit_code == 2

    @pytest.mark.parametrize(
        "env, mode, expected",
        [
            ({}, "auto", True),
            ({"NO_COLOR": "1"}, "auto", False),
            ({"NO_COLOR": ""}, "auto", True),
            ({"TERM": "dumb"}, "auto", False),
            ({"NO_COLOR": "1"}, "always", True),
            ({}, "never", False),
        ],
    )
    def test_decision_on_a_terminal(self, monkeypatch: pytest.MonkeyPatch, env: dict, mode: str, expected: bool):
        """On a terminal, auto colours unless NO_COLOR is non-empty or TERM is dumb."""
        from rulebot.cli import output

        class Terminal:
            def isatty(self) -> bool:
                return True

        monkeypatch.setattr(sys, "stdout", Terminal())
        monkeypatch.delenv("NO_COLOR", raising=False)
        monkeypatch.setenv("TERM", "xterm-256color")
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        assert output.color(mode) is expected

    @pytest.mark.parametrize("args", [("ask", *CLEAR), ("show", "lh-setup")])
    @pytest.mark.parametrize("env, coloured", [({}, True), ({"NO_COLOR": "1"}, False), ({"TERM": "dumb"}, False)])
    def test_real_terminal(self, args: tuple[str, ...], env: dict, coloured: bool):
        """On a real terminal (a pty), the quick path and click colour alike, unless NO_COLOR or TERM=dumb."""
        pty = pytest.importorskip("pty")
        leader, follower = pty.openpty()
        full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"} | env
        try:
            process = subprocess.Popen([sys.executable, "-m", "rulebot", *TOY, *args], stdout=follower, stderr=subprocess.DEVNULL, env=full_env)
            os.close(follower)
            output = b""
            while True:  # read while it writes: a full terminal would block it
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the process has ended and its terminal is read out
                    break
                if not chunk:
                    break
                output += chunk
            process.wait(timeout=60)
        finally:
            os.close(leader)
        assert process.returncode == 0, output
        assert (ESCAPE.encode() in output) is coloured


def closed_pipe_run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """Run `rulebot ARGS` with its standard output a pipe whose reader has gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [sys.executable, "-m", "rulebot", *args], stdout=writer, stderr=subprocess.PIPE, input=stdin, text=True, timeout=60
        )
    finally:
        os.close(writer)


class TestClosedStream:
    """A standard stream closed before rulebot starts (`>&-`, `2>&-`)."""

    @pytest.mark.parametrize("args", [("ask", "--json", *CLEAR), ("list",), ("version",)])
    def test_standard_output_closed_is_output_that_cannot_be_written(self, args: tuple[str, ...]):
        """With nowhere to write the answer, the command says so on stderr and exits 2, as with a full disk."""
        process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, *args], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 text=True, timeout=60, preexec_fn=lambda: os.close(1))
        assert process.returncode == 2
        assert process.stderr.strip().splitlines()[-1] == "Error: cannot write the output: Bad file descriptor"

    def test_standard_input_closed_is_empty(self):
        """`rulebot ask -` with standard input closed reads nothing: the usage error of an empty input."""
        process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, "ask", "-"], capture_output=True, text=True, timeout=60,
                                 preexec_fn=lambda: os.close(0))
        assert process.returncode == 2 and "Error: standard input is empty" in process.stderr, process.stderr

    @pytest.mark.parametrize(("args", "code"), [(("ask", "--json", "what about the"), 2), (("ask", "--json", *CLEAR), 0)])
    def test_standard_error_closed_puts_nothing_on_standard_output(self, args: tuple[str, ...], code: int):
        """What would be said on stderr is dropped: standard output holds the answer alone, or nothing."""
        process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 text=True, timeout=60, preexec_fn=lambda: os.close(2))
        assert process.returncode == code
        assert process.stdout == "" if code else json.loads(process.stdout)["results"]


class TestClosedPipe:
    """A reader that stops reading (`| head -1`) is not an error: nothing on stderr, the status of the command."""

    @pytest.fixture(autouse=True)
    def built(self):
        """The index is built beforehand: a build is announced on stderr."""
        assert rulebot_process(*TOY, "index").returncode == 0

    @pytest.mark.parametrize(
        ("args", "code"),
        [
            (("list",), 0),
            (("ask", *CLEAR), 0),
            (("ask", *UNCLEAR), 3),
            (("ask", "--json", *CLEAR), 0),
            (("show", "lh-setup"), 0),
            (("games",), 0),
            (("changes", "lantern-harbor"), 0),
            (("list", "--help"), 0),
            (("check", "--json"), 0),
        ],
    )
    def test_ends_quietly(self, args: tuple[str, ...], code: int):
        """Writing into a closed pipe ends the command quietly, with the status it had without the pipe: an answer's is
        the answer's (3, no clear answer), whenever the reader stopped, so that a script's status does not hang on it."""
        process = closed_pipe_run(*TOY, *args)
        assert (process.returncode, process.stderr) == (code, "")
        assert rulebot_process(*TOY, *args).returncode == code

    def test_play_ends_quietly(self):
        """`rulebot play` answering piped lines into a closed pipe ends quietly too."""
        process = closed_pipe_run(*TOY, "play", stdin="ferry gull\n:show lh-setup\n")
        assert (process.returncode, process.stderr) == (0, "")

    def test_head(self, tmp_path: Path):
        """`rulebot list | head -1` as a shell pipeline: one line, status 0 (pipefail), nothing on stderr."""
        bash = shutil.which("bash")
        if bash is None:
            pytest.skip("bash is not installed")
        corpus = tmp_path / "corpus"
        shutil.copytree(MINIMAL, corpus)
        faq = corpus / "lantern-harbor" / "tides-faq.md"
        many = "".join(
            f"\n## lh-extra-{n}\ntitle: Extra question {n}\nkind: faq\nsection: Extra\nexpansion: deep-tides\n\nAn answer.\n" for n in range(3000)
        )
        faq.write_text(faq.read_text(encoding="utf-8") + many, encoding="utf-8")  # more than a pipe holds
        command = f"set -o pipefail; {sys.executable} -m rulebot --no-shipped --corpus {corpus} list 2>&1 >/dev/null; "
        command += f"{sys.executable} -m rulebot --no-shipped --corpus {corpus} list | head -1"
        process = subprocess.run([bash, "-c", command], capture_output=True, text=True, timeout=120)
        assert process.returncode == 0 and process.stderr == ""
        assert process.stdout.splitlines()[-1] == "lh-setup  Setup [setup]"


class TestSuggestions:
    """Unknown games, kinds, expansions and ids: usage errors that name the valid values and the one meant."""

    def test_unknown_kind(self, run_cli):
        """list --kind names the kinds, and the one meant."""
        result = run_cli(*TOY, "list", "--kind", "fqa")
        assert result.exit_code == 2
        assert "no kind 'fqa'; did you mean: faq; known kinds: rule, setup, faq, errata, fine-point, term, variant, house-rule" in result.stderr

    def test_unknown_expansion(self, run_cli):
        """list --expansion names the expansions and base, and the one meant."""
        result = run_cli(*TOY, "list", "--expansion", "deep")
        assert result.exit_code == 2
        assert "no expansion 'deep'; did you mean: deep-tides; known expansions: base, deep-tides" in result.stderr

    def test_unknown_expansion_of_a_game(self, run_cli):
        """config set GAME.with names that game's expansions only."""
        result = run_cli("config", "set", "res-arcana.with", "ix")
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == "Error: no expansion 'ix' for res-arcana; known expansions: lux-et-tenebrae, perlae-imperii"

    @pytest.mark.parametrize(
        "value, meant",
        [("dune", "dune-imperium"), ("res", "res-arcana"), ("Dune: Imperium", "dune-imperium"), ("molthar", "portals-of-molthar"),
         ("CATALYST", "catalyst")],
    )
    def test_game_by_its_name(self, run_cli, value: str, meant: str):
        """A --game that names one game without doubt (a slug it begins, an alias or name, any case) is that game."""
        given = run_cli("ask", "--json", "-g", value, "tie")
        assert given.exit_code == 0, given.output
        assert given.stdout == run_cli("ask", "--json", "-g", meant, "tie").stdout

    def test_game_not_a_slug(self, run_cli):
        """A --game that only a close spelling links to a game is an error that suggests it."""
        result = run_cli("ask", "-g", "catalist", "tie")
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: no game 'catalist'; did you mean: catalyst; known games: ")

    @pytest.mark.parametrize("args", [("changes", "dune-imperum"), ("new", "-g", "dune-imperum", "-k", "faq"), ("list", "-g", "dune-imperum")])
    def test_game_in_every_command(self, run_cli, args: tuple[str, ...]):
        """Commands that read the corpus itself (a curator's) suggest the game too."""
        result = run_cli(*args)
        assert result.exit_code == 2 and "no game 'dune-imperum'; did you mean: dune-imperium;" in result.stderr, result.stderr

    def test_no_suggestion_when_nothing_is_close(self, run_cli):
        """A value like no game lists the games only."""
        assert run_cli(*TOY, "ask", "-g", "chess", "tie").stderr == "Error: no game 'chess'; known games: lantern-harbor\n"

    def test_ids_in_any_case(self, run_cli):
        """show finds an id typed in capitals."""
        assert run_cli(*TOY, "show", "--json", "LH-SETUP").stdout == run_cli(*TOY, "show", "--json", "lh-setup").stdout

    def test_unknown_id_suggests(self, run_cli):
        """An unknown id, in any case, suggests close ones."""
        assert "did you mean: lh-setup" in run_cli(*TOY, "show", "LH-SETPU").stderr

    def test_meant(self):
        """text.meant: a unique slug beginning, then a name, then close spellings."""
        from rulebot.text import meant

        names = {"dune-imperium": ["Dune: Imperium", "dune"], "dune-uprising": ["Dune: Imperium – Uprising"], "catalyst": ["Catalyst"]}
        assert meant("dune", names) == ["dune-imperium"]  # a name, though two slugs begin with it
        assert meant("dune-u", names) == ["dune-uprising"]
        assert meant("CATALIST", names) == ["catalyst"]
        assert meant("chess", names) == []


def lines_too_wide(text: str, width: int) -> list[str]:
    """Lines wider than `width` that hold more than one word."""
    return [line for line in text.splitlines() if len(line) > width and len(line.split()) > 1]


class TestOutput:
    @pytest.mark.parametrize("question", ["chaumurky tie", "can i trash assassination mission", "zzqx blorf", "tie zzqx blorf qqq"])
    def test_ask_fits_40_columns(self, monkeypatch: pytest.MonkeyPatch, question: str):
        """At 40 columns, nothing ask prints is wider, but unbreakable words."""
        monkeypatch.setenv("COLUMNS", "40")
        result = CliRunner().invoke(cli, ["ask", "--limit", "3", *question.split()])
        assert result.stdout and lines_too_wide(result.stdout, 40) == []

    def test_header_and_source_wrap(self, monkeypatch: pytest.MonkeyPatch):
        """The header and the Source line wrap with a hanging indent, as in `rulebot play`."""
        monkeypatch.setenv("COLUMNS", "40")
        lines = CliRunner().invoke(cli, ["ask", "--limit", "1", "chaumurky", "tie"]).stdout.splitlines()
        assert lines[0] == "Chaumurky  [fine-point · Dune: Imperium" and lines[1].startswith("  · Rise of Ix")
        source = next(n for n, line in enumerate(lines) if line.startswith("  Source: "))
        assert lines[source + 1].startswith("    ")

    def test_quick_path_fits_too(self):
        """The quick path wraps as click's `ask` does."""
        process = rulebot_process("ask", "chaumurky", "tie", env={"COLUMNS": "40"})
        assert process.returncode == 0 and lines_too_wide(process.stdout, 40) == []
        assert process.stdout == CliRunner(env={"COLUMNS": "40"}).invoke(cli, ["ask", "--limit", "3", "chaumurky", "tie"]).stdout

    @pytest.mark.parametrize("entry_id", ["dune-chaumurky", "arcana-setup-places-of-power", "dune-assassination-mission"])
    def test_show_fits_40_columns(self, monkeypatch: pytest.MonkeyPatch, entry_id: str):
        """At 40 columns, nothing show prints is wider, but unbreakable words."""
        monkeypatch.setenv("COLUMNS", "40")
        result = CliRunner().invoke(cli, ["show", entry_id])
        assert result.exit_code == 0, result.output
        assert lines_too_wide(result.stdout, 40) == []

    def test_expansion_without_entries(self, run_cli, minimal_copy: Path):
        """games says an expansion has no entries yet, and gives each its count in JSON."""
        game = minimal_copy / "lantern-harbor" / "game.toml"
        text = game.read_text(encoding="utf-8").replace("[[sources]]", '[[expansions]]\nslug = "storm-season"\nname = "Storm Season"\n\n[[sources]]', 1)
        game.write_text(text, encoding="utf-8")
        args = ("--no-shipped", "--corpus", str(minimal_copy), "games")
        assert " ".join(run_cli(*args).stdout.split()) == (  # (as wrapped to the terminal)
            "lantern-harbor Lantern Harbor – 6 entries; expansions: Deep Tides (deep-tides, 2 entries), "
            "Storm Season (storm-season, no entries yet)"
        )
        expansions = json.loads(run_cli(*args, "--json").stdout)["games"][0]["expansions"]
        assert expansions == [{"slug": "deep-tides", "name": "Deep Tides", "entries": 2}, {"slug": "storm-season", "name": "Storm Season", "entries": 0}]

    def test_changes_and_changed_by(self, run_cli):
        """An entry says what it changes and what changes it, in the same words."""
        assert "  Changes: Winning the game (lh-winning)" in run_cli(*TOY, "show", "lh-tides-winning").stdout
        assert "  Changed by: Winning with Deep Tides (lh-tides-winning)" in run_cli(*TOY, "show", "lh-winning").stdout

    def test_plurals(self, run_cli, minimal_copy: Path):
        """Counts agree with their nouns."""
        assert run_cli("check", str(MINIMAL)).stderr == "OK: 6 entries in 1 game (lantern-harbor 6)\n"
        assert run_cli(*TOY, "changes", "lantern-harbor", "--since", "2024-04-01").stdout.startswith("Lantern Harbor: 1 entry new or revised")
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu").replace("kind: rule", "kind: rul", 1), encoding="utf-8")
        assert run_cli("check", str(minimal_copy)).stderr.endswith("Error: 2 problems found\n")
        assert run_cli("check", str(draft(shutil.copytree(MINIMAL, minimal_copy.parent / "drafted")))).stderr.startswith("Warning: 1 draft entry,")

    def test_no_count_with_a_guessed_plural(self, run_cli):
        """No message says "(s)" or "1 entries"."""
        for args in (("games",), ("check",), ("index",), ("changes", "lantern-harbor")):
            result = run_cli(*TOY, *args)
            assert "(s)" not in result.output and not re.search(r"\b1 (entries|games|problems)\b", result.output)

    def test_site_serve_of_no_site_says_the_build_that_makes_it(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
        """Serving a folder with no site is an error whose hint builds that very folder: followed, the serve works."""
        from rulebot.site import server as site_server

        monkeypatch.chdir(tmp_path)
        result = CliRunner().invoke(cli, ["site", "serve"])
        assert result.exit_code == 2 and "build it first (rulebot site build public)" in result.output, result.output
        built = CliRunner().invoke(cli, ["site", "build", "public"])
        assert built.exit_code == 0, built.output
        site_server.serve(Path("public")).close()

    def test_site_serve_defaults_to_public(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
        """`rulebot site serve` with no folder serves public/, where the README builds the site."""
        from rulebot.site import server as site_server

        served = []

        class Server:
            url = "http://127.0.0.1:1/"

            def wait(self) -> None:
                pass

            def close(self) -> None:
                pass

        def serve(out_dir: Path, port: int = 0) -> Server:
            served.append(Path(out_dir))
            return Server()

        monkeypatch.setattr(site_server, "serve", serve)
        monkeypatch.chdir(tmp_path)
        result = CliRunner().invoke(cli, ["site", "serve"])
        assert result.exit_code == 0 and served == [Path("public")]
        assert result.stdout.startswith("Serving public at ")


class TestEndings:
    """Exit statuses that are a command's own: `config get` of a key not set, `site serve` stopped by Ctrl-C."""

    @pytest.mark.parametrize("key", ["lang", "lantern-harbor.with"])
    def test_config_get_of_a_key_not_set_is_1(self, run_cli, key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """As `git config KEY`: nothing printed, exit 1; once set, its value and 0."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))  # a config file of its own: others' asks read none
        unset = run_cli(*TOY, "config", "get", key)
        assert (unset.exit_code, unset.stdout, unset.stderr) == (1, "", "")
        value = "fr" if key == "lang" else "deep-tides"
        assert run_cli(*TOY, "config", "set", key, value).exit_code == 0
        got = run_cli(*TOY, "config", "get", key)
        assert (got.exit_code, got.stdout) == (0, value + "\n")
        assert run_cli(*TOY, "config", "unset", key).exit_code == 0
        assert run_cli(*TOY, "config", "get", key).exit_code == 1

    def test_config_get_of_a_malformed_key_is_2(self, run_cli):
        """A key that is no setting at all is an error (2), not a key not set."""
        result = run_cli("config", "get", "lantern-harbor.colour")
        assert result.exit_code == 2 and "unknown setting" in result.stderr

    def test_site_serve_ends_on_ctrl_c_with_0(self, tmp_path: Path):
        """A real `rulebot site serve` stopped by Ctrl-C (its normal end) says so and exits 0, as the exit status table says."""
        import signal

        (tmp_path / "index.html").write_text("<!doctype html><title>site</title>\n", encoding="utf-8")
        process = subprocess.Popen(
            [sys.executable, "-m", "rulebot", "site", "serve", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            # as at a terminal: a suite started in the background (`&`) passes Ctrl-C on ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        line = process.stdout.readline()  # serving from now on
        assert line.startswith(f"Serving {tmp_path} at http://127.0.0.1:"), line
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert (process.returncode, err) == (0, "Stopped.\n")
        row = next(line for line in docs_text().splitlines() if line.startswith("| 130 |"))
        assert "`site serve`" in row and "exits 0" in row


class TestHelp:
    """Help where a user looks for it: bare `rulebot`, `rulebot help [COMMAND]`, `rulebot version`, and a hint for `ask` without a question."""

    def test_bare_rulebot_prints_its_help(self, run_cli):
        """Bare `rulebot` prints the help on standard output and exits 0, as `rulebot --help` does."""
        bare, asked = run_cli(), run_cli("--help")
        assert (bare.exit_code, bare.stderr) == (0, "") and bare.stdout == asked.stdout and "Commands:" in bare.stdout

    @pytest.mark.parametrize("options", [("--color", "never"), ("--no-shipped",), ("--no-shipped", "--corpus", str(MINIMAL))])
    def test_options_without_a_command_print_the_help(self, run_cli, options: tuple[str, ...]):
        """The group's options and no command: the help, as bare `rulebot` prints it, never "Missing command"."""
        result = run_cli(*options)
        assert (result.exit_code, result.stderr, result.stdout) == (0, "", run_cli("--help").stdout)

    def test_real_options_without_a_command(self):
        """The same as a process (through the quick path's entry point)."""
        process = rulebot_process("--color", "never")
        assert (process.returncode, process.stderr) == (0, "") and process.stdout.startswith("Usage: rulebot [OPTIONS] COMMAND")

    def test_bare_group_prints_its_help(self, run_cli):
        """So does a command that has commands of its own: `rulebot config`."""
        result = run_cli("config")
        assert (result.exit_code, result.stderr, result.stdout) == (0, "", run_cli("config", "--help").stdout)

    def test_real_bare_rulebot(self):
        """As a process (through the quick path's entry point): the help on stdout, 0."""
        process = rulebot_process()
        assert (process.returncode, process.stderr) == (0, "") and process.stdout.startswith("Usage: rulebot [OPTIONS] COMMAND")

    @pytest.mark.parametrize("command", [(), ("list",), ("config",), ("config", "set"), ("site", "serve")])
    def test_help_command(self, run_cli, command: tuple[str, ...]):
        """`rulebot help [COMMAND]...` prints what `rulebot [COMMAND]... --help` prints."""
        result = run_cli("help", *command)
        assert (result.exit_code, result.stdout) == (0, run_cli(*command, "--help").stdout)

    @pytest.mark.parametrize("command, message", [(("lsit",), "No such command 'lsit'"), (("list", "x"), "has no commands")])
    def test_help_of_no_command_is_a_usage_error(self, run_cli, command: tuple[str, ...], message: str):
        result = run_cli("help", *command)
        assert result.exit_code == 2 and message in result.stderr

    def test_version(self, run_cli):
        """`rulebot version` prints what `rulebot --version` and `-V` print."""
        from rulebot.version import __version__

        printed = {run_cli(*args).stdout for args in (("version",), ("--version",), ("-V",))}
        assert printed == {f"rulebot, version {__version__}\n"}

    def test_ask_without_a_question_hints_at_stdin(self, run_cli):
        """`echo QUESTION | rulebot ask`: a usage error that says `rulebot ask -` reads standard input."""
        result = run_cli(*TOY, "ask", input="ferry gull\n")
        assert result.exit_code == 2
        assert result.stderr.splitlines()[-1] == (
            "Error: Missing argument 'QUESTION...'. Standard input is not a terminal: `rulebot ask -` reads the question from it"
        )

    def test_real_pipe_without_dash(self):
        """As a process: `echo QUESTION | rulebot ask` says how to ask it."""
        process = subprocess.run(
            [sys.executable, "-m", "rulebot", *TOY, "ask"], input="ferry gull\n", capture_output=True, text=True, timeout=60
        )
        assert process.returncode == 2 and "`rulebot ask -` reads the question from it" in process.stderr

    def test_on_a_terminal_without_a_question(self, monkeypatch: pytest.MonkeyPatch):
        """At a terminal, the error says to type the question, or to read it with `-`."""
        from rulebot.cli.answers import ask

        class Terminal:
            def isatty(self) -> bool:
                return True

        monkeypatch.setattr(sys, "stdin", Terminal())

        with pytest.raises(click.MissingParameter) as missing:
            ask.make_context("ask", [])
        assert missing.value.format_message() == (
            "Missing argument 'QUESTION...'. Type the question after ask, or read it from standard input with `rulebot ask -`"
        )
