"""The corpus shipped with rulebot: valid, complete per source, linked across expansions."""

from __future__ import annotations

import pytest
from conftest import SHIPPED_GAMES

from rulebot.corpus import load as corpus
from rulebot.corpus.model import Corpus
from rulebot.places import shipped_corpus_dir


@pytest.fixture(scope="module")
def shipped() -> Corpus:
    return corpus.load([shipped_corpus_dir()])


def test_shipped_corpus_has_no_problem():
    """`rulebot check` of the shipped corpus finds nothing to report."""
    _, problems = corpus.check([shipped_corpus_dir()])
    assert problems == []


def test_the_four_games(shipped: Corpus):
    """The four games are there, each with entries from every declared source."""
    assert set(shipped.games) == set(SHIPPED_GAMES)
    for game in shipped.games.values():
        used = {e.source for e in shipped.entries_of(game.slug)}
        assert used == {s.id for s in game.sources}, game.slug


def test_expansion_rules_point_at_what_they_change(shipped: Corpus):
    """The Perlae Imperii victory threshold modifies the base victory check."""
    modifiers = shipped.modified_by()["arcana-victory-check"]
    texts = " ".join(shipped.entry(i).text for i in modifiers)
    assert "13" in texts


def test_missing_table_is_said_not_invented(shipped: Corpus):
    """Catalyst's starting-coins table is missing from the source, and the entry says so."""
    entry = shipped.entry("catalyst-starting-coins")
    assert "not" in entry.text and "table" in entry.text.lower()


def test_molthar_has_french_aliases(shipped: Corpus):
    """The French rules' terms are kept as French aliases."""
    french = {a.text.lower() for e in shipped.entries_of("portals-of-molthar") for a in e.aliases if a.lang == "fr"}
    assert {"portail", "diamant", "feu follet"} <= french


def test_dune_redirects_become_aliases(shipped: Corpus):
    """Redirect-only names of the Dune FAQ are aliases of the entry they point to."""
    names = {a.text for e in shipped.entries_of("dune-imperium") for a in e.aliases}
    assert {"Chani", "Poison Snooper"} <= names


def test_revised_marks_are_kept(shipped: Corpus):
    """Entries the Dune FAQ marks as revised since its edition of 2021-02-14 carry the date of the edition that
    marks them (2022-12-14), and the FAQ lists that earlier edition."""
    assert shipped.entry("dune-chaumurky").revised == "2022-12-14"
    source = shipped.games["dune-imperium"].source("dune-faq")
    assert source is not None and source.edition_dates() == ["2021-02-14", "2022-12-14"]


def test_asked_phrases_share_no_run_of_words_with_a_question():
    """The corpus's `asked` phrases are written from the sources, never from the question sets that measure the
    answers: one sharing a run of words with a question would flatter every figure measured on that set."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sets = sorted(str(p) for p in (root / "tests").glob("questions*.jsonl"))
    assert sets
    checked = subprocess.run(
        [sys.executable, str(root / "bench" / "asked_overlap.py"), "--check", *sets], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout
