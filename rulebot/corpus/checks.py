"""The checks that need the whole corpus: references between entries, cycles of `modifies`, names and
questions claimed twice.

Each check is a step of CHECKS, run in that order over the entries as
loaded; a problem is reported at the line of the header it is about.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rulebot.corpus.format import LIST_SEPARATOR, file_lines, header_line
from rulebot.corpus.model import Corpus, Entry
from rulebot.errors import Problem
from rulebot.text import fold


@dataclass
class Checked:
    """What the whole-corpus checks found."""

    corpus: Corpus
    """The corpus checked."""
    rejected: set[str] = field(default_factory=set)
    """Ids of entries left out for problems of their own: references to them are not reported again."""
    problems: list[Problem] = field(default_factory=list)
    """Every problem, in the order of CHECKS."""
    cycle_links: set[tuple[str, str]] = field(default_factory=set)
    """(entry, entry it modifies) links that close a cycle of modifies."""
    _lines: dict[str, list[str] | None] = field(default_factory=dict)
    """The lines of each entries file a problem has been located in."""

    def at(self, entry: Entry, key: str, message: str) -> None:
        """A problem of an entry, at the line of one of its header keys."""
        # Each file is read once however many problems it has: a large file
        # with many of them must not be read again for each.
        if entry.path not in self._lines:
            self._lines[entry.path] = file_lines(entry.path)
        self.problems.append(Problem(entry.path, header_line(entry, key, self._lines[entry.path]), message))


def check_corpus(corpus: Corpus, rejected: set[str]) -> Checked:
    """Run every check of CHECKS over a loaded corpus (`rejected`: see Checked)."""
    checked = Checked(corpus, rejected)
    for _name, check in CHECKS:
        check(checked)
    return checked


def references(checked: Checked) -> None:
    """A see_also or modifies names an entry of the corpus, and not the entry itself."""
    entries = checked.corpus.entries
    for entry in entries.values():
        for key in ("see_also", "modifies"):
            for target in getattr(entry, key):
                if target == entry.id:
                    checked.at(entry, key, f"{key} names the entry itself")
                elif target not in entries and target not in checked.rejected:
                    # (no id holds a comma: one there is a list written with the wrong separator, whatever it names)
                    hint = f" (separate ids with '{LIST_SEPARATOR}', not ',')" if "," in target else ""
                    checked.at(entry, key, f"{key}: unknown entry id {target!r}{hint}")


def modifies_cycles(checked: Checked) -> None:
    """No entry modifies itself through others: each link closing a cycle is reported (and kept in cycle_links)."""
    entries = checked.corpus.entries
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    for start in entries:
        if state.get(start):
            continue
        stack: list[tuple[str, Iterator[str]]] = [(start, iter(entries[start].modifies))]
        state[start] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif child in entries and state.get(child) == 1:
                checked.cycle_links.add((node, child))
                names = [n for n, _ in stack]
                cycle = [*names[names.index(child):], child]
                checked.at(entries[node], "modifies", "modifies forms a cycle: " + " -> ".join(cycle))
            elif child in entries and not state.get(child):
                state[child] = 1
                stack.append((child, iter(entries[child].modifies)))


def names(checked: Checked) -> None:
    """An alias may be claimed by one entry of a game only, and not be another entry's title."""
    claimed: dict[tuple[str, str], Entry] = {}
    titles: dict[tuple[str, str], Entry] = {}
    for entry in checked.corpus.entries.values():
        titles.setdefault((entry.game, fold(entry.title)), entry)
    for entry in checked.corpus.entries.values():
        for alias in entry.aliases:
            key = (entry.game, fold(alias.text))
            header = "aliases" if alias.lang == "en" else f"aliases-{alias.lang}"
            other = claimed.get(key)
            if other is not None and other.id != entry.id:
                checked.at(entry, header, f"alias {alias.text!r} is also claimed by {other.id!r} ({other.path}:{other.line})")
                continue
            claimed[key] = entry
            owner = titles.get(key)
            if owner is not None and owner.id != entry.id:
                checked.at(entry, header, f"alias {alias.text!r} is the title of {owner.id!r} ({owner.path}:{owner.line})")


def asked(checked: Checked) -> None:
    """A question players ask is listed for one entry of a game only: two would send it two ways."""
    asked_by: dict[tuple[str, str], Entry] = {}
    for entry in checked.corpus.entries.values():
        for question in entry.asked:
            key = (entry.game, fold(question.text))
            other = asked_by.setdefault(key, entry)
            if other.id != entry.id:
                header = "asked" if question.lang == "en" else f"asked-{question.lang}"
                checked.at(entry, header, f"question {question.text!r} is also asked of {other.id!r} ({other.path}:{other.line})")


CHECKS: tuple[tuple[str, Callable[[Checked], None]], ...] = (
    ("references", references),
    ("cycles of modifies", modifies_cycles),
    ("names", names),
    ("questions asked", asked),
)
"""The whole-corpus checks, in the order their problems are reported."""
