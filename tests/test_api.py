"""The Python API for scripts and bots: the same answers as the CLI, as typed objects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import MINIMAL

import rulebot
from rulebot import Answer, Library, Ruling
from rulebot.errors import RulebotError, UnknownEntryError, UnknownGameError


@pytest.fixture
def library():
    with Library([MINIMAL], shipped=False) as opened:
        yield opened


class TestLibrary:
    def test_ask_gives_typed_rulings(self, library: Library):
        """An answer holds Ruling objects with their citation, those that make up the answer first."""
        answer = library.ask("ferry gull")
        assert isinstance(answer, Answer) and answer.confident
        ruling = answer.rulings[0]
        assert isinstance(ruling, Ruling) and ruling.id == "lh-ferry-gull"
        assert ruling.source.document == "rulebook" and ruling.source.section == "Cards > Ferry Gull"
        assert answer.matches[0].part_of_answer and answer.matches[0].ruling == ruling

    def test_answers_match_the_cli(self, library: Library, run_cli):
        """The API answers what `rulebot ask --json` answers, in the same JSON shape."""
        printed = json.loads(run_cli("--no-shipped", "--corpus", str(MINIMAL), "ask", "--json", "who wins a tie").stdout)
        answer = library.ask("who wins a tie")
        assert [m.ruling.id for m in answer.matches] == [r["id"] for r in printed["results"]]
        assert answer.confident == printed["confident"]
        first = answer.matches[0].ruling.to_json()
        assert {k: first[k] for k in ("id", "title", "text", "kind", "game")} == {k: printed["results"][0][k] for k in ("id", "title", "text", "kind", "game")}

    def test_expansions_in_play(self, library: Library):
        """with_ puts an expansion in play, as --with does: its rule comes before the one it changes."""
        answer = library.ask("how do i win", game="lantern-harbor", with_=["deep-tides"])
        assert [r.id for r in answer.rulings][:2] == ["lh-tides-winning", "lh-winning"]

    def test_look_ups(self, library: Library):
        """A ruling by id (any case), the rulings of a game, and the games."""
        assert library.ruling("LH-SETUP").title == "Setup"
        assert {r.game for r in library.rulings(game="lantern-harbor")} == {"lantern-harbor"}
        (game,) = library.games()
        assert game.slug == "lantern-harbor" and game.entries == 6

    def test_errors_are_rulebot_errors(self, library: Library):
        """Mistakes raise rulebot's own errors, with one-line messages."""
        with pytest.raises(UnknownEntryError, match="no entry 'lh-nope'"):
            library.ruling("lh-nope")
        with pytest.raises(UnknownGameError):
            library.ask("setup", game="chess")
        with pytest.raises(RulebotError, match="no corpus"):
            Library(shipped=False)


def test_the_package_exports_the_api():
    """`from rulebot import ...` gives the API; importing rulebot alone loads none of it."""
    assert set(rulebot.__all__) >= {"Library", "Answer", "Ruling", "RulebotError"}
    assert rulebot.Library is Library


def test_the_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The Python example of the README runs as it is written."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    assert "from rulebot import Library" in example
    printed: list[str] = []
    exec(compile(example, "README.md", "exec"), {"print": lambda *args, **kw: printed.append(" ".join(map(str, args)))})
    assert any("Assassination Mission" in line for line in printed)
