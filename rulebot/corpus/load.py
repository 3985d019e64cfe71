"""Reading a corpus folder: its games, its entries files (parsed anew or as kept), and the whole-corpus checks.

The loader never stops at the first mistake: it collects every problem with
its file and line, so that a curator sees them all at once (`rulebot check`,
rulebot.corpus.review). A game.toml is read by rulebot.corpus.games, an entries
file parsed by rulebot.corpus.entries, and what needs every entry is checked by
rulebot.corpus.checks; the loader walks the folders and puts it together.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import os
import pickle
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from rulebot import collector
from rulebot.corpus import games, setup_toml, translations
from rulebot.corpus.checks import check_corpus
from rulebot.corpus.entries import ParsedFile, parse_file
from rulebot.corpus.files import GAME_FILE, SETUP_FILE, VOCABULARY_FILE, TomlTable, is_entries_file, read_corpus_file, translation_name
from rulebot.corpus.format import ID_RE, split_lines, undecodable_lines
from rulebot.corpus.model import Alias, Corpus, Entry, Game, Source
from rulebot.errors import CorpusError, Problem
from rulebot.language import everyday
from rulebot.places import display_path, is_undecodable

SHOWN_REFERENCES = 5
"""What a usable load left out names this many dropped references at most."""
MAX_PROBLEMS_PER_FILE = 50
"""A file's problems are listed up to this many, then counted ("and 19950 more"): a file of thousands of
broken entries must not make a listing (and the index's record of it, read before every answer) of thousands."""


def load(dirs: Iterable[Path], parsed: ParsedFiles | None = None) -> Corpus:
    """Load and check a corpus; CorpusError with every problem if it has any.

    `parsed`: entries files as last parsed, so that a file unchanged since is
    not parsed again; those parsed anew are kept by its save().
    """
    corpus, problems = check(dirs, parsed)
    if problems:
        raise CorpusError(at_most_per_file(problems), total=len(problems))
    return corpus


def check(dirs: Iterable[Path], parsed: ParsedFiles | None = None) -> tuple[Corpus, list[Problem]]:
    """Load a corpus and return it with every problem found (empty when valid), however many; `parsed` as for load().
    What lists them for a reader lists at most MAX_PROBLEMS_PER_FILE of a file's (at_most_per_file)."""
    loader = _read(dirs, parsed)
    loader.corpus.problems = loader.problems  # (a game left out for one is then told so: Corpus.game)
    return loader.corpus, loader.problems


def load_usable(dirs: Iterable[Path], parsed: ParsedFiles | None = None) -> Corpus:
    """Load a corpus without what has problems, so that one bad file never stops the table.

    Every valid entry is kept; an entry, file, game or house-rules folder
    with a problem of its own is left out, and references to what is not
    there (or that close a cycle of `modifies`) are dropped. The problems and
    what was left out are in the corpus's `problems` and `left_out`.
    CorpusError only when not one entry is valid. `parsed` as for load().
    """
    loader = _read(dirs, parsed)
    corpus = loader.corpus
    if loader.problems and not corpus.entries:
        raise CorpusError(at_most_per_file(loader.problems), total=len(loader.problems))
    dropped = _drop_dangling_references(corpus, loader.cycle_links)
    corpus.problems = at_most_per_file(loader.problems)  # the index keeps them, and they are read before every answer
    corpus.left_out = list(loader.left_out)
    if dropped:
        more = f" and {len(dropped) - SHOWN_REFERENCES} more" if len(dropped) > SHOWN_REFERENCES else ""
        corpus.left_out.append(f"{len(dropped)} reference{'s' if len(dropped) > 1 else ''} ({', '.join(dropped[:SHOWN_REFERENCES])}{more})")
    return corpus


def _read(dirs: Iterable[Path], parsed: ParsedFiles | None) -> _Loader:
    loader = _Loader(parsed)
    with collector.paused():
        for root in dirs:
            loader.read_root(Path(root))
        # House rules are read once every game is known, whichever folder comes first.
        loader.read_overlays()
        checked = check_corpus(loader.corpus, loader.rejected)
        loader.problems.extend(checked.problems)
        loader.cycle_links = checked.cycle_links
        loader.read_setups()  # once every entry is known: the steps point at entries
    if loader.parsed is not None:
        loader.parsed.prune()
    return loader


def at_most_per_file(problems: list[Problem], limit: int = MAX_PROBLEMS_PER_FILE) -> list[Problem]:
    """The problems as listed to a reader: at most `limit` per file, each file's last one followed by how many more
    it has (a line that is no problem of its own: the total is the length of the uncut list)."""
    counts: dict[str, int] = {}
    for problem in problems:
        counts[problem.path] = counts.get(problem.path, 0) + 1
    if all(count <= limit for count in counts.values()):
        return problems
    kept: list[Problem] = []
    seen: dict[str, int] = {}
    for problem in problems:
        number = seen[problem.path] = seen.get(problem.path, 0) + 1
        if number <= limit:
            kept.append(problem)
        if number == min(limit, counts[problem.path]) and counts[problem.path] > limit:
            more = counts[problem.path] - limit
            kept.append(Problem(problem.path, problem.line, f"and {more} more problem{'s' if more > 1 else ''} in this file (fix these first)"))
    return kept


def _drop_dangling_references(corpus: Corpus, cycle_links: set[tuple[str, str]]) -> list[str]:
    """Drop every see_also and modifies naming an entry that is not there (or the entry itself),
    and each modifies that closes a cycle; what was dropped ("see_also of a to b")."""
    entries = corpus.entries
    dropped: list[str] = []
    for entry in list(entries.values()):
        kept: dict[str, tuple[str, ...]] = {}
        for key in ("see_also", "modifies"):
            targets = getattr(entry, key)
            kept[key] = tuple(
                t for t in targets if t in entries and t != entry.id and (key == "see_also" or (entry.id, t) not in cycle_links)
            )
            dropped.extend(f"{key} of {entry.id} to {t}" for t in targets if t not in kept[key])
        if kept["see_also"] != entry.see_also or kept["modifies"] != entry.modifies:
            entries[entry.id] = replace(entry, see_also=kept["see_also"], modifies=kept["modifies"])
    return dropped


class ParsedFiles:
    """Entries files as last parsed, kept in a folder: a file is parsed again only when its text, its game or
    where it is shown from changed, or the code that parses it.

    Parsing is most of loading a large corpus, and an index update loads the
    whole corpus to find the few entries that changed: this makes that load
    cost about as much as the files edited. Each file is kept under a hash
    of its path, as the key it was parsed with (a line), then the pickled
    result, read back by a restricted unpickler (_KeptUnpickler): a file put
    in the cache folder by anyone else cannot run code. Anything unreadable
    or refused is parsed again; anything not used by a load is removed after
    it. The files parsed anew are written by save(), which an index build
    calls when it has a core to spare: writing them is about a third of
    parsing them.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.used: set[str] = set()
        self._fresh: list[tuple[Path, bytes, ParsedFile]] = []

    def _place(self, path: Path) -> Path:
        name = hashlib.sha1(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.used.add(name)
        return self.folder / name

    @staticmethod
    def key(text: str, context: tuple[object, ...]) -> bytes:
        """What a file's parse is kept under: a hash of its text, of what else the parse depends on (dataclasses,
        whose repr() shows all their fields) and of the parser's code."""
        made_of = repr(context).encode("utf-8", "surrogateescape")
        return hashlib.sha1(_parser_version() + made_of + b"\0" + text.encode("utf-8")).hexdigest().encode("ascii")

    def get(self, path: Path, key: bytes) -> ParsedFile | None:
        try:
            with open(self._place(path), "rb") as kept:
                if kept.readline() != key + b"\n":
                    return None
                parsed = _KeptUnpickler(kept).load()
        except Exception:  # missing, refused, or damaged in any of the ways a pickle can be: parsed again
            return None
        # The unpickler makes only the allowed classes, but of any contents: a ParsedFile of numbers would
        # break every load after this one, so a kept parse is used only if it holds what a parse makes.
        return parsed if _is_shaped(parsed, ParsedFile) else None

    def put(self, path: Path, key: bytes, parsed: ParsedFile) -> None:
        """Keep a file as parsed (at the next save())."""
        self._fresh.append((self._place(path), key, parsed))

    def save(self) -> None:
        """Write the files parsed since the last save."""
        fresh, self._fresh = self._fresh, []
        with contextlib.suppress(OSError):  # a read-only cache only costs parsing again
            if fresh:
                self.folder.mkdir(parents=True, exist_ok=True)
            for place, key, parsed in fresh:
                temporary = place.with_name(f"{place.name}.{os.getpid()}.tmp")
                temporary.write_bytes(key + b"\n" + pickle.dumps(parsed, pickle.HIGHEST_PROTOCOL))
                os.replace(temporary, place)  # whole or not at all, whoever else writes it

    def prune(self) -> None:
        with contextlib.suppress(OSError):
            for child in self.folder.iterdir():
                if child.name not in self.used:
                    child.unlink(missing_ok=True)


class _KeptUnpickler(pickle.Unpickler):
    """Reads a kept parse, making only the classes a parse is made of (_kept_classes) and the values pickle
    writes without a call (strings, numbers, lists, tuples, dicts): any other class or function a pickle names,
    a builtin too (`list(bytes(n))` would allocate n bytes), is refused without being called."""

    def find_class(self, module: str, name: str) -> Callable[..., object]:
        found = _kept_classes().get(f"{module}.{name}")
        if found is None:
            raise pickle.UnpicklingError(f"unexpected {module}.{name}")
        return found


@functools.cache
def _kept_classes() -> dict[str, type]:
    """The classes a kept parse holds, by qualified name: a ParsedFile, its entries and their aliases, its problems.
    (An entry's translations are added after parsing, from the translation files: a parse holds none.)"""
    return {f"{kind.__module__}.{kind.__qualname__}": kind for kind in (ParsedFile, Entry, Alias, Problem)}


def _is_shaped(value: object, expected: type) -> bool:
    """Whether a value unpickled from a kept parse is of the class `expected`, all the way down: a dataclass or
    named tuple with exactly its fields, each of its annotated type (`str | None`, `tuple[Alias, ...]`,
    `list[Entry]`), and exactly of that type (a bool is no line number, a plain tuple no Problem)."""
    return _checker(expected)(value)


_Check = Callable[[object], bool]


@functools.cache
def _checker(expected: object) -> _Check:
    """The check of a type annotation, made once: a load checks every field of every entry of every kept file,
    which reading the annotation again at each value made about five times slower."""
    if isinstance(expected, types.UnionType) or typing.get_origin(expected) is typing.Union:
        options = tuple(_checker(option) for option in typing.get_args(expected))
        return lambda value: any(check(value) for check in options)
    origin = typing.get_origin(expected)
    if origin is not None:  # list[X] or tuple[X, ...]: the container itself, then each item
        item = _checker(typing.get_args(expected)[0])
        return lambda value: type(value) is origin and all(map(item, value))  # type: ignore[call-overload]
    if expected is None or expected is type(None):
        return lambda value: value is None
    assert isinstance(expected, type)
    hints = typing.get_type_hints(expected) if dataclasses.is_dataclass(expected) or hasattr(expected, "_fields") else None
    if hints is None:  # str, int, bool
        return lambda value: type(value) is expected
    if not dataclasses.is_dataclass(expected):  # a named tuple: its items are its fields
        in_order = tuple(_checker(hint) for hint in hints.values())
        return lambda value: type(value) is expected and all(check(v) for check, v in zip(in_order, value))  # type: ignore[call-overload]
    fields = tuple((f.name, _checker(hints[f.name])) for f in dataclasses.fields(expected))
    names = {name for name, _ in fields}

    def check_fields(value: object) -> bool:
        if type(value) is not expected:
            return False
        own = vars(value)
        return own.keys() == names and all(check(own[name]) for name, check in fields)

    return check_fields


@functools.cache
def _parser_version() -> bytes:
    """What parsing an entries file depends on besides the file: the code that parses, and the classes it makes."""
    from rulebot import errors
    from rulebot.corpus import entries, kinds, model
    from rulebot.corpus import format as entries_format

    digest = hashlib.sha1()
    for module in (entries, entries_format, model, kinds, errors):
        if module.__file__ is None:  # no source file to hash (a frozen build)
            continue
        with contextlib.suppress(OSError):
            digest.update(Path(module.__file__).read_bytes())
    return digest.digest()


@dataclass
class _Overlay:
    """A house-rules folder (its game.toml says `extends`), read once every game is known."""

    path: Path
    text: str
    data: TomlTable
    files: list[Path]


class _Loader:
    """Accumulates games, entries and problems over one or more corpus folders."""

    def __init__(self, parsed: ParsedFiles | None = None) -> None:
        self.parsed = parsed
        """Entries files as parsed before, or None to parse every one."""
        self.corpus = Corpus()
        self.problems: list[Problem] = []
        self.everyday: tuple[games.Groups, games.Groups] | None = None
        """The everyday words every game has (rulebot.language.everyday), once read."""
        self.rejected: set[str] = set()
        """Ids of entries with problems of their own: references to them are not reported again."""
        self.headings: dict[str, tuple[str, int]] = {}
        """Where each entry id is first written (file as shown, line), its entry left out or not."""
        self.overlays: list[_Overlay] = []
        """House-rules folders waiting for every game to be read."""
        self.setups: list[tuple[Path, Game]] = []
        """Games' setup.toml files waiting for every entry to be read."""
        self.left_out: list[str] = []
        """What was not loaded for its problems, in words ("2 entries of catalyst/rulebook.md")."""
        self.cycle_links: set[tuple[str, str]] = set()
        """(entry, entry it modifies) links that close a cycle of modifies (see rulebot.corpus.checks)."""

    def problem(self, path: Path, line: int, message: str) -> None:
        self.problems.append(Problem(display_path(path), line, message))

    def leave_out(self, what: str) -> None:
        self.left_out.append(what)

    # -- folders and files -------------------------------------------------

    def read_root(self, root: Path) -> None:
        try:
            if not root.is_dir():
                self.problem(root, 0, "not a corpus folder (no such directory)")
                self.leave_out(f"the corpus folder {display_path(root)}")
                return
            children = sorted(root.iterdir())
        except OSError as exc:
            self.problem(root, 0, f"cannot read the folder: {exc.strerror or exc}")
            self.leave_out(f"the corpus folder {display_path(root)}")
            return
        game_dirs = []
        for child in children:
            if child.name.startswith("."):
                continue
            if is_undecodable(child.name):
                self.problem(child, 0, "the name is not valid UTF-8: rename it")
                self.leave_out(display_path(child))
                continue
            try:
                if child.is_dir():
                    game_dirs.append(child)
                elif child.is_symlink() and not child.exists():
                    self.problem(child, 0, "broken symbolic link or link loop")
            except OSError as exc:
                self.problem(child, 0, f"cannot read: {exc.strerror or exc}")
        if not game_dirs and (root / GAME_FILE).is_file():
            # A game's own folder given for the corpus folder that holds it.
            self.problem(root, 0, f"a game folder, not a corpus folder: give the folder that holds it ({display_path(root.parent)})")
        elif not game_dirs:
            self.problem(root, 0, "no game folders (a game folder holds a game.toml)")
        before = set(self.corpus.games)
        for game_dir in game_dirs:
            self.read_game_dir(game_dir)
        synonyms, french = self.read_shared_vocabulary(root / VOCABULARY_FILE)
        if self.everyday is None:  # read once, whatever the number of folders
            self.everyday = self.read_shared_vocabulary(everyday.EVERYDAY_FILE)
        synonyms, french = self.everyday[0] + synonyms, self.everyday[1] + french
        self.corpus.shared_synonyms.update(synonyms)
        for slug in [g for g in self.corpus.games if g not in before]:
            game = self.corpus.games[slug]
            self.corpus.games[slug] = replace(game, synonyms=game.synonyms + synonyms, french=game.french + french)

    def read_shared_vocabulary(self, path: Path) -> tuple[games.Groups, games.Groups]:
        """The synonym groups and French groups of a corpus folder's vocabulary.toml (none if absent), or of the
        everyday words every game has, which are written in the same form."""
        if not path.exists():
            return (), ()  # (one that is there but no regular file, a FIFO, is refused by read_toml, unread)
        parsed = self.read_toml(path)
        if parsed is None:
            self.leave_out(f"the synonyms of {display_path(path)}")
            return (), ()
        text, data = parsed
        return games.read_vocabulary(path, text, data, self.problems)

    def read_game_dir(self, game_dir: Path) -> None:
        game_file = game_dir / GAME_FILE
        try:
            files = sorted(p for p in game_dir.iterdir() if is_entries_file(p))
        except OSError as exc:
            self.problem(game_dir, 0, f"cannot read the folder: {exc.strerror or exc}")
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        for badly_named in [p for p in files if is_undecodable(p.name)]:
            self.problem(badly_named, 0, "the name is not valid UTF-8: rename it")
            self.leave_out(display_path(badly_named))
        files = [p for p in files if not is_undecodable(p.name)]
        if not game_file.is_file():
            if game_file.exists() or game_file.is_symlink():  # (a folder, a link to nothing: there, and no file)
                self.problem(game_file, 0, "not a regular file")
            else:
                self.problem(game_dir, 0, f"no {GAME_FILE} in this game folder")
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        parsed = self.read_toml(game_file)
        if parsed is None:
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        text, data = parsed
        if "extends" in data:
            self.overlays.append(_Overlay(game_file, text, data, files))
            if not files:
                self.problem(game_dir, 0, "the house-rules folder has no entries files (SOURCE-ID.md)")
            if (game_dir / SETUP_FILE).exists():
                self.problem(game_dir / SETUP_FILE, 0, f"a house-rules folder has no {SETUP_FILE}: the setup is the game's own")
                self.leave_out(f"{game_dir.name}/{SETUP_FILE}")
            return
        game = games.read_game(game_file, text, data, self.corpus.games, self.problems)
        if game is None:
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        self.corpus.games[game.slug] = game
        self.read_files(files, game)
        if not files:
            self.problem(game_dir, 0, "the game has no entries files (SOURCE-ID.md)")
        if (game_dir / SETUP_FILE).exists():
            self.setups.append((game_dir / SETUP_FILE, game))

    def read_text(self, path: Path, also: Callable[[str], list[Problem]] | None = None) -> str | None:
        """The file's text, or None after recording why it cannot be read. `also`: the other problems of a file
        that is not UTF-8, from its text with each undecodable byte replaced (reported with it, in line order)."""
        try:
            data, refused = read_corpus_file(path)
        except OSError as exc:
            self.problem(path, 0, f"cannot read: {exc.strerror or exc}")
            return None
        if data is None:
            self.problem(path, 0, refused or "cannot read")
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            shown = display_path(path)
            # (every line: a file's problems are counted past MAX_PROBLEMS_PER_FILE)
            found = [Problem(shown, line, f"not valid UTF-8 (byte {byte:#04x})") for line, byte in undecodable_lines(data)]
            found += also(data.decode("utf-8", "replace")) if also is not None else []
            self.problems.extend(sorted(found, key=lambda problem: problem.line))
            return None
        if "\0" in text:
            self.problem(path, len(split_lines(text[: text.index("\0")])), "contains a NUL character")
            return None
        text = text.removeprefix("\ufeff")
        if "\ufeff" in text:  # invisible, and hides a heading after it: files joined together?
            self.problem(path, len(split_lines(text[: text.index("\ufeff")])), "byte order mark (U+FEFF) after the start of the file")
            return None
        return text

    def read_toml(self, path: Path) -> tuple[str, TomlTable] | None:
        """The text and parsed content of a TOML file, or None after recording why not."""
        text = self.read_text(path)
        if text is None:
            return None
        data = games.parse_toml(path, text, self.problems)
        return None if data is None else (text, data)

    # -- setup checklists ----------------------------------------------------

    def read_setups(self) -> None:
        """Read each game's setup.toml; one with problems is left out."""
        for path, game in self.setups:
            parsed = self.read_toml(path)
            setup = None
            if parsed is not None:
                text, data = parsed
                setup = setup_toml.read_setup(path, text, data, game, self.corpus.entries, self.rejected, self.problems)
            if setup is None:
                self.leave_out(f"the setup checklist of {_in_game(path)}")
            else:
                self.corpus.setups[game.slug] = setup

    # -- house-rules folders -------------------------------------------------

    def read_overlays(self) -> None:
        """Add each house-rules folder's sources and entries to the game it extends."""
        for overlay in self.overlays:
            read = games.read_house_rules(overlay.path, overlay.text, overlay.data, self.corpus.games, self.problems)
            if read is None:
                self.leave_out(f"the house rules of {overlay.path.parent.name}/")
                continue
            game, own = read
            self.corpus.games[game.slug] = game
            self.read_files(overlay.files, own, house_only=True)  # its files restate its own sources only

    # -- entries files -----------------------------------------------------

    def read_files(self, files: list[Path], game: Game, house_only: bool = False) -> None:
        """A game folder's entries files, then the translation files of their sources (`<source-id>.<lang>.md`)."""
        translated = []
        for path in files:
            named = translation_name(path) if game.source(path.stem) is None else None
            if named is not None:
                translated.append((path, *named))
            else:
                self.read_entries_file(path, game, house_only)
        for path, source_id, lang in translated:
            self.read_translation_file(path, game, source_id, lang)

    def _no_source(self, path: Path, game: Game, source_id: str, what: str) -> None:
        known = ", ".join(s.id for s in game.sources) or "none"
        self.problem(path, 0, f"no source {source_id!r} in {GAME_FILE}{what} (declared: {known})")
        self.leave_out(_in_game(path))

    def parse(self, path: Path, context: tuple[Game, Source, str, bool], text: str) -> ParsedFile:
        """An entries file parsed, or as kept from an earlier load of the same text in the same `context` (all that
        parsing it depends on: parse_file's game, source, shown and house_only)."""
        if self.parsed is None:
            return parse_file(path, text, *context)
        key = self.parsed.key(text, context)
        kept = self.parsed.get(path, key)
        if kept is None:
            kept = parse_file(path, text, *context)
            self.parsed.put(path, key, kept)
        return kept

    def read_entries_file(self, path: Path, game: Game, house_only: bool = False) -> None:
        source = game.source(path.stem)
        if source is None:
            self._no_source(path, game, path.stem, "")
            return
        shown = display_path(path)  # once per file: it is most of a large file's loading time otherwise
        parse = functools.partial(self.parse, path, (game, source, shown, house_only))
        # (a file that is not UTF-8 is left out, its other problems reported with it: not one fix at a time)
        text = self.read_text(path, also=lambda replaced: parse(replaced).problems)
        if text is None:
            self.leave_out(_in_game(path))
            return
        parsed = parse(text)
        self.problems.extend(parsed.problems)
        self.rejected.update(parsed.rejected)
        left_out = len(parsed.rejected)
        # Every heading counts for an id written twice, the entries left out for problems of their own too: else
        # the second of two is only reported once the first's problems are fixed.
        headed: list[tuple[int, str, Entry | None]] = [(entry.line, entry.id, entry) for entry in parsed.entries]
        headed += [(line, entry_id, None) for entry_id, line in zip(parsed.rejected, parsed.rejected_lines)]
        for line, entry_id, entry in sorted(headed, key=lambda one: one[0]):
            if entry is None and not ID_RE.match(entry_id):
                continue  # (no id at all: its own problem says so, and two such are no id written twice)
            first = self.headings.get(entry_id)
            if first is None:
                self.headings[entry_id] = (shown, line)
            else:
                self.problem(path, line, f"duplicate id {entry_id!r} (first defined at {first[0]}:{first[1]})")
            if entry is None:
                continue
            if entry_id in self.corpus.entries:
                left_out += 1
                continue
            self.corpus.entries[entry_id] = entry
        if left_out:
            self.leave_out(f"{left_out} {'entry' if left_out == 1 else 'entries'} of {_in_game(path)}")

    def read_translation_file(self, path: Path, game: Game, source_id: str, lang: str) -> None:
        """Add a translation file's titles and texts to the entries of its source they translate."""
        source: Source | None = game.source(source_id)
        if source is None:
            self._no_source(path, game, source_id, " for this translation file")
            return
        refused = translations.own_language_problem(lang, source.id)
        text = None if refused else self.read_text(path)
        if refused:
            self.problem(path, 0, refused)
        if text is None:
            self.leave_out(_in_game(path))
            return
        found, problems, left_out = translations.parse_translations(path, text, lang, display_path(path))
        self.problems.extend(problems)
        entries = self.corpus.entries
        for entry_id, translation in found:
            entry = entries.get(entry_id)
            if entry is None or entry.game != game.slug or entry.source != source.id:
                if entry_id not in self.rejected:  # an entry left out for its own problems takes its translation along, unsaid
                    self.problem(path, translation.line, f"no entry {entry_id!r} in {source.id}.md to translate")
                left_out += 1
                continue
            translated, why = translations.translate(entry, translation)
            if translated is None:
                self.problem(path, translation.line, why or "")
                left_out += 1
                continue
            entries[entry_id] = translated
        if left_out:
            self.leave_out(f"{left_out} {'translation' if left_out == 1 else 'translations'} of {_in_game(path)}")


def _in_game(path: Path) -> str:
    """A file of a game folder, named from the corpus folder: `catalyst/rulebook.md`."""
    return f"{path.parent.name}/{path.name}"
