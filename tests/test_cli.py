"""Every command, through click's runner and as a real process."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import MINIMAL, docs_text, rulebot_process

from rulebot.cli.main import cli

TOY = ("--no-shipped", "--corpus", str(MINIMAL))


class TestAsk:
    def test_human_answer_cites_its_source(self, run_cli):
        """ask prints the ruling, its citation, See also and the modifying entry."""
        result = run_cli(*TOY, "ask", "winning", "the", "game")
        assert result.exit_code == 0
        assert "Winning the game" in result.output
        assert "Source: Lantern Harbor rulebook (first edition), End of the game" in result.output
        assert "See also: Setup (lh-setup)" in result.output
        assert "Changed by: Winning with Deep Tides (lh-tides-winning)" in result.output

    def test_json_shape(self, run_cli):
        """ask --json prints exactly one object with the documented result fields."""
        result = run_cli(*TOY, "ask", "--json", "--limit", "2", "ferry gull")
        data = json.loads(result.output)
        assert data["query"] == "ferry gull"
        assert len(data["results"]) == 2
        top = data["results"][0]
        for key in ("id", "game", "kind", "title", "source", "score", "text", "see_also"):
            assert key in top
        assert top["source"]["document"] == "rulebook" and top["source"]["section"] == "Cards > Ferry Gull"
        assert "terminal" not in top

    def test_game_option(self, run_cli):
        """--game restricts to a game; results carry it."""
        data = json.loads(run_cli(*TOY, "ask", "--json", "--game", "lantern-harbor", "tie").stdout)
        assert {r["game"] for r in data["results"]} == {"lantern-harbor"}

    @pytest.mark.parametrize("args", [
        ("ask", "--json", "--game", "{name}", "ferry gull"), ("list", "--json", "-g", "{name}"), ("setup", "{name}", "--json"),
    ])
    @pytest.mark.parametrize("name", ["Lantern-Harbor", "lantern harbor", "lantern", "Harbor Game"])
    def test_a_game_is_given_by_its_slug_name_or_alias(self, run_cli, args: tuple[str, ...], name: str):
        """A game is taken by its slug in any case, its name, or the start of its slug, as a question names it: the
        command answers as with the slug."""
        by_slug = run_cli(*TOY, *(a.format(name="lantern-harbor") for a in args))
        given = run_cli(*TOY, *(a.format(name=name) for a in args))
        assert given.exit_code == by_slug.exit_code and given.stdout == by_slug.stdout, given.output

    def test_a_game_the_question_names_comes_before_the_one_an_expansion_implies(self, run_cli):
        """--with an expansion and no --game asks of the expansion's game first, unless the question names another."""
        named = json.loads(run_cli("ask", "--json", "-w", "rise-of-ix", "catalyst coin limit").stdout)
        assert named["results"][0]["game"] == "catalyst" and named["instead_of"] is None
        implied = json.loads(run_cli("ask", "--json", "-w", "rise-of-ix", "coin limit").stdout)
        assert implied["results"][0]["game"] == "dune-imperium"

    def test_unknown_game_lists_known(self, run_cli):
        """An unknown game is exit 2 with the known games."""
        result = run_cli(*TOY, "ask", "--game", "chess", "tie")
        assert result.exit_code == 2
        assert "Error: no game 'chess'; known games: lantern-harbor" in result.output

    def test_nothing_in_the_game_searched_says_which(self, run_cli):
        """A question searched in one game (named in it, or given) that finds nothing there says which game, not
        that the corpus has nothing: another game's entry of that name is among the close titles."""
        result = run_cli("ask", "catalyst chaumurky")
        assert result.exit_code == 1
        assert result.stdout.splitlines()[:2] == ["Nothing in Catalyst matches 'catalyst chaumurky'.", "Close titles: Chaumurky (dune-chaumurky)"]
        assert json.loads(run_cli("ask", "--json", "catalyst chaumurky").stdout)["game"] == "catalyst"
        assert run_cli("ask", "zzqxw").stdout.startswith("Nothing in the corpus matches 'zzqxw'.")

    def test_empty_question_is_usage_error(self, run_cli):
        """An empty question is a usage error (exit 2)."""
        result = run_cli(*TOY, "ask", "  ")
        assert result.exit_code == 2
        assert "Error: the question is empty" in result.output

    def test_missing_question_is_usage_error(self, run_cli):
        """No question at all is a usage error."""
        assert run_cli(*TOY, "ask").exit_code == 2

    def test_unknown_option_is_usage_error(self, run_cli):
        """An unknown option is a usage error."""
        assert run_cli(*TOY, "ask", "--frobnicate", "x").exit_code == 2

    def test_nothing_found_suggests(self, run_cli):
        """Nothing clear found: say so and suggest a spelling (exit 3: the closest entries are shown)."""
        result = run_cli(*TOY, "ask", "zzyzx", "whirlpol")
        assert result.exit_code == 3
        assert "No entry answers this clearly" in result.output and "Did you mean: zzyzx whirlpool?\n" in result.output
        asked = run_cli(*TOY, "ask", "Zzyzx whirlpol?")  # the question as typed, its own question mark ending it
        assert "Did you mean: Zzyzx whirlpool?\n" in asked.output
        french = run_cli(*TOY, "ask", "--lang", "fr", "zzyzx", "whirlpol")  # (the French way: a space before it)
        assert "Vouliez-vous dire : zzyzx whirlpool ?\n" in french.output, french.output

    def test_huge_question_is_refused(self, run_cli):
        """A 100 KB question is refused with a message, exit 2."""
        result = run_cli(*TOY, "ask", "x" * 100_000)
        assert result.exit_code == 2
        assert "too long" in result.output


class TestOtherCommands:
    def test_show(self, run_cli):
        """show prints one entry with what refers to it."""
        result = run_cli(*TOY, "show", "lh-setup")
        assert result.exit_code == 0
        assert "Referenced by: Winning the game (lh-winning)" in result.output

    def test_show_json(self, run_cli):
        """show --json prints the same entry object as ask."""
        data = json.loads(run_cli(*TOY, "show", "--json", "lh-ferry-gull").stdout)
        assert data["id"] == "lh-ferry-gull" and data["aliases"] == [{"text": "Mouette du Bac", "lang": "fr"}]

    def test_show_unknown(self, run_cli):
        """An unknown id is exit 2 with close ids."""
        result = run_cli(*TOY, "show", "lh-setpu")
        assert result.exit_code == 2
        assert "did you mean: lh-setup" in result.output

    def test_show_an_id_without_its_prefix_or_cut_short(self, run_cli):
        """An id typed without its game's prefix, or cut short, is offered whole first."""
        result = run_cli(*TOY, "show", "gull")
        assert result.exit_code == 2
        assert "Error: no entry 'gull'; did you mean: lh-ferry-gull" in result.stderr
        assert "Error: no entry 'lh-fer'; did you mean: lh-ferry-gull" in run_cli(*TOY, "show", "lh-fer").stderr

    def test_games(self, run_cli, monkeypatch: pytest.MonkeyPatch):
        """games lists each game with its expansions, in lines as wide as the terminal (COLUMNS) at most."""
        monkeypatch.setenv("COLUMNS", "200")
        result = run_cli(*TOY, "games")
        assert "lantern-harbor  Lantern Harbor – 6 entries; expansions: Deep Tides (deep-tides, 2 entries)\n" in result.stdout
        monkeypatch.setenv("COLUMNS", "40")
        narrow = run_cli(*TOY, "games").stdout
        assert max(map(len, narrow.splitlines())) <= 40 and " ".join(narrow.split()) == " ".join(result.stdout.split())

    def test_games_names_in_one_column(self, run_cli):
        """The games' names start in one column, after the longest slug."""
        lines = [line for line in run_cli("games").stdout.splitlines() if not line.startswith(" ")]  # (a game's first line)
        starts = {re.search(r"\S  +\S", line).end() - 1 for line in lines}  # (where the name starts)
        assert len(lines) == 4 and len(starts) == 1, lines

    def test_games_json(self, run_cli):
        """games --json lists the games."""
        data = json.loads(run_cli(*TOY, "games", "--json").stdout)
        assert data["games"][0]["slug"] == "lantern-harbor"

    def test_list_filters(self, run_cli):
        """list filters by kind and expansion."""
        result = run_cli(*TOY, "list", "--expansion", "deep-tides")
        assert [line.split()[0] for line in result.stdout.splitlines()] == ["lh-tides-winning", "lh-tides-whirlpool"]

    def test_list_json(self, run_cli):
        """list --json wraps entry objects in {"results": [...]}."""
        data = json.loads(run_cli(*TOY, "list", "--json", "--kind", "setup").stdout)
        assert [r["id"] for r in data["results"]] == ["lh-setup"]

    def test_a_kind_or_language_in_capitals_is_taken(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """`--kind SETUP`, `--lang EN` and `config set lang FR` mean what they say in lower case, as the Python API
        reads them; the quick path and click alike."""
        assert run_cli(*TOY, "list", "--kind", "SETUP").stdout == run_cli(*TOY, "list", "--kind", "setup").stdout != ""
        assert run_cli(*TOY, "ask", "--lang", "EN", "winning glory").stdout == run_cli(*TOY, "ask", "--lang", "en", "winning glory").stdout
        assert rulebot_process("ask", "--lang", "EN", "chaumurky", "tie").stdout == rulebot_process("ask", "--lang", "en", "chaumurky", "tie").stdout
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        assert run_cli("config", "set", "lang", "FR").stdout.startswith("lang = fr (saved in")
        assert run_cli("config", "get", "lang").stdout == "fr\n"

    def test_check_ok(self, run_cli):
        """check of a valid corpus exits 0 with a one-line summary."""
        result = run_cli("check", str(MINIMAL))
        assert result.exit_code == 0
        assert result.output == "OK: 6 entries in 1 game (lantern-harbor 6)\n"

    def test_check_reports_file_and_line(self, run_cli, minimal_copy: Path):
        """check of a broken corpus prints FILE:LINE: message and exits 1."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu"), encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        assert result.exit_code == 1
        assert re.search(r"rulebook\.md:5: unknown kind 'setpu'", result.output)
        assert "Error: 1 problem found" in result.output

    def test_check_help_says_how_many_problems_a_file_shows(self, run_cli):
        from rulebot.corpus.load import MAX_PROBLEMS_PER_FILE

        assert f"A file's first {MAX_PROBLEMS_PER_FILE} problems" in " ".join(run_cli("check", "--help").stdout.split())

    def test_check_lists_a_files_problems_by_line(self, run_cli, minimal_copy: Path):
        """A file's problems come in the order of its lines, whichever check found them (a link's after the parse)."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = rules.read_text(encoding="utf-8").replace("kind: setup", "kind: setpu")
        first = text.index("\n## ") + 1
        heading_end = text.index("\n", first)
        rules.write_text(text[:heading_end] + "\nsee_also: lh-nowhere" + text[heading_end:], encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        lines = [int(m.group(1)) for m in re.finditer(r"rulebook\.md:(\d+): ", result.stdout)]
        assert len(lines) == 2 and lines == sorted(lines), result.stdout

    def test_check_of_a_game_folder_names_the_corpus_folder(self, run_cli):
        """A game's own folder given where a corpus folder goes: check says which folder to give."""
        result = run_cli("--no-shipped", "check", str(MINIMAL / "lantern-harbor"))
        assert result.exit_code == 1
        assert "lantern-harbor:0: a game folder, not a corpus folder: give the folder that holds it (" in result.output
        assert result.output.split("holds it (", 1)[1].startswith(("tests/corpora/minimal)", f"{MINIMAL})"))

    @pytest.mark.parametrize("args", [("ask", "ferry gull"), ("ask", "--json", "ferry gull"), ("list",), ("show", "lh-ferry-gull"), ("check",)])
    def test_a_corpus_folder_that_is_not_there_is_a_usage_error(self, run_cli, tmp_path: Path, args: tuple[str, ...]):
        """A --corpus folder named wrong is a usage error (exit 2), as the Python API's, in the command and in a real
        process (which answers `ask` without click): answered without it, its games would be missing unsaid."""
        import subprocess
        import sys

        missing = str(tmp_path / "my games")
        result = run_cli("--corpus", str(MINIMAL), "--corpus", missing, *args)
        assert result.exit_code == 2 and f"Error: no corpus folder {missing!r}: no such folder" in result.stderr, result.output
        process = subprocess.run([sys.executable, "-m", "rulebot", "--corpus", missing, *args], capture_output=True, text=True, timeout=60)
        assert process.returncode == 2 and f"Error: no corpus folder {missing!r}" in process.stderr and not process.stdout, process.stderr
        assert "Traceback" not in process.stderr
        # (new-game is what makes such a folder)
        made = run_cli("--corpus", missing, "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules")
        assert made.exit_code == 0 and (tmp_path / "my games" / "skyrail" / "game.toml").is_file(), made.output

    @pytest.mark.parametrize(("heading", "shown", "where"), [
        *((heading, heading, "") for heading in ("### lh-ferry-gull", "# lh-ferry-gull", "##lh-ferry-gull")),
        # indented: a heading to Markdown, text of the entry above to rulebot
        *((indent + "## lh-ferry-gull", "## lh-ferry-gull", ", at the start of its line") for indent in (" ", "   ", "\t")),
    ])
    def test_check_points_at_an_entry_heading_read_as_text(self, run_cli, minimal_copy: Path, heading: str, shown: str, where: str):
        """An entry's heading with a # too many or too few, or spaces before it, over its header, is reported at its
        line: else the entry vanishes into the text of the one above, and nothing says so."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = rules.read_text(encoding="utf-8")
        line = text[: text.index("## lh-ferry-gull\n")].count("\n") + 1
        rules.write_text(text.replace("## lh-ferry-gull\n", heading + "\n"), encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        assert result.exit_code == 1, result.output
        expected = f"rulebook.md:{line}: '{shown}' is read as text of lh-[a-z-]+: an entry's heading is '## ' and its id{where}\n"
        assert re.search(expected.replace(".md", r"\.md"), result.output), result.output

    def test_check_points_at_a_glued_heading_whatever_follows_it(self, run_cli, minimal_copy: Path):
        """"##id", which Markdown reads as no heading at all, is an entry's heading mistyped even when the line under it
        is mistyped too ("title Ferry gull", no colon); a "### word-word" heading over text is a heading of the text."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = rules.read_text(encoding="utf-8")
        line = text[: text.index("## lh-ferry-gull\n")].count("\n") + 1
        text = text.replace("## lh-ferry-gull\ntitle:", "##lh-ferry-gull\ntitle")
        rules.write_text(text + "\n### dock-rules\n\nSome text of the last entry.\n\n### step-one\nsection 2 of the rules applies.\n", encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        assert result.exit_code == 1 and f"rulebook.md:{line}: '##lh-ferry-gull' is read as text of " in result.output, result.output
        assert "dock-rules" not in result.output and "step-one" not in result.output

    def test_check_points_at_mistyped_headings_before_any_entry_and_not_in_code(self, run_cli, minimal_copy: Path):
        """A file whose every entry heading is mistyped has no entry, yet each is reported (in the file's preamble);
        the same lines shown in a code fence, as an example, are text."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        text = rules.read_text(encoding="utf-8")
        shown = "\n```\n### lh-example\ntitle: An example\n```\n"
        rules.write_text(text.replace("## lh-", "### lh-") + shown, encoding="utf-8")
        result = run_cli("check", str(minimal_copy))
        assert result.exit_code == 1, result.output
        reported = re.findall(r"rulebook\.md:\d+: '### (lh-[a-z-]+)' is read as text of the file's preamble", result.output)
        assert len(reported) == text.count("\n## lh-") + text.startswith("## lh-") and "lh-example" not in result.output, result.output

    def test_broken_corpus_on_ask(self, run_cli, minimal_copy: Path):
        """ask on a corpus with a problem answers, and warns of the problem at its line."""
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("see_also: lh-winning", "see_also: lh-nowhere"), encoding="utf-8")
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "ask", "setup")
        assert result.exit_code == 0
        assert "rulebook.md:7: see_also: unknown entry id 'lh-nowhere'" in result.stderr
        assert result.stdout.startswith("Setup")

    def test_corpus_without_a_valid_entry_on_ask(self, run_cli, minimal_copy: Path):
        """ask on a corpus of which no entry is valid reports its problems, exit 2, no traceback."""
        for path in (minimal_copy / "lantern-harbor").glob("*.md"):
            path.write_text(path.read_text(encoding="utf-8").replace("\nkind: ", "\nkind: nonsense-"), encoding="utf-8")
        result = run_cli("--no-shipped", "--corpus", str(minimal_copy), "ask", "setup")
        assert result.exit_code == 2
        assert "rulebook.md:5: unknown kind 'nonsense-setup'" in result.stderr
        assert result.stderr.rstrip().endswith("(run `rulebot check` for the full list)")

    def test_index(self, run_cli):
        """index --rebuild builds and says where."""
        result = run_cli(*TOY, "index", "--rebuild")
        assert result.exit_code == 0
        assert "Index of 6 entries at" in result.output and "built in" in result.output

    def test_index_that_cannot_be_saved_is_an_error(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """index's one job is the index saved: when the cache cannot be written (a file where its folder goes), it
        says so after the warning, and exits 2, where the other commands answer from memory."""
        blocker = tmp_path / "file"
        blocker.write_text("not a folder")
        monkeypatch.setenv("RULEBOT_CACHE_DIR", str(blocker / "cache"))
        result = run_cli(*TOY, "index", "--rebuild")
        assert result.exit_code == 2, result.output
        assert "Error: the index of 6 entries could not be saved (see the warning above)" in result.stderr
        assert "memory" not in result.stdout
        assert run_cli(*TOY, "ask", "ferry gull").exit_code == 0

    def test_no_corpus_is_usage_error(self, run_cli):
        """--no-shipped without --corpus is a usage error."""
        assert run_cli("--no-shipped", "games").exit_code == 2


def test_every_command_has_help_and_is_in_the_docs(run_cli):
    """Each command has --help text and the README or a page of docs/ mentions it."""
    readme = docs_text()
    for name, command in cli.commands.items():
        result = run_cli(name, "--help")
        assert result.exit_code == 0 and command.help
        assert f"rulebot {name}" in readme, name


class TestRealProcess:
    def test_ask_shipped_corpus(self):
        """The installed module answers a real question from the shipped corpus."""
        process = rulebot_process("ask", "--json", "can i trash assassination mission")
        assert process.returncode == 0, process.stderr
        assert json.loads(process.stdout)["results"][0]["id"] == "dune-assassination-mission"

    def test_no_color_when_piped(self):
        """Output to a pipe carries no ANSI escapes."""
        process = rulebot_process(*TOY, "ask", "ferry gull", env={"NO_COLOR": ""})
        assert process.returncode == 0 and "\x1b[" not in process.stdout

    def test_error_has_no_traceback(self):
        """A user error is one line on stderr with exit 2, never a traceback."""
        process = rulebot_process(*TOY, "show", "nope")
        assert process.returncode == 2
        assert "Traceback" not in process.stderr and process.stderr.startswith("Error: no entry 'nope'")

    @pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
    @pytest.mark.parametrize("args", [("ask", "ferry gull"), ("ask", "--json", "ferry gull"), ("list",), ("games",)])
    def test_output_that_cannot_be_written_is_an_error(self, args: tuple[str, ...]):
        """Output to a full disk (/dev/full) is an error said in one line (exit 2), not an unexpected one (70)."""
        import subprocess
        import sys

        with open("/dev/full", "w") as full:
            process = subprocess.run([sys.executable, "-m", "rulebot", *TOY, *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert process.returncode == 2, process.stderr
        assert process.stderr.endswith("\nError: cannot write the output: No space left on device\n") or \
            process.stderr == "Error: cannot write the output: No space left on device\n"
        assert "Traceback" not in process.stderr

    def test_lone_surrogate_argument(self):
        """Undecodable bytes in the question are answered or refused cleanly."""
        import os
        import subprocess
        import sys

        process = subprocess.run(
            [sys.executable.encode(), b"-m", b"rulebot", *[a.encode() for a in TOY], b"ask", b"ferry \xff\xfe gull"],
            capture_output=True,
            env=dict(os.environ),
            timeout=60,
        )
        assert process.returncode == 0, process.stderr
        assert b"Traceback" not in process.stderr

    def test_version(self):
        """--version prints the version."""
        process = rulebot_process("--version")
        assert process.returncode == 0 and process.stdout.startswith("rulebot, version ")


class TestExpansions:
    def test_with_puts_the_modification_first(self, run_cli):
        """With an expansion in play, the entry that changes a rule comes before it."""
        data = json.loads(run_cli(*TOY, "ask", "--json", "--with", "deep-tides", "winning the game").stdout)
        assert [r["id"] for r in data["results"][:2]] == ["lh-tides-winning", "lh-winning"]

    def test_an_expansion_is_named_in_any_case(self, run_cli):
        """`--with` and `--expansion` take a slug as typed in capitals too, as entry ids and games are."""
        data = json.loads(run_cli(*TOY, "ask", "--json", "--with", "Deep-Tides", "winning the game").stdout)
        assert [r["id"] for r in data["results"][:2]] == ["lh-tides-winning", "lh-winning"]
        listed = run_cli(*TOY, "list", "--expansion", "DEEP-TIDES")
        assert listed.exit_code == 0 and "lh-tides-winning" in listed.output and "lh-winning " not in listed.output, listed.output

    def test_a_configured_expansion_written_in_capitals_is_that_expansion(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A config file edited by hand with an expansion's slug in capitals: that expansion is in play."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        (tmp_path / "config.toml").write_text('[lantern-harbor]\nwith = ["Deep-Tides"]\n', encoding="utf-8")
        data = json.loads(run_cli(*TOY, "ask", "--json", "winning the game").stdout)
        assert [r["id"] for r in data["results"][:2]] == ["lh-tides-winning", "lh-winning"]

    def test_base_leaves_expansions_out(self, run_cli):
        """--with base leaves the game's expansion entries out."""
        data = json.loads(run_cli(*TOY, "ask", "--json", "-g", "lantern-harbor", "--with", "base", "winning glory").stdout)
        assert all(r["expansion"] is None for r in data["results"])

    def test_an_entry_of_an_expansion_left_out_is_named_with_why(self, run_cli):
        """A card of an expansion left out of play (`--with base`) is no answer, but it is named, with its expansion:
        in the text, and in --json (`in_play` false); in play, it answers, and nothing of the kind is said."""
        asked = ("ask", "-g", "lantern-harbor", "whirlpool")
        left_out = run_cli(*TOY, *asked, "--with", "base")
        assert "Of an expansion not in play: Whirlpool (Deep Tides, lh-tides-whirlpool)" in left_out.output
        data = json.loads(run_cli(*TOY, *asked, "--with", "base", "--json").stdout)
        assert all(r["id"] != "lh-tides-whirlpool" for r in data["results"])
        assert data["close_titles"][0] == {
            "id": "lh-tides-whirlpool", "title": "Whirlpool", "game": "lantern-harbor", "expansion": "deep-tides",
            "expansion_name": "Deep Tides", "in_play": False,
        }
        in_play = run_cli(*TOY, *asked, "--with", "deep-tides")
        assert in_play.output.startswith("Whirlpool") and "not in play" not in in_play.output

    def test_unknown_expansion(self, run_cli):
        """An unknown expansion is an error listing the known ones."""
        result = run_cli(*TOY, "ask", "--with", "nope", "winning")
        assert result.exit_code == 2 and "known expansions: deep-tides (lantern-harbor)" in result.output

    def test_config_default(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """`config set GAME.with` makes an expansion in play by default; unset removes it."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        assert run_cli(*TOY, "config", "set", "lantern-harbor.with", "deep-tides").exit_code == 0
        assert run_cli("config", "get", "lantern-harbor.with").output == "deep-tides\n"
        data = json.loads(run_cli(*TOY, "ask", "--json", "winning the game").stdout)
        assert data["results"][0]["id"] == "lh-tides-winning"
        run_cli("config", "unset", "lantern-harbor.with")
        unset = run_cli("config", "get", "lantern-harbor.with")
        assert unset.exit_code == 1 and unset.stdout == ""

    def test_config_base_is_the_base_game_alone(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """`config set GAME.with base` keeps the base game alone in play (as --with base), and says so when read;
        base and an expansion together are refused, as on the command line."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        assert run_cli(*TOY, "config", "set", "lantern-harbor.with", "base").exit_code == 0
        assert run_cli("config", "get", "lantern-harbor.with").stdout == "base\n"
        data = json.loads(run_cli(*TOY, "ask", "--json", "winning glory").stdout)
        assert data["results"] and all(r["expansion"] is None for r in data["results"])
        both = run_cli(*TOY, "config", "set", "lantern-harbor.with", "base", "deep-tides")
        assert both.exit_code == 2 and "say two things: give one" in both.stderr
        asked = run_cli(*TOY, "ask", "-g", "lantern-harbor", "--with", "base", "--with", "deep-tides", "winning glory")
        assert asked.exit_code == 2 and "--with base (no expansion) and --with deep-tides say two things: give one" in asked.stderr

    def test_config_keys_take_a_games_name(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A game's name in a key means its slug for get and unset too, as for set, which saves under the slug."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        assert run_cli(*TOY, "config", "set", "Lantern Harbor.with", "deep-tides").exit_code == 0
        assert run_cli(*TOY, "config", "get", "Lantern Harbor.with").stdout == "deep-tides\n"
        unset = run_cli(*TOY, "config", "unset", "Lantern Harbor.with")
        assert unset.exit_code == 0 and unset.stdout.startswith("lantern-harbor.with removed")
        assert run_cli(*TOY, "config", "get", "lantern-harbor.with").exit_code == 1
        # (with no corpus to name a game, a key is as given: not set)
        none = run_cli("--no-shipped", "config", "get", "Lantern Harbor.with")
        assert none.exit_code == 1 and none.stdout == ""

    def test_config_unset_of_what_is_not_set(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """Unsetting a key that is not set says so and exits 1 (as `config get` of it), writing nothing."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        for key in ("lantern-harbor.with", "lang"):
            result = run_cli("config", "unset", key)
            # (the first command of a test run may build the index to read the game's name: it says so first)
            assert result.exit_code == 1 and result.stderr.endswith(f"{key} is not set\n") and "removed" not in result.output
        assert not (tmp_path / "config.toml").exists()

    def test_a_configured_expansion_the_game_lacks_is_a_config_error(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """A config file edited by hand with no expansion of the game: every command that reads it says where, exit 2."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        (tmp_path / "config.toml").write_text('[lantern-harbor]\nwith = ["nope"]\n', encoding="utf-8")
        for command in (("ask", "winning glory"), ("setup", "lantern-harbor", "2")):
            result = run_cli(*TOY, *command)
            assert result.exit_code == 2, result.output
            assert f"{tmp_path / 'config.toml'}: lantern-harbor.with names no expansion of Lantern Harbor: 'nope'" in result.stderr

    def test_config_rejects_unknown_key(self, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
        """An unknown setting is an error naming the known form."""
        monkeypatch.setenv("RULEBOT_CONFIG_DIR", str(tmp_path))
        result = run_cli(*TOY, "config", "set", "lantern-harbor.colour", "blue")
        assert result.exit_code == 2 and "use GAME.with" in result.output


class TestSignedValues:
    """A question word that begins with a dash and a digit ("-1", "-3/-3") is a word of the question, unquoted too;
    any other word that begins with a dash is an option, and an unknown one is refused."""

    def test_a_signed_value_is_a_word(self, run_cli):
        typed = run_cli(*TOY, "ask", "--json", "ferry", "gull", "gets", "-3/-3", "and", "-1", "tide")
        quoted = run_cli(*TOY, "ask", "--json", "ferry gull gets -3/-3 and -1 tide")
        assert typed.exit_code == 0 and json.loads(typed.stdout)["query"] == "ferry gull gets -3/-3 and -1 tide"
        assert typed.stdout == quoted.stdout
        process = rulebot_process(*TOY, "ask", "--json", "ferry", "gull", "gets", "-3/-3", "and", "-1", "tide")
        assert process.returncode == 0 and process.stdout == typed.stdout, process.stderr

    @pytest.mark.parametrize("args, said", [
        (("--jsn", "tie"), "No such option '--jsn'. Did you mean '--json'?"),
        (("tie", "-x"), "No such option '-x'."),
        (("tie", "--limit=2", "--gaem=toy"), "No such option '--gaem'. Did you mean '--game'?"),
    ])
    def test_an_unknown_option_is_still_refused(self, run_cli, args: tuple[str, ...], said: str):
        result = run_cli(*TOY, "ask", *args)
        assert result.exit_code == 2 and said in result.stderr, result.output
        process = rulebot_process(*TOY, "ask", *args)
        assert process.returncode == 2 and said in process.stderr, process.stderr

    @pytest.mark.parametrize("words", [("ferry", "gull", "has", "-1hp"), ("can", "i", "have", "-2n", "gulls"), ("ferry", "gull", "-1gold")])
    def test_a_signed_value_with_letters_is_a_word_whichever_path_reads_the_line(self, run_cli, words: tuple[str, ...]):
        """A signed value glued to letters of options ("-1hp": -h, "-2n": -n) is a word too, whether the quick path
        reads the line or click does (`-n5` sends it to click): the same answer either way."""
        quick = rulebot_process(*TOY, "ask", "--json", *words)
        by_click = rulebot_process(*TOY, "ask", "--json", "-n5", *words)
        assert quick.returncode == by_click.returncode == 0, (quick.stderr, by_click.stderr)
        assert json.loads(quick.stdout)["query"] == json.loads(by_click.stdout)["query"] == " ".join(words)
        assert run_cli(*TOY, "ask", "-n5", "--json", *words).stdout == by_click.stdout

    def test_an_option_that_lacks_its_value_is_told_so(self, run_cli):
        result = run_cli(*TOY, "ask", "tie", "--game")
        assert result.exit_code == 2 and "Option '--game' requires an argument" in result.stderr

    def test_an_options_value_and_the_words_after_two_dashes_are_not_options(self, run_cli):
        assert "no game '-1'" in run_cli(*TOY, "ask", "-g", "-1", "tide").stderr
        after = run_cli(*TOY, "ask", "--json", "--", "-x", "ferry", "gull")
        assert after.exit_code == 0 and json.loads(after.stdout)["query"] == "-x ferry gull"
        assert run_cli(*TOY, "ask", "ferry", "gull", "-n1").exit_code == 0
        assert run_cli(*TOY, "ask", "--help").exit_code == 0


class TestQuickPath:
    """`rulebot ask …` is answered without click (rulebot.cli.quick), exactly as click's `ask` answers it."""

    @pytest.mark.parametrize(
        "words, code", [(("chaumurky", "tie"), 0), (("molthar", "combien", "d'actions", "par", "tour"), 0), (("combien", "d'actions", "par", "tour"), 3), (("zzqx", "blorf"), 1), (("tie", "zzqx", "blorf", "qqq"), 3)]
    )
    def test_same_output_as_the_click_command(self, run_cli, words: tuple[str, ...], code: int):
        """The same text and the same exit status: 0 a clear answer, 1 nothing, 3 no clear answer."""
        by_click = run_cli("ask", *words)
        process = rulebot_process("ask", *words)
        assert process.returncode == by_click.exit_code == code, process.stderr
        assert process.stdout == by_click.stdout and process.stdout.strip()

    def test_a_failure_is_reported_once(self, tmp_path: Path):
        """A broken config file fails the quick path: reported as click reports it, once."""
        (tmp_path / "config.toml").write_text("[res-arcana\nwith = 3\n", encoding="utf-8")
        process = rulebot_process("ask", "chaumurky", "tie", env={"RULEBOT_CONFIG_DIR": str(tmp_path)})
        assert process.returncode == 2 and process.stdout == ""
        assert process.stderr.startswith("Error: cannot read") and process.stderr.count("Error:") == 1
        assert "Traceback" not in process.stderr

    def test_a_refused_question_is_not_answered_twice(self, tmp_path: Path):
        """With a cache that cannot be written, a refused question: one warning, one build, the usage error's exit 2."""
        (tmp_path / "file").write_text("", encoding="utf-8")
        process = rulebot_process("ask", "?", env={"RULEBOT_CACHE_DIR": str(tmp_path / "file" / "cache")})
        assert process.returncode == 2 and process.stdout == ""
        assert process.stderr.count("Warning: cannot write") == 1 and process.stderr.count("Building the search index") == 1
        assert process.stderr.rstrip().endswith("Error: the question has no words to search for") and "Traceback" not in process.stderr

    def test_an_unexpected_failure_after_telling_is_reported_once(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
        """An unexpected error once the build has been announced: reported as click reports it, not met again
        by click's `ask` (which would announce a second build)."""
        import sys

        from rulebot.cli import quick as entry
        from rulebot.index import cache as index

        def broken(*args, **kwargs):
            raise RuntimeError("the disk is on fire")

        monkeypatch.setattr(index, "_swap_in", broken)  # after the segments are written
        monkeypatch.setenv("RULEBOT_CACHE_DIR", str(tmp_path / "cache"))
        monkeypatch.delenv("RULEBOT_DEBUG", raising=False)
        monkeypatch.setattr(sys, "argv", ["rulebot", "ask", "chaumurky", "tie"])
        with pytest.raises(SystemExit) as ended:
            entry.main()
        err = capsys.readouterr().err
        assert ended.value.code == 70 and err.count("Building the search index") == 1
        assert err.count("Error: unexpected RuntimeError: the disk is on fire") == 1

    def test_corpus_options_too(self, run_cli):
        by_click = run_cli(*TOY, "ask", "ferry", "gull")
        process = rulebot_process(*TOY, "ask", "ferry", "gull")
        assert process.returncode == by_click.exit_code == 0, process.stderr
        assert process.stdout == by_click.stdout and "Ferry" in process.stdout

    @pytest.mark.parametrize(
        "args, taken",
        [
            (["ask", "chaumurky", "tie"], ({}, {}, ("chaumurky", "tie"))),
            (
                ["--corpus", "a", "--no-shipped", "--corpus", "ask", "ask", "tie"],
                ({"corpora": (Path("a"), Path("ask")), "no_shipped": True}, {}, ("tie",)),
            ),
            (["--corpus=a", "--color", "never", "ask", "tie"], ({"corpora": (Path("a"),), "color": "never"}, {}, ("tie",))),
            (["ask", "--json", "tie", "--game", "dune-imperium"], ({}, {"as_json": True, "game": "dune-imperium"}, ("tie",))),
            (["ask", "-n", "5", "-w", "a", "tie", "--with=b", "-n", "7"], ({}, {"limit": 7, "with_": ("a", "b")}, ("tie",))),
            (["ask", "what", "if", "-1", "vp"], ({}, {}, ("what", "if", "-1", "vp"))),  # a signed value is a word
            (["ask", "what", "if", "-x", "vp"], None),
            (["ask", "-n", "0", "tie"], None),
            (["ask", "-n5", "tie"], None),
            (["ask", "-g=dune-imperium", "tie"], None),
            (["ask", "--json=1", "tie"], None),
            (["ask", "--game", "--json", "tie"], None),
            (["ask", "tie", "--game"], None),
            (["ask", "--", "tie"], None),
            (["ask", "-"], None),
            (["ask", "--help"], None),
            (["ask"], None),
            (["show", "dune-chaumurky"], None),
            (["--color", "blue", "ask", "tie"], None),
            (["--corpus", "--no-shipped", "ask", "tie"], None),
            (["--version", "ask", "tie"], None),
        ],
    )
    def test_what_the_quick_path_takes(self, args: list[str], taken):
        """Options of the tables in the forms click reads alike, and question words; nothing else."""
        from rulebot.cli.asking import ASK_OPTIONS, GROUP_OPTIONS, read_line

        line = read_line(args)
        if taken is None:
            assert line is None
        else:
            group, options, question = taken
            assert line.group == {**{o.dest: o.unset for o in GROUP_OPTIONS}, **group}
            assert line.options == {**{o.dest: o.unset for o in ASK_OPTIONS}, **options}
            assert line.question == question

    def test_a_corpus_option_naming_a_file_is_refused_by_click(self, tmp_path: Path):
        (tmp_path / "file").write_text("", encoding="utf-8")
        process = rulebot_process("--corpus", str(tmp_path / "file"), "ask", "tie")
        assert process.returncode == 2 and "is a file" in process.stderr


@pytest.mark.parametrize("args", [("ask", "lantern"), ("list",)], ids=["quick path", "click"])
def test_interrupting_a_command_exits_130(tmp_path: Path, args: tuple[str, ...]):
    """Ctrl-C while a plain `rulebot ask` (the quick path) or `rulebot list` (click) builds its index:
    "Aborted!", exit 130, no traceback.

    Decided by what happened, not by timing: the signal is sent as soon as the build has started, and
    when the build was over before it landed (the command printed its answer), again with a larger corpus."""
    import os
    import signal
    import subprocess
    import sys

    from test_index_faults import write_synthetic_corpus

    for entries in (6000, 20000, 60000):
        corpus = write_synthetic_corpus(tmp_path / f"corpus-{entries}", entries=entries)
        env = dict(os.environ, RULEBOT_CACHE_DIR=str(tmp_path / f"cache-{entries}"), RULEBOT_CORPUS=str(corpus))
        process = subprocess.Popen(
            [sys.executable, "-m", "rulebot", *args], env=env, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            # as at a terminal: a suite started in the background (`&`) passes Ctrl-C on ignored
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        line = process.stderr.readline()  # the build has started
        assert line.startswith("Building the search index"), line
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=300)
        if process.returncode == 130 or out == "":  # the signal landed while the index was being built
            break
    assert process.returncode == 130 and err.strip() == "Aborted!" and out == ""


def _help_examples() -> list[str]:
    """The example command lines of every command's --help that only read (ask, show, games, list, setup), as
    written: a line of an example block that starts with `rulebot`, its comment (after two spaces) left out."""
    import click
    from click.testing import CliRunner

    def commands(command: click.Command, path: list[str]):
        yield path
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                yield from commands(sub, [*path, name])

    found = []
    for path in commands(cli, []):
        for line in CliRunner().invoke(cli, [*path, "--help"]).output.splitlines():
            example = re.split(r"\s{2,}", line.strip())[0]
            if example.startswith("rulebot ") and example.split()[1] in ("ask", "show", "games", "list", "setup"):
                found.append(example)
    return sorted(set(found))


@pytest.mark.parametrize("example", _help_examples())
def test_the_examples_of_the_help_work(run_cli, example: str):
    """Each example a command's --help gives works as written, on the shipped corpus: it answers (exit 0)."""
    import shlex

    result = run_cli(*shlex.split(example)[1:])
    assert result.exit_code == 0, result.output
