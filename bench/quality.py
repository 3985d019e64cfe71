"""Score rulebot's retrieval next to a plain BM25 baseline, on the same corpus and questions.

    python bench/quality.py                          # tests/questions.jsonl
    python bench/quality.py --questions FILE.jsonl   # another question set, same format
    python bench/quality.py --misses                 # also list rulebot's misses at 3

Both systems answer every question of the set (format: see tests/test_quality.py)
over the shipped corpus. The baseline is SQLite FTS5 with its default
tokenizer (unicode61: case and accents folded, no stemming, no stop words), one
row per entry holding title + aliases + text, ranked by bm25(); its query is an
OR of the question's words, each quoted so that query syntax cannot break it.
Both are restricted the same way: to the question's game when it has one and,
when the question lists expansions in play ("with"), to the base game and those
expansions.

Printed as a Markdown table per question type and overall: hit@1, hit@3 (an
expected id among the first 1 or 3 answers) and MRR (mean of 1/rank of the
first expected id within the first DEPTH answers, 0 when none).
Standard library and rulebot only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from rulebot.corpus import load  # noqa: E402

from rulebot.corpus_files import shipped_corpus_dir
from rulebot.index import open_index  # noqa: E402
from rulebot.model import Corpus  # noqa: E402
from rulebot.search import Searcher  # noqa: E402

DEFAULT_QUESTIONS = ROOT / "tests" / "questions.jsonl"
DEPTH = 10
"""Answers fetched per question; MRR counts ranks up to this depth."""
TYPES = ("exact-name", "typo", "paraphrase", "redirect", "numeric/setup", "cross-game", "french", "expansion")
WORD_RE = re.compile(r"\w+")

Ranker = Callable[[dict], list[str]]
"""Takes a question row, returns entry ids, best first."""


def read_questions(path: Path) -> list[dict]:
    """One dict per non-blank line of a JSON-lines question file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def in_play(row: dict) -> dict[str, set[str]] | None:
    """{game: expansions} when the question lists expansions in play, else None."""
    return {row["game"]: set(row["with"])} if row.get("with") else None


class Baseline:
    """Plain BM25: an in-memory SQLite FTS5 table, one row per entry."""

    def __init__(self, corpus: Corpus):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE entries USING fts5(id UNINDEXED, game UNINDEXED, expansion UNINDEXED, body)")
        self.db.executemany(
            "INSERT INTO entries (id, game, expansion, body) VALUES (?, ?, ?, ?)",
            (
                (e.id, e.game, e.expansion or "base", "\n".join([e.title, *(a.text for a in e.aliases), e.text]))
                for e in corpus.entries.values()
            ),
        )

    def rank(self, row: dict) -> list[str]:
        words = WORD_RE.findall(row["q"])
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        sql = "SELECT id FROM entries WHERE entries MATCH ?"
        params: list[object] = [match]
        if row.get("game"):
            sql += " AND game = ?"
            params.append(row["game"])
        if row.get("with"):
            allowed = ["base", *row["with"]]
            sql += f" AND expansion IN ({', '.join('?' * len(allowed))})"
            params.extend(allowed)
        sql += " ORDER BY bm25(entries), id LIMIT ?"
        params.append(DEPTH)
        return [r[0] for r in self.db.execute(sql, params)]


def rulebot_ranker(searcher: Searcher) -> Ranker:
    def rank(row: dict) -> list[str]:
        answer = searcher.ask(row["q"], game=row.get("game"), limit=DEPTH, expansions=in_play(row))
        return [hit.id for hit in answer.results]

    return rank


def first_rank(found: list[str], expected: Iterable[str]) -> int | None:
    """1-based rank of the first expected id among the answers, or None."""
    wanted = set(expected)
    return next((i for i, entry_id in enumerate(found, start=1) if entry_id in wanted), None)


def scores(ranks: list[int | None]) -> tuple[float, float, float]:
    """(hit@1, hit@3, MRR) of a list of first ranks."""
    n = len(ranks) or 1
    hit1 = sum(1 for r in ranks if r is not None and r <= 1) / n
    hit3 = sum(1 for r in ranks if r is not None and r <= 3) / n
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return hit1, hit3, mrr


def table(rows: list[dict], ranks: dict[str, list[int | None]]) -> str:
    """The Markdown table: one line per question type, then overall."""
    systems = list(ranks)
    present = [t for t in TYPES if any(r["type"] == t for r in rows)]
    present += sorted({r["type"] for r in rows} - set(present))
    head = ["type", "n"] + [f"{s} {m}" for s in systems for m in ("hit@1", "hit@3", "MRR")]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    groups = [(t, [i for i, r in enumerate(rows) if r["type"] == t]) for t in present]
    groups.append(("**overall**", list(range(len(rows)))))
    for name, indexes in groups:
        cells = [name, str(len(indexes))]
        for system in systems:
            cells += [f"{v:.2f}" for v in scores([ranks[system][i] for i in indexes])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS, metavar="FILE", help="JSON-lines question file (default: tests/questions.jsonl)")
    parser.add_argument("--misses", action="store_true", help="also list the questions rulebot misses at 3, with its top 3")
    args = parser.parse_args(argv)
    try:
        rows = read_questions(args.questions)
    except (OSError, ValueError) as exc:
        parser.error(f"cannot read {args.questions}: {exc}")
    corpus = load([shipped_corpus_dir()])
    baseline = Baseline(corpus)
    # A cache of the run's own, so the benchmark never depends on (or touches) the user's index.
    with tempfile.TemporaryDirectory(prefix="rulebot-bench-") as cache:
        os.environ["RULEBOT_CACHE_DIR"] = cache
        with Searcher(open_index([shipped_corpus_dir()])) as searcher:
            rank_rulebot = rulebot_ranker(searcher)
            found = {"rulebot": [rank_rulebot(r) for r in rows], "baseline": [baseline.rank(r) for r in rows]}

    ranks = {system: [first_rank(f, r["expect"]) for f, r in zip(answers, rows)] for system, answers in found.items()}
    try:
        shown = args.questions.resolve().relative_to(ROOT)
    except ValueError:
        shown = args.questions
    print(f"Questions: {shown} ({len(rows)}); corpus: {len(corpus.entries)} entries; MRR depth {DEPTH}.")
    print(f"{date.today().isoformat()}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.platform()}")
    print()
    print(table(rows, ranks))
    if args.misses:
        print()
        print("rulebot misses at 3:")
        for row, answers, rank in zip(rows, found["rulebot"], ranks["rulebot"]):
            if rank is None or rank > 3:
                game = row.get("game") or "none"
                extra = f", with {','.join(row['with'])}" if row.get("with") else ""
                where = f"rank {rank}" if rank else "not in top 10"
                print(f"- [{row['type']}] {row['q']!r} (game {game}{extra}): expected {' or '.join(row['expect'])} ({where}); top 3: {', '.join(answers[:3]) or 'nothing'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
