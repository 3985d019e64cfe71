"""Games imported from public rules documents, as a curator would import them, for the benchmarks.

Each game is started with `rulebot new-game` and its document drafted into it
with `rulebot import DOCUMENT --append`, into a corpus folder of the run's own:
no entry is curated by hand. The documents are ../shared/data's (see its
README); the benchmarks read them, tests never do.

Questions about these games are judged by phrases of the answering rule's text
(`must`: every one of them; `any`: one at least of each group), not by entry ids, which an
import makes: see `right`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = next((up / "shared" / "data" for up in ROOT.parents if (up / "shared" / "data").is_dir()), ROOT.parent / "shared" / "data")
"""../shared/data: beside the checkout, or beside a folder above it (a worktree's)."""
BENCH_DATA = ROOT / "bench" / "data"
"""Documents the benchmarks write for themselves (bench/ti4_reference.py, bench/l5r_reference.py), never committed."""


@dataclass(frozen=True)
class Imported:
    slug: str
    name: str
    document: str
    """The file name in ../shared/data (or in `data`)."""
    data: Path | None = None
    """The folder the document is in, when not ../shared/data."""
    made_by: str = ""
    """The command that writes the document, when it is not in ../shared/data."""
    questions: tuple[str, ...] = ()
    """Its dev question sets in bench/questions, scored with it when it is `present` (WRITTEN's games)."""


FITTED = (
    Imported("star-wars-unlimited", "Star Wars: Unlimited", "star-wars-unlimited-comprehensive-rules.md"),
    Imported("mtg", "Magic: The Gathering", "mtg-comprehensive-rules-20260417.txt"),
)
"""The imported games the ranking is fitted on (their dev questions): documents of ../shared/data, so that a
refit needs nothing but the checkout and ../shared."""
WRITTEN = (
    Imported(
        "twilight-imperium", "Twilight Imperium", "twilight-imperium-rules-reference.md", data=BENCH_DATA,
        made_by="python bench/ti4_reference.py PATH/TO/tirules  (a copy of github.com/bradleysigma/tirules)",
        questions=("imported-dev-ti4.jsonl",),
    ),
    Imported(
        "legend-of-the-five-rings", "Legend of the Five Rings", "l5r-rules-reference.md", data=BENCH_DATA,
        made_by="python bench/l5r_reference.py PATH/TO/Reference.vue  (of github.com/alsciende/fiveringsdb-ui)",
        questions=("imported-dev-l5r.jsonl",),
    ),
)
"""Games whose documents the benchmarks write themselves, from copies of public repositories that ../shared does
not hold: scored when the document is in bench/data (`present`), never fitted on. They were fitted on once; a
refit that needed them could not be made again from a new checkout, which has no bench/data."""
REPORTED = (
    Imported("x-wing", "Star Wars: X-Wing", "star-wars-x-wing-2e-rules-reference-v1.4.6.md"),
    Imported("marvel-champions", "Marvel Champions", "marvel-champions-rules-reference.md"),
)
"""The imported games only reported on: never fitted nor tuned on."""


def present(games: tuple[Imported, ...], data: Path = DATA) -> tuple[Imported, ...]:
    """Those of the games whose document is there to import."""
    return tuple(game for game in games if ((game.data or data) / game.document).is_file())


def import_games(folder: Path, games: tuple[Imported, ...], data: Path = DATA) -> Path:
    """A corpus folder holding the games, each started and imported by the command from its document in `data`;
    returns it."""
    corpus = folder / "corpus"
    env = {**os.environ, "RULEBOT_DATA_DIR": str(folder / "data"), "RULEBOT_CACHE_DIR": str(folder / "cache")}
    for game in games:
        if (corpus / game.slug).exists():
            continue
        document = (game.data or data) / game.document
        if not document.is_file():
            sys.exit(f"{document} is missing" + (f": write it with `{game.made_by}`" if game.made_by else ""))
        rulebot = [sys.executable, "-m", "rulebot", "--corpus", str(corpus)]
        subprocess.run([*rulebot, "new-game", game.slug, "--name", game.name, "--source", "rules", "--title", f"{game.name} rules"],
                       check=True, env=env, capture_output=True)
        subprocess.run([*rulebot, "import", str(document), "--game", game.slug, "--source", "rules", "--append"],
                       check=True, env=env, capture_output=True)
    return corpus


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def phrase_judged(row: dict) -> bool:
    """Whether a question row is judged by phrases of the answer's text rather than by entry ids."""
    return "must" in row or "any" in row


def right(row: dict, text: str) -> bool:
    """Whether an entry's text answers a phrase-judged question: it has every `must` phrase and, of each group
    of `any` phrases, one at least; or it is one of the other passages that state the same answer (`also`: the
    phrases of each, all of which it has). No entry answers a question with no phrase (the sources do not answer
    it).

    `also` was written afterwards by a second judge, from the document alone (never from rulebot's answers): a
    document often states an answer in several places (a rule and its glossary summary, a general rule and a
    variant's own), and the first judge named one."""
    must, groups = row.get("must") or [], row.get("any") or []
    if not must and not groups:
        return False
    flat = _flat(text)
    if all(_flat(p) in flat for p in must) and all(any(_flat(p) in flat for p in group) for group in groups):
        return True
    return any(passage and all(_flat(p) in flat for p in passage) for passage in row.get("also") or ())
