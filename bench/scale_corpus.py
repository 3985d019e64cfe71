"""Large corpora for the speed benchmarks: real rules text, replicated to size.

When the public rules documents are present (`../shared/data` beside the
project, or --data DIR), each becomes a game whose entries `rulebot import`
drafts from it (the MTG Comprehensive Rules gives ~3,900 entries with `See rule
N` cross-references). The games are then copied under new slugs and id
prefixes until the corpus has the requested number of entries. Without the
documents, a seeded generator writes games of invented but plausible entries.

    python bench/scale_corpus.py 10000 /tmp/corpus-10k
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebot.corpus.documents import read_document  # noqa: E402
from rulebot.corpus.importing import draft_entries  # noqa: E402
from rulebot.corpus.model import Game, Source  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data"
DOCUMENTS = {
    # file name: (slug, name, id prefix)
    "mtg-comprehensive-rules-20260417.txt": ("mtg", "Magic: The Gathering", "mtg"),
    "marvel-champions-rules-reference.md": ("marvel-champions", "Marvel Champions", "mc"),
    "star-wars-x-wing-2e-rules-reference-v1.4.6.md": ("x-wing", "Star Wars: X-Wing", "xw"),
    "star-wars-unlimited-comprehensive-rules.md": ("sw-unlimited", "Star Wars: Unlimited", "swu"),
}


def game_toml(slug: str, name: str, prefix: str) -> str:
    return (
        f'slug = "{slug}"\nname = "{name}"\nid_prefix = "{prefix}"\n\n'
        f'[[sources]]\nid = "rules"\ntitle = "{name} rules"\ntrust = "official"\n'
    )


def base_games(data: Path | None, work: Path, seed: int) -> list[tuple[str, str, str, str]]:
    """(slug, name, prefix, entries markdown) for each base game."""
    games = []
    if data is not None and data.is_dir():
        for file_name, (slug, name, prefix) in DOCUMENTS.items():
            path = data / file_name
            if not path.is_file():
                continue
            game = Game(slug=slug, name=name, id_prefix=prefix, sources=(Source(id="rules", title=name),))
            drafted = draft_entries(
                read_document(path), game=game, source=game.sources[0], markdown=path.suffix == ".md", document=path.name
            )
            games.append((slug, name, prefix, drafted.to_markdown()))
    if not games:
        games = [synthetic_game(i, seed) for i in range(4)]
    return games


WORDS = (
    "card token player turn round phase action cost pay gain lose draw discard deck hand score point "
    "victory attack defend damage shield energy resource supply market build unit hero villain effect "
    "trigger ability exhaust ready reveal setup first last each any none zone space board track tile"
).split()


def synthetic_game(number: int, seed: int, size: int = 2500) -> tuple[str, str, str, str]:
    """A game of `size` invented entries with titles, texts and see_also links."""
    rng = random.Random(seed * 1000 + number)
    prefix = f"syn{number}"
    blocks = []
    for i in range(size):
        title = " ".join(rng.choice(WORDS).title() for _ in range(rng.randint(1, 3))) + f" {i}"
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80))) + "."
        see = f"see_also: {prefix}-e{rng.randrange(size)}\n" if i and rng.random() < 0.3 else ""
        blocks.append(f"## {prefix}-e{i}\ntitle: {title}\nkind: rule\nsection: Part {i // 100}\n{see}\n{text}\n")
    blocks = [b.replace(f"see_also: {prefix}-e{i}\n", "") for i, b in enumerate(blocks)]  # no self links
    return (f"synthetic-{number}", f"Synthetic Game {number}", prefix, "\n".join(blocks))


def build(target: int, out: Path, data: Path | None = DEFAULT_DATA, seed: int = 0) -> int:
    """Write a corpus of at least `target` entries into `out` (replaced); returns its entry count."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    games = base_games(data, out, seed)
    counts = [text.count("\n## ") + text.startswith("## ") for *_, text in games]
    total, copy = 0, 0
    while total < target:
        for (slug, name, prefix, text), count in zip(games, counts):
            if total >= target:
                break
            suffix = f"-r{copy}" if copy else ""
            new_prefix = f"{prefix}r{copy}" if copy else prefix
            body = re.sub(rf"\b{re.escape(prefix)}-", f"{new_prefix}-", text) if copy else text
            folder = out / f"{slug}{suffix}"
            folder.mkdir()
            (folder / "game.toml").write_text(game_toml(f"{slug}{suffix}", f"{name}{suffix}", new_prefix), encoding="utf-8")
            (folder / "rules.md").write_text(body, encoding="utf-8")
            total += count
        copy += 1
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("entries", type=int, help="entries wanted (at least)")
    parser.add_argument("out", type=Path, help="corpus folder to write (replaced)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of public rules documents")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    count = build(args.entries, args.out, args.data, args.seed)
    print(f"{count} entries in {args.out}")


if __name__ == "__main__":
    main()
