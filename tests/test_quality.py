"""Retrieval quality: the project's own question set, scored by hit@3 over the shipped corpus.

tests/questions.jsonl holds questions written the way players type them, each
with the ids of the entries that truly answer it. This module checks that the
file is well formed and that rulebot finds an expected entry among its first
three answers for at least QUALITY_FLOOR of the questions. bench/quality.py
scores the same questions in more detail, next to a plain BM25 baseline.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rulebot.corpus.load import load
from rulebot.index.cache import open_index
from rulebot.places import shipped_corpus_dir
from rulebot.search.ranking import Searcher

QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"
TYPES = ("exact-name", "typo", "paraphrase", "redirect", "numeric/setup", "cross-game", "french", "expansion")
"""Every question type, as the `type` field spells it."""
KEYS = {"q", "game", "expect_game", "expect", "type", "lang", "with"}
MIN_QUESTIONS = 80
MIN_PER_TYPE = 8
QUALITY_FLOOR = 0.9
"""Share of questions whose expected entry must be among the first three answers."""
DEPTH = 3


def read_questions() -> list[dict]:
    """The questions of tests/questions.jsonl, one dict per line, with its line number as `line`."""
    rows = []
    for number, line in enumerate(QUESTIONS.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            rows.append({**json.loads(line), "line": number})
    return rows


@pytest.fixture(scope="module")
def questions() -> list[dict]:
    return read_questions()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory):
    """A searcher over the shipped corpus, opened once for the module in a cache of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULEBOT_CACHE_DIR", str(tmp_path_factory.mktemp("quality-cache")))
        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            yield searcher


def top_ids(searcher: Searcher, row: dict, depth: int = DEPTH) -> list[str]:
    """The ids of the first `depth` answers to a question, asked as its row says."""
    expansions = {row["game"]: set(row["with"])} if row.get("with") else None
    answer = searcher.ask(row["q"], game=row["game"], limit=depth, expansions=expansions)
    return [hit.id for hit in answer.results[:depth]]


class TestQuestionFile:
    def test_lines_have_known_keys_and_values(self, questions: list[dict]):
        """Every line has the required fields, known keys, a known type and a language."""
        problems = []
        for row in questions:
            where = f"line {row['line']}"
            unknown = set(row) - KEYS - {"line"}
            missing = {"q", "game", "expect", "type", "lang"} - set(row)
            if unknown or missing:
                problems.append(f"{where}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
                continue
            if not isinstance(row["q"], str) or not row["q"].strip():
                problems.append(f"{where}: empty question")
            if row["type"] not in TYPES:
                problems.append(f"{where}: unknown type {row['type']!r}")
            if row["lang"] not in ("en", "fr"):
                problems.append(f"{where}: unknown lang {row['lang']!r}")
            if not isinstance(row["expect"], list) or not row["expect"]:
                problems.append(f"{where}: expect must be a non-empty list of ids")
            if (row["game"] is None) != ("expect_game" in row):
                problems.append(f"{where}: expect_game is required when game is null, and only then")
            if row["type"] == "cross-game" and row["game"] is not None:
                problems.append(f"{where}: a cross-game question has game null")
        assert not problems, "\n".join(problems)

    def test_expected_ids_games_and_expansions_exist(self, questions: list[dict]):
        """Every expected id is an entry of the shipped corpus, of the question's game, and every `with` an expansion of it."""
        corpus = load([shipped_corpus_dir()])
        problems = []
        for row in questions:
            where = f"line {row['line']} ({row['q']!r})"
            game = row["game"] or row.get("expect_game")
            if game not in corpus.games:
                problems.append(f"{where}: unknown game {game!r}")
                continue
            for entry_id in row["expect"]:
                entry = corpus.entries.get(entry_id)
                if entry is None:
                    problems.append(f"{where}: no entry {entry_id!r}")
                elif entry.game != game:
                    problems.append(f"{where}: {entry_id} belongs to {entry.game}, not {game}")
            known = {e.slug for e in corpus.games[game].expansions}
            for expansion in row.get("with", []):
                if row["game"] is None or expansion not in known:
                    problems.append(f"{where}: 'with' {expansion!r} needs a game that has it")
        assert not problems, "\n".join(problems)

    def test_enough_questions_of_every_type(self, questions: list[dict]):
        """At least 80 questions, no question twice, and at least 8 of every type."""
        counts = Counter(row["type"] for row in questions)
        assert len(questions) >= MIN_QUESTIONS
        assert len({(row["q"], row["game"]) for row in questions}) == len(questions), "a question appears twice"
        thin = {t: counts.get(t, 0) for t in TYPES if counts.get(t, 0) < MIN_PER_TYPE}
        assert not thin, f"types with fewer than {MIN_PER_TYPE} questions: {thin}"

    def test_every_game_is_asked_about(self, questions: list[dict]):
        """Each game of the shipped corpus has questions."""
        corpus = load([shipped_corpus_dir()])
        asked = {row["game"] or row.get("expect_game") for row in questions}
        assert set(corpus.games) <= asked


class TestRetrievalQuality:
    def test_hit_at_3(self, shipped: Searcher, questions: list[dict]):
        """An expected entry is among the first three answers for at least 90% of the questions."""
        misses = []
        for row in questions:
            found = top_ids(shipped, row)
            if not set(found) & set(row["expect"]):
                misses.append((row, found))
        score = 1 - len(misses) / len(questions)
        report = "\n".join(
            f"  [{row['type']}] {row['q']!r} (game={row['game'] or 'none'}"
            + (f", with={','.join(row['with'])}" if row.get("with") else "")
            + f"): expected {' or '.join(row['expect'])}; top 3: {', '.join(found) or 'nothing'}"
            for row, found in misses
        )
        assert score >= QUALITY_FLOOR, (
            f"hit@3 = {score:.3f} < {QUALITY_FLOOR} ({len(misses)} of {len(questions)} questions missed):\n{report}"
        )


PLAYERS = {half: QUESTIONS.parent / f"questions-players-{half}.jsonl" for half in ("dev", "test")}
PLAYER_KEYS = {"q", "game", "expect_game", "with", "lang", "type", "answerable", "expect", "answer", "source", "answer_note"}
PLAYER_TYPES = ("everyday", "quantity", "player-count", "name", "typo", "expansion", "two-part", "unanswerable")
PLAYERS_FLOOR = 0.9
"""Share of the players' questions answered right at 3 (unsure, for those the sources do not answer)."""


def read_players(half: str) -> tuple[dict, list[dict]]:
    """The header and the questions of one half of the players' set."""
    lines = [json.loads(line) for line in PLAYERS[half].read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], lines[1:]


class TestPlayersQuestions:
    @pytest.mark.parametrize("half", ["dev", "test"])
    def test_each_half_says_which_it_is_and_is_well_formed(self, half: str):
        """The header names the half; every row has known keys, a type, a language, and expected ids of its game."""
        header, rows = read_players(half)
        assert header["half"] == half and f"{half.upper()} HALF" in header["header"] and header["questions"] == len(rows)
        corpus = load([shipped_corpus_dir()])
        for row in rows:
            game = row["game"] or row["expect_game"]
            assert set(row) <= PLAYER_KEYS and row["type"] in PLAYER_TYPES and row["lang"] in ("en", "fr"), row
            assert row["answerable"] == (row["type"] != "unanswerable"), row
            assert all(corpus.entries[i].game == game for i in row["expect"]), row
            assert row["expect"] or not row["answerable"], row

    def test_the_set_has_what_it_must(self):
        """222 questions over the four games: 40+ French, a quarter without a game, 30+ counts, 10+ unanswerable."""
        rows = read_players("dev")[1] + read_players("test")[1]
        assert len(rows) >= 200 and len({(r["q"], r["game"] or r["expect_game"]) for r in rows}) == len(rows)
        assert sum(r["lang"] == "fr" for r in rows) >= 40
        assert sum(r["game"] is None for r in rows) >= len(rows) / 4
        assert sum(r["type"] in ("quantity", "player-count") for r in rows) >= 30
        assert sum(not r["answerable"] for r in rows) >= 10
        assert {r["game"] or r["expect_game"] for r in rows} == set(load([shipped_corpus_dir()]).games)

    @pytest.mark.parametrize("half", ["dev", "test"])
    def test_hit_at_3(self, shipped: Searcher, half: str):
        """Each half is answered right at 3 for at least PLAYERS_FLOOR of its questions (a floor, not a target)."""
        rows = read_players(half)[1]
        right = 0
        for row in rows:
            expansions = {row["game"] or row["expect_game"]: set(row["with"])} if row.get("with") else None
            answer = shipped.ask(row["q"], game=row["game"], limit=DEPTH, expansions=expansions)
            found = {hit.id for hit in answer.results[:DEPTH]}
            if row["answerable"]:
                right += bool(found & set(row["expect"]))
            else:
                right += not answer.confident and (not row["expect"] or bool(found & set(row["expect"])))
        assert right / len(rows) >= PLAYERS_FLOOR, f"{half}: {right} of {len(rows)}"
