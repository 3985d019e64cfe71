"""Printing answers and entries for a terminal, and as JSON for scripts."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import sys
import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rulebot.cli import status
from rulebot.cli.messages import N_, _, language, language_name
from rulebot.language import quantities
from rulebot.markdown import CELL, PRE, STRONG_OFF, STRONG_ON, TABLE, to_terminal

if TYPE_CHECKING:
    from rulebot.index.payload import EntryJSON, GameJSON, Link, StoredEntry
    from rulebot.search.answer import Answer

BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
CYAN, YELLOW = "\x1b[36m", "\x1b[33m"


class Style:
    """ANSI styling that disappears when colour is off."""

    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, *codes: str) -> str:
        return "".join(codes) + text + RESET if self.color and codes else text

    def markup(self, text: str) -> str:
        """Turn the renderer's emphasis markers into bold, or drop them."""
        if self.color:
            return text.replace(STRONG_ON, BOLD).replace(STRONG_OFF, RESET)
        return text.replace(STRONG_ON, "").replace(STRONG_OFF, "")


def width() -> int:
    """The width to wrap at: $COLUMNS, else the terminal's, else 80 (shutil.get_terminal_size), within reason."""
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


_ESCAPE_SEQUENCE = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
"""The styles rulebot itself adds (colours, bold): they take no room on a terminal. Corpus text has none
by then (rulebot.text.printable removes every control sequence before anything is shown)."""


def display_width(text: str) -> int:
    """How many columns `text` takes on a terminal: escape sequences and the renderer's markers none,
    a combining accent or a zero-width character none, a wide (East Asian) character two."""
    plain = _ESCAPE_SEQUENCE.sub("", text)
    if plain.isascii():  # most text: one column a printable character
        return sum(1 for c in plain if " " <= c < "\x7f")
    return sum(_char_width(c) for c in plain)


TAB_SIZE = 8
"""Where a terminal's tab stops are: every 8 columns."""


def expand_tabs(text: str, start: int = 0) -> str:
    """`text` with each tab turned into the spaces to the next tab stop, the columns counted as they are shown
    (display_width) from column `start`. A tab takes a width that depends on where it falls, which wrapping
    cannot know once the line is cut: so it is printed as the spaces it would show."""
    if "\t" not in text:
        return text
    first, *rest = text.split("\t")
    out, column = [first], start + display_width(first)
    for part in rest:
        spaces = TAB_SIZE - column % TAB_SIZE
        out += [" " * spaces, part]
        column += spaces + display_width(part)
    return "".join(out)


def _char_width(char: str) -> int:
    if unicodedata.category(char) in ("Cc", "Cf", "Mn", "Me"):
        return 0  # controls (the markers STRONG_ON, STRONG_OFF, PRE among them), zero-width characters, combining marks
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


_GLUED_AFTER = ":;!?»"
"""French punctuation with a space before it: that space never breaks ("Action : placer")."""


def _units(text: str) -> list[str]:
    """The words of a text, split at its spaces (an empty unit for each further space of a run), a French
    punctuation mark kept with the word before it ("Action :") and « with the word after it."""
    units: list[str] = []
    for word in text.split(" "):
        if units and units[-1] and word and (_visible(word)[:1] in _GLUED_AFTER or _visible(units[-1])[-1:] == "«"):
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def _visible(text: str) -> str:
    return _ESCAPE_SEQUENCE.sub("", text).replace(STRONG_ON, "").replace(STRONG_OFF, "")


def wrap(text: str, width: int, first: str = "", hang: str = "") -> list[str]:
    """`text` in lines of at most `width` columns (display_width), the first line starting with `first`, the
    others with `hang`: broken at spaces, never at the space before a French colon (semicolon, ?, !, »);
    a word wider than a whole line is cut where the lines end."""
    lines: list[str] = []
    current, size, empty = first, display_width(first), True
    for unit in _units(expand_tabs(text, size)):
        if not unit and empty:
            continue  # a space of a run falling at a line break
        need = display_width(unit)
        if not empty and size + 1 + need > width:
            lines.append(current.rstrip(" "))
            current, size, empty = hang, display_width(hang), True
        if empty and size + need > width:  # wider than a whole line: cut where the lines end
            pieces = _cut(unit, width - size, width - display_width(hang))
            for piece in pieces[:-1]:
                lines.append(current + piece)
                current = hang
            current += pieces[-1]
            size, empty = display_width(current), False
            continue
        current += unit if empty else " " + unit
        size += need if empty else 1 + need
        empty = False
    lines.append(current)
    return lines


def _cut(word: str, first_room: int, room: int) -> list[str]:
    """A word in pieces, the first at most `first_room` columns wide, the others `room`; a character is
    never parted from its accents, nor from the escape sequences and markers before it."""
    glyphs: list[str] = []
    before = ""
    for part in _PARTS.findall(word):
        if len(part) > 1 or part in (STRONG_ON, STRONG_OFF, PRE):
            before += part  # goes with the character after it
        elif glyphs and not before and _char_width(part) == 0:
            glyphs[-1] += part  # a combining accent: with the character before it
        else:
            glyphs.append(before + part)
            before = ""
    if before:
        glyphs.append(before)
    pieces, piece, size, limit = [], "", 0, max(first_room, 1)
    for glyph in glyphs:
        wide = display_width(glyph)
        if piece and size + wide > limit:
            pieces.append(piece)
            piece, size, limit = "", 0, max(room, 1)
        piece += glyph
        size += wide
    return [*pieces, piece]


_PARTS = re.compile(r"\033\[[;?0-9]*[a-zA-Z]|.", re.DOTALL)
"""An escape sequence, or one character."""




def fit(lines: Iterable[str], width: int) -> list[str]:
    """Wrap lines wider than `width` columns (escape sequences take no room, wide characters two), with a
    hanging indent."""
    out: list[str] = []
    for line in map(expand_tabs, lines):
        if display_width(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        out.extend(wrap(line[lead:], width, first=line[:lead], hang=" " * min(lead + 2, width // 2)))
    return out


def to_json(data: object) -> str:
    """Compact-enough, stable JSON, non-ASCII kept readable; DEL and the C1 controls, which JSON lets
    through as they are and a terminal acts on, written as \\u escapes (they can only be in strings)."""
    from rulebot.text import DEL_AND_C1

    return DEL_AND_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(data, ensure_ascii=False, indent=2))


KIND_LABELS = {
    "rule": N_("rule"),
    "setup": N_("setup"),
    "faq": N_("faq"),
    "errata": N_("errata"),
    "fine-point": N_("fine-point"),
    "term": N_("term"),
    "variant": N_("variant"),
    "house-rule": N_("house-rule"),
}
"""The kinds (rulebot.corpus.kinds.KINDS) as an answer names them: in English their own names, as `--kind` takes them."""


TRUST_LABELS = {
    "designer": N_("designer source"),
    "community": N_("community source"),
    "house": N_("house source"),
}
"""How a source that is not official is marked after its citation, per trust level (rulebot.corpus.kinds.TRUST_LEVELS)."""


def kind_label(kind: str) -> str:
    """A kind's label in the answer's language (a kind without one: its name)."""
    return _(KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def heading(entry: EntryJSON, style: Style) -> str:
    """Title line: the title, then kind, game and expansion."""
    where = entry["game_name"] + (f" · {entry['expansion_name']}" if entry.get("expansion_name") else "")
    changed = _("new in the edition of {date}") if entry.get("new") else _("revised in the edition of {date}")
    revised = " · " + changed.format(date=entry["revised"]) if entry.get("revised") else ""
    tags = f"[{kind_label(entry['kind'])} · {where}{revised}]"
    flags = []
    if entry.get("house_rule"):
        flags.append(style(_("HOUSE RULE, not an official ruling"), YELLOW, BOLD))
    if entry.get("draft"):
        flags.append(style(_("DRAFT, not yet reviewed"), YELLOW))
    if entry.get("lang", language()) != language():
        flags.append(style(_("text in {language}").format(language=language_name(entry["lang"])), YELLOW))
    return "  ".join([f"{style(entry['title'], BOLD, CYAN)}  {style(tags, DIM)}", *flags])


def citation(entry: EntryJSON) -> str:
    """Where the ruling comes from, precise enough to look it up."""
    source = entry["source"]
    parts = [source["title"]]
    if source.get("edition"):
        parts.append(f"({source['edition']})")
    trust = source.get("trust")
    suffix = " [" + _(TRUST_LABELS[trust]) + "]" if trust and trust != "official" else ""
    return " ".join(parts) + f", {source['section']}{suffix}"


def wrap_text(terminal: str, style: Style, indent: str = "  ") -> list[str]:
    """Wrap rendered entry text to the terminal, keeping tables and list indents."""
    lines: list[str] = []
    limit = width() - len(indent)
    table: list[list[str]] = []
    for line in [*terminal.splitlines(), None]:
        if line is not None and line.startswith(TABLE):
            table.append(line[1:].split(CELL))
            continue
        if table:
            lines.extend(indent + row for row in _table_layout(table, limit))
            table = []
        if line is None:
            break
        if line.startswith(PRE):
            lines.append(indent + expand_tabs(line[1:]))
            continue
        line = expand_tabs(line)
        if not line.strip():
            lines.append("")
            continue
        stripped = line.lstrip(" ")
        lead = line[: len(line) - len(stripped)]
        hang = lead
        for marker in ("• ",):
            if stripped.startswith(marker):
                hang = lead + " " * len(marker)
        if stripped[:1].isdigit() and ". " in stripped[:5]:
            hang = lead + " " * (stripped.index(". ") + 2)
        if display_width(line) <= limit:
            lines.append(indent + style.markup(line))
            continue
        wrapped = wrap(stripped, limit, first=lead, hang=hang)
        lines.extend(indent + style.markup(_balance(w)) for w in wrapped)
    return lines


def _table_layout(rows: list[list[str]], limit: int) -> list[str]:
    """A table's lines: in columns under its header, when they fit in `limit` columns; else each row on lines of its
    own, every cell named by its column's header (a phone's terminal at the table: columns cut in two read as none)."""
    count = max(map(len, rows))
    rows = [[*r, *[""] * (count - len(r))] for r in rows]
    widths = [max(display_width(r[i]) for r in rows) for i in range(count)]
    if sum(widths) + 2 * (count - 1) <= limit:
        out = ["  ".join(cell + " " * (w - display_width(cell)) for cell, w in zip(r, widths)).rstrip() for r in rows]
        return [out[0], "  ".join("-" * w for w in widths), *out[1:]] if len(out) > 1 else out
    header, body = rows[0], rows[1:] or [rows[0]]
    out = []
    for r in body:
        named = [f"{name}: {cell}" if name and r is not header else cell for name, cell in zip(header, r) if cell]
        out.extend(wrap("; ".join(named), limit, first="• ", hang="  "))
    return out


def _balance(line: str) -> str:
    """Close an emphasis that wrapping cut in two, so colour never leaks."""
    if line.count(STRONG_ON) > line.count(STRONG_OFF):
        line += STRONG_OFF
    if line.count(STRONG_OFF) > line.count(STRONG_ON):
        line = STRONG_ON + line
    return line


def refs(items: list[Link], style: Style) -> str:
    """Linked entries as 'Title (id)'."""
    return "; ".join(f"{r['title']} {style('(' + r['id'] + ')', DIM)}" for r in items)


def entry_block(entry: StoredEntry, style: Style, *, full: bool = True, numbered: bool = False) -> list[str]:
    """An entry for the terminal: heading, text, citation and cross-references; `numbered`: its See also
    numbered ("[1] Setup (lh-setup)"), for `play`'s `:see N`."""
    lines = [heading(entry, style)]
    if entry.get("modified_by"):
        lines.append("  " + style(_("Changed by: "), YELLOW) + refs(entry["modified_by"], style))
    lines.extend(wrap_text(entry["terminal"] if "terminal" in entry else to_terminal(entry["text"]), style))
    lines.append("  " + style(_("Source: "), DIM) + citation(entry))
    if entry.get("modifies"):
        lines.append("  " + style(_("Changes: "), DIM) + refs(entry["modifies"], style))
    if entry.get("see_also_refs"):
        links = entry["see_also_refs"]
        listed = "; ".join(f"{style(f'[{n}]', BOLD)} {r['title']} {style('(' + r['id'] + ')', DIM)}" for n, r in enumerate(links, 1))
        lines.append("  " + style(_("See also: "), DIM) + (listed if numbered else refs(links, style)))
    if full and entry.get("aliases"):
        lines.append("  " + style(_("Also called: "), DIM) + "; ".join(a["text"] for a in entry["aliases"]))
    if full and entry.get("asked"):
        lines.append("  " + style(_("Players ask: "), DIM) + "; ".join(a["text"] for a in entry["asked"]))
    lines.append("  " + style(f"id: {entry['id']}", DIM))
    return lines


def for_players_label(players: int, expansion: str | None = None) -> str:
    """"For 3 players: ", in the answer's language; with the expansion (or base game) whose number it is:
    "For 3 players, Perlae Imperii: "."""
    if expansion is not None:
        label = _("For 1 player, {expansion}: ") if players == 1 else _("For {players} players, {expansion}: ")
        return label.format(players=players, expansion=expansion)
    return _("For 1 player: ") if players == 1 else _("For {players} players: ").format(players=players)


def setup_lines(setup: dict[str, Any] | None, game_name: str, style: Style) -> list[str]:
    """The setup steps that answer a question for a player count (Answer.setup), a line each: "For 3 players: ...";
    or that the game is not played by that count; none without steps."""
    if not setup:
        return []
    if not setup["steps"]:
        return [style(for_players_label(setup["players"]), BOLD) + played_by_line(setup["ranges"])]
    # A step of the base game is labelled so only at a count the base game is played by (with an expansion
    # whose own counts are not known in play, a count of another expansion's range may be given).
    base = setup["ranges"][0]["players"]
    return [
        style(for_players_label(setup["players"], label), BOLD) + step["text"] + (f" ({step['open']})" if step["open"] else "")
        for step in setup["steps"]
        for label in [
            step["expansion_name"] or (_("base game") if setup["has_expansions"] and setup["players"] in base else None)
        ]
    ]


def played_by_line(ranges: list[dict[str, Any]]) -> str:
    """"Res Arcana is played by 2 to 4 players; with Perlae Imperii, 2 to 5.": the base game's counts, then each
    expansion's that gives its own, and those no source gives (Answer.setup's "ranges")."""
    from rulebot.corpus.setup import count_range, played_by

    base, *expansions = ranges
    parts = [played_by(base["name"], [], base["players"])]
    parts += [f"with {e['name']}, {count_range(e['players'])}" for e in expansions if e["players"] is not None]
    unstated = [e["name"] for e in expansions if e["players"] is None]
    if unstated:
        parts.append(f"the sources do not give {' or '.join(unstated)}'s")
    return "; ".join(parts) + "."


def checklist_lines(checklist: dict[str, Any], style: Style, columns: int | None = None) -> list[str]:
    """A setup checklist (rulebot.answering.setup_checklist) for the terminal, fitted to its width (or
    `columns`): a numbered step a paragraph, each with what the sources leave open and its citation."""
    from rulebot.corpus.setup import with_expansions

    title = with_expansions(checklist["game_name"], [e["name"] for e in checklist["expansions"]], with_=_("with"), and_=_("and"))
    count = checklist["players"]
    players = _("1 player") if count == 1 else _("{counts} players").format(counts=count)
    lines = [style(_("{title}: setup for {players}").format(title=title, players=players), BOLD, CYAN)]
    if checklist["note"]:
        lead = style(_("Note: "), DIM) if checklist["complete"] else style(_("Not the whole setup:") + " ", YELLOW)
        lines.append(lead + checklist["note"])
    unchanged = [e["name"] for e in checklist["expansions"] if not e["changes_setup"]]
    if unchanged:
        lines.append(style(_("No setup changes in the corpus for: %(names)s.") % {"names": ", ".join(unchanged)}, DIM))
    if not checklist["steps"]:
        lines += ["", _("No source here gives a setup step for {players}.").format(players=players)]
    columns = columns or width()
    lines = fit(lines, columns)
    size = len(str(len(checklist["steps"])))
    for step in checklist["steps"]:
        number = f"{step['number']:>{size}}. "
        hang = " " * len(number)
        lines += ["", *wrap(step["text"], columns, first=number, hang=hang)]
        if step["open"]:
            lead = style(_("Not in the sources:") + " ", YELLOW)
            lines += wrap(lead + step["open"], columns, first=hang, hang=hang + "  ")
        lines += [style(line, DIM) for line in wrap(step_citation(step), columns, first=hang, hang=hang + "  ")]
    return lines


def step_citation(step: dict[str, Any]) -> str:
    """Where a setup step comes from: its expansion, its entry's document and section, the entry's id."""
    entry = step["entry"]
    parts = [step["expansion_name"]] if step.get("expansion_name") else []
    if entry["source"]:
        source = entry["source"]
        trust = f" [{source['trust']} source]" if source.get("trust") not in (None, "official") else ""
        parts.append(f"{source['title']}, {source['section']}{trust}")
    parts.append(entry["id"] + "".join(f", {other['id']}" for other in step["also"]))
    return " · ".join(parts)


def instead_of_line(answer: Answer) -> str:
    """For an answer from another game than the one asked of (Answer.instead_of): what it is, and where from."""
    best = answer.results[0].data
    asked = answer.instead_of["name"] if answer.instead_of else ""
    return _("Not in {asked}: {title} is in {game}.").format(asked=asked, title=best["title"], game=best["game_name"])


def base_game_line(answer: Answer) -> str:
    """For a question about the base game alone (Answer.base_game_only): whose expansions were left out."""
    names = {hit.game: hit.data["game_name"] for hit in (*answer.results, *answer.runners_up)}
    games = [names[slug] for slug in answer.base_game_only if slug in names]
    if not games:
        return _("Base game only: the expansions are left out.")
    return _("Base game only: the expansions of {games} are left out.").format(games=", ".join(games))


def for_players_lines(answer: Answer, style: Style) -> list[str]:
    """The lines that open an answer asked for a player count, "For 3 players: ...": the setup steps that answer
    it, else the row of the best entry's table for that count; none for another question."""
    if not answer.results or answer.players is None:
        return []
    lines = setup_lines(answer.setup, answer.results[0].data["game_name"], style)
    if not lines:
        best = answer.results[0].data
        row = quantities.line_for_players(best["text"], answer.players)
        # the row of an expansion's table names it, as a setup step's line does
        lines = [style(for_players_label(answer.players, best.get("expansion_name")), BOLD) + row] if row else []
    return lines


def answer_text(
    answer: Answer, style: Style, *, columns: int | None = None, numbered: bool = False, games: Mapping[str, GameJSON] | None = None
) -> str:
    """The human answer to a question, fitted to the terminal (or `columns`): the entries that make up the answer
    in full, then the other matches; the one rendering of `ask` and `play`. `numbered`: the first entry's See
    also numbered, for `play`'s `:see N`; `games`: the index's games by slug, whose name is said where no entry
    names the game."""
    lines: list[str] = []
    if not answer.results:
        if answer.game:  # (searched alone, given or named: what the corpus has elsewhere is in the close titles)
            name = games[answer.game]["name"] if games and answer.game in games else answer.game
            lines.append(_("Nothing in {game} matches {question}.").format(game=name, question=repr(answer.query)))
        else:
            lines.append(_("Nothing in the corpus matches {question}.").format(question=repr(answer.query)))
        if answer.base_game_only:
            lines.append(style(_("Base game only: the expansions are left out."), DIM))
    elif answer.runners_up:
        lines.append(style(_("Several games have entries close to this (add --game to choose):"), YELLOW))
    elif not answer.confident:
        lines.append(style(_("No entry answers this clearly. The closest ones:"), YELLOW))
    if answer.instead_of and answer.results:
        lines.append(style(instead_of_line(answer), YELLOW))
    if answer.base_game_only and answer.results:
        lines.append(style(base_game_line(answer), DIM))
    if answer.suggestions:
        # (a suggestion is the question as typed: its own question mark, when it has one, ends the line; else one is
        # put as the language puts it: "break?", « break ? »)
        offered = " / ".join(style(s, BOLD) for s in answer.suggestions)
        asked = offered if answer.suggestions[-1].rstrip().endswith("?") else _("{suggestions}?").format(suggestions=offered)
        lines.append(_("Did you mean: ") + asked)
    in_play = [t for t in answer.close_titles if t["in_play"]]
    if not answer.results and in_play:
        lines.append(_("Close titles: ") + "; ".join(f"{t['title']} ({t['id']})" for t in in_play))
    # (the entries named best, ahead of any in play, are of expansions left out: what the question was about)
    left_out = list(itertools.takewhile(lambda t: not t["in_play"], answer.close_titles))
    if left_out:
        named = "; ".join(f"{t['title']} ({t['expansion_name']}, {t['id']})" for t in left_out)
        lines.append(style(_("Of an expansion not in play: {entries}").format(entries=named), YELLOW))
    if answer.runners_up:
        for hit in [answer.results[0], *answer.runners_up]:
            for_players = setup_lines(answer.setup, hit.data["game_name"], style) if hit is answer.results[0] else []
            block = entry_block(hit.data, style, full=False, numbered=numbered and hit is answer.results[0])
            lines += ["", style(_("In {game}:").format(game=hit.data["game_name"]), BOLD), *for_players, *[""][: len(for_players)], *block]
        rest = [hit for hit in answer.results[1:] if hit.id not in {other.id for other in answer.runners_up}]
    else:
        shown = answer.parts if answer.confident else len(answer.results)
        for_players = for_players_lines(answer, style)
        if for_players:
            lines += ["", *for_players] if lines else for_players
        for hit in answer.results[:shown]:
            lines += ["", *entry_block(hit.data, style, full=False, numbered=numbered and hit is answer.results[0])]
        rest = list(answer.results[shown:])
    if rest:
        lines += ["", style(_("Other matches:"), DIM)]
        for hit in rest:
            house = style(" " + _("(house rule)"), YELLOW) if hit.data.get("house_rule") else ""
            lines.append(f"  {hit.data['title']} {style('(' + hit.id + ')', DIM)} – {kind_label(hit.data['kind'])}, {hit.data['game_name']}{house}")
    return "\n".join(fit(lines, columns or width())).lstrip("\n")

COLOR_MODES = ("auto", "always", "never")
"""The values of `--color`."""


def color(mode: str = "auto") -> bool:
    """Whether to print in colour: always, never, or (auto) on a terminal unless NO_COLOR is set or TERM is dumb.

    The one place that decides, for every command and the quick path.
    """
    if mode != "auto":
        return mode == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def answer_output(answer: Answer, *, as_json: bool, colored: bool, games: Mapping[str, GameJSON] | None = None) -> str:
    """An answer as `ask` prints it: the terminal text (fitted to its width), or one JSON object. `games`: the
    index's games, by slug (their names).

    Only as a terminal may be given it (rulebot.text.printable), since the
    quick path prints without click: the answer quotes corpus text.
    """
    if as_json:
        return to_json(answer.to_json())
    from rulebot.text import printable

    return printable(answer_text(answer, Style(colored), games=games), styles=colored)


def answer_status(answer: Answer, *, as_json: bool) -> int:
    """How `ask` exits after printing an answer (rulebot.cli.status): with --json, always OK (the object tells the rest)."""
    if as_json or answer.confident:
        return status.OK
    return status.UNSURE if answer.results else status.NEGATIVE


def silence_stdout() -> None:
    """After a write into a closed pipe: send what is left to print nowhere, so that exiting is quiet.

    Python flushes standard output at exit; into the closed pipe that would
    fail again, with a message and status 120.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout (a test runner's): nothing to flush at exit
        pass

