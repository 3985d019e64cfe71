"""A game's setup as data, and the checklist it makes for a player count and the expansions in play.

A game folder's `setup.toml` (read and checked by rulebot.corpus.setup_toml)
gives the setup as ordered steps, each pointing at the entry that states it,
with the values that depend on the player count; each expansion adds,
replaces or removes steps, and may change the player counts the game
supports. GameSetup.checklist() puts the steps together for one count and a
set of expansions.

Plain dataclasses, light to import: a question that gives a player count
reads its game's setup from the index (GameSetup.from_json), without the
corpus loader.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_-]+)\}")
"""`{name}` in a step's text: its value for the player count (`values.name`)."""
WHO = ("each player", "table")
"""Who does a step: each player for themselves, or the table once."""
ACTIONS = ("add", "replace", "remove")
"""What an expansion does to a step."""


@dataclass(frozen=True)
class SetupStep:
    """One step of a game's setup."""

    id: str
    """Unique in the game: lower case letters, digits and hyphens."""
    order: int
    """Its place in the setup: steps are done by increasing order."""
    entry: str
    """The id of the entry that states it (its citation)."""
    text: str
    """What to do, in the project's words, with `{name}` where a value depends on the player count."""
    values: Mapping[str, Mapping[int, str]] = field(default_factory=dict)
    """Per name of the text, its value per player count."""
    open: str = ""
    """What the sources leave open in this step (its numbers are missing); empty when nothing is."""
    who: str = ""
    """"each player" or "table" (WHO), or empty when not said."""
    players: tuple[int, ...] = ()
    """The player counts it is done at; empty: at every count."""
    also: tuple[str, ...] = ()
    """Other entries that state it too (a table of numbers by player count)."""
    translations: Mapping[str, str] = field(default_factory=dict)
    """Its text in other languages, by language code (`text-fr`): the same `{name}`s, the same values."""

    def applies(self, players: int) -> bool:
        """Whether the step is done at this player count."""
        return not self.players or players in self.players

    def text_for(self, players: int, unknown: str | None = None, lang: str | None = None) -> str:
        """The text (in `lang` where it has one) with each value given for this player count (a value it has none
        for: `unknown`, else KeyError)."""
        text = self.translations.get(lang, self.text) if lang else self.text
        if unknown is not None:
            return PLACEHOLDER.sub(lambda match: self.values.get(match.group(1), {}).get(players, unknown), text)
        return PLACEHOLDER.sub(lambda match: self.values[match.group(1)][players], text)

    def text_at(self, players: int, lang: str | None = None) -> str:
        """The text for this count (in `lang` where it has one), a value the sources give no number for at it said
        so (UNKNOWN_VALUE)."""
        return self.text_for(players, unknown=UNKNOWN_VALUE, lang=lang)

    def entries(self) -> tuple[str, ...]:
        """Every entry that states the step: its own, then the others."""
        return (self.entry, *self.also)


@dataclass(frozen=True)
class SetupChange:
    """What an expansion does to one step of the base game's setup."""

    action: str
    """"add", "replace" or "remove" (ACTIONS)."""
    step: str
    """The id of the step added, replaced or removed."""
    new: SetupStep | None = None
    """The step added, or the one replacing it (None for remove); a replacement that gives no
    order of its own has the order of the step it replaces."""


@dataclass(frozen=True)
class ExpansionSetup:
    """What an expansion changes in a game's setup."""

    expansion: str
    """The expansion's slug."""
    players: tuple[int, ...] = ()
    """The player counts the game supports with it; empty: those of the base game."""
    changes: tuple[SetupChange, ...] = ()
    """Its changes to the steps, in the file's order."""
    uncovered: str = ""
    """Non-empty when no source of the corpus covers the expansion's setup: what is not covered, in words. Such an
    expansion in play makes the checklist incomplete, and its own player counts are not known (GameSetup.players_with)."""
    opens: tuple[tuple[str, str, str], ...] = ()
    """(step id, its text with the expansion in play, what the sources leave open of it): the steps it is known
    to change without the sources saying how (a count of components it adds to); the text states no number
    the expansion may change (empty: the step's own)."""


@dataclass(frozen=True)
class ChecklistStep:
    """One step of a checklist, for its player count."""

    number: int
    """Its number in the checklist, from 1."""
    step: SetupStep
    """The step as the data gives it."""
    text: str
    """Its text with the values for the player count."""
    expansion: str | None = None
    """The expansion that adds or replaces it; None for a step of the base game."""
    change: str | None = None
    """"add" or "replace" when an expansion made it; None otherwise."""

    def to_json(self, cite: Callable[[str], dict[str, Any]], names: Mapping[str, str]) -> dict[str, Any]:
        """The step as `rulebot setup --json` prints it; `cite` gives an entry's citation from its id,
        `names` the expansions' names by slug."""
        return {
            "number": self.number,
            "id": self.step.id,
            "text": self.text,
            "who": self.step.who or None,
            "open": self.step.open or None,
            "expansion": self.expansion,
            "expansion_name": names.get(self.expansion, self.expansion) if self.expansion else None,
            "change": self.change,
            "entry": cite(self.step.entry),
            "also": [cite(other) for other in self.step.also],
        }


@dataclass(frozen=True)
class Checklist:
    """A game's setup for one player count and the expansions in play."""

    game: str
    """The game's slug."""
    players: int
    """The player count."""
    expansions: tuple[str, ...]
    """The expansions in play, as asked (with setup data or not), sorted."""
    supported: tuple[int, ...]
    """The player counts the game supports with those expansions."""
    complete: bool
    """False when the sources do not cover the whole setup (see note)."""
    note: str
    """What the checklist lacks or infers, and where to look; may be empty."""
    steps: tuple[ChecklistStep, ...]
    """The steps in order."""


@dataclass(frozen=True)
class GameSetup:
    """A game's setup as its setup.toml gives it."""

    game: str
    """The game's slug."""
    players: tuple[int, ...]
    """The player counts the base game supports, ascending."""
    complete: bool = True
    """False when the sources do not cover the whole setup."""
    note: str = ""
    """What the checklist lacks or infers, and where to look."""
    steps: tuple[SetupStep, ...] = ()
    """The base game's steps, in the file's order."""
    expansions: tuple[ExpansionSetup, ...] = ()
    """What each expansion changes, in the file's order."""
    path: str = ""
    """The setup.toml it was read from."""
    note_translations: Mapping[str, str] = field(default_factory=dict)
    """Its note in other languages, by language code (`note-fr`)."""

    def changing(self, expansions: Collection[str]) -> list[ExpansionSetup]:
        """The changes of those of `expansions` that have any, in the file's order."""
        return [e for e in self.expansions if e.expansion in expansions]

    def uncovered(self, expansions: Collection[str] = ()) -> list[str]:
        """What the sources do not cover of the expansions in play (ExpansionSetup.uncovered), in the file's order."""
        return [e.uncovered for e in self.changing(expansions) if e.uncovered]

    def allows(self, players: int, expansions: Collection[str] = ()) -> bool:
        """Whether a checklist can be made for this count: one the game supports with these expansions."""
        return players in self.players_with(expansions)

    def players_with(self, expansions: Collection[str] = ()) -> tuple[int, ...]:
        """The player counts supported with these expansions in play: the base game's, unless an expansion
        gives its own (with several that do, the counts all of them support).

        With an expansion no source covers in play (`uncovered`), its own counts are not known: the counts are
        those that any covered set of expansions with the covered ones in play supports (Res Arcana with Lux et
        Tenebrae: 2 to 5, the base game's and Perlae Imperii's), never any count at all."""
        unknown = {e.expansion for e in self.changing(expansions) if e.uncovered}
        if unknown:
            covered = set(expansions) - unknown
            combinations = [c for c in self.combinations() if covered <= set(c) and not unknown & set(c)]
            return tuple(sorted({count for c in combinations for count in self.players_with(c)}))
        counts: set[int] | None = None
        for change in self.changing(expansions):
            if change.players:
                counts = set(change.players) if counts is None else counts & set(change.players)
        return tuple(sorted(counts if counts is not None else self.players))

    def unstated(self, expansions: Collection[str] = ()) -> list[str]:
        """The slugs of the expansions in play whose own player counts the sources do not give (those no source
        covers), in the file's order."""
        return [e.expansion for e in self.changing(expansions) if e.uncovered]

    def steps_with(self, expansions: Collection[str] = ()) -> list[tuple[SetupStep, str | None, str | None, str]]:
        """The steps with these expansions in play, by order, at any count: (step, expansion, change, left open).
        A step an expansion no source covers is known to change (`opens`) has the text that states no number it
        may change, and says what is left open; the checklist and the site's setup page both read them here."""
        opened = {step_id: (text, left) for e in self.changing(expansions) for step_id, text, left in e.opens}
        steps = []
        for step, expansion, change in self.assembled(expansions):
            text, left = opened.get(step.id, ("", ""))
            # (its translations say the step's own text, numbers and all: the uncovered text is said as it is written)
            steps.append((replace(step, text=text, values={}, translations={}) if text else step, expansion, change, left))
        return steps

    def assembled(self, expansions: Collection[str] = ()) -> list[tuple[SetupStep, str | None, str | None]]:
        """The steps with these expansions in play, by order, at any player count: (step, expansion, change)."""
        steps: dict[str, tuple[SetupStep, str | None, str | None]] = {s.id: (s, None, None) for s in self.steps}
        for expansion in self.changing(expansions):
            for change in expansion.changes:
                if change.action == "remove":
                    steps.pop(change.step, None)
                elif change.new is not None:
                    steps[change.step] = (change.new, expansion.expansion, change.action)
        return sorted(steps.values(), key=lambda item: item[0].order)

    def beyond_sources(self, expansions: Collection[str] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The counts only an expansion no source covers lets in (Res Arcana at 5 with Lux et Tenebrae alone), and
        the counts the sources give the steps in play for: at the former, each step says so (BEYOND_SOURCES) rather
        than pass for those counts'. The checklist and the site's setup page both read it."""
        covered = self.players_with(set(expansions) - set(self.unstated(expansions)))
        return tuple(count for count in self.players_with(expansions) if count not in covered), covered

    def checklist(self, players: int, expansions: Collection[str] = (), lang: str | None = None) -> Checklist:
        """The checklist for a player count and the expansions in play (ValueError for a count they do not support),
        each step's text and the note in `lang` where the setup gives them in that language (`text-fr`, `note-fr`)."""
        supported = self.players_with(expansions)
        if not self.allows(players, expansions):
            raise ValueError(f"{self.game} is not played by {players} with {sorted(expansions)}")
        chosen = [item for item in self.steps_with(expansions) if item[0].applies(players)]
        uncovered = self.uncovered(expansions)
        beyond_counts, covered = self.beyond_sources(expansions)
        beyond = BEYOND_SOURCES.format(counts=count_range(covered)) if players in beyond_counts else ""
        return Checklist(
            game=self.game,
            players=players,
            expansions=tuple(sorted(expansions)),
            supported=supported,
            complete=self.complete and not uncovered,
            note=" ".join(part for part in (self.note_translations.get(lang, self.note) if lang else self.note, *uncovered) if part),
            steps=tuple(
                _for_count(number, step, players, expansion, change, "; ".join(filter(None, (left, beyond))), lang)
                for number, (step, expansion, change, left) in enumerate(chosen, 1)
            ),
        )

    def combinations(self) -> Iterator[tuple[str, ...]]:
        """Every set of the expansions with setup data, the base game first (all of them, then each alone,
        when there are too many to try every set)."""
        slugs = [e.expansion for e in self.expansions]
        if len(slugs) > MAX_COMBINED:
            yield ()
            yield from ((slug,) for slug in slugs)
            yield tuple(slugs)
            return
        for bits in range(1 << len(slugs)):
            yield tuple(slug for at, slug in enumerate(slugs) if bits >> at & 1)

    def to_json(self) -> dict[str, Any]:
        """The setup as JSON data (for the index: GameSetup.from_json reads it back)."""
        return {
            "game": self.game,
            "players": list(self.players),
            "complete": self.complete,
            "note": self.note,
            "steps": [_step_json(s) for s in self.steps],
            "expansions": [
                {
                    "expansion": e.expansion,
                    "players": list(e.players),
                    "changes": [
                        {"action": c.action, "step": c.step, "new": _step_json(c.new) if c.new else None} for c in e.changes
                    ],
                    "uncovered": e.uncovered,
                    "opens": [list(item) for item in e.opens],
                }
                for e in self.expansions
            ],
            "path": self.path,
            "note_translations": dict(self.note_translations),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSetup:
        """The setup of GameSetup.to_json()."""
        return cls(
            game=data["game"],
            players=tuple(data["players"]),
            complete=data["complete"],
            note=data["note"],
            steps=tuple(_step_of(s) for s in data["steps"]),
            expansions=tuple(
                ExpansionSetup(
                    expansion=e["expansion"],
                    players=tuple(e["players"]),
                    changes=tuple(SetupChange(c["action"], c["step"], _step_of(c["new"]) if c["new"] else None) for c in e["changes"]),
                    uncovered=e.get("uncovered", ""),
                    opens=tuple((step_id, text, left) for step_id, text, left in e.get("opens", [])),
                )
                for e in data["expansions"]
            ),
            path=data["path"],
            note_translations=data.get("note_translations", {}),
        )


UNKNOWN_VALUE = "(a number the sources do not give)"
"""Written for a value a step has no number for at the count asked (a count no source covers)."""


def _for_count(
    number: int, step: SetupStep, players: int, expansion: str | None, change: str | None, left: str = "", lang: str | None = None
) -> ChecklistStep:
    """A step of a checklist for a player count, with its values for that count. What the sources leave open of
    it is said, never guessed: its own `open`, a value they give no number for at that count, and what an
    expansion no source covers leaves open of it (`left`, GameSetup.steps_with)."""
    missing = any(players not in step.values.get(name, {}) for name in PLACEHOLDER.findall(step.text))
    notes = [step.open] if step.open else []
    if missing:
        notes.append(f"the sources give no number for {players} players here")
    if left:
        notes.append(left)
    return ChecklistStep(number, replace(step, open="; ".join(notes)), step.text_at(players, lang), expansion, change)


MAX_COMBINED = 10
"""Above this many expansions with setup data, not every set of them is tried (2 ** 10 sets)."""


def _step_json(step: SetupStep) -> dict[str, Any]:
    return {
        "id": step.id,
        "order": step.order,
        "entry": step.entry,
        "text": step.text,
        "values": {name: {str(count): value for count, value in by_count.items()} for name, by_count in step.values.items()},
        "open": step.open,
        "who": step.who,
        "players": list(step.players),
        "also": list(step.also),
        "translations": dict(step.translations),
    }


def _step_of(data: dict[str, Any]) -> SetupStep:
    return SetupStep(
        id=data["id"],
        order=data["order"],
        entry=data["entry"],
        text=data["text"],
        values={name: {int(count): value for count, value in by_count.items()} for name, by_count in data["values"].items()},
        open=data["open"],
        who=data["who"],
        players=tuple(data["players"]),
        also=tuple(data["also"]),
        translations=data.get("translations", {}),
    )


BEYOND_SOURCES = "the sources give this step for {counts} players"
"""What a step says at a count beyond the sources (GameSetup.beyond_sources); the site says it in its page's language."""


def count_range(counts: Collection[int], *, to: str = "to", or_: str = "or") -> str:
    """Player counts in words: "2 to 5", "2 or 4", "1, 2 or 4", "3" (`to`, `or_`: those words in another language)."""
    ordered = sorted(counts)
    if not ordered:
        return "no count"
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} {to} {ordered[-1]}"
    if len(ordered) == 1:
        return str(ordered[0])
    return ", ".join(map(str, ordered[:-1])) + f" {or_} {ordered[-1]}"


def played_by(game: str, expansions: Collection[str], counts: Collection[int]) -> str:
    """"Res Arcana with Perlae Imperii is played by 2 to 5 players", from the names."""
    return f"{with_expansions(game, expansions)} is played by {count_range(counts)} players"


def with_expansions(game: str, expansions: Collection[str], *, with_: str = "with", and_: str = "and") -> str:
    """"Res Arcana", "Dune: Imperium with Immortality and Rise of Ix", from the names (`with_`, `and_`: those words
    in another language)."""
    names = sorted(expansions)
    if not names:
        return game
    return f"{game} {with_} " + (", ".join(names[:-1]) + f" {and_} " + names[-1] if len(names) > 1 else names[0])
