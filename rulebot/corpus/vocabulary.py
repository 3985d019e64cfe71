"""Checking a corpus's vocabulary: synonym groups that would lead a question astray.

A synonym group makes every member search for every other, in its game. A
member that the game's own entries never use is a players' word for the
game's term ("gold" for Catalyst's coins); when that word is a term in the
title of another game's entry (Res Arcana's Gold), a question about that
term, asked without a game, also searches the first game's term, and may be
answered from the wrong game. `rulebot check` warns about each such member.
"""

from __future__ import annotations

from pathlib import Path

from rulebot.corpus.files import VOCABULARY_FILE
from rulebot.corpus.model import Corpus
from rulebot.errors import Problem
from rulebot.language import analysis


def synonym_collisions(corpus: Corpus) -> list[Problem]:
    """A warning for each synonym member its own game never uses that is a title word of another game's entry."""
    titles = {slug: [(e, _stems(e.title)) for e in corpus.entries_of(slug)] for slug in corpus.games}
    texts = {slug: [_stems(f"{e.title}\n{e.text}") for e in corpus.entries_of(slug)] for slug in corpus.games}
    warnings = []
    for slug, game in corpus.games.items():
        for group in game.synonyms:
            if group in corpus.shared_synonyms:
                continue  # question words every game shares, not a game's terms
            for member in group:
                phrase = tuple(_stems(member))
                if not phrase or any(analysis.find_phrase(text, phrase) >= 0 for text in texts[slug]):
                    continue  # a word of the game's own rules
                clashes = [
                    entry for other in corpus.games if other != slug
                    for entry, title in titles[other] if analysis.find_phrase(title, phrase) >= 0
                ]
                if clashes:
                    path, line = _where(game.path, member)
                    named = ", ".join(f"{e.id!r}" for e in clashes[:3]) + (f" and {len(clashes) - 3} more" if len(clashes) > 3 else "")
                    warnings.append(Problem(
                        path, line,
                        f"synonym {member!r} ({game.name}: {', '.join(group)}) is a title word of {named} in another game: "
                        f"asked without a game, a question about it would also search {game.name}'s {group[0]!r}",
                    ))
    return warnings


def _stems(text: str) -> list[str]:
    return [analysis.stem(word) for word in analysis.words(text)]


def _where(game_file: str, member: str) -> tuple[str, int]:
    """The file and line where a synonym group member is written: the game's game.toml, else the shared vocabulary."""
    game_path = Path(game_file)
    for path in (game_path, game_path.parent.parent / VOCABULARY_FILE):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, start=1):
            if f'"{member}"' in line.lower():
                return str(path), number
    return game_file, 0
