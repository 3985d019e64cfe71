"""Reading a corpus folder: game metadata, entries files, and every check.

The loader never stops at the first mistake: it collects every problem with
its file and line, so that a curator sees them all at once (`rulebot check`).
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import hashlib
import os
import pickle
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulebot import collector
from rulebot.corpus.files import GAME_FILE, VOCABULARY_FILE, is_entries_file, read_corpus_file
from rulebot.places import display_path
from rulebot.errors import CorpusError, Problem
from rulebot.corpus.kinds import HOUSE_KIND, HOUSE_TRUST, KINDS, TRUST_LEVELS
from rulebot.corpus.model import Alias, Corpus, Entry, Expansion, Game, Source
from rulebot.text import fold

LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
"""Line endings as Markdown and editors count them (not str.splitlines's \\f, \\x85, \\u2028...)."""

ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:(.*)$")
LANGUAGE_KEY_RE = re.compile(r"^(aliases|asked)-([a-z]{2})$")
"""A list key in another language than English: `aliases-fr`, `asked-fr`."""
FENCES = ("```", "~~~")
"""What opens and closes a code fence, in which a `## ` line is no heading."""
TOML_LINE_RE = re.compile(r"at line (\d+)")

ENTRY_KEYS = {"title", "kind", "section", "expansion", "aliases", "asked", "see_also", "modifies", "revised", "draft"}
REQUIRED_ENTRY_KEYS = ("title", "kind", "section")
LIST_SEPARATOR = ";"
BOOLEANS = {"true": True, "false": False, "": False}
SHOWN_REFERENCES = 5
"""What a usable load left out names this many dropped references at most."""
OVERLAY_KEYS = {"extends", "sources"}
"""The only keys of a house-rules folder's game.toml."""


def split_lines(text: str) -> list[str]:
    """The lines of a text, cut at CRLF, CR or LF only, so that line numbers match an editor's."""
    return LINE_BREAK_RE.split(text) if "\r" in text else text.split("\n")  # the same; str.split is much faster


def load(dirs: Iterable[Path], parsed: ParsedFiles | None = None) -> Corpus:
    """Load and check a corpus; CorpusError with every problem if it has any.

    `parsed`: entries files as last parsed, so that a file unchanged since is
    not parsed again; those parsed anew are kept by its save().
    """
    corpus, problems = check(dirs, parsed)
    if problems:
        raise CorpusError(problems)
    return corpus


def check(dirs: Iterable[Path], parsed: ParsedFiles | None = None) -> tuple[Corpus, list[Problem]]:
    """Load a corpus and return it with every problem found (empty when valid); `parsed` as for load()."""
    loader = _read(dirs, parsed)
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
        raise CorpusError(loader.problems)
    dropped = loader.drop_dangling_references()
    corpus.problems = list(loader.problems)
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
        loader.check_references()
    if loader.parsed is not None:
        loader.parsed.prune()
    return loader


def drafts(corpus: Corpus) -> list[Problem]:
    """One 'entry X is a draft' notice per draft entry, at its heading."""
    return [Problem(e.path, e.line, f"entry {e.id!r} is a draft") for e in corpus.entries.values() if e.draft]


@dataclass
class Review:
    """What `rulebot check` found: problems fail, warnings only inform (unless strict)."""

    corpus: Corpus
    """The corpus as loaded (entries with problems left out)."""
    problems: list[Problem] = field(default_factory=list)
    """Mistakes: the check fails when there is any."""
    warnings: list[Problem] = field(default_factory=list)
    """Things a curator should look at (ambiguous citations); problems under --strict."""
    drafts: list[Problem] = field(default_factory=list)
    """Draft entries; problems under --strict."""
    notes: list[str] = field(default_factory=list)
    """One-line facts for the summary (citations verified, documents missing)."""


def review(dirs: Iterable[Path], *, strict: bool = False, sources: Path | None = None) -> Review:
    """Check a corpus as `rulebot check` does: problems, drafts, and cited sections when `sources` is given.

    With `strict`, warnings and drafts are moved to the problems.
    """
    from rulebot.corpus.vocabulary import synonym_collisions

    loaded, problems = check(dirs)
    result = Review(loaded, problems, warnings=synonym_collisions(loaded), drafts=drafts(loaded))
    if sources is not None:
        from rulebot.corpus import citations

        verified = citations.verify(loaded, sources)
        result.problems.extend(verified.dangling)
        result.warnings.extend(verified.ambiguous)
        result.notes.append(verified.summary())
    if strict:
        result.problems.extend(result.warnings + result.drafts)
        result.warnings, result.drafts = [], []
    return result


@dataclass
class _RawEntry:
    """An entry as written, before its header is checked."""

    id: str
    path: Path
    line: int
    headers: dict[str, tuple[str, int]] = field(default_factory=dict)
    body: list[str] = field(default_factory=list)


@dataclass
class _ParsedFile:
    """An entries file's entries, and the problems found in it alone (not those that need other files)."""

    entries: list[Entry]
    problems: list[Problem]
    rejected: list[str]
    """Ids of the entries with problems of their own."""


class ParsedFiles:
    """Entries files as last parsed, kept in a folder: a file is parsed again only when its text, its game or
    where it is shown from changed, or the code that parses it.

    Parsing is most of loading a large corpus, and an index update loads the
    whole corpus to find the few entries that changed: this makes that load
    cost about as much as the files edited. Each file is kept under a hash
    of its path, as the key it was parsed with (a line), then the pickled
    result. Anything unreadable is parsed again; anything not used by a load
    is removed after it. The files parsed anew are written by save(), which
    an index build calls when it has a core to spare: writing them is about a
    third of parsing them.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self.used: set[str] = set()
        self._fresh: list[tuple[Path, bytes, _ParsedFile]] = []

    def _place(self, path: Path) -> Path:
        name = hashlib.sha1(str(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.used.add(name)
        return self.folder / name

    @staticmethod
    def key(text: str, context: tuple) -> bytes:
        """What a file's parse is kept under: a hash of its text, of what else the parse depends on (dataclasses,
        whose repr() shows all their fields) and of the parser's code."""
        made_of = repr(context).encode("utf-8", "surrogateescape")
        return hashlib.sha1(_parser_version() + made_of + b"\0" + text.encode("utf-8")).hexdigest().encode("ascii")

    def get(self, path: Path, key: bytes) -> _ParsedFile | None:
        try:
            with open(self._place(path), "rb") as kept:
                if kept.readline() != key + b"\n":
                    return None
                parsed = pickle.load(kept)
        except Exception:  # missing, or damaged in any of the ways a pickle can be: parsed again
            return None
        return parsed if isinstance(parsed, _ParsedFile) else None

    def put(self, path: Path, key: bytes, parsed: _ParsedFile) -> None:
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


@functools.cache
def _parser_version() -> bytes:
    """What parsing an entries file depends on besides the file: the code that parses, and the classes it makes."""
    from rulebot import errors
    from rulebot.corpus import kinds
    from rulebot.corpus import model

    digest = hashlib.sha1()
    for module in (sys.modules[__name__], model, kinds, errors):
        with contextlib.suppress(OSError, TypeError):
            digest.update(Path(module.__file__).read_bytes())
    return digest.digest()


@dataclass
class _Overlay:
    """A house-rules folder (its game.toml says `extends`), read once every game is known."""

    path: Path
    text: str
    data: dict
    files: list[Path]


class _Loader:
    """Accumulates games, entries and problems over one or more corpus folders."""

    def __init__(self, parsed: ParsedFiles | None = None) -> None:
        self.parsed = parsed
        """Entries files as parsed before, or None to parse every one."""
        self.corpus = Corpus()
        self.problems: list[Problem] = []
        self.rejected: set[str] = set()
        """Ids of entries with problems of their own: references to them are not reported again."""
        self.overlays: list[_Overlay] = []
        """House-rules folders waiting for every game to be read."""
        self._lines: dict[str, list[str] | None] = {}
        """The lines of each entries file a problem has been located in."""
        self.left_out: list[str] = []
        """What was not loaded for its problems, in words ("2 entries of catalyst/rulebook.md")."""
        self.cycle_links: set[tuple[str, str]] = set()
        """(entry, entry it modifies) links that close a cycle of modifies."""

    def problem(self, path: Path, line: int, message: str) -> None:
        self.problems.append(Problem(display_path(path), line, message))

    def leave_out(self, what: str) -> None:
        self.left_out.append(what)

    def drop_dangling_references(self) -> list[str]:
        """Drop every see_also and modifies naming an entry that is not there (or the entry itself),
        and each modifies that closes a cycle; what was dropped ("see_also of a to b")."""
        entries = self.corpus.entries
        dropped = []
        for entry in list(entries.values()):
            kept = {}
            for key in ("see_also", "modifies"):
                targets = getattr(entry, key)
                kept[key] = tuple(
                    t for t in targets if t in entries and t != entry.id and (key == "see_also" or (entry.id, t) not in self.cycle_links)
                )
                dropped.extend(f"{key} of {entry.id} to {t}" for t in targets if t not in kept[key])
            if kept["see_also"] != entry.see_also or kept["modifies"] != entry.modifies:
                entries[entry.id] = replace(entry, **kept)
        return dropped

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
            try:
                if child.is_dir():
                    game_dirs.append(child)
                elif child.is_symlink() and not child.exists():
                    self.problem(child, 0, "broken symbolic link or link loop")
            except OSError as exc:
                self.problem(child, 0, f"cannot read: {exc.strerror or exc}")
        if not game_dirs:
            self.problem(root, 0, "no game folders (a game folder holds a game.toml)")
        before = set(self.corpus.games)
        for game_dir in game_dirs:
            self.read_game_dir(game_dir)
        synonyms, french = self.read_shared_vocabulary(root / VOCABULARY_FILE)
        self.corpus.shared_synonyms.update(synonyms)
        for slug in [g for g in self.corpus.games if g not in before]:
            game = self.corpus.games[slug]
            self.corpus.games[slug] = replace(game, synonyms=game.synonyms + synonyms, french=game.french + french)

    def read_shared_vocabulary(self, path: Path) -> tuple[Groups, Groups]:
        """The synonym groups and French groups of a corpus folder's vocabulary.toml (none if absent)."""
        if not path.is_file():
            return (), ()
        parsed = self.read_toml(path)
        if parsed is None:
            self.leave_out(f"the synonyms of {display_path(path)}")
            return (), ()
        text, data = parsed
        toml = _TomlFile(path, text, self)
        toml.unknown_keys(data, {"synonyms", "french"})
        return _groups(toml.string_lists(data, "synonyms")), _groups(toml.string_lists(data, "french"))

    def read_game_dir(self, game_dir: Path) -> None:
        game_file = game_dir / GAME_FILE
        try:
            files = sorted(p for p in game_dir.iterdir() if is_entries_file(p))
        except OSError as exc:
            self.problem(game_dir, 0, f"cannot read the folder: {exc.strerror or exc}")
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        if not game_file.is_file():
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
            return
        game = self.read_game(game_file, text, data)
        if game is None:
            self.leave_out(f"the game folder {game_dir.name}/")
            return
        for path in files:
            self.read_entries_file(path, game)
        if not files:
            self.problem(game_dir, 0, "the game has no entries files (SOURCE-ID.md)")

    def read_text(self, path: Path) -> str | None:
        """The file's text, or None after recording why it cannot be read."""
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
        except UnicodeDecodeError as exc:
            line = len(split_lines(data[: exc.start].decode("utf-8")))
            self.problem(path, line, f"not valid UTF-8 (byte {data[exc.start]:#04x})")
            return None
        if "\0" in text:
            self.problem(path, len(split_lines(text[: text.index("\0")])), "contains a NUL character")
            return None
        text = text.removeprefix("\ufeff")
        if "\ufeff" in text:  # invisible, and hides a heading after it: files joined together?
            self.problem(path, len(split_lines(text[: text.index("\ufeff")])), "byte order mark (U+FEFF) after the start of the file")
            return None
        return text

    # -- game.toml ---------------------------------------------------------

    def read_toml(self, path: Path) -> tuple[str, dict] | None:
        """The text and parsed content of a game.toml, or None after recording why not."""
        text = self.read_text(path)
        if text is None:
            return None
        try:
            return text, tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            match = TOML_LINE_RE.search(str(exc))
            self.problem(path, int(match.group(1)) if match else 0, f"invalid TOML: {exc}")
            return None
        except RecursionError:  # tomllib recurses into nested arrays and inline tables
            self.problem(path, 0, "invalid TOML: arrays or tables nested too deeply")
            return None

    def read_game(self, path: Path, text: str, data: dict) -> Game | None:
        toml = _TomlFile(path, text, self)
        before = len(self.problems)

        slug = toml.string(data, "slug", required=True)
        if slug and slug != path.parent.name:
            toml.error("slug", f"slug {slug!r} differs from the folder name {path.parent.name!r}")
        if slug and not ID_RE.match(slug):
            toml.error("slug", f"slug {slug!r} must be lower case letters, digits and hyphens")
        name = toml.string(data, "name", required=True)
        prefix = toml.string(data, "id_prefix", required=True)
        if prefix and not ID_RE.match(prefix):
            toml.error("id_prefix", f"id_prefix {prefix!r} must be lower case letters, digits and hyphens")
        year = toml.integer(data, "year")
        expansions = tuple(
            Expansion(
                slug=toml.string(item, "slug", required=True, table="expansions", index=i),
                name=toml.string(item, "name", required=True, table="expansions", index=i),
                year=toml.integer(item, "year", table="expansions", index=i),
            )
            for i, item in enumerate(toml.tables(data, "expansions"))
        )
        sources = self.read_sources(toml, data, {e.slug for e in expansions})
        vocabulary = data.get("vocabulary", {})
        if not isinstance(vocabulary, dict):
            toml.error("vocabulary", "vocabulary must be a table")
            vocabulary = {}
        synonyms = toml.string_lists(vocabulary, "synonyms")
        terms = toml.string_list(vocabulary, "terms")
        aliases = toml.string_list(data, "aliases")
        toml.unknown_keys(data, {"slug", "name", "id_prefix", "publisher", "year", "language",
                                 "aliases", "expansions", "sources", "vocabulary"})
        toml.unknown_keys(vocabulary, {"synonyms", "terms", "french"})
        for what, items in (("expansion", [e.slug for e in expansions]), ("source", [s.id for s in sources])):
            seen = set()
            for item in items:
                if item in seen:
                    toml.error(what, f"{what} {item!r} declared twice")
                seen.add(item)
        if len(self.problems) > before:
            return None
        if slug in self.corpus.games:
            self.problem(
                path, 1,
                f"game {slug!r} already defined in {self.corpus.games[slug].path}"
                f" (house rules for it: a game.toml with only extends = {slug!r} and [[sources]])",
            )
            return None
        game = Game(
            slug=slug,
            name=name,
            id_prefix=prefix,
            publisher=toml.string(data, "publisher"),
            year=year,
            language=toml.string(data, "language") or "en",
            aliases=tuple(aliases),
            expansions=expansions,
            sources=tuple(sources),
            synonyms=_groups(synonyms),
            french=_groups(toml.string_lists(vocabulary, "french")),
            terms=tuple(t.lower() for t in terms),
            path=display_path(path),
        )
        self.corpus.games[slug] = game
        return game

    def read_sources(self, toml: _TomlFile, data: dict, expansion_slugs: set[str], default_trust: str = "official") -> list[Source]:
        """The `[[sources]]` of a game.toml, each checked."""
        sources = []
        for i, item in enumerate(toml.tables(data, "sources")):
            source = Source(
                id=toml.string(item, "id", required=True, table="sources", index=i),
                title=toml.string(item, "title", required=True, table="sources", index=i),
                edition=toml.string(item, "edition", table="sources", index=i),
                date=toml.date(item, "date", table="sources", index=i),
                language=toml.string(item, "language", table="sources", index=i) or "en",
                trust=toml.string(item, "trust", table="sources", index=i) or default_trust,
                expansion=toml.string(item, "expansion", table="sources", index=i) or None,
            )
            if source.trust not in TRUST_LEVELS:
                toml.error("trust", f"unknown trust {source.trust!r} (one of: {', '.join(TRUST_LEVELS)})", "sources", i)
            if source.expansion and source.expansion not in expansion_slugs:
                toml.error("expansion", f"unknown expansion {source.expansion!r}", "sources", i)
            sources.append(source)
        return sources

    # -- house-rules folders -------------------------------------------------

    def read_overlays(self) -> None:
        """Add each house-rules folder's sources and entries to the game it extends."""
        for overlay in self.overlays:
            self.read_overlay(overlay)

    def read_overlay(self, overlay: _Overlay) -> None:
        path, data = overlay.path, overlay.data
        toml = _TomlFile(path, overlay.text, self)
        before = len(self.problems)
        slug = toml.string(data, "extends", required=True)
        toml.unknown_keys(data, OVERLAY_KEYS)
        game = self.corpus.games.get(slug)
        if slug and game is None:
            known = ", ".join(self.corpus.games) or "none"
            toml.error("extends", f"extends unknown game {slug!r} (known: {known})")
        if game is None:
            self.leave_out(f"the house rules of {path.parent.name}/")
            return
        sources = self.read_sources(toml, data, {e.slug for e in game.expansions}, default_trust=HOUSE_TRUST)
        if not sources:
            toml.error("sources", "a house-rules folder declares its own [[sources]]")
        for i, source in enumerate(sources):
            if source.trust != HOUSE_TRUST:
                toml.error("trust", f"source {source.id!r} of a house-rules folder must have trust \"house\", not {source.trust!r}", "sources", i)
            if game.source(source.id) is not None:
                toml.error("id", f"source {source.id!r} is already declared by {slug!r} ({game.path})", "sources", i)
            if source.id in {s.id for s in sources[:i]}:
                toml.error("id", f"source {source.id!r} declared twice", "sources", i)
        if len(self.problems) > before:
            self.leave_out(f"the house rules of {path.parent.name}/")
            return
        game = replace(game, sources=game.sources + tuple(sources))
        self.corpus.games[slug] = game
        own = replace(game, sources=tuple(sources))  # its files restate its own sources only
        for entries_file in overlay.files:
            self.read_entries_file(entries_file, own, house_only=True)

    # -- entries files -----------------------------------------------------

    def read_entries_file(self, path: Path, game: Game, house_only: bool = False) -> None:
        source = game.source(path.stem)
        if source is None:
            known = ", ".join(s.id for s in game.sources) or "none"
            self.problem(path, 0, f"no source {path.stem!r} in {GAME_FILE} (declared: {known})")
            self.leave_out(_in_game(path))
            return
        text = self.read_text(path)
        if text is None:
            self.leave_out(_in_game(path))
            return
        shown = display_path(path)  # once per file: it is most of a large file's loading time otherwise
        if self.parsed is None:
            parsed = self.parse_entries_file(path, text, game, source, shown, house_only)
        else:
            key = self.parsed.key(text, (shown, house_only, game, source))  # all that parsing it depends on
            parsed = self.parsed.get(path, key)
            if parsed is None:
                parsed = self.parse_entries_file(path, text, game, source, shown, house_only)
                self.parsed.put(path, key, parsed)
        self.problems.extend(parsed.problems)
        self.rejected.update(parsed.rejected)
        left_out = len(parsed.rejected)
        for entry in parsed.entries:
            if entry.id in self.corpus.entries:
                first = self.corpus.entries[entry.id]
                self.problem(path, entry.line, f"duplicate id {entry.id!r} (first defined at {first.path}:{first.line})")
                left_out += 1
                continue
            self.corpus.entries[entry.id] = entry
        if left_out:
            self.leave_out(f"{left_out} {'entry' if left_out == 1 else 'entries'} of {_in_game(path)}")

    def parse_entries_file(self, path: Path, text: str, game: Game, source: Source, shown: str, house_only: bool) -> _ParsedFile:
        """The entries of one file, with the problems found in it alone."""
        before = len(self.problems)
        entries, rejected = [], []
        for raw in self.split_entries(path, text):
            entry = self.make_entry(raw, game, source, shown)
            if entry is not None and house_only and entry.kind != HOUSE_KIND:
                # Added to a game someone else curates, it must never pass for an official ruling.
                line = raw.headers.get("kind", ("", raw.line))[1]
                self.problem(
                    path, line, f"entry {entry.id!r} is kind {entry.kind!r}: a house-rules folder holds only kind: {HOUSE_KIND} entries"
                )
                entry = None
            if entry is None:
                rejected.append(raw.id)
            else:
                entries.append(entry)
        problems = self.problems[before:]
        del self.problems[before:]
        return _ParsedFile(entries, problems, rejected)

    def split_entries(self, path: Path, text: str) -> Iterator[_RawEntry]:
        """Cut a file into raw entries at each level-2 heading outside code fences."""
        lines = split_lines(text)
        # Only headings and fence lines decide where entries start: they are
        # picked out first, so that the loop below sees a few lines per entry
        # rather than every line of a file of thousands.
        starts = []
        fence: str | None = None
        for index in [i for i, line in enumerate(lines) if line.startswith("## ") or line.lstrip().startswith(FENCES)]:
            line = lines[index]
            if fence is None and line.startswith("## "):
                starts.append(index)
            elif (marker := line.lstrip()[:3]) in FENCES:
                fence = marker if fence is None else (None if marker == fence else fence)
        for start, end in zip(starts, [*starts[1:], len(lines)]):
            raw = _RawEntry(id=lines[start][3:].strip(), path=path, line=start + 1)
            body = start + 1  # the header runs to the first blank line; the text follows it
            while body < end and lines[body].strip():
                match = HEADER_RE.match(lines[body])
                if match is None:
                    self.problem(path, body + 1, "expected a 'key: value' header line or a blank line before the text")
                    break
                key, value = match.group(1), match.group(2).strip()
                if key in raw.headers:
                    self.problem(path, body + 1, f"key {key!r} given twice (first at line {raw.headers[key][1]})")
                else:
                    raw.headers[key] = (value, body + 1)
                body += 1
            else:
                body += 1  # the blank line
            raw.body = lines[body:end]
            yield raw

    def make_entry(self, raw: _RawEntry, game: Game, source: Source, shown: str) -> Entry | None:
        """The entry of a raw entry of the file shown as `shown`, or None after recording its problems."""
        path = raw.path
        ok = True

        def bad(line: int, message: str) -> None:
            nonlocal ok
            ok = False
            self.problem(path, line, message)

        if not ID_RE.match(raw.id):
            bad(raw.line, f"invalid id {raw.id!r}: use lower case letters, digits and single hyphens")
        elif not raw.id.startswith(game.id_prefix + "-"):
            bad(raw.line, f"id {raw.id!r} must start with the game's id_prefix {game.id_prefix + '-'!r}")
        headers = raw.headers
        phrases: dict[str, list[Alias]] = {"aliases": [], "asked": []}
        for key, (value, line) in headers.items():
            if key in phrases:
                phrases[key].extend(Alias(text, "en") for text in _split_list(value))
            elif (m := LANGUAGE_KEY_RE.match(key)) is not None:
                phrases[m.group(1)].extend(Alias(text, m.group(2)) for text in _split_list(value))
            elif key not in ENTRY_KEYS:
                bad(line, f"unknown key {key!r} (known: {', '.join(sorted(ENTRY_KEYS))}, aliases-XX, asked-XX)")
        for key in REQUIRED_ENTRY_KEYS:
            if not headers.get(key, ("", 0))[0]:
                where = headers[key][1] if key in headers else raw.line
                bad(where, f"entry {raw.id!r} has no {key}")
        kind, kind_line = headers.get("kind", ("", raw.line))
        if kind and kind not in KINDS:
            bad(kind_line, f"unknown kind {kind!r} (one of: {', '.join(KINDS)})")
        expansion: str | None = source.expansion
        if "expansion" in headers:
            value, line = headers["expansion"]
            if value in ("", "base"):
                expansion = None
            elif game.expansion(value) is None:
                known = ", ".join(e.slug for e in game.expansions) or "none"
                bad(line, f"unknown expansion {value!r} (known: {known})")
            else:
                expansion = value
        revised, revised_line = headers.get("revised", ("", 0))
        if revised and not _is_date(revised):
            bad(revised_line, f"revised must be a date YYYY-MM-DD, not {revised!r}")
        draft, draft_line = headers.get("draft", ("", 0))
        if draft not in BOOLEANS:
            bad(draft_line, f"draft must be true or false, not {draft!r}")
        text = "\n".join(raw.body).strip()
        if not text:
            bad(raw.line, f"entry {raw.id!r} has no text")
        if not ok:
            return None
        return Entry(
            id=raw.id,
            game=game.slug,
            kind=kind,
            title=headers["title"][0],
            text=text,
            source=source.id,
            section=headers["section"][0],
            expansion=expansion,
            aliases=tuple(phrases["aliases"]),
            asked=tuple(phrases["asked"]),
            see_also=tuple(_split_list(headers.get("see_also", ("", 0))[0])),
            modifies=tuple(_split_list(headers.get("modifies", ("", 0))[0])),
            revised=revised or None,
            draft=BOOLEANS.get(draft, False),
            path=shown,
            line=raw.line,
        )

    # -- whole-corpus checks -------------------------------------------------

    def check_references(self) -> None:
        """Checks that need every entry: references, cycles, names claimed twice."""
        entries = self.corpus.entries
        for entry in entries.values():
            for key in ("see_also", "modifies"):
                for target in getattr(entry, key):
                    if target == entry.id:
                        self.problems.append(Problem(entry.path, self.header_line(entry, key), f"{key} names the entry itself"))
                    elif target not in entries and target not in self.rejected:
                        self.problems.append(
                            Problem(entry.path, self.header_line(entry, key), f"{key}: unknown entry id {target!r}")
                        )
        self.check_modifies_cycles()
        self.check_names()

    def header_line(self, entry: Entry, key: str) -> int:
        # Each file is read once however many problems it has: a large file
        # with many of them must not be read again for each.
        if entry.path not in self._lines:
            self._lines[entry.path] = _file_lines(entry.path)
        return header_line(entry, key, self._lines[entry.path])

    def check_modifies_cycles(self) -> None:
        entries = self.corpus.entries
        state: dict[str, int] = {}  # 1: on the current path, 2: done

        for start in entries:
            if state.get(start):
                continue
            stack = [(start, iter(entries[start].modifies))]
            state[start] = 1
            while stack:
                node, children = stack[-1]
                child = next(children, None)
                if child is None:
                    state[node] = 2
                    stack.pop()
                elif child in entries and state.get(child) == 1:
                    self.cycle_links.add((node, child))
                    cycle = [n for n, _ in stack][[n for n, _ in stack].index(child):] + [child]
                    entry = entries[node]
                    self.problems.append(
                        Problem(entry.path, self.header_line(entry, "modifies"), "modifies forms a cycle: " + " -> ".join(cycle))
                    )
                elif child in entries and not state.get(child):
                    state[child] = 1
                    stack.append((child, iter(entries[child].modifies)))

    def check_names(self) -> None:
        """An alias may be claimed by one entry of a game only, and not be another entry's title."""
        claimed: dict[tuple[str, str], Entry] = {}
        titles: dict[tuple[str, str], Entry] = {}
        for entry in self.corpus.entries.values():
            titles.setdefault((entry.game, fold(entry.title)), entry)
        for entry in self.corpus.entries.values():
            for alias in entry.aliases:
                key = (entry.game, fold(alias.text))
                header = "aliases" if alias.lang == "en" else f"aliases-{alias.lang}"
                other = claimed.get(key)
                if other is not None and other.id != entry.id:
                    self.problems.append(
                        Problem(entry.path, self.header_line(entry, header),
                                f"alias {alias.text!r} is also claimed by {other.id!r} ({other.path}:{other.line})")
                    )
                    continue
                claimed[key] = entry
                owner = titles.get(key)
                if owner is not None and owner.id != entry.id:
                    self.problems.append(
                        Problem(entry.path, self.header_line(entry, header),
                                f"alias {alias.text!r} is the title of {owner.id!r} ({owner.path}:{owner.line})")
                    )
        self.check_asked()

    def check_asked(self) -> None:
        """A question players ask is listed for one entry of a game only: two would send it two ways."""
        asked_by: dict[tuple[str, str], Entry] = {}
        for entry in self.corpus.entries.values():
            for question in entry.asked:
                key = (entry.game, fold(question.text))
                other = asked_by.setdefault(key, entry)
                if other.id != entry.id:
                    header = "asked" if question.lang == "en" else f"asked-{question.lang}"
                    self.problems.append(
                        Problem(entry.path, self.header_line(entry, header),
                                f"question {question.text!r} is also asked of {other.id!r} ({other.path}:{other.line})")
                    )


def _in_game(path: Path) -> str:
    """A file of a game folder, named from the corpus folder: `catalyst/rulebook.md`."""
    return f"{path.parent.name}/{path.name}"


def format_entry(entry_id: str, headers: Iterable[tuple[str, str]], text: str) -> str:
    """One entry in the entries-file format: the heading, `key: value` lines, a blank line, the text."""
    lines = [f"## {entry_id}"]
    lines.extend(f"{key}: {' '.join(value.split())}".rstrip() for key, value in headers)
    lines.append("")
    if text.strip():
        lines.extend([text.strip(), ""])
    return "\n".join(lines)


def _file_lines(path: str) -> list[str] | None:
    try:
        data, _ = read_corpus_file(Path(path))
        return split_lines(data.decode("utf-8")) if data is not None else None
    except (OSError, UnicodeDecodeError):
        return None


def header_line(entry: Entry, key: str, lines: list[str] | None = None) -> int:
    """The line of a header key of an entry (the heading's line if absent).

    `lines` are the lines of the entry's file when the caller has them already.
    """
    if lines is None:
        lines = _file_lines(entry.path)
    if lines is None:
        return entry.line
    for number in range(entry.line, min(len(lines), entry.line + 30)):
        if lines[number].startswith(key + ":"):
            return number + 1
        if not lines[number].strip():
            break
    return entry.line


Groups = tuple[tuple[str, ...], ...]
"""Groups of words or phrases that mean the same (a vocabulary's synonyms, its French words)."""


def _groups(lists: list[list[str]]) -> Groups:
    return tuple(tuple(word.lower() for word in group) for group in lists)


def _split_list(value: str) -> list[str]:
    return [item.strip() for item in value.split(LIST_SEPARATOR) if item.strip()]


def _is_date(value: str) -> bool:
    if not DATE_RE.match(value):
        return False
    try:
        datetime.date.fromisoformat(value)
    except ValueError:
        return False
    return True


class _TomlFile:
    """Typed access to a parsed game.toml that records problems at the key's line."""

    def __init__(self, path: Path, text: str, loader: _Loader):
        self.path = path
        self.lines = split_lines(text)
        self.loader = loader

    def line_of(self, key: str, table: str | None = None, index: int = 0) -> int:
        start = 0
        if table is not None:
            headers = [n for n, line in enumerate(self.lines) if line.strip() == f"[[{table}]]"]
            if index < len(headers):
                start = headers[index]
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for number in range(start, len(self.lines)):
            if pattern.match(self.lines[number]):
                return number + 1
        return start + 1 if table is not None else 1

    def error(self, key: str, message: str, table: str | None = None, index: int = 0) -> None:
        self.loader.problem(self.path, self.line_of(key, table, index), message)

    def _where(self, key: str, table: str | None, index: int) -> str:
        return f"{table}[{index}].{key}" if table else key

    def string(self, data: dict, key: str, required: bool = False, table: str | None = None, index: int = 0) -> str:
        value = data.get(key)
        if value is None:
            if required:
                self.loader.problem(self.path, self.line_of(key, table, index) if table else 1,
                                    f"missing required key {self._where(key, table, index)!r}")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.error(key, f"{self._where(key, table, index)} must be a non-empty string", table, index)
            return ""
        return value.strip()

    def integer(self, data: dict, key: str, table: str | None = None, index: int = 0) -> int | None:
        value = data.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            self.error(key, f"{self._where(key, table, index)} must be a whole number", table, index)
            return None
        return value

    def date(self, data: dict, key: str, table: str | None = None, index: int = 0) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return value.isoformat()
        if isinstance(value, str) and _is_date(value):
            return value
        self.error(key, f"{self._where(key, table, index)} must be a date YYYY-MM-DD", table, index)
        return None

    def tables(self, data: dict, key: str) -> list[dict]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.error(key, f"{key} must be an array of tables ([[{key}]])")
            return []
        return value

    def string_list(self, data: dict, key: str) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.error(key, f"{key} must be a list of non-empty strings")
            return []
        return [v.strip() for v in value]

    def string_lists(self, data: dict, key: str) -> list[list[str]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(group, list) and len(group) >= 2 and all(isinstance(v, str) and v.strip() for v in group)
            for group in value
        ):
            self.error(key, f"{key} must be a list of lists of two or more strings")
            return []
        return [[v.strip() for v in group] for group in value]

    def unknown_keys(self, data: dict, known: set[str]) -> None:
        for key in data:
            if key not in known:
                self.error(key, f"unknown key {key!r} (known: {', '.join(sorted(known))})")
