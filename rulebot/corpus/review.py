"""What `rulebot check` runs: the corpus's problems, then what a curator should look at.

Warnings are synonyms that could lead a question to the wrong game
(rulebot.corpus.vocabulary), `revised` dates that name no edition marking a
change (rulebot.corpus.changes) and, given the source documents, ambiguous
citations (rulebot.corpus.citations, whose dangling citations are problems);
draft entries are counted apart.

A curator is told only about the folders they own: other corpus folders
(the shipped one, under a curator's own) are loaded so that house rules can
extend their games and entries can link to theirs, and are never reported on.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulebot.corpus.changes import old_style_marks
from rulebot.corpus.load import check
from rulebot.corpus.model import Corpus
from rulebot.corpus.vocabulary import synonym_collisions
from rulebot.errors import Problem
from rulebot.places import display_path, shipped_corpus_dir


@dataclass
class Review:
    """What `rulebot check` found: problems fail, warnings only inform (unless strict)."""

    corpus: Corpus
    """The corpus as loaded (entries with problems left out)."""
    problems: list[Problem] = field(default_factory=list)
    """Mistakes: the check fails when there is any."""
    warnings: list[Problem] = field(default_factory=list)
    """Things a curator should look at (synonyms that could mislead, ambiguous citations); problems under --strict."""
    drafts: list[Problem] = field(default_factory=list)
    """Draft entries; problems under --strict."""
    notes: list[str] = field(default_factory=list)
    """One-line facts for the summary (citations verified, documents missing)."""
    counts: Counter[str] = field(default_factory=Counter)
    """Entries of each game in the folders reported on."""
    games: list[str] = field(default_factory=list)
    """The games those folders define or extend, in loading order."""


def review(dirs: Iterable[Path], *, strict: bool = False, sources: Path | None = None, owned: Iterable[Path] | None = None) -> Review:
    """Check a corpus as `rulebot check` does: problems, drafts, and cited sections when `sources` is given.

    Only what lies in the `owned` folders is reported (all of `dirs` when None);
    the others are context. With `strict`, warnings and drafts are moved to the problems.
    """
    dirs = list(dirs)
    reported = dirs if owned is None else list(owned)
    roots = [os.path.abspath(d) for d in reported] + [os.path.realpath(d) for d in reported]
    loaded, problems = check(dirs)
    warnings = synonym_collisions(loaded) + old_style_marks(loaded) + bidi_controls(loaded) + empty_files(loaded, problems)
    result = Review(loaded, problems, warnings=warnings, drafts=drafts(loaded))
    if sources is not None:
        from rulebot.corpus import citations  # only with the documents: reading them takes the import's parsers

        verified = citations.verify(loaded, sources, only=lambda entry: _inside(entry.path, roots))
        result.problems.extend(verified.dangling)
        result.warnings.extend(verified.ambiguous)
        result.notes.append(verified.summary())
    result.problems = [p for p in result.problems if _inside(p.path, roots)]
    result.warnings = [p for p in result.warnings if _inside(p.path, roots)]
    result.drafts = [p for p in result.drafts if _inside(p.path, roots)]
    result.counts = Counter(e.game for e in loaded.entries.values() if _inside(e.path, roots))
    result.games = [slug for slug, game in loaded.games.items() if _inside(game.path, roots) or result.counts[slug]]
    if strict:
        result.problems.extend(result.warnings + result.drafts)
        result.warnings, result.drafts = [], []
    result.problems = by_place(result.problems)
    return result


def by_place(problems: list[Problem]) -> list[Problem]:
    """Problems in the order a reader fixes them: each file's by line, the files as first met (the checks find them
    check by check)."""
    files = {path: at for at, path in enumerate(dict.fromkeys(p.path for p in problems))}
    return sorted(problems, key=lambda p: (files[p.path], p.line))


BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""The bidirectional embeddings, overrides and isolates: they show text in another order than it is stored and read."""


def bidi_controls(corpus: Corpus) -> list[Problem]:
    """A warning at each line of an entry that holds a bidirectional control: it can make a ruling look other
    than it reads (as it can source code: CVE-2021-42574); the commands print it as it is."""
    from rulebot.corpus.format import file_lines

    warnings = []
    for entry in corpus.entries.values():
        if not BIDI_CONTROL.search(" ".join([entry.title, entry.section, entry.text, *(a.text for a in (*entry.aliases, *entry.asked))])):
            continue  # nearly every entry: a file is read again only for an entry that holds one
        lines = file_lines(entry.path) or []
        for number in range(entry.line - 1, len(lines)):
            if number >= entry.line and lines[number].startswith("## "):
                break
            control = BIDI_CONTROL.search(lines[number])
            if control:
                message = f"a bidirectional control (U+{ord(control.group()):04X}) in {entry.id!r}: the text may show in another order than it reads"
                warnings.append(Problem(entry.path, number + 1, message))
    return warnings


def empty_files(corpus: Corpus, problems: list[Problem]) -> list[Problem]:
    """A warning for each declared source's entries file, beside its game.toml, that holds no entry and has no
    problem: emptied by mistake, or a new game's, which answers nothing until a document is imported into it."""
    reported = {p.path for p in problems}
    sourced = {(e.game, e.source) for e in corpus.entries.values()}
    warnings = []
    for game in corpus.games.values():
        for source in game.sources if game.path else ():
            path = Path(game.path).parent / f"{source.id}.md"
            shown = display_path(path)  # (as the loader names it in its problems)
            if (game.slug, source.id) not in sourced and path.is_file() and shown not in reported:
                warnings.append(Problem(shown, 0, f"no entries of source {source.id!r} of {game.slug}: add some, or import its document"))
    return warnings


def drafts(corpus: Corpus) -> list[Problem]:
    """One 'entry X is a draft' notice per draft entry, at its heading."""
    return [Problem(e.path, e.line, f"entry {e.id!r} is a draft") for e in corpus.entries.values() if e.draft]


def scope(named: list[Path], in_use: list[Path]) -> tuple[list[Path], list[Path]]:
    """The folders `check` reports on, and every folder it loads (those, after the folders they need).

    Named folders are the curator's; without any, the corpora in use (`in_use`),
    except the shipped one, which is reported on only when it is all there is.
    Under named folders, the others in use are loaded when house rules of theirs
    extend one of their games (see context).
    """
    if named:
        return named, [*context(named, in_use), *named]
    shipped = os.path.realpath(shipped_corpus_dir())
    owned = [d for d in in_use if os.path.realpath(d) != shipped] or in_use
    return owned, in_use


def context(owned: Iterable[Path], others: Iterable[Path]) -> list[Path]:
    """The folders of `others` that the `owned` ones need: those defining a game that an owned
    house-rules folder extends and no owned folder defines (a folder defining an owned game
    again would only report that game twice)."""
    def games(root: Path) -> tuple[set[str], set[str]]:
        defined, extended = set(), set()
        for game_file in sorted(root.glob("*/game.toml")):
            try:
                data = tomllib.loads(game_file.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
                continue  # the check itself reports it
            if isinstance(data.get("extends"), str):
                extended.add(data["extends"])
            elif isinstance(data.get("slug"), str):
                defined.add(data["slug"])
        return defined, extended

    owned = list(owned)
    mine = [games(root) for root in owned]
    defined = set().union(*(d for d, _ in mine))
    wanted = set().union(*(e for _, e in mine)) - defined
    roots = {os.path.realpath(d) for d in owned}
    needed = []
    for folder in others:
        if os.path.realpath(folder) in roots or not wanted:
            continue
        theirs, _ = games(folder)
        if theirs & wanted and not theirs & defined:
            needed.append(folder)
            wanted -= theirs
    return needed


def _inside(path: str | Path, roots: list[str]) -> bool:
    """A file or folder in one of the folders `roots` (as named, and real paths), or one of them; as named
    or as its links lead (a link in the folder to a file elsewhere is the folder's)."""
    return any(
        place == root or place.startswith(root.rstrip(os.sep) + os.sep)
        for place in (os.path.abspath(path), os.path.realpath(path))
        for root in roots
    )
