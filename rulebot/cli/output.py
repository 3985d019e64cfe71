"""Printing answers and entries for a terminal, and as JSON for scripts."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rulebot.cli import status
from rulebot.cli.messages import _, language, language_name
from rulebot.language import quantities
from rulebot.markdown import PRE, STRONG_OFF, STRONG_ON, to_terminal

if TYPE_CHECKING:
    from rulebot.search.answer import Answer

INTERNAL_KEYS = ("terminal", "translated_terminal", "name_stems", "counted", "player_counts")
"""Payload keys that are for the printer only, not for JSON readers."""

BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"
CYAN, YELLOW = "\x1b[36m", "\x1b[33m"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


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


def fit(lines: Iterable[str], width: int) -> list[str]:
    """Wrap lines wider than `width` columns (ANSI styles take no room), with a hanging indent."""
    out: list[str] = []
    for line in lines:
        if len(_ANSI.sub("", line)) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        hang = " " * min(lead + 2, width // 2)
        current, size, empty = line[:lead], lead, True
        for word in line[lead:].split(" "):
            if not word and empty:
                continue  # a double space falling at a line break
            visible = len(_ANSI.sub("", word))
            if not empty and size + 1 + visible > width:
                out.append(current.rstrip(" "))
                current, size, empty = hang, len(hang), True
            current += word if empty else " " + word
            size += visible if empty else 1 + visible
            empty = False
        out.append(current)
    return out


def public(payload: dict, **extra: object) -> dict:
    """An entry payload as JSON readers get it."""
    out = {k: v for k, v in payload.items() if k not in INTERNAL_KEYS}
    out.update(extra)
    return out


def to_json(data: object) -> str:
    """Compact-enough, stable JSON, non-ASCII kept readable."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def answer_json(answer: Answer) -> dict:
    """The one JSON object `ask --json` prints."""
    return {
        "query": answer.query,
        "game": answer.game,
        "confident": answer.confident,
        "probability": round(answer.probability, 3),
        "language": answer.language,
        "answer_language": answer.answer_language,
        "games": [answer.game, *(h.game for h in answer.other_games)] if answer.game else [],
        "players": answer.players,
        "setup": answer.setup,
        "results": [
            public(h.data, score=round(h.score, 4), coverage=round(h.coverage, 3), answer=number < answer.parts)
            for number, h in enumerate(answer.results)
        ],
        "suggestions": answer.suggestions,
        "close_titles": answer.close_titles,
        "other_games": [public(h.data, score=round(h.score, 4)) for h in answer.other_games],
    }


def heading(entry: dict, style: Style) -> str:
    """Title line: the title, then kind, game and expansion."""
    where = entry["game_name"] + (f" · {entry['expansion_name']}" if entry.get("expansion_name") else "")
    revised = " · " + _("revised since {date}").format(date=entry["revised"]) if entry.get("revised") else ""
    tags = f"[{entry['kind']} · {where}{revised}]"
    flags = []
    if entry.get("house_rule"):
        flags.append(style(_("HOUSE RULE, not an official ruling"), YELLOW, BOLD))
    if entry.get("draft"):
        flags.append(style(_("DRAFT, not yet reviewed"), YELLOW))
    if entry.get("lang", language()) != language():
        flags.append(style(_("text in {language}").format(language=language_name(entry["lang"])), YELLOW))
    return "  ".join([f"{style(entry['title'], BOLD, CYAN)}  {style(tags, DIM)}", *flags])


def citation(entry: dict) -> str:
    """Where the ruling comes from, precise enough to look it up."""
    source = entry["source"]
    parts = [source["title"]]
    if source.get("edition"):
        parts.append(f"({source['edition']})")
    trust = source.get("trust")
    suffix = " [" + _("{trust} source").format(trust=trust) + "]" if trust and trust != "official" else ""
    return " ".join(parts) + f", {source['section']}{suffix}"


def wrap_text(terminal: str, style: Style, indent: str = "  ") -> list[str]:
    """Wrap rendered entry text to the terminal, keeping tables and list indents."""
    lines: list[str] = []
    limit = width() - len(indent)
    for line in terminal.splitlines():
        if line.startswith(PRE):
            lines.append(indent + line[1:])
            continue
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
        plain = line.replace(STRONG_ON, "").replace(STRONG_OFF, "")
        if len(plain) <= limit:
            lines.append(indent + style.markup(line))
            continue
        wrapped = textwrap.wrap(line, width=limit, subsequent_indent=hang, break_on_hyphens=False)
        lines.extend(indent + style.markup(_balance(w)) for w in wrapped)
    return lines


def _balance(line: str) -> str:
    """Close an emphasis that wrapping cut in two, so colour never leaks."""
    if line.count(STRONG_ON) > line.count(STRONG_OFF):
        line += STRONG_OFF
    if line.count(STRONG_OFF) > line.count(STRONG_ON):
        line = STRONG_ON + line
    return line


def refs(items: list[dict], style: Style) -> str:
    """Linked entries as 'Title (id)'."""
    return "; ".join(f"{r['title']} {style('(' + r['id'] + ')', DIM)}" for r in items)


def entry_block(entry: dict, style: Style, *, full: bool = True) -> list[str]:
    """An entry for the terminal: heading, text, citation and cross-references."""
    lines = [heading(entry, style)]
    if entry.get("modified_by"):
        lines.append("  " + style(_("Changed by: "), YELLOW) + refs(entry["modified_by"], style))
    lines.extend(wrap_text(entry["terminal"] if "terminal" in entry else to_terminal(entry["text"]), style))
    lines.append("  " + style(_("Source: "), DIM) + citation(entry))
    if entry.get("modifies"):
        lines.append("  " + style(_("Changes: "), DIM) + refs(entry["modifies"], style))
    if entry.get("see_also_refs"):
        lines.append("  " + style(_("See also: "), DIM) + refs(entry["see_also_refs"], style))
    if full and entry.get("aliases"):
        lines.append("  " + style(_("Also called: "), DIM) + "; ".join(a["text"] for a in entry["aliases"]))
    if full and entry.get("asked"):
        lines.append("  " + style(_("Players ask: "), DIM) + "; ".join(a["text"] for a in entry["asked"]))
    lines.append("  " + style(f"id: {entry['id']}", DIM))
    return lines


def for_players_label(players: int) -> str:
    """"For 3 players: ", in the answer's language."""
    return _("For 1 player: ") if players == 1 else _("For {players} players: ").format(players=players)


def setup_lines(setup: dict | None, game_name: str, style: Style) -> list[str]:
    """The setup steps that answer a question for a player count (Answer.setup), a line each: "For 3 players: ...";
    or that the game is not played by that count; none without steps."""
    if not setup:
        return []
    lead = style(for_players_label(setup["players"]), BOLD)
    if not setup["steps"]:
        from rulebot.corpus.setup import played_by

        return [lead + played_by(game_name, [e["name"] for e in setup["expansions"]], setup["supported"]) + "."]
    return [lead + step["text"] + (f" ({step['open']})" if step["open"] else "") for step in setup["steps"]]


def checklist_lines(checklist: dict, style: Style, columns: int | None = None) -> list[str]:
    """A setup checklist (rulebot.answering.setup_checklist) for the terminal, fitted to its width (or
    `columns`): a numbered step a paragraph, each with what the sources leave open and its citation."""
    from rulebot.corpus.setup import with_expansions
    from rulebot.text import plural

    title = with_expansions(checklist["game_name"], [e["name"] for e in checklist["expansions"]])
    lines = [style(f"{title}: setup for {plural(checklist['players'], 'player')}", BOLD, CYAN)]
    if checklist["note"]:
        lead = style("Note: ", DIM) if checklist["complete"] else style("Not the whole setup: ", YELLOW)
        lines.append(lead + checklist["note"])
    unchanged = [e["name"] for e in checklist["expansions"] if not e["changes_setup"]]
    if unchanged:
        lines.append(style("No setup changes in the corpus for: ", DIM) + ", ".join(unchanged))
    if not checklist["steps"]:
        lines += ["", f"The corpus knows no setup step for {plural(checklist['players'], 'player')} here."]
    columns = columns or width()
    lines = fit(lines, columns)
    size = len(str(len(checklist["steps"])))
    for step in checklist["steps"]:
        number = f"{step['number']:>{size}}. "
        hang = " " * len(number)
        lines += ["", *textwrap.wrap(step["text"], columns, initial_indent=number, subsequent_indent=hang, break_on_hyphens=False)]
        if step["open"]:
            wrapped = textwrap.wrap("Not in the sources: " + step["open"], columns, initial_indent=hang, subsequent_indent=hang + "  ", break_on_hyphens=False)
            lines += [wrapped[0].replace("Not in the sources: ", style("Not in the sources: ", YELLOW), 1), *wrapped[1:]]
        lines += [style(line, DIM) for line in textwrap.wrap(step_citation(step), columns, initial_indent=hang, subsequent_indent=hang + "  ", break_on_hyphens=False)]
    return lines


def step_citation(step: dict) -> str:
    """Where a setup step comes from: its expansion, its entry's document and section, the entry's id."""
    entry = step["entry"]
    parts = [step["expansion_name"]] if step.get("expansion_name") else []
    if entry["source"]:
        source = entry["source"]
        trust = f" [{source['trust']} source]" if source.get("trust") not in (None, "official") else ""
        parts.append(f"{source['title']}, {source['section']}{trust}")
    parts.append(entry["id"] + "".join(f", {other['id']}" for other in step["also"]))
    return " · ".join(parts)


def answer_text(answer: Answer, style: Style) -> str:
    """The human answer to a question, fitted to the terminal: the entries that make up the answer in full, then the other matches."""
    lines: list[str] = []
    if not answer.results:
        lines.append(_("Nothing in the corpus matches {question}.").format(question=repr(answer.query)))
    elif answer.other_games:
        lines.append(style(_("Several games have a ruling for this (add --game to choose):"), YELLOW))
    elif not answer.confident:
        lines.append(style(_("No entry answers this clearly. The closest ones:"), YELLOW))
    if answer.suggestions:
        lines.append(_("Did you mean: ") + " / ".join(style(s, BOLD) for s in answer.suggestions) + " ?")
    if not answer.results and answer.close_titles:
        lines.append(_("Close titles: ") + "; ".join(f"{t['title']} ({t['id']})" for t in answer.close_titles))
    if answer.other_games:
        for hit in [answer.results[0], *answer.other_games]:
            for_players = setup_lines(answer.setup, hit.data["game_name"], style) if hit is answer.results[0] else []
            lines += ["", style(_("In {game}:").format(game=hit.data["game_name"]), BOLD), *for_players, *[""][: len(for_players)], *entry_block(hit.data, style, full=False)]
        rest = [hit for hit in answer.results[1:] if hit.id not in {other.id for other in answer.other_games}]
    else:
        shown = answer.parts if answer.confident else len(answer.results)
        if answer.results and answer.players is not None:
            for_players = setup_lines(answer.setup, answer.results[0].data["game_name"], style)
            if not for_players:
                row = quantities.line_for_players(answer.results[0].data["text"], answer.players)
                for_players = [style(for_players_label(answer.players), BOLD) + row] if row else []
            if for_players:
                lines += ["" if lines else None, *for_players]
        for hit in answer.results[:shown]:
            lines += ["", *entry_block(hit.data, style, full=False)]
        rest = answer.results[shown:]
    if rest:
        lines += ["", style(_("Other matches:"), DIM)]
        for hit in rest:
            house = style(" " + _("(house rule)"), YELLOW) if hit.data.get("house_rule") else ""
            lines.append(f"  {hit.data['title']} {style('(' + hit.id + ')', DIM)} – {hit.data['kind']}, {hit.data['game_name']}{house}")
    return "\n".join(fit([line for line in lines if line is not None], width())).lstrip("\n")


COLOR_MODES = ("auto", "always", "never")
"""The values of `--color`."""


def color(mode: str = "auto") -> bool:
    """Whether to print in colour: always, never, or (auto) on a terminal unless NO_COLOR is set or TERM is dumb.

    The one place that decides, for every command and the quick path.
    """
    if mode != "auto":
        return mode == "always"
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def answer_output(answer: Answer, *, as_json: bool, colored: bool) -> str:
    """An answer as `ask` prints it: the terminal text (fitted to its width), or one JSON object.

    Without colour, escape sequences that came with a corpus text are
    removed, as click.echo removes them: the quick path prints without click.
    """
    if as_json:
        return to_json(answer_json(answer))
    text = answer_text(answer, Style(colored))
    return text if colored else _ESCAPE_SEQUENCE.sub("", text)


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


_ESCAPE_SEQUENCE = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
"""What click.echo strips when colour is off."""
