"""Translation files: the titles and texts of a source's entries in another language (`<source-id>.<lang>.md`).

A translation file sits beside the entries file of its source, in the
entries-file format (rulebot.corpus.format): under each `## id` heading, a
`title:` line, a blank line, and the text in that language:

    ## molthar-goal
    title: But du jeu

    Les joueurs sont des aventuriers...

Each block is checked on its own (parse_translations), then against the entry
it translates (translate): the entry must be one of the source's, the file's
language another than the entries' own (TEXT_LANGUAGE), and both texts must
state the same numbers, in digits or in words: a number in one and not in the
other is a mistake in one of them. A block with a problem is left out; the
entry keeps its own text.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rulebot.corpus.format import split_entries
from rulebot.corpus.model import TEXT_LANGUAGE, Entry, Translation
from rulebot.errors import Problem
from rulebot.language.quantities import stated_numbers

TRANSLATION_KEYS = ("title",)
"""The header keys of a block of a translation file (its names and questions go in the entries file: `aliases-fr`)."""
LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian", "nl": "Dutch"}
"""Languages by name, for messages; another is named by its code."""


def language_name(lang: str) -> str:
    """A language's name in English ("French"), or its code when not known."""
    return LANGUAGE_NAMES.get(lang, lang)


def parse_translations(path: Path, text: str, lang: str, shown: str) -> tuple[list[tuple[str, Translation]], list[Problem], int]:
    """The blocks of a translation file in a language, shown as `shown`: (entry id, its translation) each, the
    problems of the blocks on their own, and how many blocks they leave out."""
    problems: list[Problem] = []
    found: list[tuple[str, Translation]] = []
    first: dict[str, int] = {}
    rejected = 0
    for raw in split_entries(path, text):
        own = [Problem(shown, line, message) for line, message in raw.problems]
        if raw.oversized:  # its header and text were not read
            problems.extend(own)
            rejected += 1
            continue
        for key, (_value, line) in raw.headers.items():
            if key not in TRANSLATION_KEYS:
                own.append(Problem(shown, line, f"unknown key {key!r} in a translation (known: title; names and questions go in the entries file, as aliases-{lang})"))
        title = raw.headers.get("title", ("", raw.line))
        if not title[0]:
            own.append(Problem(shown, title[1], f"the {language_name(lang)} text of {raw.id!r} has no title"))
        body = "\n".join(raw.body).strip()
        if not body:
            own.append(Problem(shown, raw.line, f"the {language_name(lang)} text of {raw.id!r} is empty"))
        if raw.id in first:
            own.append(Problem(shown, raw.line, f"{raw.id!r} is translated twice (first at line {first[raw.id]})"))
        first.setdefault(raw.id, raw.line)
        problems.extend(own)
        if own:
            rejected += 1
        else:
            found.append((raw.id, Translation(lang=lang, title=title[0], text=body, path=shown, line=raw.line)))
    return found, problems, rejected


def own_language_problem(lang: str, source_id: str) -> str | None:
    """Why a translation file of a source in `lang` is refused (the language of the entries themselves), or None."""
    if lang == TEXT_LANGUAGE:
        return f"the entries of {source_id}.md are in {language_name(lang)} already: a translation file is for another language"
    return None


def translate(entry: Entry, translation: Translation) -> tuple[Entry | None, str | None]:
    """The entry with its translation added, or (None, why not): the two texts must state the same numbers."""
    own = stated_numbers(f"{entry.title}\n{entry.text}")
    other = stated_numbers(f"{translation.title}\n{translation.text}")
    if own != other:
        name, other_name = language_name(TEXT_LANGUAGE), language_name(translation.lang)
        differences = [
            f"{_numbers(own - other)} only in the {name} text" if own - other else "",
            f"{_numbers(other - own)} only in the {other_name} one" if other - own else "",
        ]
        return None, f"the {other_name} text of {entry.id!r} disagrees in numbers with the {name} one: " + ", ".join(d for d in differences if d)
    return replace(entry, translations=(*entry.translations, translation)), None


def _numbers(numbers: set[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))
