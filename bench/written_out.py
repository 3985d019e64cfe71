"""How a game imported from a topic-style rules reference answers, measured on games whose right answers are known.

    python bench/written_out.py

Each shipped game's curated entries of its base game are written out as a
rules reference of the kind X-Wing's and Marvel Champions' are (a heading
per topic, its text, its See also as "Related Topics:"), and that document
is imported into a temporary corpus folder as a curator would import it
(`rulebot new-game`, `rulebot import DOCUMENT --append`, nothing edited).
The shipped games' development questions about their base games (the test
halves are never read) are then asked of the imported games, with the game
given and with none; a draft is right when it is of the question's game and
its text is the beginning of an entry the question expects, or begins it (a
part of a long entry cut at its bullets). In English and in French.

What it tells: what an import alone answers, without the `asked` lines,
aliases and vocabulary a curator adds; and French questions about rules
imported in English, which only the everyday words every game has
(rulebot/language/everyday.toml) can answer. It needs nothing beside the
checkout.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import imported  # noqa: E402

from rulebot.corpus.load import load  # noqa: E402
from rulebot.corpus.model import Corpus  # noqa: E402
from rulebot.index.cache import open_index  # noqa: E402
from rulebot.places import shipped_corpus_dir  # noqa: E402
from rulebot.search.ranking import Searcher  # noqa: E402

QUESTIONS = [ROOT / "tests" / "questions.jsonl", ROOT / "tests" / "questions-players-dev.jsonl", ROOT / "tests" / "questions-fresh-dev.jsonl"]
SUFFIX = "-ref"
"""The slug of a written-out game: its shipped game's and this."""
HEAD = 60
"""How many characters of a text (flattened) tell which entry it is."""


def flat(text: str) -> str:
    """A text without its Markdown, on one line, in lower case."""
    return re.sub(r"\s+", " ", re.sub(r"[*_`#>\[\]()]", " ", text)).strip().casefold()


def write_out(corpus: Corpus, slug: str, path: Path) -> None:
    """A game's base-game entries as a topic-style rules reference."""
    base = {e.id: e for e in corpus.entries_of(slug) if e.expansion is None}
    lines = [f"# {corpus.games[slug].name} Rules Reference", ""]
    for entry in base.values():
        lines += [f"## {entry.title}", "", entry.text.strip(), ""]
        related = [base[i].title for i in entry.see_also if i in base]
        if related:
            lines += ["Related Topics: " + ", ".join(related), ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def import_written_out(corpus: Corpus, folder: Path) -> Path:
    """A corpus folder of every shipped game written out and imported as bench/imported.py imports a document;
    returns it. Each keeps its game's name, as a curator would call it: a question naming the game is about it."""
    documents = []
    for slug, game in corpus.games.items():
        write_out(corpus, slug, folder / f"{slug}-reference.md")
        documents.append(imported.Imported(slug + SUFFIX, game.name, f"{slug}-reference.md"))
    return imported.import_games(folder, tuple(documents), data=folder)


def rows(corpus: Corpus) -> list[dict]:
    """The development questions about a base game, as questions about its written-out game."""
    out = []
    for path in QUESTIONS:
        for row in map(json.loads, filter(str.strip, path.read_text(encoding="utf-8").splitlines())):
            if "q" not in row:
                continue  # a file's header line
            game = row.get("game") or row.get("expect_game")
            expected = [corpus.entries[i] for i in row.get("expect", ()) if i in corpus.entries]
            if not game or row.get("with") or not row.get("answerable", True) or not expected or any(e.expansion for e in expected):
                continue
            out.append({"q": row["q"], "game": game + SUFFIX, "lang": row.get("lang", "en"), "texts": [flat(e.text) for e in expected]})
    return out


def right(row: dict, game: str, text: str) -> bool:
    found = flat(text)
    return game == row["game"] and len(found) >= 20 and any(t[:HEAD] in found or found[:HEAD] in t for t in row["texts"])


def main() -> int:
    corpus = load([shipped_corpus_dir()])
    with tempfile.TemporaryDirectory(prefix="rulebot-written-out-") as folder:
        imported = import_written_out(corpus, Path(folder))
        os.environ["RULEBOT_CACHE_DIR"] = str(Path(folder) / "index")
        ranks: dict[tuple[str, str], list[int | None]] = {}
        with Searcher(open_index([imported])) as searcher:
            for row in rows(corpus):
                for mode, game in (("game given", row["game"]), ("no game", None)):
                    answer = searcher.ask(row["q"], game=game, limit=10)
                    rank = next((i for i, hit in enumerate(answer.results) if right(row, hit.game, hit.data["text"])), None)
                    ranks.setdefault((row["lang"], mode), []).append(rank)
    print("| questions | asked | n | hit@1 | hit@3 |\n|---|---|---:|---:|---:|")
    for (lang, mode), found in sorted(ranks.items()):
        n = len(found)
        hit1 = sum(1 for r in found if r == 0) / n
        hit3 = sum(1 for r in found if r is not None and r < 3) / n
        print(f"| {'French' if lang == 'fr' else 'English'} | {mode} | {n} | {hit1:.2f} | {hit3:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
