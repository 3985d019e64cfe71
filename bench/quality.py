"""Score rulebot's retrieval next to a plain BM25 baseline, on the same corpus and questions.

    python bench/quality.py                          # every question set of tests/
    python bench/quality.py --questions FILE.jsonl   # one question set (same format)
    python bench/quality.py --misses                 # also list rulebot's misses at 3 (never of a test half)
    python bench/quality.py --misses --misses-at 1   # ... or every wrong first answer
    python bench/quality.py --site                   # the site's search box too, beside the command
    python bench/quality.py --imported               # also games imported from ../shared/data, and their questions

Question files (JSON lines; a first line {"header": ..., "half": ...} names
the half of a split set): tests/questions.jsonl, the project's set,
tests/questions-players-{dev,test}.jsonl and questions-fresh-{dev,test}.jsonl,
questions in players' own words written from the sources before the corpus
was read, and bench/questions/shipped-dev-more.jsonl, more of them written
later (all development questions). Each row has `q`,
`game` (null: the question names none, `expect_game` says whose it is),
optional `with` (expansions in play), `lang`, `type`, `expect` (the ids of
the entries whose text states the answer) and, in the players' set,
`answerable` (false: the sources do not answer it; `expect` then holds the
entry that says what is missing, if there is one). Questions about a game
imported from a rules document (bench/imported.py: Star Wars Unlimited and
MTG, with --imported; X-Wing and Marvel Champions too, reported only) have
no `expect` ids: an answer is right when its text holds every `must` phrase
and one of each group of `any` phrases of the row (bench/questions/imported-dev.jsonl and
imported-dev-more.jsonl).

Both systems answer every question over the shipped corpus. The baseline
is SQLite FTS5 with its default tokenizer (unicode61: case and accents
folded, no stemming, no stop words), one row per entry holding title +
aliases + text, ranked by bm25(); its query is an OR of the question's
words, each quoted so that query syntax cannot break it. Both are
restricted the same way: to the game when one is given and, when the
question lists expansions in play ("with"), to the base game and those.

A question is answered right at k when an expected id is among the first k
answers; a question the sources do not answer is answered right when the
answer is flagged unsure (rulebot's `confident` false; the baseline is
unsure only when it finds nothing) and, if an entry says what is missing,
that entry is among the first k. Printed as Markdown tables: per question
type, per language and overall, with the game as each row gives it; then
every question asked with its game given and with no game given; then how
far rulebot's confidence flag can be trusted. Standard library and rulebot
only.

With `--site`, the site is built to a temporary folder and its search box
answers too, in Chromium (Playwright driving /usr/bin/chromium, pages
opened from file://): a question with a game is typed on that game's page,
one without on the home page, and the links the results list shows are its
answers (the site flags an answer unsure as `ask` does: the list's
`data-confident`). The site has no expansions in play: it is asked without
a row's `with`. Its column sits beside the command's, with the baseline.
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
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from rulebot.corpus.load import load  # noqa: E402
from rulebot.corpus.model import Corpus  # noqa: E402
from rulebot.index.cache import open_index  # noqa: E402
from rulebot.places import shipped_corpus_dir  # noqa: E402
from rulebot.search.ranking import Searcher  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import imported  # noqa: E402

TESTS = ROOT / "tests"
DEFAULT_QUESTIONS = [
    TESTS / "questions.jsonl", TESTS / "questions-players-dev.jsonl", TESTS / "questions-players-test.jsonl",
    TESTS / "questions-fresh-dev.jsonl", ROOT / "bench" / "questions" / "shipped-dev-more.jsonl",
]
IMPORTED_QUESTIONS = [
    ROOT / "bench" / "questions" / name
    for name in ("imported-dev.jsonl", "imported-dev-more.jsonl", "imported-dev-3.jsonl")
]
"""Added to the default sets with --imported, with those of the games of imported.WRITTEN whose document is there."""
DEPTH = 10
"""Answers fetched per question; MRR counts ranks up to this depth."""
TYPES = (
    # the project's set
    "exact-name", "typo", "paraphrase", "redirect", "numeric/setup", "cross-game", "french", "expansion",
    # the players' set (typo and expansion too)
    "everyday", "quantity", "player-count", "name", "two-part", "unanswerable",
)
WORD_RE = re.compile(r"\w+")
GAME_MODES = ("as asked", "game given", "no game")
"""How a question's game is passed: as its row says, always (its game or expect_game), never."""


@dataclass(frozen=True)
class Found:
    """What a system answered to one question."""

    ids: list[str]
    """Entry ids, best first."""
    confident: bool
    """Whether the system stood by its first answer."""
    texts: list[str] | None = None
    """The entries' texts, best first (for questions judged by phrases)."""
    probability: float | None = None
    """How likely the system says its first answer is right (rulebot only)."""
    games: list[str] | None = None
    """The entries' games, best first: an answer judged by phrases must be of the question's game."""


Ranker = Callable[[dict, str | None], Found]
"""Takes a question row and the game to pass (None: none), returns what was found."""


@dataclass(frozen=True)
class QuestionFile:
    path: Path
    half: str | None
    """"dev" or "test" for a half of a split set, else None."""
    rows: list[dict]


def read_questions(path: Path) -> QuestionFile:
    """The question rows of a JSON-lines file, and the half its header names."""
    rows, half = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "header" in row:
            half = row.get("half")
        else:
            rows.append(row)
    return QuestionFile(path, half, rows)


def game_of(row: dict) -> str:
    return row["game"] or row["expect_game"]


def passed_game(row: dict, mode: str) -> str | None:
    """The game a question is asked with in a mode of GAME_MODES."""
    return {"as asked": row["game"], "game given": game_of(row), "no game": None}[mode]


def in_play(row: dict) -> dict[str, set[str]] | None:
    """{game: expansions} when the question lists expansions in play, else None."""
    return {game_of(row): set(row["with"])} if row.get("with") else None


class Baseline:
    """Plain BM25: an in-memory SQLite FTS5 table, one row per entry."""

    def __init__(self, corpus: Corpus):
        self.texts = {e.id: e.text for e in corpus.entries.values()}
        self.games = {e.id: e.game for e in corpus.entries.values()}
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE entries USING fts5(id UNINDEXED, game UNINDEXED, expansion UNINDEXED, body)")
        self.db.executemany(
            "INSERT INTO entries (id, game, expansion, body) VALUES (?, ?, ?, ?)",
            (
                (e.id, e.game, e.expansion or "base", "\n".join([e.title, *(a.text for a in e.aliases), e.text]))
                for e in corpus.entries.values()
            ),
        )

    def rank(self, row: dict, game: str | None) -> Found:
        words = WORD_RE.findall(row["q"])
        if not words:
            return Found([], False)
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        sql = "SELECT id FROM entries WHERE entries MATCH ?"
        params: list[object] = [match]
        if game:
            sql += " AND game = ?"
            params.append(game)
        if row.get("with"):
            allowed = ["base", *row["with"]]
            sql += f" AND expansion IN ({', '.join('?' * len(allowed))})"
            params.extend(allowed)
        sql += " ORDER BY bm25(entries), id LIMIT ?"
        params.append(DEPTH)
        ids = [r[0] for r in self.db.execute(sql, params)]
        return Found(ids, bool(ids), [self.texts[i] for i in ids], games=[self.games[i] for i in ids])


def rulebot_ranker(searcher: Searcher) -> Ranker:
    def rank(row: dict, game: str | None) -> Found:
        answer = searcher.ask(row["q"], game=game, limit=DEPTH, expansions=in_play(row))
        results = answer.results
        return Found([h.id for h in results], answer.confident, [h.data["text"] for h in results], answer.probability, [h.game for h in results])

    return rank


CHROMIUM = Path("/usr/bin/chromium")
TIMER = """() => {
  const box = document.getElementById('search--q'), list = document.getElementById('search--results');
  let typed = 0;
  window.answerTimes = [];
  box.addEventListener('input', () => { typed = performance.now(); }, true);
  new MutationObserver(() => {
    if (typed && list.dataset.confident !== undefined) { window.answerTimes.push(performance.now() - typed); typed = 0; }
  }).observe(list, {attributes: true, attributeFilter: ['data-confident']});
}"""
"""Times each answer in the page: from the input event of the key that ends a question to its results in the list."""


class SiteSearch:
    """The built site's search box, in Chromium: one tab per page a question is typed on (a game's, or the home page)."""

    def __init__(self, site: Path, browser, texts: dict[str, str], games: dict[str, str]):
        self.site, self.browser = site, browser
        self.texts, self.games = texts, games
        """Each entry's text and game, by id: the site's answers to questions judged by phrases are judged by them."""
        self.tabs: dict[str | None, object] = {}

    def tab(self, game: str | None):
        if game not in self.tabs:
            tab = self.browser.new_page()
            tab.set_default_timeout(60_000)
            tab.on("pageerror", lambda error: print(f"site: {error}", file=sys.stderr))
            tab.goto((self.site / (f"{game}/index.html" if game else "index.html")).as_uri())
            tab.evaluate(TIMER)
            self.tabs[game] = tab
            self._ask(tab, "rules")  # the search data loaded: what follows times answers alone
            tab.evaluate("() => { window.answerTimes = []; }")
        return self.tabs[game]

    def _ask(self, tab, query: str) -> None:
        tab.fill("#search--q", query)
        tab.wait_for_function(
            "q => { const list = document.getElementById('search--results');"
            " return list.dataset.query === q && list.dataset.complete === 'true' && list.dataset.confident !== undefined"
            " || list.dataset.query === q && document.getElementById('search--status').textContent.startsWith('No entry matches'); }",
            arg=query,
        )

    def answer_times(self) -> list[float]:
        """How long each answer took, in ms, from the key that ended the question to its results in the list."""
        return sorted(t for tab in self.tabs.values() for t in tab.evaluate("() => window.answerTimes"))

    def rank(self, row: dict, game: str | None) -> Found:
        tab = self.tab(game)
        self._ask(tab, " ".join(row["q"].split()))
        hrefs = tab.eval_on_selector_all("#search--results li:not(.search-more) a", "links => links.map(a => a.getAttribute('href'))")
        ids = [urllib.parse.unquote(href.rpartition("#")[2]) for href in hrefs]
        ids = ids[:DEPTH]
        sure = tab.get_attribute("#search--results", "data-confident") == "true"
        return Found(ids, sure, [self.texts.get(i, "") for i in ids], games=[self.games.get(i, "") for i in ids])


def is_right(row: dict, found: Found, at: int) -> bool:
    """Whether the answer at a 0-based rank is right: an expected id, or a text with the row's phrases."""
    if imported.phrase_judged(row):
        of_its_game = found.games is None or found.games[at] == game_of(row)
        return of_its_game and found.texts is not None and imported.right(row, found.texts[at])
    return found.ids[at] in row.get("expect", ())


def first_rank(found: Found, row: dict) -> int | None:
    """1-based rank of the right answer among those found, or None (see the module's docstring)."""
    ranks = (i for i in range(1, len(found.ids) + 1) if is_right(row, found, i - 1))
    if row.get("answerable", True):
        return next(ranks, None)
    if found.confident:
        return None
    if not row.get("expect"):
        return 1
    return next(ranks, None)


def scores(ranks: list[int | None]) -> tuple[float, float, float]:
    """(hit@1, hit@3, MRR) of a list of first ranks."""
    n = len(ranks) or 1
    hit1 = sum(1 for r in ranks if r is not None and r <= 1) / n
    hit3 = sum(1 for r in ranks if r is not None and r <= 3) / n
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return hit1, hit3, mrr


def table(label: str, groups: list[tuple[str, list[int]]], ranks: dict[str, list[int | None]]) -> str:
    """A Markdown table: a line per group of questions (their indexes), each system's hit@1, hit@3, MRR."""
    systems = list(ranks)
    head = [label, "n"] + [f"{s} {m}" for s in systems for m in ("hit@1", "hit@3", "MRR")]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for name, indexes in groups:
        cells = [name, str(len(indexes))]
        for system in systems:
            cells += [f"{v:.2f}" for v in scores([ranks[system][i] for i in indexes])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def by_key(rows: list[dict], key: Callable[[dict], str], order: Iterable[str] = ()) -> list[tuple[str, list[int]]]:
    """Question indexes grouped by a key, the keys in `order` first, then the rest sorted; then overall."""
    keys = [k for k in order if any(key(r) == k for r in rows)]
    keys += sorted({key(r) for r in rows} - set(keys))
    groups = [(k, [i for i, r in enumerate(rows) if key(r) == k]) for k in keys]
    return [*groups, ("**overall**", list(range(len(rows))))]


def confidence_lines(rows: list[dict], found: list[Found]) -> list[str]:
    """How far the confidence flag can be trusted: the first answer's rightness among confident and unsure answers."""

    def right_first(row: dict, f: Found) -> bool:
        return bool(f.ids) and row.get("answerable", True) and is_right(row, f, 0)

    confident = [right_first(r, f) for r, f in zip(rows, found) if f.confident]
    unsure = [right_first(r, f) for r, f in zip(rows, found) if not f.confident]
    unanswered = [f.confident for r, f in zip(rows, found) if not r.get("answerable", True)]
    lines = [
        f"- confident answers whose first entry is right: {sum(confident)}/{len(confident)}"
        + (f" = {sum(confident) / len(confident):.2f}" if confident else ""),
        f"- unsure answers whose first entry is right anyway: {sum(unsure)}/{len(unsure)}"
        + (f" = {sum(unsure) / len(unsure):.2f}" if unsure else ""),
    ]
    if unanswered:
        lines.append(f"- questions the sources do not answer, answered confidently: {sum(unanswered)}/{len(unanswered)}")
    answerable = [f.confident for r, f in zip(rows, found) if r.get("answerable", True)]
    if answerable:
        lines.append(f"- answerable questions answered confidently: {sum(answerable)}/{len(answerable)} = {sum(answerable) / len(answerable):.2f}")
    return lines


BINS = 5
"""The reliability table's bins of probability: [0, 0.2), [0.2, 0.4), ... [0.8, 1]."""


def calibration_lines(rows: list[dict], found: list[Found]) -> list[str]:
    """How well the probability that the first answer is right is calibrated: per bin, the questions, their mean
    probability and the share whose first answer is right (a question the sources do not answer: never right);
    then the expected calibration error (the bins' gaps, weighed by their questions)."""
    pairs = [(f.probability, bool(f.ids) and row.get("answerable", True) and is_right(row, f, 0)) for row, f in zip(rows, found) if f.probability is not None]
    if not pairs:
        return []
    lines = ["| probability | n | predicted | observed |", "|---|---:|---:|---:|"]
    error = 0.0
    for number in range(BINS):
        low, high = number / BINS, (number + 1) / BINS
        inside = [(p, r) for p, r in pairs if low <= p < high or (number == BINS - 1 and p == 1.0)]
        if not inside:
            continue
        predicted = sum(p for p, _ in inside) / len(inside)
        observed = sum(r for _, r in inside) / len(inside)
        error += len(inside) / len(pairs) * abs(predicted - observed)
        lines.append(f"| {low:.1f}-{high:.1f} | {len(inside)} | {predicted:.2f} | {observed:.2f} |")
    return [*lines, "", f"expected calibration error: {error:.3f}"]


def report(questions: QuestionFile, rankers: dict[str, Ranker], misses: bool, at: int = 3) -> str:
    rows = questions.rows
    out = []
    ranks_by_mode = {}
    found_by_mode = {}
    for mode in GAME_MODES:
        found = {name: [rank(r, passed_game(r, mode)) for r in rows] for name, rank in rankers.items()}
        found_by_mode[mode] = found
        ranks_by_mode[mode] = {name: [first_rank(f, r) for f, r in zip(answers, rows)] for name, answers in found.items()}
    ranks = ranks_by_mode["as asked"]
    out.append(table("type", by_key(rows, lambda r: r["type"], TYPES), ranks))
    if len({r["lang"] for r in rows}) > 1:
        out += ["", table("language", by_key(rows, lambda r: r["lang"], ("en", "fr")), ranks)]
    modes = [(mode, list(range(len(rows)))) for mode in GAME_MODES]
    out += ["", "| game | n | " + " | ".join(f"{s} {m}" for s in rankers for m in ("hit@1", "hit@3", "MRR")) + " |"]
    out.append("|" + "|".join(["---"] + ["---:"] * (1 + 3 * len(rankers))) + "|")
    for mode, indexes in modes:
        cells = [mode, str(len(indexes))]
        for system in rankers:
            cells += [f"{v:.2f}" for v in scores(ranks_by_mode[mode][system])]
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "rulebot's confidence, games as asked:", *confidence_lines(rows, found_by_mode["as asked"]["rulebot"])]
    out += ["", "rulebot's probability that its first answer is right, games as asked:", "", *calibration_lines(rows, found_by_mode["as asked"]["rulebot"])]
    if "site" in rankers:
        out += ["", "the site's confidence, games as asked:", *confidence_lines(rows, found_by_mode["as asked"]["site"])]
    if misses:
        out += ["", f"rulebot misses at {at} (games as asked):"]
        for row, found, rank in zip(rows, found_by_mode["as asked"]["rulebot"], ranks["rulebot"]):
            if rank is None or rank > at:
                game = row.get("game") or "none"
                extra = f", with {','.join(row['with'])}" if row.get("with") else ""
                where = f"rank {rank}" if rank else "not in top 10"
                expected = " or ".join(row.get("expect", ())) or ("the rule saying " + " / ".join(row.get("must", []) + row.get("any", [])) if imported.phrase_judged(row) else "an unsure answer")
                sure = "confident" if found.confident else "unsure"
                out.append(
                    f"- [{row['type']}] {row['q']!r} (game {game}{extra}): expected {expected} ({where}); "
                    f"{sure}, top 3: {', '.join(found.ids[:3]) or 'nothing'}"
                )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, action="append", metavar="FILE", help="JSON-lines question file (repeatable; default: every set of tests/)")
    parser.add_argument("--misses", action="store_true", help="also list the questions rulebot misses at 3 (refused for a test half)")
    parser.add_argument("--misses-at", type=int, default=3, metavar="K", help="with --misses: list the misses at K (1: every wrong first answer)")
    parser.add_argument("--site", action="store_true", help="also ask the built site's search box, in Chromium")
    parser.add_argument("--imported", action="store_true", help="also import games from ../shared/data (bench/imported.py) and score their dev questions")
    args = parser.parse_args(argv)
    if args.site and not CHROMIUM.exists():
        parser.error(f"--site needs Chromium at {CHROMIUM} and the playwright package")
    files = []
    written = imported.present(imported.WRITTEN) if args.imported else ()
    written_questions = [ROOT / "bench" / "questions" / name for game in written for name in game.questions]
    for path in args.questions or DEFAULT_QUESTIONS + (IMPORTED_QUESTIONS + written_questions if args.imported else []):
        try:
            files.append(read_questions(path))
        except (OSError, ValueError) as exc:
            parser.error(f"cannot read {path}: {exc}")
    # A cache of the run's own, so the benchmark never depends on (or touches) the user's index.
    with tempfile.TemporaryDirectory(prefix="rulebot-bench-") as cache, ExitStack() as stack:
        folders = [shipped_corpus_dir()]
        if args.imported:
            folders.append(imported.import_games(Path(cache), imported.FITTED + imported.REPORTED + written))
        os.environ["RULEBOT_CACHE_DIR"] = cache
        corpus = load(folders)
        baseline = Baseline(corpus)
        print(f"Corpus: {len(corpus.entries)} entries; MRR depth {DEPTH}.")
        print(f"{date.today().isoformat()}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.platform()}")
        searcher = stack.enter_context(Searcher(open_index(folders)))
        rankers = {"rulebot": rulebot_ranker(searcher)}
        site_search = None
        if args.site:
            site_search = stack.enter_context(_site_search(corpus, Path(cache)))
            rankers["site"] = site_search.rank
        rankers["baseline"] = baseline.rank
        for questions in files:
            try:
                shown = questions.path.resolve().relative_to(ROOT)
            except ValueError:
                shown = questions.path
            half = f", {questions.half} half" if questions.half else ""
            print(f"\n### {shown} ({len(questions.rows)} questions{half})\n")
            # A test half is scored to report, never to tune: its misses are not shown.
            print(report(questions, rankers, args.misses and questions.half != "test", args.misses_at))
        if site_search is not None:
            times = site_search.answer_times()
            print(f"\nThe site's answers, from the last key to the results in the list ({len(times)} questions; the box "
                  f"waits 60 ms after a key before it searches): median {times[len(times) // 2]:.0f} ms, "
                  f"95th percentile {times[int(len(times) * 0.95)]:.0f} ms, slowest {times[-1]:.0f} ms.")
    return 0


@contextmanager
def _site_search(corpus: Corpus, folder: Path) -> Iterator[SiteSearch]:
    """The corpus's site, built into a folder, and its search in a headless Chromium."""
    from playwright.sync_api import sync_playwright

    from rulebot.site import build as site

    site.build(corpus, folder / "site")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            entries = corpus.entries.values()
            yield SiteSearch(folder / "site", browser, {e.id: e.text for e in entries}, {e.id: e.game for e in entries})
        finally:
            browser.close()


if __name__ == "__main__":
    sys.exit(main())
