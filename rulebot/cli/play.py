"""`rulebot play`: an interactive session at the table.

A session opens the index once and answers question after question, keeping
the game and the expansions in play between them. The session logic,
:class:`PlaySession`, is plain code: it takes a line and returns the text to
print, and it offers completions for a line prefix, so it is tested without a
terminal. :func:`run` wires it to prompt_toolkit (line editing, history kept
across sessions, Tab completion); prompt_toolkit is imported there only, so
no other command ever loads it. :func:`run_plain` reads lines from a pipe.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulebot.cli import output
from rulebot.cli.output import DIM, YELLOW, Style, fit
from rulebot.errors import RulebotError
from rulebot.text import plural

if TYPE_CHECKING:
    from prompt_toolkit.completion import Completer

    from rulebot.answering import Searcher
    from rulebot.index.payload import Link, StoredEntry

HISTORY_FILE = "play-history"

COMMANDS = {
    ":game": ("[SLUG|-]", "show, set or clear (-) the game"),
    ":with": ("[EXP...|-]", "show, add or clear (-) the expansions in play"),
    ":setup": ("N", "the setup checklist of the game for N players, with the expansions in play"),
    ":show": ("ID", "show one entry in full"),
    ":see": ("N", 'follow the Nth "See also" of the last entry'),
    ":help": ("", "this help"),
    ":quit": ("", "leave (q, quit, exit or Ctrl-D too); Ctrl-C cancels the line"),
}
"""The session's own commands: (arguments, what it does)."""

LEAVE_WORDS = ("q", "quit", "exit")
"""Lines that leave the session as `:quit` does (alone on a line: no question is only one of these words)."""

_WORD_START_AFTER = " \t\"'(«"


def data_dir() -> Path:
    """Where rulebot keeps user data: $RULEBOT_DATA_DIR, else the user data directory."""
    from rulebot.places import user_dir

    return user_dir("data")


def history_path() -> Path:
    """The file that keeps the lines typed in `rulebot play`, across sessions."""
    return data_dir() / HISTORY_FILE


def fold(text: str) -> str:
    """Lower-case without accents, one character for one (so positions still match)."""
    return "".join((unicodedata.normalize("NFKD", c)[:1].lower() or c)[:1] for c in text)


def replace_from(prefix: str, candidate: str) -> int:
    """Where in `prefix` a completion `candidate` starts replacing text.

    The earliest word start from which the rest of the prefix begins the
    candidate (so "can i trash assass" completes "Assassination Mission" from
    "assass", and "when winning th" completes "Winning the game" from
    "winning"); when none does (a match inside an id), the start of the last
    word.
    """
    folded, wanted = fold(prefix), fold(candidate)
    for start in _word_starts(prefix):
        if wanted.startswith(folded[start:]):
            return start
    return _word_starts(prefix)[-1]


def _word_starts(text: str) -> list[int]:
    starts = [i for i in range(len(text)) if i == 0 or (text[i - 1] in _WORD_START_AFTER and text[i] not in _WORD_START_AFTER)]
    if not text or text[-1] in _WORD_START_AFTER:
        starts.append(len(text))
    return starts or [0]


@dataclass
class PlaySession:
    """The state of one `rulebot play` session, and what each typed line does.

    `handle(line)` returns the text to print (never raises for a user
    mistake: it returns the error message); `completions(prefix)` returns what
    Tab may complete the prefix with.
    """

    searcher: Searcher
    """The one opened index, used for every question of the session."""
    game: str | None = None
    """The game questions are about; None to find it from each question."""
    configured: dict[str, set[str]] = field(default_factory=dict)
    """The expansions of `rulebot config` per game: in play for a game none are given for, until `:with -`."""
    given: dict[str, set[str]] = field(default_factory=dict)
    """The expansions given (`--with`, `:with`) per game (an empty set: the base game only); as `ask --with`,
    those of a single game put it first."""
    style: Style = field(default_factory=lambda: Style(False))
    """Colours, or none."""
    limit: int = 3
    """Entries per answer: the first in full, the others on one line each."""
    width: int | None = None
    """Columns to fit the output to; None for the terminal's (see rulebot.cli.output.width)."""
    last: StoredEntry | None = None
    """The payload of the entry shown last in full."""
    see_also: list[Link] = field(default_factory=list)
    """The last entry's "See also" references ({id, title}), for `:see N`."""
    done: bool = False
    """True once the user asked to leave."""
    errors: int = 0
    """How many lines were errors (an unknown id, game, expansion, command; a command misused): a script feeding
    `play` is told so."""
    _names: list[tuple[str, str, str]] = field(default_factory=list, init=False, repr=False)
    _ids: dict[str, tuple[str, str]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        seen: set[tuple[str, str]] = set()
        for entry in self.searcher.entries():
            self._ids[entry["id"]] = (entry["title"], entry["game"])
            for name in [entry["title"], *(a["text"] for a in entry["aliases"])]:
                if (name, entry["game"]) not in seen:
                    seen.add((name, entry["game"]))
                    self._names.append((fold(name), name, entry["game"]))
        self._names.sort(key=lambda n: (n[0], n[1]))

    @property
    def expansions(self) -> dict[str, set[str]]:
        """The expansions in play per game: those given for a game, else the configured ones (as `ask` has them)."""
        return {**self.configured, **self.given}

    # -- what the user sees ---------------------------------------------------

    def prompt(self) -> str:
        """The prompt: the game in play, if any."""
        return f"{self.game or 'rulebot'}> "

    def intro(self) -> str:
        """The lines printed when the session starts."""
        lines = [
            (
                f"rulebot play: {plural(self.searcher.opened.meta['count'], 'entry', 'entries')}"
                f" in {plural(len(self.searcher.games), 'game')}."
            ),
            "Type a question; :help lists the commands; Tab completes; Ctrl-D leaves.",
        ]
        if self.game or self.expansions:
            lines.append(_sentence(f"{self._game_text()}; {self._with_text()}"))
        return self._fit(lines)

    def handle(self, line: str) -> str:
        """Do what one typed line asks; return the text to print ("" for nothing)."""
        text = line.strip()
        if not text:
            return ""
        if text.lower() in LEAVE_WORDS:  # what people type to leave a prompt, alone on a line
            self.done = True
            return ""
        try:
            if text.startswith(":"):
                return self._command(text)
            return self._ask(text)
        except RulebotError as exc:
            self.errors += 1
            return self._fit([self.style("Error: ", YELLOW) + _for_play(str(exc))])

    def completions(self, prefix: str) -> list[str]:
        """What Tab can complete `prefix` (the line up to the cursor) with.

        Each candidate replaces the end of the prefix from `replace_from(prefix,
        candidate)`: a command name, a command's argument (game slug, expansion,
        entry id, See also number), or in a question the card names and entry
        titles that the longest end of the line begins.
        """
        stripped = prefix.lstrip()
        if not stripped:
            return list(COMMANDS)
        if stripped.startswith(":"):
            head, *args = stripped.split(" ")
            if not args:
                return [c for c in COMMANDS if c.startswith(head.lower())]
            command = self._resolve(head)
            if command is None:
                return []
            word = fold(args[-1])
            options = self._arguments(command)
            chosen = [o for o in options if fold(o).startswith(word)]
            if not chosen and word and command == ":show":
                chosen = [i for i in options if word in fold(i) or word in fold(self._ids[i][0])]
            return chosen
        folded = fold(prefix)
        for start in _word_starts(prefix):  # the longest end of the line that begins a name wins
            fragment = folded[start:]
            if not fragment.strip():
                continue
            found = [name for key, name, game in self._names if key.startswith(fragment) and self.game in (None, game)]
            if found:
                return list(dict.fromkeys(found))
        return []

    def describe(self, candidate: str) -> str:
        """A short note shown beside a completion: a title, a game, what a command does."""
        if candidate in COMMANDS:
            return COMMANDS[candidate][1]
        if candidate in self._ids:
            return self._ids[candidate][0]
        if candidate in self.searcher.games:
            return self.searcher.games[candidate]["name"]
        return ""

    # -- questions ---------------------------------------------------------------

    def _ask(self, question: str) -> str:
        from rulebot.answering import Answerer
        from rulebot.cli import messages

        # The one answer and the one rendering of `ask`, with the game and expansions of the session as its
        # options; only the first entry's See also is numbered, for `:see N`.
        given = [slug for chosen in self.given.values() for slug in sorted(chosen)]
        answer = Answerer(self.searcher).ask(question, game=self.game, limit=self.limit, with_=given, in_play=self.expansions)
        if answer.results:
            self._remember(answer.results[0].data)
        messages.use(answer.answer_language)
        try:
            return output.answer_text(answer, self.style, columns=self.width or output.width(), numbered=True, games=self.searcher.games)
        finally:
            messages.use("en")  # the session's own lines are in English

    def _entry_lines(self, entry: StoredEntry, *, full: bool) -> list[str]:
        """An entry as rulebot.cli.output prints it, with its See also numbered for `:see N`."""
        return output.entry_block(entry, self.style, full=full, numbered=True)

    def _remember(self, entry: StoredEntry) -> None:
        self.last = entry
        self.see_also = list(entry.get("see_also_refs") or [])

    def _show(self, entry_id: str) -> str:
        entry = self.searcher.get(entry_id)
        self._remember(entry)
        lines = self._entry_lines(entry, full=True)
        referenced: list[Link] = [{"id": i, "title": self._ids.get(i, (i, ""))[0]} for i in entry.get("referenced_by", [])]
        if referenced:
            lines.insert(-1, "  " + self.style("Referenced by: ", DIM) + output.refs(referenced, self.style))
        return self._fit(lines)

    # -- commands ----------------------------------------------------------------

    def _resolve(self, name: str) -> str | None:
        """A command from its name or an unambiguous beginning of it (`:q`, `:g`)."""
        name = name.lower()
        if name in COMMANDS:
            return name
        matches = [c for c in COMMANDS if c.startswith(name)] if len(name) > 1 else []
        return matches[0] if len(matches) == 1 else None

    def _command(self, text: str) -> str:
        name, *args = text.split()
        command = self._resolve(name)
        if command is None:
            matches = [c for c in COMMANDS if c.startswith(name.lower())] if len(name) > 1 else []
            if len(matches) > 1:
                return self._misused(f"{name} is ambiguous: {', '.join(matches)}.")
            return self._misused(f"Unknown command {name}: :help lists the commands.")
        if command == ":quit":
            self.done = True
            return ""
        if command == ":help":
            return self._help()
        if command == ":game":
            return self._set_game(args)
        if command == ":with":
            return self._set_with(args)
        if command == ":setup":
            return self._setup(args)
        if command == ":show":
            if len(args) != 1:
                return self._misused("Usage: :show ID (Tab completes ids)")
            return self._show(args[0])
        return self._see(args)

    def _help(self) -> str:
        lines = ["Type a question to ask it. Commands:"]
        for name, (arguments, what) in COMMANDS.items():
            lines.append(f"  {name + ' ' + arguments:<18}{what}")
        lines.append("Tab completes card names, titles, ids and commands.")
        lines.append(f"Now: {self._game_text()}; {self._with_text()}.")
        return self._fit(lines)

    def _game_text(self) -> str:
        if self.game is None:
            return "game: any (found from each question)"
        return f"game: {self.game} ({self.searcher.games[self.game]['name']})"

    def _with_text(self) -> str:
        if not self.expansions:
            return "expansions: none set (every entry counts)"
        parts = []
        for slug, expansions in sorted(self.expansions.items()):
            game = self.searcher.games[slug]
            names = {e["slug"]: e["name"] for e in game["expansions"]}
            parts.append(f"{game['name']} with {', '.join(sorted(names.get(e, e) for e in expansions)) or 'the base game only'}")
        return "expansions: " + "; ".join(parts)

    def _set_game(self, args: list[str]) -> str:
        if args == ["-"]:
            self.game = None
        elif args:
            self.game = self.searcher.game_slug(" ".join(args))  # (a name of several words: ":game res arcana")
        return self._fit([_sentence(self._game_text())])

    def _set_with(self, args: list[str]) -> str:
        if args == ["-"]:
            self.configured, self.given = {}, {}
        elif args:
            for slug, chosen in self.searcher.resolve_expansions(args, self.game).items():
                self.given.setdefault(slug, set()).update(chosen)
        return self._fit([_sentence(self._with_text())])

    def _setup(self, args: list[str]) -> str:
        from rulebot import config
        from rulebot.answering import setup_checklist
        from rulebot.cli import messages

        if self.game is None:
            return self._misused("Which game? Choose it with :game SLUG, then :setup N.")
        if len(args) > 1 or (args and not args[0].isdigit()):
            return self._misused("Usage: :setup N (the number of players)")
        lang = config.language() or "en"  # (as `rulebot setup` says it: in the configured language)
        checklist = setup_checklist(self.searcher, self.game, int(args[0]) if args else None, self.expansions.get(self.game, ()), lang)
        messages.use(lang)
        try:
            return "\n".join(output.checklist_lines(checklist, self.style, self.width))
        finally:
            messages.use("en")  # the session's own lines are in English

    def _see(self, args: list[str]) -> str:
        if self.last is None:
            return self._misused("Nothing shown yet: ask a question or :show ID first.")
        if not self.see_also:
            return self._misused(f"{self.last['title']} ({self.last['id']}) has no See also.")
        count = len(self.see_also)
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= count:
            listed = "; ".join(f"[{n}] {r['title']}" for n, r in enumerate(self.see_also, 1))
            return self._misused(f"Usage: :see N, N from 1 to {count}: {listed}")
        return self._show(self.see_also[int(args[0]) - 1]["id"])

    def _arguments(self, command: str) -> list[str]:
        """What a command's argument can be, for completion."""
        games = self.searcher.games
        if command == ":game":
            return [*games, "-"]
        if command == ":with":
            chosen = {self.game: games[self.game]} if self.game else games
            slugs = [e["slug"] for g in chosen.values() for e in g["expansions"]]
            return [*slugs, *(["base"] if self.game else []), "-"]
        if command == ":show":
            mine = [i for i, (_, g) in self._ids.items() if g == self.game]
            return mine + [i for i, (_, g) in self._ids.items() if g != self.game]
        if command == ":see":
            return [str(n) for n in range(1, len(self.see_also) + 1)]
        if command == ":setup" and self.game is not None:
            setup = games[self.game].get("setup")
            return [str(n) for n in setup["players"]] if setup else []
        return []

    def _fit(self, lines: list[str]) -> str:
        return "\n".join(fit(lines, self.width or output.width()))

    def _misused(self, line: str) -> str:
        """A command that could not do what it was asked (unknown, or not given what it needs): counted among
        the errors, as a script feeding `play` is told."""
        self.errors += 1
        return self._fit([line])


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _for_play(message: str) -> str:
    """Core error messages name the command-line options; in a session the commands do the same."""
    return message.replace("--game", ":game").replace("--with", ":with").replace("`rulebot list`", "`rulebot list` (or Tab)")


def run_plain(session: PlaySession, lines: Iterable[str], echo: Callable[[str], None] = print, echo_error: Callable[[str], None] | None = None) -> None:
    """Answer lines read from a pipe or file, without prompt or line editing; a line that is an error is told with
    `echo_error` (standard error, as a command's errors are), when given."""
    printed = False
    for line in lines:
        errors = session.errors
        text = session.handle(line.rstrip("\r\n"))
        if text and echo_error is not None and session.errors > errors:
            echo_error(text)
        elif text:
            if printed:
                echo("")
            echo(text)
            printed = True
        if session.done:
            break


def make_completer(session: PlaySession) -> Completer:
    """A prompt_toolkit completer offering `session.completions`, each with its description."""
    from prompt_toolkit.completion import Completer, Completion

    class SessionCompleter(Completer):
        def get_completions(self, document, complete_event):  # type: ignore[no-untyped-def]
            prefix = document.text_before_cursor
            for candidate in session.completions(prefix):
                start = replace_from(prefix, candidate)
                yield Completion(candidate, start_position=start - len(prefix), display_meta=session.describe(candidate))

    return SessionCompleter()


def run(session: PlaySession, history: Path, echo: Callable[[str], None] = print) -> None:
    """Run the session in a terminal: prompt, line editing, history in `history`, Tab completion."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import History, InMemoryHistory

    from rulebot.cli.history import QuietFileHistory

    kept: History
    try:
        history.parent.mkdir(parents=True, exist_ok=True)
        kept = QuietFileHistory(str(history))
    except OSError as exc:
        echo(f"Warning: cannot keep the history in {history} ({exc.strerror or exc}); it lasts this session only")
        kept = InMemoryHistory()
    prompt: PromptSession[str] = PromptSession(
        history=kept,
        completer=make_completer(session),
        complete_while_typing=False,
        reserve_space_for_menu=6,
    )
    echo(session.intro())
    while not session.done:
        try:
            line = prompt.prompt(session.prompt())
        except KeyboardInterrupt:  # Ctrl-C: drop the line, ask again
            continue
        except EOFError:  # Ctrl-D: leave
            break
        try:
            text = session.handle(line)
        except KeyboardInterrupt:
            text = "(cancelled)"
        if text:
            echo(text)
            echo("")
