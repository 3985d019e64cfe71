"""`rulebot play`: the session logic, shell completion, and one run in a real terminal."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete
from conftest import MINIMAL

from rulebot.cli import play
from rulebot.cli.main import cli
from rulebot.cli.output import Style
from rulebot.cli.play import PlaySession, fit, replace_from
from rulebot.index.cache import open_index
from rulebot.search.ranking import Searcher

TOY = ("--no-shipped", "--corpus", str(MINIMAL))


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its play history in a folder of its own."""
    folder = tmp_path / "data"
    monkeypatch.setenv("RULEBOT_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def searcher() -> Iterator[Searcher]:
    """A searcher over the minimal test corpus."""
    with Searcher(open_index([MINIMAL])) as opened:
        yield opened


@pytest.fixture
def session(searcher: Searcher) -> PlaySession:
    """A fresh session over the minimal corpus, 80 columns, no colour."""
    return PlaySession(searcher, width=80)


def ids_shown(text: str) -> list[str]:
    """The ids of the entries shown in full, in order."""
    return re.findall(r"^  id: (\S+)$", text, re.MULTILINE)


class TestAsking:
    def test_answer_in_full_then_short_other_matches(self, session: PlaySession):
        """A question prints the entries that make up the answer in full (as `ask` does), then one line per other match."""
        text = session.handle("winning the game")
        assert ids_shown(text) == ["lh-winning", "lh-tides-winning"]
        assert "Source: Lantern Harbor rulebook (first edition), End of the game" in text
        assert "Other matches:" in text
        assert re.search(r"^  Lantern Keeper \(lh-lantern-keeper\) – fine-point, Lantern Harbor$", text, re.MULTILINE)

    def test_see_also_is_numbered(self, session: PlaySession):
        """The See also of the entry shown is numbered for :see N."""
        assert "  See also: [1] Setup (lh-setup)" in session.handle("winning the game")

    def test_answer_is_remembered(self, session: PlaySession):
        """The entry shown becomes the last entry, with its See also list."""
        session.handle("winning the game")
        assert session.last is not None and session.last["id"] == "lh-winning"
        assert [r["id"] for r in session.see_also] == ["lh-setup"]

    def test_blank_line_prints_nothing(self, session: PlaySession):
        """An empty or blank line does nothing."""
        assert session.handle("") == "" and session.handle("   ") == ""

    def test_question_error_is_returned_not_raised(self, session: PlaySession):
        """A question the searcher refuses comes back as an Error: line."""
        assert session.handle("x" * 5000).startswith("Error: the question is too long")

    def test_nothing_found(self, session: PlaySession):
        """A question nothing matches says so."""
        assert "Nothing in the corpus matches 'zzyzx'." in session.handle("zzyzx")

    def test_output_fits_80_columns(self):
        """Every line of answers and entries from the shipped corpus fits 80 columns."""
        from rulebot.places import shipped_corpus_dir

        with Searcher(open_index([shipped_corpus_dir()])) as shipped:
            session = PlaySession(shipped, width=80)
            questions = ["can i trash assassination mission", "how many points to win", "combien d'actions par tour"]
            texts = [session.handle(q) for q in questions]
            texts += [session.handle(f":show {e['id']}") for e in shipped.entries()]
        for line in "\n".join(texts).splitlines():
            assert len(line) <= 80, line


def test_setup_speaks_the_configured_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`:setup N` in the configured language (as `rulebot setup`), then the session's own lines in English again."""
    from rulebot.places import shipped_corpus_dir

    monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
    (tmp_path / "config.toml").write_text('lang = "fr"\n', encoding="utf-8")
    with Searcher(open_index([shipped_corpus_dir()])) as shipped:
        session = PlaySession(shipped, width=80)
        session.handle(":game molthar")
        assert session.handle(":setup 3").startswith("Die Portale von Molthar : mise en place à 3 joueurs\nNote : ")
        assert session.handle(":setup 3 4").startswith("Usage: :setup N")


class TestGame:
    def test_shows_any_by_default(self, session: PlaySession):
        """:game alone says no game is set."""
        assert session.handle(":game") == "Game: any (found from each question)."

    def test_sets_the_game(self, session: PlaySession):
        """:game SLUG sets the game, shown in the prompt and used by questions."""
        assert session.handle(":game lantern-harbor") == "Game: lantern-harbor (Lantern Harbor)."
        assert session.game == "lantern-harbor" and session.prompt() == "lantern-harbor> "

    def test_unambiguous_beginning_of_a_slug(self, session: PlaySession):
        """:game takes the beginning of a slug when only one game has it."""
        session.handle(":game lantern")
        assert session.game == "lantern-harbor"

    def test_clears_the_game(self, session: PlaySession):
        """:game - clears the game."""
        session.handle(":game lantern-harbor")
        assert session.handle(":game -") == "Game: any (found from each question)."
        assert session.game is None and session.prompt() == "rulebot> "

    def test_unknown_game(self, session: PlaySession):
        """An unknown game is an error listing the known ones, and changes nothing."""
        session.handle(":game lantern-harbor")
        assert session.handle(":game chess") == "Error: no game 'chess'; known games: lantern-harbor"
        assert session.game == "lantern-harbor"


class TestWith:
    def test_shows_none_by_default(self, session: PlaySession):
        """:with alone says no expansion is set."""
        assert session.handle(":with") == "Expansions: none set (every entry counts)."

    def test_adds_an_expansion(self, session: PlaySession):
        """:with EXP puts an expansion in play, for the game it belongs to."""
        assert session.handle(":with deep-tides") == "Expansions: Lantern Harbor with Deep Tides."
        assert session.expansions == {"lantern-harbor": {"deep-tides"}}

    def test_expansion_in_play_orders_answers(self, session: PlaySession):
        """With an expansion in play, the entry that changes a rule comes first."""
        session.handle(":with deep-tides")
        assert ids_shown(session.handle("winning the game"))[0] == "lh-tides-winning"

    def test_base_only(self, session: PlaySession):
        """:with base, with a game set, leaves every expansion out."""
        session.handle(":game lantern-harbor")
        assert session.handle(":with base") == "Expansions: Lantern Harbor with the base game only."
        text = session.handle("winning the game")
        assert ids_shown(text) == ["lh-winning"] and "(lh-tides-winning) – faq" not in text

    def test_repeatable(self, session: PlaySession):
        """:with adds to what is in play rather than replacing it."""
        session.handle(":game lantern-harbor")
        session.handle(":with base")
        session.handle(":with deep-tides")
        assert session.expansions == {"lantern-harbor": {"deep-tides"}}

    def test_clears(self, session: PlaySession):
        """:with - clears the expansions in play."""
        session.handle(":with deep-tides")
        assert session.handle(":with -") == "Expansions: none set (every entry counts)."
        assert session.expansions == {}

    def test_unknown_expansion(self, session: PlaySession):
        """An unknown expansion is an error listing the known ones."""
        assert session.handle(":with atlantis").startswith("Error: no expansion 'atlantis'; known expansions: deep-tides (lantern-harbor)")

    def test_errors_name_the_session_commands(self, session: PlaySession):
        """Errors speak of :game, not of the command line's --game."""
        assert session.handle(":with base") == "Error: :with base needs :game, to say which game is played without expansions"


class TestShowAndSee:
    def test_show(self, session: PlaySession):
        """:show ID prints the entry in full, with what refers to it."""
        text = session.handle(":show lh-setup")
        assert ids_shown(text) == ["lh-setup"]
        assert "  Referenced by: Winning the game (lh-winning)" in text
        assert session.last is not None and session.last["id"] == "lh-setup"

    def test_show_bad_id(self, session: PlaySession):
        """:show of an unknown id is an error with close ids."""
        assert session.handle(":show lh-setpu").startswith("Error: no entry 'lh-setpu'; did you mean: lh-setup")

    def test_show_needs_an_id(self, session: PlaySession):
        """:show without an id says how to use it."""
        assert session.handle(":show") == "Usage: :show ID (Tab completes ids)"

    def test_see_follows_the_nth_see_also(self, session: PlaySession):
        """:see 1 shows the first See also of the last entry, which becomes the last entry."""
        session.handle("winning the game")
        assert ids_shown(session.handle(":see 1")) == ["lh-setup"]
        assert ids_shown(session.handle(":see 1")) == ["lh-winning"]  # Setup's own See also

    def test_see_out_of_range(self, session: PlaySession):
        """:see N beyond the list says which numbers exist."""
        session.handle("winning the game")
        assert session.handle(":see 2") == "Usage: :see N, N from 1 to 1: [1] Setup"
        assert session.handle(":see x") == "Usage: :see N, N from 1 to 1: [1] Setup"

    def test_see_before_anything_shown(self, session: PlaySession):
        """:see before any entry was shown says what to do."""
        assert session.handle(":see 1") == "Nothing shown yet: ask a question or :show ID first."

    def test_see_without_see_also(self, session: PlaySession):
        """:see on an entry without See also says so."""
        session.handle(":show lh-ferry-gull")
        assert session.handle(":see 1") == "Ferry Gull (lh-ferry-gull) has no See also."


class TestCommands:
    def test_help_lists_every_command(self, session: PlaySession):
        """:help names every command."""
        text = session.handle(":help")
        for command in play.COMMANDS:
            assert f"\n  {command}" in text

    def test_the_commands_help_lists_every_command(self, run_cli):
        """`rulebot play --help` names every command of the session too, with its arguments."""
        shown = run_cli("play", "--help").stdout
        for command, (arguments, _what) in play.COMMANDS.items():
            assert f"{command} {arguments}".rstrip() in shown, command

    def test_quit(self, session: PlaySession):
        """:quit ends the session and prints nothing."""
        assert session.handle(":quit") == "" and session.done

    def test_unambiguous_abbreviation(self, session: PlaySession):
        """A command can be shortened while it stays unambiguous (:q)."""
        session.handle(":q")
        assert session.done

    def test_ambiguous_abbreviation(self, session: PlaySession):
        """An ambiguous abbreviation names the commands it could be."""
        assert session.handle(":s 1") == ":s is ambiguous: :setup, :show, :see."

    def test_unknown_command(self, session: PlaySession):
        """An unknown command points to :help."""
        assert session.handle(":frobnicate") == "Unknown command :frobnicate: :help lists the commands."
        assert not session.done


class TestCompletion:
    def test_commands_on_an_empty_line(self, session: PlaySession):
        """Tab on an empty line offers the commands."""
        assert session.completions("") == list(play.COMMANDS)

    def test_command_names(self, session: PlaySession):
        """A command's beginning completes to the command."""
        assert session.completions(":sh") == [":show"]
        assert sorted(session.completions(":s")) == [":see", ":setup", ":show"]

    def test_entry_ids(self, session: PlaySession):
        """:show completes entry ids, by beginning, else by a part of the id or title."""
        assert session.completions(":show lh-t") == ["lh-tides-winning", "lh-tides-whirlpool"]
        assert session.completions(":show whirl") == ["lh-tides-whirlpool"]

    def test_titles_in_questions(self, session: PlaySession):
        """The last words of a question complete to a title, replacing just those words."""
        prefix = "does the ferry g"
        assert session.completions(prefix) == ["Ferry Gull"]
        assert replace_from(prefix, "Ferry Gull") == len("does the ")

    def test_several_words_of_a_title(self, session: PlaySession):
        """A title of several words completes from its first word."""
        prefix = "when winning the g"
        assert session.completions(prefix) == ["Winning the game"]
        assert replace_from(prefix, "Winning the game") == len("when ")

    def test_aliases_and_accents(self, session: PlaySession):
        """Card names include aliases, French ones too, matched without accents."""
        assert session.completions("mouette") == ["Mouette du Bac"]
        assert session.completions("egal") == ["égalité"]

    def test_titles_of_the_game_in_play_only(self, session: PlaySession):
        """With a game set, only its names are offered."""
        session.game = "other-game"
        assert session.completions("ferry") == []

    def test_game_slugs_and_expansions(self, session: PlaySession):
        """:game completes slugs, :with expansion slugs (and base once a game is set)."""
        assert session.completions(":game l") == ["lantern-harbor"]
        assert session.completions(":with ") == ["deep-tides", "-"]
        session.handle(":game lantern-harbor")
        assert session.completions(":with b") == ["base"]

    def test_see_numbers(self, session: PlaySession):
        """:see completes the numbers of the last entry's See also."""
        session.handle("winning the game")
        assert session.completions(":see ") == ["1"]

    def test_prompt_toolkit_completer(self, session: PlaySession):
        """The prompt's completer replaces the right span and describes each candidate."""
        from prompt_toolkit.completion import CompleteEvent
        from prompt_toolkit.document import Document

        found = list(play.make_completer(session).get_completions(Document(":show lh-se"), CompleteEvent()))
        assert [(c.text, c.start_position, c.display_meta_text) for c in found] == [("lh-setup", -5, "Setup")]


class TestFit:
    def test_wraps_with_a_hanging_indent(self):
        """A long line is wrapped at word boundaries, continuation lines indented."""
        assert fit(["  " + " ".join(["word"] * 15)], 30) == [
            "  word word word word word",
            "    word word word word word",
            "    word word word word word",
        ]

    def test_styles_take_no_room(self):
        """ANSI styles do not count towards the width."""
        styled = Style(True)("x" * 30, "\x1b[1m")
        assert fit([styled], 30) == [styled]


class TestRun:
    def keys(self, searcher: Searcher, typed: str, history: Path) -> list[str]:
        """Run a session in prompt_toolkit, fed `typed` as keys; returns what it printed."""
        from prompt_toolkit.application import create_app_session
        from prompt_toolkit.input import create_pipe_input
        from prompt_toolkit.output import DummyOutput

        printed: list[str] = []
        with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
            keys.send_text(typed)
            play.run(PlaySession(searcher, width=80), history, echo=printed.append)
        return printed

    def test_history_is_kept_across_sessions(self, searcher: Searcher, data_dir: Path):
        """A question typed in one session comes back with Up in the next one."""
        history = play.history_path()
        assert history.parent == data_dir
        first = self.keys(searcher, "ferry gull\r\x04", history)  # Ctrl-D leaves
        assert ids_shown("\n".join(first)) == ["lh-ferry-gull"]
        assert "+ferry gull" in history.read_text(encoding="utf-8")
        again = self.keys(searcher, "\x1b[A\r:quit\r", history)  # Up, Enter
        assert ids_shown("\n".join(again)) == ["lh-ferry-gull"]

    def test_history_line_is_whole_or_not_kept(self, searcher: Searcher, data_dir: Path, monkeypatch: pytest.MonkeyPatch):
        """A line the disk cannot take (full) leaves the history as it was, nothing beside it, and the session goes on."""
        import stat

        history = play.history_path()
        self.keys(searcher, "ferry gull\r\x04", history)
        before = history.read_bytes()
        real_write = os.write

        def full(descriptor: int, data: bytes) -> int:
            if stat.S_ISREG(os.fstat(descriptor).st_mode):  # a file; the keys typed go through a pipe
                raise OSError(28, "No space left on device")
            return real_write(descriptor, data)

        with monkeypatch.context() as disk:
            disk.setattr(os, "write", full)
            printed = self.keys(searcher, ":show lh-setup\r\x04", history)
        assert ids_shown("\n".join(printed)) == ["lh-setup"]
        assert history.read_bytes() == before
        assert [p.name for p in history.parent.iterdir() if p.name.startswith(".")] == []

    def test_a_line_is_appended_not_the_file_rewritten(self, tmp_path: Path):
        """Each question is added at the end of the same file (its inode kept), not the whole file written anew."""
        from rulebot.cli.history import QuietFileHistory

        path = tmp_path / "play-history"
        QuietFileHistory(str(path)).store_string("ferry gull")
        inode = path.stat().st_ino
        QuietFileHistory(str(path)).store_string("tide\nturns")
        assert path.stat().st_ino == inode
        assert list(QuietFileHistory(str(path)).load_history_strings()) == ["tide\nturns", "ferry gull"]

    def test_a_byte_that_is_not_utf8_never_stops_the_history(self, tmp_path: Path):
        """A history with a byte that is not UTF-8 still takes new questions, and its old ones still come back."""
        from rulebot.cli.history import QuietFileHistory

        path = tmp_path / "play-history"
        path.write_bytes(b"\n# 2024-01-01\n+caf\xe9 gull\n")
        QuietFileHistory(str(path)).store_string("ferry gull")
        assert list(QuietFileHistory(str(path)).load_history_strings()) == ["ferry gull", "caf\ufffd gull"]

    def test_the_history_is_cut_to_its_last_lines(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Past MAX_LINES lines, the history keeps its last KEEP_LINES lines or fewer, whole entries, the newest."""
        from rulebot.cli import history

        monkeypatch.setattr(history, "MAX_LINES", 30)
        monkeypatch.setattr(history, "KEEP_LINES", 10)
        path = tmp_path / "play-history"
        for n in range(40):
            history.QuietFileHistory(str(path)).store_string(f"question {n}\nits second line")
            assert path.read_bytes().count(b"\n") <= 30
        kept = list(history.QuietFileHistory(str(path)).load_history_strings())
        assert kept[0] == "question 39\nits second line" and 2 <= len(kept) <= 10
        assert all(k.endswith("\nits second line") for k in kept)
        assert [p.name for p in tmp_path.iterdir()] == ["play-history"]

    def test_ctrl_c_cancels_the_line(self, searcher: Searcher, data_dir: Path):
        """Ctrl-C drops the line being typed and prompts again."""
        printed = self.keys(searcher, "ferry\x03:show lh-setup\r\x04", play.history_path())
        assert ids_shown("\n".join(printed)) == ["lh-setup"]

    def test_unwritable_history_folder(self, searcher: Searcher, tmp_path: Path):
        """When the history cannot be kept, the session warns and works anyway."""
        blocker = tmp_path / "file"
        blocker.write_text("", encoding="utf-8")
        printed = self.keys(searcher, ":show lh-setup\r\x04", blocker / "history")
        assert printed[0].startswith("Warning: cannot keep the history in")
        assert ids_shown("\n".join(printed)) == ["lh-setup"]


class TestCommand:
    def test_piped_lines_are_answered(self, run_cli):
        """Lines piped into `rulebot play` are answered in turn, up to :quit."""
        result = run_cli(*TOY, "play", input="ferry gull\n:game\n:quit\nsetup\n")
        assert result.exit_code == 0
        assert ids_shown(result.output) == ["lh-ferry-gull"]
        assert "Game: any (found from each question)." in result.output

    def test_options_set_the_state(self, run_cli):
        """--game and --with start the session with them."""
        result = run_cli(*TOY, "play", "--game", "lantern-harbor", "--with", "deep-tides", input=":game\n:with\n")
        assert "Game: lantern-harbor (Lantern Harbor).\n\nExpansions: Lantern Harbor with Deep Tides.\n" in result.output

    def test_configured_expansions_are_the_default(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """The expansions of `rulebot config` are in play from the start."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path / "config"))
        run_cli(*TOY, "config", "set", "lantern-harbor.with", "deep-tides")
        result = run_cli(*TOY, "play", input=":with\n")
        assert result.output == "Expansions: Lantern Harbor with Deep Tides.\n"

    @pytest.mark.parametrize(
        "options, question",
        [
            (("--game", "res-arcana"), "who wins a tie"),
            ((), "who wins a tie"),
            (("--game", "res-arcana"), "combien de monuments à 4 joueurs"),
            ((), "combien d'actions par tour"),
            (("--game", "res-arcana", "--with", "perlae-imperii"), "how many monuments with 3 players"),
            (("--with", "perlae-imperii"), "chaumurky"),
            (("--game", "dune-imperium", "--with", "rise-of-ix"), "can i trash assassination mission"),
            ((), "how many places of power with 9 players"),
            (("--game", "catalyst"), "is there a solo mode"),
        ],
    )
    def test_play_prints_the_answer_ask_prints(self, run_cli, options, question):
        """`printf 'who wins a tie\n' | rulebot play --game res-arcana`: the whole answer is the one `ask` prints
        (English, French, several games, expansions), but for the numbers of the first entry's See also."""
        asked = run_cli("ask", *options, question).output
        asked = "\n".join(line for line in asked.splitlines() if not line.startswith("Building")).strip()
        played = run_cli("play", *options, input=question + "\n").output
        played = "\n".join(line for line in played.splitlines() if not line.startswith("Building")).strip()
        assert re.sub(r"\[\d+\] ", "", played.replace("\n", " ")).split() == asked.replace("\n", " ").split()

    @pytest.mark.parametrize("leave", ["q", "quit", "exit", " QUIT ", ":quit", ":q"])
    def test_leave_words(self, run_cli, leave):
        """`q`, `quit` and `exit` alone on a line leave as `:quit` does: the lines after are not read."""
        result = run_cli(*TOY, "play", input=f"{leave}\nferry gull\n")
        assert result.exit_code == 0 and result.output == ""

    def test_play_answers_as_ask_does(self, run_cli):
        """With the same game and expansions, `play` opens a question for a player count with the lines `ask`
        opens it with ("For 3 players: ..."): one answer, whatever the front end."""
        question = "how many monuments with 3 players"
        options = ("--game", "res-arcana", "--with", "perlae-imperii")
        asked = [line for line in run_cli("ask", *options, question).output.splitlines() if not line.startswith("Building")]
        lead = asked[: asked.index("")] if "" in asked else asked
        assert lead and lead[0].startswith("For 3 players")
        played = run_cli("play", *options, input=question + "\n").output.splitlines()
        played = [line for line in played if not line.startswith("Building")]
        assert played[: len(lead)] == lead

    def test_unknown_game_option(self, run_cli):
        """An unknown --game is exit 2 before any prompt."""
        result = run_cli(*TOY, "play", "--game", "chess")
        assert result.exit_code == 2 and "Error: no game 'chess'" in result.output

    def test_other_commands_never_load_prompt_toolkit(self):
        """`ask` answers without importing prompt_toolkit."""
        code = (
            "import sys; from rulebot.cli.main import cli; "
            f"cli.main({[*TOY, 'ask', 'ferry gull']!r}, standalone_mode=False); "
            "print(sorted(m for m in sys.modules if m.startswith('prompt_toolkit')))"
        )
        process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
        assert process.returncode == 0, process.stderr
        assert process.stdout.splitlines()[-1] == "[]"


def complete(args: list[str], incomplete: str) -> list[tuple[str, str | None]]:
    """(value, help) of click's completions for `rulebot ARGS INCOMPLETE`."""
    completer = ShellComplete(cli, {}, "rulebot", "_RULEBOT_COMPLETE")
    return [(item.value, item.help) for item in completer.get_completions(args, incomplete)]


class TestShellCompletion:
    def test_show_completes_ids(self):
        """`rulebot show <Tab>` offers entry ids, with titles as help."""
        assert complete([*TOY, "show"], "lh-t") == [
            ("lh-tides-winning", "Winning with Deep Tides"),
            ("lh-tides-whirlpool", "Whirlpool"),
        ]

    def test_show_finds_ids_by_a_part(self):
        """`rulebot show gull<Tab>` finds the id whose title contains it."""
        assert complete([*TOY, "show"], "gull") == [("lh-ferry-gull", "Ferry Gull")]

    @pytest.mark.parametrize("command", ["ask", "list", "play"])
    def test_game_completes_slugs(self, command: str):
        """`--game <Tab>` offers game slugs on ask, list and play."""
        assert complete([*TOY, command, "--game"], "") == [("lantern-harbor", "Lantern Harbor")]

    @pytest.mark.parametrize("args, expected", [([], "ask"), (["config"], "get"), (["site"], "build")])
    def test_commands_complete(self, args: list[str], expected: str):
        """`rulebot <Tab>` and `rulebot config <Tab>` offer the commands (a group given no command prints its help
        when run, never when completed)."""
        assert expected in [value for value, _ in complete(args, "")]

    def test_corpus_after_the_command(self):
        """`rulebot show --no-shipped --corpus DIR <Tab>` completes from the corpus named after the command."""
        assert complete(["show", *TOY], "lh-t") == complete([*TOY, "show"], "lh-t") != []

    @pytest.mark.parametrize(("command", "option"), [("ask", "--with"), ("play", "--with"), ("list", "--expansion")])
    def test_with_completes_expansions(self, command: str, option: str):
        """`--with <Tab>` (and list's `--expansion <Tab>`) offers expansion slugs, and base once --game is given."""
        assert complete([*TOY, command, option], "") == [("deep-tides", "Deep Tides (lantern-harbor)")]
        assert [v for v, _ in complete([*TOY, command, "--game", "lantern-harbor", option], "")] == ["deep-tides", "base"]

    def test_with_completes_the_games_expansions_after_setup_game(self):
        """`setup GAME --with <Tab>` offers that game's expansions only, as `--game GAME --with` does, by any name
        the game is given."""
        for args in (["setup", "res-arcana", "--with"], ["ask", "--game", "Res Arcana", "--with"]):
            assert [v for v, _ in complete(args, "")] == ["lux-et-tenebrae", "perlae-imperii", "base"], args
        # setup's game of several words, a player count after it
        assert [v for v, _ in complete(["setup", "res", "arcana", "3", "--with"], "")] == ["lux-et-tenebrae", "perlae-imperii", "base"]
        # ask's first word is its question's, never a game: every game's expansions, and no `base`
        asked = [v for v, _ in complete(["ask", "res", "arcana", "rules", "--with"], "")]
        assert {"lux-et-tenebrae", "rise-of-ix"} <= set(asked) and "base" not in asked

    def test_setup_completes_the_game_then_its_player_counts(self):
        """`setup <Tab>` offers games; once the words name one, its player counts (never games again)."""
        assert [v for v, _ in complete(["setup"], "res")] == ["res-arcana"]
        assert [v for v, _ in complete(["setup", "res", "arcana"], "")] == [v for v, _ in complete(["setup", "res-arcana"], "")] == ["2", "3", "4"]
        assert complete(["setup", "catalyst", "3"], "") == []  # (a count given: nothing follows it)

    def test_broken_corpus_completes_nothing(self, tmp_path: Path):
        """A corpus that cannot be read gives no completion, and no error."""
        assert complete(["--no-shipped", "--corpus", str(tmp_path / "missing"), "show"], "") == []

    def test_a_mistyped_option_does_not_stop_completion(self):
        """`rulebot ask tie --jsn -<Tab>` still offers ask's options: completing reads the line forgivingly."""
        offered = [value for value, _ in complete([*TOY, "ask", "tie", "--jsn"], "--")]
        assert "--json" in offered and "--game" in offered

    def test_bash_in_a_real_process(self):
        """The installed program answers bash's completion protocol."""
        env = dict(os.environ, _RULEBOT_COMPLETE="bash_complete", COMP_WORDS=shlex.join(["rulebot", *TOY, "show", "lh-se"]), COMP_CWORD="5")
        process = subprocess.run([sys.executable, "-m", "rulebot"], capture_output=True, text=True, env=env, timeout=60, check=False)
        assert (process.returncode, process.stdout, process.stderr) == (0, "plain,lh-setup\n", "")

    def test_zsh_in_a_real_process(self):
        """zsh gets the value and its description."""
        words = ["rulebot", *TOY, "ask", "--game", ""]
        env = dict(os.environ, _RULEBOT_COMPLETE="zsh_complete", COMP_WORDS=" ".join(words), COMP_CWORD="6")
        process = subprocess.run([sys.executable, "-m", "rulebot"], capture_output=True, text=True, env=env, timeout=60, check=False)
        assert (process.returncode, process.stdout, process.stderr) == (0, "plain\nlantern-harbor\nLantern Harbor\n", "")

    @pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
    def test_source_script(self, shell: str):
        """`_RULEBOT_COMPLETE=SHELL_source rulebot` prints the script the README tells users to install."""
        env = dict(os.environ, _RULEBOT_COMPLETE=f"{shell}_source")
        process = subprocess.run([sys.executable, "-m", "rulebot"], capture_output=True, text=True, env=env, timeout=60, check=False)
        assert process.returncode == 0 and "_RULEBOT_COMPLETE" in process.stdout


class Tmux:
    """A private tmux server holding one 80x40 terminal."""

    def __init__(self, socket: str):
        self.socket = socket

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20, check=check)

    def screen(self) -> str:
        """The terminal's text, wrapped lines joined (so a too-long line shows as one)."""
        return self("capture-pane", "-p", "-J", "-t", "play").stdout

    def wait_for(self, ready: Callable[[str], bool], what: str, timeout: float = 60) -> str:
        """Poll the screen until `ready(screen)`; fail with the screen after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; the terminal shows:\n{screen}")
            time.sleep(0.05)

    def alive(self) -> bool:
        return self("has-session", "-t", "play", check=False).returncode == 0


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    """A private tmux server, killed afterwards; skipped without tmux unless RULEBOT_REQUIRE_TMUX is set."""
    if shutil.which("tmux") is None:
        if os.environ.get("RULEBOT_REQUIRE_TMUX"):
            pytest.fail("tmux is not installed and RULEBOT_REQUIRE_TMUX is set")
        pytest.skip("tmux is not installed (apt-get install tmux); the terminal test needs it")
    server = Tmux(f"rulebot-test-{os.getpid()}")
    yield server
    server("kill-server", check=False)


def test_play_in_a_real_terminal(tmux: Tmux, data_dir: Path):
    """In an 80x40 terminal: two questions (one finished with Tab), :see 1, :quit; output fits, history kept."""
    env = {k: os.environ[k] for k in ("RULEBOT_CACHE_DIR", "RULEBOT_CONFIG_DIR", "RULEBOT_DATA_DIR", "NO_COLOR", "PATH")}
    command = shlex.join(["env", *(f"{k}={v}" for k, v in env.items()), sys.executable, "-m", "rulebot", *TOY, "play"])
    tmux("new-session", "-d", "-x", "80", "-y", "40", "-s", "play", command)

    def prompts(n: int) -> Callable[[str], bool]:
        return lambda screen: screen.count("rulebot>") >= n  # not "rulebot> ": a bare prompt loses its space

    tmux.wait_for(prompts(1), "the first prompt")
    tmux("send-keys", "-t", "play", "-l", "the ferry g")
    tmux("send-keys", "-t", "play", "Tab")
    tmux.wait_for(lambda s: "rulebot> the Ferry Gull" in s, "Tab to complete the card name")
    tmux("send-keys", "-t", "play", "Enter")
    tmux.wait_for(lambda s: "id: lh-ferry-gull" in s and prompts(2)(s), "the first answer")

    tmux("send-keys", "-t", "play", "-l", "winning the game")
    tmux("send-keys", "-t", "play", "Enter")
    tmux.wait_for(lambda s: "See also: [1] Setup (lh-setup)" in s and prompts(3)(s), "the second answer")

    tmux("send-keys", "-t", "play", "-l", ":see 1")
    tmux("send-keys", "-t", "play", "Enter")
    screen = tmux.wait_for(lambda s: "id: lh-setup" in s and prompts(4)(s), "the See also")
    assert "Setup  [setup · Lantern Harbor]" in screen
    assert all(len(line.rstrip()) <= 80 for line in screen.splitlines()), screen

    tmux("send-keys", "-t", "play", "-l", ":quit")
    tmux("send-keys", "-t", "play", "Enter")
    deadline = time.monotonic() + 30
    while tmux.alive():
        assert time.monotonic() < deadline, "rulebot play did not leave on :quit"
        time.sleep(0.05)
    history = (data_dir / "play-history").read_text(encoding="utf-8")
    assert "+the Ferry Gull" in history and "+winning the game" in history and "+:see 1" in history


def test_a_game_is_set_by_its_name_or_alias(run_cli):
    """`:game` takes a game as --game does: its slug in any case, its name, an alias, the start of its slug."""
    from conftest import MINIMAL

    for name in ("Harbor Game", "LANTERN", "lantern harbor"):
        result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "play", input=f":game {name}\n:game\n")
        assert result.exit_code == 0, result.output
        assert "no game" not in result.output and result.output.count("Lantern Harbor") >= 2, (name, result.output)


def test_a_piped_line_that_is_an_error_is_told_on_standard_error(run_cli):
    """Lines piped to play: answers on standard output, an error on standard error, and play exits 2 when a line was
    one, as a command that fails does (0 when none was)."""
    from conftest import MINIMAL

    failed = run_cli("--no-shipped", "--corpus", str(MINIMAL), "play", input=":show nope\nferry gull\n")
    assert failed.exit_code == 2
    assert "\nError: no entry 'nope'" in "\n" + failed.stderr and "Error" not in failed.stdout
    assert "Ferry Gull" in failed.stdout
    fine = run_cli("--no-shipped", "--corpus", str(MINIMAL), "play", input="ferry gull\n")
    assert fine.exit_code == 0 and fine.stderr == ""


@pytest.mark.parametrize("line", [":frobnicate", ":see 9", ":show", ":setup 3"])
def test_a_piped_command_misused_is_an_error(run_cli, line: str):
    """An unknown command, or one not given what it needs, is told on standard error and makes play exit 2, as an
    unknown id does: a script learns that a line did nothing."""
    from conftest import MINIMAL

    failed = run_cli("--no-shipped", "--corpus", str(MINIMAL), "play", input=f"ferry gull\n{line}\n")
    assert failed.exit_code == 2, failed.output
    assert failed.stderr.strip() and "Ferry Gull" in failed.stdout and failed.stderr.strip() not in failed.stdout
