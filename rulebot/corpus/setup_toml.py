"""Reading and checking a game folder's setup.toml: the setup as data (rulebot.corpus.setup).

Every problem is reported at the line of its key (`FILE:LINE: message`),
all at once: unknown keys, missing or mistyped values, step ids and orders
claimed twice, an expansion's change to a step that is not there, a value
missing for a player count that the game supports where the step is done,
an entry that is not one of the game's. A setup with a problem is not used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from rulebot.corpus.files import TomlTable
from rulebot.corpus.format import ID_RE, split_lines
from rulebot.corpus.model import TEXT_LANGUAGE, Entry, Game
from rulebot.corpus.setup import ACTIONS, PLACEHOLDER, WHO, ExpansionSetup, GameSetup, SetupChange, SetupStep, count_range
from rulebot.errors import Problem
from rulebot.places import display_path

TOP_KEYS = {"players", "complete", "note", "steps", "expansions"}
"""The keys at the top of a setup.toml."""
STEP_KEYS = {"id", "order", "entry", "also", "text", "values", "open", "who", "players"}
"""The keys of a step (`[[steps]]`)."""
EXPANSION_KEYS = {"expansion", "players", "steps", "uncovered", "open"}
"""The keys of an expansion's changes (`[[expansions]]`)."""
CHANGE_KEYS = (STEP_KEYS - {"id"}) | {"action", "step"}
"""The keys of an expansion's change to a step (`[[expansions.steps]]`): a step's, its id given as `step`."""
TRANSLATED_RE = re.compile(r"^(?P<key>text|note)-(?P<lang>[a-z]{2})$")
"""A key of a text in another language than the entries' own: `text-fr` (a step's), `note-fr` (the file's)."""
MAX_COUNT = 99
"""A player count above this is a typing mistake."""

Where = tuple[str | int, ...]
"""A table of the file: () for the top, ("steps", 0), ("expansions", 1), ("expansions", 1, "steps", 2)."""


def read_setup(path: Path, text: str, data: TomlTable, game: Game, entries: Mapping[str, Entry], rejected: Iterable[str], problems: list[Problem]) -> GameSetup | None:
    """The setup of a game's setup.toml (parsed as `data`), or None after adding its problems to `problems`.

    `entries`: the corpus's entries, which the steps must point at (of this game);
    `rejected`: ids of entries left out for problems of their own, not reported again.
    """
    found: list[Problem] = []
    setup = _Reader(path, text, game, entries, set(rejected), found).setup(data)
    problems.extend(sorted(found, key=lambda problem: problem.line))
    return None if found else setup


class _Lines:
    """Where each table of a setup.toml starts and ends, to report a problem at the line of its key."""

    HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\s-]+?)\s*\]\]")

    def __init__(self, text: str):
        self.lines = split_lines(text)
        self.starts: dict[Where, int] = {(): 0}
        """Each array table's first line (its header's), 0-based."""
        self.ends: dict[Where, int] = {}
        counts: dict[Where, int] = {}
        current: Where = ()
        for number, line in enumerate(self.lines):
            match = self.HEADER.match(line)
            if not match:
                continue
            self.ends.setdefault(current, number)
            names = [part.strip() for part in match.group(1).split(".")]
            where: Where = ()
            for depth, name in enumerate(names):
                parent = (*where, name)
                if depth < len(names) - 1:
                    where = (*parent, max(counts.get(parent, 1) - 1, 0))
                else:
                    counts[parent] = counts.get(parent, 0) + 1
                    where = (*parent, counts[parent] - 1)
            self.starts[where] = number
            current = where
        self.ends.setdefault(current, len(self.lines))

    def of(self, where: Where, key: str | None = None) -> int:
        """The 1-based line of a key in a table (a dotted key's first part names it too), else of the table's header."""
        start = self.starts.get(where, 0)
        if key is None:
            return start + 1
        end = self.ends.get(where, len(self.lines))
        pattern = re.compile(rf"^\s*(?:{re.escape(key)}\s*(=|\.)|\[\s*[\w.-]*\.{re.escape(key)}\s*\])")  # key = / key.x = / [a.key]
        return next((n + 1 for n in range(start, end) if pattern.match(self.lines[n])), start + 1)


class _Reader:
    """Reads one setup.toml, adding every problem it finds."""

    def __init__(self, path: Path, text: str, game: Game, entries: Mapping[str, Entry], rejected: set[str], problems: list[Problem]):
        self.path = path
        self.lines = _Lines(text)
        self.game = game
        self.entries = entries
        self.rejected = rejected
        self.problems = problems
        self.located: dict[tuple[str | None, str], Where] = {}
        """Where each step is given: by (expansion or None, step id)."""
        self.unplaced: set[Where] = set()
        """The steps without a valid order: they claim no place."""

    def problem(self, where: Where, key: str | None, message: str) -> None:
        self.problems.append(Problem(display_path(self.path), self.lines.of(where, key), message))

    @staticmethod
    def name(where: Where, key: str) -> str:
        """How a key is named in a message: `steps[2].order`."""
        parts = [f"{where[at]}[{where[at + 1]}]" for at in range(0, len(where), 2)]
        return ".".join([*parts, key])

    # -- the file ----------------------------------------------------------------

    def setup(self, data: TomlTable) -> GameSetup:
        self.unknown_keys((), data, TOP_KEYS, translated="note")
        players = self.counts((), data, "players", required=True)
        complete = data.get("complete", True)
        if not isinstance(complete, bool):
            self.problem((), "complete", "complete must be true or false")
            complete = True
        note = self.string((), data, "note")
        note_translations = self.translations((), data, "note", note)
        steps = [self.step(("steps", at), table) for at, table in enumerate(self.tables((), data, "steps"))]
        base: dict[str, SetupStep] = {}
        for where, step in zip((("steps", at) for at in range(len(steps))), steps):
            if step.id in base:
                self.problem(where, "id", f"step {step.id!r} is given twice")
            base.setdefault(step.id, step)
            self.located[(None, step.id)] = where
        expansions = self.expansions(data, base)
        setup = GameSetup(
            game=self.game.slug,
            players=tuple(sorted(players)),
            complete=complete,
            note=note,
            steps=tuple(steps),
            expansions=tuple(expansions),
            path=display_path(self.path),
            note_translations=note_translations,
        )
        self.check_orders(setup)
        self.check_counts(setup)
        return setup

    def expansions(self, data: TomlTable, base: dict[str, SetupStep]) -> list[ExpansionSetup]:
        out: list[ExpansionSetup] = []
        changed: dict[str, str] = {}  # step id -> the expansion that replaces or removes it
        added: dict[str, str] = {}  # step id -> the expansion that adds it
        declared = {e.slug for e in self.game.expansions}
        for at, table in enumerate(self.tables((), data, "expansions")):
            where = ("expansions", at)
            self.unknown_keys(where, table, EXPANSION_KEYS)
            slug = self.string(where, table, "expansion", required=True)
            if slug and slug not in declared:
                known = ", ".join(sorted(declared)) or "none"
                self.problem(where, "expansion", f"unknown expansion {slug!r} of {self.game.slug} (known: {known})")
            if slug and slug in {e.expansion for e in out}:
                self.problem(where, "expansion", f"the changes of expansion {slug!r} are given twice")
            players = self.counts(where, table, "players")
            changes = []
            for number, change_table in enumerate(self.tables(where, table, "steps")):
                change = self.change((*where, "steps", number), change_table, slug, base, changed, added)
                if change is not None:
                    changes.append(change)
            uncovered = self.string(where, table, "uncovered")
            if uncovered and players:
                self.problem(where, "players", f"expansion {slug!r} is not covered by the sources (uncovered): it gives no player counts")
            opens = self.opens(where, table, uncovered)
            out.append(ExpansionSetup(slug, tuple(sorted(players)), tuple(changes), uncovered, opens))
        every = set(base) | set(added)
        for at, expansion in enumerate(out):
            for step_id, _text, _left in expansion.opens:
                if step_id not in every:
                    self.problem(("expansions", at), "open", f"open.{step_id}: no step {step_id!r} (its steps: {', '.join(sorted(every))})")
        return out

    def opens(self, where: Where, table: TomlTable, uncovered: str) -> tuple[tuple[str, str, str], ...]:
        """An uncovered expansion's `open` tables: `open.STEP = { text = ..., open = ... }`, the step's text with
        the expansion in play (no number it may change) and what the sources leave open of it."""
        raw = table.get("open", {})
        shape = "open.STEP must be a table { text = \"...\", open = \"...\" }: the step's text with the expansion, and what is left open"
        if not isinstance(raw, dict):
            self.problem(where, "open", shape)
            return ()
        if raw and not uncovered:
            self.problem(where, "open", "open is for an expansion the sources do not cover: give its uncovered text")
        out = []
        for step_id, item in raw.items():
            good = isinstance(item, dict) and set(item) <= {"text", "open"} and all(isinstance(v, str) and v.strip() for v in item.values())
            if not good or not item.get("open"):
                self.problem(where, "open", f"{shape} (open.{step_id})")
                continue
            out.append((step_id, item.get("text", "").strip(), item["open"].strip()))
        return tuple(out)

    def change(self, where: Where, table: TomlTable, expansion: str, base: dict[str, SetupStep], changed: dict[str, str], added: dict[str, str]) -> SetupChange | None:
        action = self.string(where, table, "action", required=True)
        step_id = self.string(where, table, "step", required=True)
        if action and action not in ACTIONS:
            self.problem(where, "action", f"unknown action {action!r} (one of: {', '.join(ACTIONS)})")
            return None
        if not action or not step_id:
            return None
        if action == "remove":
            self.unknown_keys(where, table, {"action", "step"}, "a removal takes action and step only")
        else:
            self.unknown_keys(where, table, CHANGE_KEYS, translated="text")
        if action == "add":
            if step_id in base or step_id in added:
                other = "the base game" if step_id in base else f"expansion {added[step_id]!r}"
                self.problem(where, "step", f"step {step_id!r} is added, but {other} has a step {step_id!r} already")
            added.setdefault(step_id, expansion)
        else:
            if step_id not in base:
                known = ", ".join(base) or "none"
                self.problem(where, "step", f"{action}s step {step_id!r}, which the base game does not have (its steps: {known})")
                return None
            if step_id in changed:
                self.problem(where, "step", f"step {step_id!r} is changed by expansion {changed[step_id]!r} too: one expansion may change a step")
            changed.setdefault(step_id, expansion)
        self.located[(expansion, step_id)] = where
        if action == "remove":
            return SetupChange(action, step_id)
        replaced = base.get(step_id) if action == "replace" else None
        new = self.step(where, table, default_order=replaced.order if replaced else None)
        return SetupChange(action, step_id, new)

    # -- a step ------------------------------------------------------------------

    def step(self, where: Where, table: TomlTable, default_order: int | None = None) -> SetupStep:
        in_change = len(where) > 2
        if not in_change:
            self.unknown_keys(where, table, STEP_KEYS, translated="text")
        step_id = self.string(where, table, "step" if in_change else "id", required=True)
        if step_id and not ID_RE.match(step_id):
            self.problem(where, "step" if in_change else "id", f"step id {step_id!r} must be lower case letters, digits and hyphens")
        order = table.get("order", default_order)
        if order is None or not isinstance(order, int) or isinstance(order, bool):
            if order is None:
                self.problem(where, None, f"missing required key {self.name(where, 'order')!r}")
            else:
                self.problem(where, "order", f"{self.name(where, 'order')} must be a whole number")
            self.unplaced.add(where)
            order = 0
        entry = self.string(where, table, "entry", required=True)
        self.check_entry(where, "entry", entry)
        also = self.strings(where, table, "also")
        for other in also:
            self.check_entry(where, "also", other)
        text = self.string(where, table, "text", required=True)
        values = self.values(where, table)
        opened = self.string(where, table, "open")
        if opened and values:
            self.problem(where, "open", f"step {step_id!r} is open (its numbers are not in the sources): it gives no values")
        who = self.string(where, table, "who")
        if who and who not in WHO:
            self.problem(where, "who", f"who must be one of: {', '.join(repr(w) for w in WHO)}, not {who!r}")
        named = set(PLACEHOLDER.findall(text))
        for name in sorted(named - set(values)):
            self.problem(where, "text", f"{{{name}}} in the text of step {step_id!r} has no values.{name}")
        for name in sorted(set(values) - named):
            self.problem(where, "values", f"values.{name} of step {step_id!r} is not used: the text has no {{{name}}}")
        translations = self.translations(where, table, "text", text)
        return SetupStep(
            id=step_id,
            order=order,
            entry=entry,
            text=text,
            values=values,
            open=opened,
            who=who,
            players=tuple(sorted(self.counts(where, table, "players"))),
            also=tuple(also),
            translations=translations,
        )

    @staticmethod
    def translated_keys(table: TomlTable, key: str) -> set[str]:
        """The keys of `key`'s texts in other languages a table gives (`text-fr`): known keys where it is."""
        return {name for name in table if (found := TRANSLATED_RE.match(name)) and found.group("key") == key}

    def translations(self, where: Where, table: TomlTable, key: str, text: str) -> dict[str, str]:
        """`key`'s texts in other languages (`text-fr`), by language: each a non-empty string with the `{name}`s of
        `text`, in no language of the entries' own."""
        found = {}
        for name in sorted(self.translated_keys(table, key)):
            lang = name.rpartition("-")[2]
            value = self.string(where, table, name, required=True)
            if lang == TEXT_LANGUAGE:
                self.problem(where, name, f"{self.name(where, name)}: {lang} is the entries' own language: that text is `{key}`")
            elif value and set(PLACEHOLDER.findall(value)) != set(PLACEHOLDER.findall(text)):
                names = ", ".join(f"{{{n}}}" for n in sorted(set(PLACEHOLDER.findall(text)))) or "none"
                self.problem(where, name, f"{self.name(where, name)} must hold the {{name}}s of {key} ({names})")
            elif value:
                found[lang] = value
        return found

    def values(self, where: Where, table: TomlTable) -> dict[str, dict[int, str]]:
        raw = table.get("values", {})
        if not isinstance(raw, dict):
            self.problem(where, "values", f"{self.name(where, 'values')} must be a table of values by player count")
            return {}
        values: dict[str, dict[int, str]] = {}
        for name, by_count in raw.items():
            if not isinstance(by_count, dict) or not by_count:
                self.problem(where, "values", f"values.{name} must give a value per player count: {{ 2 = ..., 3 = ... }}")
                continue
            values[name] = {}
            for count, value in by_count.items():
                if not (count.isdigit() and 1 <= int(count) <= MAX_COUNT):
                    self.problem(where, "values", f"values.{name}: {count!r} is no player count")
                elif isinstance(value, bool) or not isinstance(value, (str, int)) or (isinstance(value, str) and not value.strip()):
                    self.problem(where, "values", f"values.{name}: the value for {count} players must be a number or a non-empty string")
                else:
                    values[name][int(count)] = str(value).strip()
        return values

    def check_entry(self, where: Where, key: str, entry_id: str) -> None:
        if not entry_id or entry_id in self.rejected:
            return
        entry = self.entries.get(entry_id)
        if entry is None:
            self.problem(where, key, f"{key}: unknown entry id {entry_id!r}")
        elif entry.game != self.game.slug:
            self.problem(where, key, f"{key}: entry {entry_id!r} is of another game ({entry.game})")

    # -- the whole setup -----------------------------------------------------------

    def check_orders(self, setup: GameSetup) -> None:
        """No two steps that may be in one checklist claim the same place."""
        claimed: dict[int, str] = {}
        for step in setup.steps:
            self.claim(claimed, step, None)
        for expansion in setup.expansions:
            for change in expansion.changes:
                if change.new is None:
                    continue
                if change.action == "replace":
                    replaced = next((s for s in setup.steps if s.id == change.step), None)
                    if replaced is not None and replaced.order == change.new.order:
                        continue  # its own place
                self.claim(claimed, change.new, expansion.expansion)

    def claim(self, claimed: dict[int, str], step: SetupStep, expansion: str | None) -> None:
        where = self.located.get((expansion, step.id), ())
        if where in self.unplaced:
            return
        other = claimed.setdefault(step.order, step.id)
        if other != step.id:
            self.problem(where, "order", f"order {step.order} of step {step.id!r} is the place of step {other!r} too")

    def check_counts(self, setup: GameSetup) -> None:
        """Every count a step may be done at has its values, and no value or filter names a count it never is."""
        reached: dict[tuple[str | None, str], set[int]] = {}
        missing: dict[tuple[str | None, str, str], set[int]] = {}
        supported_anywhere: set[int] = set()
        for combination in setup.combinations():
            counts = setup.players_with(combination)
            supported_anywhere.update(counts)
            for step, expansion, _change in setup.assembled(combination):
                key = (expansion, step.id)
                for count in counts:
                    if not step.applies(count):
                        continue
                    reached.setdefault(key, set()).add(count)
                    for name in PLACEHOLDER.findall(step.text):
                        if count not in step.values.get(name, {count: ""}):
                            missing.setdefault((expansion, step.id, name), set()).add(count)
        for (expansion, step_id, name), lacking in missing.items():
            where = self.located.get((expansion, step_id), ())
            self.problem(where, "values", f"values.{name} of step {step_id!r} has no value for {count_range(lacking)} players, which the game supports")
        steps = [(None, s) for s in setup.steps] + [(e.expansion, c.new) for e in setup.expansions for c in e.changes if c.new]
        for expansion, step in steps:
            where = self.located.get((expansion, step.id), ())
            done_at = reached.get((expansion, step.id), set())
            for name, by_count in step.values.items():
                never = sorted(set(by_count) - done_at)
                if never:
                    self.problem(where, "values", f"values.{name} of step {step.id!r} gives a value for {count_range(never)} players, which the step is never done at")
            unsupported = sorted(set(step.players) - supported_anywhere)
            if unsupported:
                self.problem(where, "players", f"step {step.id!r} is done at {count_range(unsupported)} players, which the game never supports")

    # -- typed values --------------------------------------------------------------

    def tables(self, where: Where, data: TomlTable, key: str) -> list[TomlTable]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem(where, key, f"{self.name(where, key)} must be an array of tables ([[...{key}]])")
            return []
        return value

    def string(self, where: Where, data: TomlTable, key: str, required: bool = False) -> str:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(where, None, f"missing required key {self.name(where, key)!r}")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.problem(where, key, f"{self.name(where, key)} must be a non-empty string")
            return ""
        return value.strip()

    def strings(self, where: Where, data: TomlTable, key: str) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.problem(where, key, f"{self.name(where, key)} must be a list of non-empty strings")
            return []
        return [v.strip() for v in value]

    def counts(self, where: Where, data: TomlTable, key: str, required: bool = False) -> list[int]:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(where, None, f"missing required key {self.name(where, key)!r}")
            return []
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= MAX_COUNT for v in value)
            or len(set(value)) != len(value)
        ):
            self.problem(where, key, f"{self.name(where, key)} must be a list of player counts (whole numbers, each once)")
            return []
        return value

    def unknown_keys(self, where: Where, data: TomlTable, known: set[str], why: str = "", translated: str = "") -> None:
        """A problem for each key of `data` not `known` (nor, when `translated` names a key, that key's texts in other
        languages: `text-fr`)."""
        extra = self.translated_keys(data, translated) if translated else set()
        listed = sorted(known | ({f"{translated}-LANG"} if translated else set()))
        for key in data:
            if key not in known and key not in extra:
                self.problem(where, key, f"unknown key {self.name(where, key)!r} ({why or 'known: ' + ', '.join(listed)})")
