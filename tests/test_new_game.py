"""A new game in two commands: `rulebot new-game`, then `rulebot import DOCUMENT --append`; `ask` finds the drafts."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from conftest import MINIMAL, write_corpus

from rulebot.corpus import load as corpus
from rulebot.corpus.files import user_corpus_dir

RULES = """\
# Skyrail Rules

## Setup

Each conductor takes **4 tickets** and a locomotive of their colour.

## Coupling

A conductor may couple two carriages of the same colour at a depot. See also Setup.

## Derailment

A locomotive that crosses a broken rail derails and skips the next turn.
"""

SHARED_DOCUMENT = Path("/work/shared/data/star-wars-x-wing-2e-rules-reference-v1.4.6.md")

NEW_GAME = ("new-game", "skyrail", "--name", "Skyrail Express", "--source", "rules", "--title", "Skyrail rulebook", "--edition", "v2")


class TestNewGame:
    def test_starts_a_valid_game(self, run_cli):
        """The game folder goes to the user corpus folder: a game.toml and an entries file, a valid corpus."""
        result = run_cli(*NEW_GAME)
        assert result.exit_code == 0, result.output
        folder = user_corpus_dir() / "skyrail"
        assert result.stderr == f"skyrail started in {folder}; next: rulebot import DOCUMENT --game skyrail --source rules --append\n"
        loaded, problems = corpus.check([folder.parent])
        assert problems == []
        game = loaded.game("skyrail")
        assert (game.name, game.id_prefix, [(s.id, s.title, s.edition) for s in game.sources]) == (
            "Skyrail Express", "skyrail", [("rules", "Skyrail rulebook", "v2")]
        )

    def test_options(self, run_cli, tmp_path: Path):
        """--corpus chooses the folder; the id prefix, date and language may be given."""
        result = run_cli(
            "--no-shipped", "--corpus", str(tmp_path / "games"), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules",
            "--id-prefix", "sky", "--date", "2024-05-01", "--language", "fr",
        )
        assert result.exit_code == 0, result.output
        game = corpus.check([tmp_path / "games"])[0].game("skyrail")
        assert (game.id_prefix, game.language, game.sources[0].id, game.sources[0].date) == ("sky", "fr", "rules", "2024-05-01")

    def test_the_name_and_slug_are_enough(self, run_cli, tmp_path: Path):
        """Only the slug and the name are needed: the source's id is "rules", its title the name's rules."""
        result = run_cli("--no-shipped", "--corpus", str(tmp_path / "games"), "new-game", "skyrail", "--name", "Skyrail Express")
        assert result.exit_code == 0, result.output
        game = corpus.check([tmp_path / "games"])[0].game("skyrail")
        assert [(s.id, s.title) for s in game.sources] == [("rules", "Skyrail Express rules")]

    def test_the_hint_works_as_written(self, run_cli, tmp_path: Path):
        """With --corpus, the hint names that folder: the command it shows, followed literally, imports."""
        games, document = tmp_path / "my games", write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        result = run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules")
        assert result.exit_code == 0, result.output
        hint = result.stderr.split("; next: ", 1)[1].strip()
        assert hint == f"rulebot --corpus '{games}' import DOCUMENT --game skyrail --source rules --append"
        followed = run_cli(*shlex.split(hint.replace("DOCUMENT", str(document)))[1:])
        assert followed.exit_code == 0, followed.output
        assert "Drafted 3 entries" in followed.stderr
        # the hint left out (no --corpus): the error says what is missing; with a --corpus, there is nothing to add
        for args, told in (((), True), (("--corpus", str(games)), False)):
            for command in (("import", str(document), "--game", "skyrail-x", "--append"), ("review", "skyrail-x"), ("changes", "skyrail-x")):
                missed = run_cli(*args, *command)
                assert missed.exit_code == 2 and "no game 'skyrail-x'" in missed.stderr, missed.output
                assert ("needs that --corpus DIR again" in missed.stderr) is told, missed.stderr

    def test_a_game_already_there_is_refused(self, run_cli):
        """A slug the corpus has already is refused."""
        result = run_cli("--no-shipped", "--corpus", str(MINIMAL), "new-game", "lantern-harbor", "-n", "Again", "-t", "Rules")
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: there is a game 'lantern-harbor' already")

    @pytest.mark.parametrize(("args", "message"), [
        (("Sky Rail", "-n", "S", "-t", "R"), "Error: slug 'Sky Rail' must be lower case letters and digits joined by single hyphens; say 'sky-rail'"),
        (("skyrail", "-n", "S", "-t", "R", "--id-prefix", "s_r"), "Error: id prefix 's_r' must be lower case letters"),
        (("日本", "-n", "S", "-t", "R"), "Error: slug '日本' must be lower case letters and digits joined by single hyphens\n"),  # (nothing to say instead)
        (("skyrail", "-n", "S", "-t", "R", "-s", "Rule Book"), "Error: source id 'Rule Book' must be lower case letters"),
        (("skyrail", "-n", "S", "--language", "english"), "Error: the language must be a two-letter code (en, fr, de...), not 'english'"),
        (("skyrail", "-n", "S", "-t", "multi\nline"), "Error: the source's title must be one line of text, without tabs or control characters: 'multi\\nline'"),
        (("skyrail", "-n", "Sky\x1b[31mRail", "-t", "R"), "Error: the game's name must be one line of text"),
        (("sky" * 100, "-n", "S", "-t", "R"), "Error: the slug skyskyskyskyskyskysk… has 300 characters: at most 64"),
        (("skyrail", "-n", "S", "-t", "R", "-s", "r" * 65), "Error: the source id rrrrrrrrrrrrrrrrrrrr… has 65 characters: at most 64"),
    ])
    def test_bad_names_are_refused(self, run_cli, args: tuple[str, ...], message: str):
        """A slug, prefix or source id that is no id is refused, and nothing is written."""
        result = run_cli("new-game", *args)
        assert result.exit_code == 2 and result.stderr.startswith(message)
        assert not user_corpus_dir().exists()


class TestTwoCommands:
    def test_rules_to_answers(self, run_cli, tmp_path: Path):
        """new-game, then import --append: ask finds a drafted entry by a term of the document."""
        document = write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        assert run_cli(*NEW_GAME).exit_code == 0
        result = run_cli("import", str(document), "--game", "skyrail", "--source", "rules", "--append")
        assert result.exit_code == 0, result.output
        entries = user_corpus_dir() / "skyrail" / "rules.md"
        assert result.stderr.startswith("Drafted 3 entries from skyrail.md") and result.stderr.rstrip().endswith(f"written to {entries}")
        found = json.loads(run_cli("ask", "--json", "derails broken rail").stdout)["results"][0]
        assert (found["id"], found["game"], found["draft"]) == ("skyrail-derailment", "skyrail", True)
        assert run_cli("check").exit_code == 0

    def test_a_second_import_adds_to_the_entries(self, run_cli, tmp_path: Path):
        """Importing into a file with entries adds the new drafts after them, under fresh ids, links to the
        ones there already going to those; the corpus stays valid."""
        document = write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        run_cli(*NEW_GAME)
        assert run_cli("import", str(document), "--game", "skyrail", "--source", "rules", "--append").exit_code == 0
        document.write_text(RULES + "\n## Tunnels\n\nA locomotive in a tunnel cannot couple.\n\nSee also Coupling.\n", encoding="utf-8")
        result = run_cli("import", str(document), "--game", "skyrail", "--source", "rules", "--append")
        assert result.exit_code == 0, result.output
        assert "0 updated, 1 added, 3 unchanged, 0 gone, 0 kept as restated; written to" in result.stderr
        loaded, problems = corpus.check([user_corpus_dir()])
        assert problems == []
        assert [e.id for e in loaded.entries_of("skyrail")] == ["skyrail-setup", "skyrail-coupling", "skyrail-derailment", "skyrail-tunnels"]
        assert loaded.entries["skyrail-tunnels"].see_also == ("skyrail-coupling",)

    def test_the_same_import_again_changes_nothing(self, run_cli, tmp_path: Path):
        """Importing the same document again writes nothing: every draft is in the file already, unchanged."""
        document = write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        run_cli(*NEW_GAME)
        assert run_cli("import", str(document), "--game", "skyrail", "--source", "rules", "--append").exit_code == 0
        entries = user_corpus_dir() / "skyrail" / "rules.md"
        before = entries.read_bytes()
        result = run_cli("import", str(document), "--game", "skyrail", "--source", "rules", "--append")
        assert result.exit_code == 0, result.output
        assert result.stderr.rstrip().endswith(f"0 updated, 0 added, 3 unchanged, 0 gone, 0 kept as restated; nothing written to {entries}")
        assert entries.read_bytes() == before

    def test_the_source_may_go_unsaid_when_the_game_has_one(self, run_cli, tmp_path: Path):
        """A game started by new-game has one source: import drafts for it when --source is left out, house rules
        for the game or not. Of a game of several sources, it asks which one the document is, and writes nothing."""
        document = write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        run_cli(*NEW_GAME)
        result = run_cli("import", str(document), "--game", "skyrail", "--append")
        assert result.exit_code == 0, result.output
        assert [e.source for e in corpus.check([user_corpus_dir()])[0].entries_of("skyrail")] == ["rules"] * 3
        assert run_cli("new", "--game", "skyrail", "--kind", "house-rule", "--title", "Free coupling", "--append").exit_code == 0
        again = run_cli("import", str(document), "--game", "skyrail", "--append")  # a house rules' source is no document's
        assert again.exit_code == 0 and "3 unchanged" in again.stderr, again.output
        several = run_cli("--no-shipped", "--corpus", str(MINIMAL), "import", str(document), "-g", "lantern-harbor", "--out", str(tmp_path / "x.md"))
        assert several.exit_code == 2
        assert several.stderr == "Error: lantern-harbor declares several sources (rulebook, tides-faq): name the one the document is (--source)\n"
        assert not (tmp_path / "x.md").exists()

    def test_append_and_out_are_exclusive(self, run_cli, tmp_path: Path):
        """--append and --out together are a usage error."""
        document = write_corpus(tmp_path, {"skyrail.md": RULES}) / "skyrail.md"
        result = run_cli(*("--no-shipped", "--corpus", str(MINIMAL)), "import", str(document), "-g", "lantern-harbor", "-s", "rulebook",
                         "--append", "--out", str(tmp_path / "x.md"))
        assert result.exit_code == 2

    @pytest.mark.skipif(not SHARED_DOCUMENT.is_file(), reason=f"{SHARED_DOCUMENT} is not on this machine")
    def test_a_real_rules_reference(self, run_cli):
        """The X-Wing rules reference, from document to answers in two commands."""
        made = run_cli("new-game", "x-wing", "--name", "Star Wars: X-Wing", "--source", "rules-reference", "--title", "Rules Reference v1.4.6")
        assert made.exit_code == 0, made.output
        imported = run_cli("import", str(SHARED_DOCUMENT), "--game", "x-wing", "--source", "rules-reference", "--append")
        assert imported.exit_code == 0, imported.output
        found = json.loads(run_cli("ask", "--json", "what does the focus token do").stdout)["results"]
        assert found[0]["game"] == "x-wing" and found[0]["draft"] is True
        assert "focus" in found[0]["title"].lower()
