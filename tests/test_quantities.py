"""Counts in questions and entries: quantity questions, player counts, and the line for a player count."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import game_toml, write_corpus

from rulebot.index.cache import open_index
from rulebot.language import analysis, quantities
from rulebot.search.ranking import Searcher


def intent(question: str) -> quantities.Intent:
    return quantities.read_intent(analysis.words(question), "fr" if analysis.french_evidence(question) >= 2 else "en")


class TestQuestions:
    @pytest.mark.parametrize(
        ("question", "players"),
        [
            ("how many monuments with 3 players", 3),
            ("catalyst buildings setup 3p", 3),
            ("in a two-player game who starts", 2),
            ("à 2 joueurs on enlève quelles cartes ?", 2),
            ("à 4 on met combien de lieux", 4),
            ("how many coins can i keep", None),
            ("combien de cartes à 3 joueurs", 3),
        ],
    )
    def test_player_count(self, question: str, players: int | None):
        """A number next to a player word ("3 players", "3p"), or after "à" in French, is a player count."""
        assert intent(question).players == players

    def test_a_player_count_is_no_word_to_search(self):
        """The count's number leaves the question's words; the player word stays."""
        assert intent("how many monuments with 3 players").words == ("how", "many", "monuments", "with", "players")

    def test_a_number_of_things_is_no_player_count(self):
        """"à 3 cartes" counts cards, and "3 gold" is a value: neither is a player count, and both stay words."""
        assert intent("je défausse à 3 cartes ?").players is None
        assert intent("how much is 3 gold").players is None
        assert "3" in intent("how much is 3 gold").words

    def test_solo_is_a_count_and_a_word(self):
        """"solo" asks for one player, and is still searched (a solo mode)."""
        found = intent("is there a solo mode")
        assert found.players == 1 and "solo" in found.words

    @pytest.mark.parametrize(
        ("question", "quantity"),
        [("how many buildings can i own", True), ("max coins", True), ("combien de perles en main", True), ("who starts", False)],
    )
    def test_quantity_questions(self, question: str, quantity: bool):
        """How many, how much, max, limit and combien ask for a quantity."""
        assert intent(question).quantity is quantity


TABLE = """Setup by player count:

| Players | Ships | Harbours |
|:---:|:---:|:---:|
| 2 players | 4 | 1 |
| 3 players | 6 | 2 |
"""
LIST = """Fewer ferries with fewer players:

- **2 players**: only the red and blue ferries;
- **3 players**: every ferry but the green one.
"""


class TestEntries:
    def test_counted_words_are_next_to_numbers(self):
        """The words near a number are what the text counts; words far from any are not."""
        counted = quantities.counted_stems("Nobody may swim. Each captain may own at most 3 ferries at a time.")
        assert {"ferri", "captain", "own"} <= set(counted)
        assert "swim" not in counted

    def test_a_table_counts_its_header_and_rows(self):
        """A number in a table row counts the row's words and the header's."""
        assert {"ship", "harbour", "player"} <= set(quantities.counted_stems(TABLE))

    def test_no_number_counts_nothing(self):
        assert quantities.counted_stems("A ferry carries shells.") == []

    @pytest.mark.parametrize(("text", "counts"), [(TABLE, [2, 3]), (LIST, [2, 3]), ("Play with 2-4 players.", [2, 3, 4]), ("In a two-player game, skip it.", [2])])
    def test_player_counts(self, text: str, counts: list[int]):
        """Table rows, list items, ranges and "two-player" give the counts a text has values for."""
        assert quantities.player_counts(text) == counts

    def test_the_table_row_for_a_count(self):
        """A table row is given with its header's names."""
        assert quantities.line_for_players(TABLE, 3) == "Ships 6 · Harbours 2"
        assert quantities.line_for_players(TABLE, 5) is None

    def test_the_list_item_for_a_count(self):
        """A list item led by the count is given without its lead and markup."""
        assert quantities.line_for_players(LIST, 2) == "only the red and blue ferries"


CORPUS = {
    "toy/game.toml": game_toml("toy"),
    "toy/rules.md": (
        "## toy-ferries\ntitle: Ferries\nkind: rule\nsection: Ferries\n\n"
        "A captain's ferries carry shells between harbours.\n\n"
        "## toy-ferry-limit\ntitle: Fleet size\nkind: rule\nsection: Ferries\n\n"
        "Each captain may own at most 3 ferries.\n\n"
        "## toy-ships-by-count\ntitle: Ships and harbours by player count\nkind: setup\nsection: Setup\n\n" + TABLE + "\n"
        "## toy-ships\ntitle: Ships and harbours\nkind: rule\nsection: Ships\n\n"
        "Ships sail between harbours, and harbours shelter ships and players from storms.\n"
    ),
}


@pytest.fixture
def toy(tmp_path: Path):
    with Searcher(open_index([write_corpus(tmp_path / "corpus", CORPUS)])) as searcher:
        yield searcher


class TestRanking:
    def test_how_many_finds_the_entry_stating_the_number(self, toy: Searcher):
        """Asked how many, the entry with a number for the thing counted comes before one that only names it."""
        assert toy.ask("how many ferries can a captain own").results[0].id == "toy-ferry-limit"

    def test_a_player_count_finds_the_entry_with_its_row(self, toy: Searcher):
        """With a player count, the entry giving a value for that count comes first, and the answer keeps the count."""
        answer = toy.ask("ships and harbours with 3 players")
        assert answer.results[0].id == "toy-ships-by-count"
        assert answer.players == 3


# Reading counts skips the lines and texts without a number by a quick test on
# the text as written; these hold the quick tests to the full reading.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rulebot.text import fold  # noqa: E402

_PIECES = st.sampled_from(["two", "Deux", "TROIS", "3", "٣", "²", "ｔｗｏ", "one", "un", "d'une", "cards", "joueurs", "é", "\u0301", "œ", " ", "\n", "|", "-", "_", "players"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=20).map("".join))
def test_counted_stems_as_if_every_line_were_read(text):
    def every_line(text: str) -> list[str]:
        found: set[str] = set()
        header: list[str] = []
        for line in text.splitlines():
            cells = analysis.words(line)
            if line.lstrip().startswith("|"):
                header = header or cells
                if any(quantities._counts_something(w) for w in cells):
                    found.update(quantities._stems(header + cells))
                continue
            header = []
            for at, word in enumerate(cells):
                if quantities._counts_something(word):
                    found.update(quantities._stems(cells[max(0, at - quantities.WINDOW):at + quantities.WINDOW + 1]))
        return sorted(found)

    assert quantities.counted_stems(text) == every_line(text)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=40))
def test_fold_drops_every_combining_mark(text):
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    if not text.isascii():
        assert fold(text) == " ".join(plain.translate(str.maketrans({"œ": "oe", "æ": "ae", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i"})).split())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["2", "3", "4", "-", " ", "to", "à", "Players", "PLAYER", "joueurs", "Joueur", "two", "trois", "ſ", "K"]), max_size=12).map("".join))
def test_player_counts_as_if_every_text_were_searched(text):
    import re

    found: set[int] = set()
    for low, high in re.findall(quantities._RANGE, text, re.IGNORECASE):
        if int(low) <= int(high) <= quantities.MAX_PLAYERS:
            found.update(range(int(low), int(high) + 1))
    for written in re.findall(quantities._PLAYERS, text, re.IGNORECASE):
        count = quantities.number_of(written.lower())
        if count is not None and 1 <= count <= quantities.MAX_PLAYERS:
            found.add(count)
    assert quantities.player_counts(text) == sorted(found)
