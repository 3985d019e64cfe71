"""A new entry or game, ready to fill in (`rulebot new`, `rulebot new-game`), and writing curator files safely.

Every file is written outside the installed rulebot package: a curator's
additions go to a corpus folder of their own (`--corpus DIR`, else the user's
corpus folder, rulebot.corpus.files.own_dir), house rules to a house-rules
folder, never to an official source's file.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from rulebot import atomic
from rulebot.corpus.files import GAME_FILE, is_entries_file, read_corpus_file
from rulebot.corpus.format import DATE_RE, ID_RE, LANGUAGE_RE, format_entry, joined, not_an_id, slugify, split_entries, unique_id
from rulebot.corpus.kinds import HOUSE_KIND, HOUSE_TRUST, KINDS
from rulebot.corpus.model import Corpus, Game
from rulebot.errors import CurationError, PackageWriteError
from rulebot.places import outside_package, shipped_corpus_dir
from rulebot.text import CONTROL_CHARACTER

HOUSE_SOURCE = "house"
"""The source id of a house-rules folder `rulebot new` creates (made unique in the game)."""


@dataclass(frozen=True)
class Scaffold:
    """An empty entry block with a fresh id, and the entries file it belongs in."""

    id: str
    """A fresh id: the game's prefix and the title's slug, or the kind and a number."""
    block: str
    """The entry in the entries-file format, its required values left to fill."""
    path: Path
    """The entries file of its source (which may not exist yet)."""
    game: str = ""
    """The slug of its game."""
    game_toml: str | None = None
    """The game.toml of the house-rules folder to create beside `path` first; None when it exists."""
    prefix: str = ""
    """The id prefix of its game, kind and title: what a fresh id is made of (see renamed)."""
    kind: str = ""
    title: str = ""
    taken: frozenset[str] = frozenset()
    """The ids written in the corpus when it was made, unfinished entries included."""

    def renamed(self, written: set[str]) -> Scaffold:
        """The same entry with an id free among `taken` and `written` (the ids of its file as it is now)."""
        entry_id = fresh_id(self.prefix, self.kind, self.title, self.taken | written)
        return replace(self, id=entry_id, block=entry_block(entry_id, self.kind, self.title))


def scaffold(
    corpus: Corpus, game: str, kind: str, source: str | None = None, title: str | None = None, *, own_dir: Path | None = None
) -> Scaffold:
    """An entry block for a game's source (its first source by default) with a fresh unique id.

    The title is filled when given; the section and the text are left empty,
    so that `rulebot check` points at what is still to write. A house rule
    belongs in a house source: the one given, else the house-rules folder of
    the game in `own_dir`, made when missing (see house_rules_file); without
    `own_dir`, its file is not looked for. UnknownGameError for an unknown
    game, CurationError for an unknown kind or source.
    """
    the_game = corpus.game(game)
    if kind not in KINDS:
        raise CurationError(f"unknown kind {kind!r} (one of: {', '.join(KINDS)})")
    if not the_game.sources:
        raise CurationError(f"{game} declares no source in its game.toml")
    the_source = the_game.source(source) if source else the_game.sources[0]
    if the_source is None:
        known = ", ".join(s.id for s in the_game.sources)
        raise CurationError(f"no source {source!r} in {game} (declared: {known})")
    path, game_toml = entries_file(corpus, game, the_source.id), None
    if kind == HOUSE_KIND and own_dir is not None:
        path, game_toml = house_rules_file(corpus, the_game, source, own_dir)
    # An entry started by `new` and not yet written (no section, no text) is not loaded, yet its id is
    # taken: the headings of the game's files count, not only the corpus's valid entries.
    taken = frozenset(corpus.entries) | written_ids(corpus, game, path)
    title = (title or "").strip()
    entry_id = fresh_id(the_game.id_prefix, kind, title, taken)
    block = entry_block(entry_id, kind, title)
    return Scaffold(entry_id, block, path, game, game_toml, prefix=the_game.id_prefix, kind=kind, title=title, taken=taken)


def fresh_id(prefix: str, kind: str, title: str, taken: set[str] | frozenset[str]) -> str:
    """An id not in `taken`: the prefix and the title's slug, else (no title) the prefix, the kind and a number."""
    if title:
        return unique_id(prefix, title, set(taken))
    number = 1
    while f"{prefix}-{slugify(kind)}-{number}" in taken:
        number += 1
    return f"{prefix}-{slugify(kind)}-{number}"


def entry_block(entry_id: str, kind: str, title: str) -> str:
    """An entry's block with its id, title and kind, the rest left to fill."""
    return format_entry(entry_id, [("title", title), ("kind", kind), ("section", ""), ("aliases", ""), ("see_also", "")], "")


def written_ids(corpus: Corpus, game: str, path: Path) -> frozenset[str]:
    """The id of every entry heading in the entries files beside `path` and beside the game's files,
    whether or not the entry is valid; a file that cannot be read adds none."""
    folders = {path.parent, Path(corpus.game(game).path).parent} | {Path(e.path).parent for e in corpus.entries_of(game)}
    ids: set[str] = set()
    for folder in sorted(folders):
        try:
            files = sorted(p for p in folder.iterdir() if is_entries_file(p))
        except OSError:
            continue
        for file in files:
            try:
                data = read_corpus_file(file)[0]
            except OSError:
                continue
            if data is not None:
                ids.update(raw.id for raw in split_entries(file, data.decode("utf-8", errors="replace")))
    return frozenset(ids)


def house_rules_file(corpus: Corpus, game: Game, source: str | None, own_dir: Path) -> tuple[Path, str | None]:
    """Where a house rule of a game goes, and the game.toml to create first (None: it exists).

    The house source given (CurationError for an official one), else the first
    source of the game's house-rules folder in `own_dir` (a folder whose
    game.toml says `extends = "<game>"`), else a new such folder, named after
    the game, with a source `house`.
    """
    if source is not None:
        given = game.source(source)
        if given is None:  # new_entry checks the source first
            raise CurationError(f"no source {source!r} in {game.slug}")
        if given.trust != HOUSE_TRUST:
            raise CurationError(
                f"{source!r} is an official source of {game.slug}: a house rule goes to a house source"
                " (leave out --source for the game's house-rules folder)"
            )
        return entries_file(corpus, game.slug, source), None
    folders = sorted(p for p in own_dir.iterdir() if p.is_dir()) if own_dir.is_dir() else []
    for folder in folders:
        try:
            data = tomllib.loads((read_corpus_file(folder / GAME_FILE)[0] or b"").decode("utf-8"))
            first = data["sources"][0]["id"] if data.get("extends") == game.slug else None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, LookupError, TypeError):
            continue  # not a house-rules folder of this game, or not one to add to
        if isinstance(first, str):
            return folder / f"{first}.md", None
    name, number = game.slug, 1
    while (own_dir / name).exists():  # the game's own folder, say, when the game is the user's too
        name = f"{game.slug}-house-rules" + (f"-{number}" if number > 1 else "")
        number += 1
    declared = {s.id for s in game.sources}
    source_id, number = HOUSE_SOURCE, 1
    while source_id in declared:
        number += 1
        source_id = f"{HOUSE_SOURCE}-{number}"
    toml = _toml(
        f"# House rules for {game.name}: added to that game, and flagged as house rules wherever rulebot shows them.",
        (f"extends = {_value(game.slug)}", "the game these house rules are for"),
        "",
        "[[sources]]",
        (f"id = {_value(source_id)}", "= the entries file name without .md"),
        f"title = {_value('House rules for ' + game.name)}",
        f"trust = {_value(HOUSE_TRUST)}",
    )
    return own_dir / name / f"{source_id}.md", toml


def entries_file(corpus: Corpus, game: str, source: str) -> Path:
    """Where a source's entries are: the file of its first entry, else `<source>.md` beside the game's game.toml."""
    for entry in corpus.entries_of(game):
        if entry.source == source:
            return Path(entry.path)
    return Path(corpus.game(game).path).parent / f"{source}.md"


def writable_entries_file(path: Path, game: str, instead: str = "") -> Path:
    """`path`, unless it is in the corpus installed with rulebot, which is never changed: CurationError
    saying what to do instead (a house rule, a copy of the corpus; and `instead`, a command's own way)."""
    try:
        return outside_package(path, "the entries file")
    except PackageWriteError:
        raise CurationError(
            f"{game} comes with rulebot, and the corpus installed with it ({shipped_corpus_dir()}) is never changed:"
            f" add a house rule (rulebot new --game {game} --kind house-rule --append){instead},"
            " or copy that corpus folder and curate the copy (rulebot --no-shipped --corpus COPY ...)"
        ) from None


def append(scaffold: Scaffold) -> Scaffold:
    """Add the entry block at the end of its entries file (created if missing; a new house-rules folder is
    made whole, its game.toml and the file at once); the entry as written. Its id is chosen again, under
    the file's lock, when the file has it by then (another `new` at the same time): the entry written
    may have another id than `scaffold`'s. CurationError for a file of the corpus installed with rulebot;
    WriteError when it cannot be written, the file then as it was."""
    path = writable_entries_file(scaffold.path, scaffold.game)
    if scaffold.game_toml is not None:
        atomic.create_folder(path.parent, {GAME_FILE: scaffold.game_toml, path.name: scaffold.block})
        return scaffold
    written = scaffold

    def add(existing: str | None) -> str:
        nonlocal written
        ids = {raw.id for raw in split_entries(path, existing or "")}
        if scaffold.id in ids:
            written = scaffold.renamed(ids)
        return joined(existing, written.block)

    atomic.update_file(path, add)
    return written


def new_game(
    corpus: Corpus,
    own_dir: Path,
    slug: str,
    *,
    name: str,
    source: str,
    title: str,
    id_prefix: str | None = None,
    edition: str = "",
    date: str | None = None,
    language: str = "en",
) -> Path:
    """Start a game folder in `own_dir`: its game.toml declaring the game and its first source, and
    the source's entries file, empty; the folder. The ids of its entries start with `id_prefix`
    (the slug by default). CurationError for a slug, prefix, source or date that will not do,
    or a game that is there already."""
    prefix = id_prefix or slug
    language = language.lower()  # ("FR" as readily as "fr", as game.toml reads it)
    for what, value in (("slug", slug), ("id prefix", prefix), ("source id", source)):
        if not ID_RE.match(value):
            raise CurationError(not_an_id(what, value))
        if len(value) > MAX_NAME_LETTERS:  # (a folder's and a file's name: the file system refuses a long one, unsaid why)
            raise CurationError(f"the {what} {value[:20]}… has {len(value)} characters: at most {MAX_NAME_LETTERS}")
    if not name.strip() or not title.strip():
        raise CurationError("the game's name and its source's title must not be empty")
    for what, value in (("the game's name", name), ("the source's title", title), ("the edition", edition)):
        if "\n" in value or "\r" in value or "\t" in value or CONTROL_CHARACTER.search(value):
            raise CurationError(f"{what} must be one line of text, without tabs or control characters: {value!r}")
    if date is not None and not DATE_RE.match(date):
        raise CurationError(f"the date must be YYYY-MM-DD, not {date!r}")
    if not LANGUAGE_RE.fullmatch(language):
        raise CurationError(f"the language must be a two-letter code (en, fr, de...), not {language!r}")
    if slug in corpus.games:
        raise CurationError(f"there is a game {slug!r} already ({corpus.games[slug].path})")
    folder = outside_package(own_dir, "the corpus folder") / slug
    if folder.exists():
        raise CurationError(f"{folder} exists already")
    toml = _toml(
        (f"slug = {_value(slug)}", "the folder's name; used by --game"),
        f"name = {_value(name.strip())}",
        (f"id_prefix = {_value(prefix)}", f"every entry id of this game starts with {prefix}-"),
        (f"language = {_value(language)}", "the language of the game's sources"),
        "# publisher = \"\"",
        "# year = 2024",
        ("aliases = []", "other names players use for the game"),
        "",
        "[[sources]]",
        (f"id = {_value(source)}", "= the entries file name without .md"),
        f"title = {_value(title.strip())}",
        (f"edition = {_value(edition)}" if edition else "# edition = \"\"", "free text: edition, version, revision"),
        (f"date = {date}" if date else "# date = 2024-01-01", "the document's date"),
        (f"trust = {_value('official')}", "official | designer | community | house"),
        "",
        "[vocabulary]",
        ("synonyms = []", 'words that mean the same in this game: [["vp", "victory points"]]'),
        ("terms = []", "words that on their own point at this game"),
    )
    entries = f"# {title.strip()}\n\nThe entries of {name.strip()} that restate this document, each under a `## id` heading.\n"
    # Made whole, beside, then renamed into place: a failed attempt leaves no folder to refuse a retry.
    atomic.create_folder(folder, {GAME_FILE: toml, f"{source}.md": entries})
    return folder


def _toml(*lines: str | tuple[str, str]) -> str:
    """TOML lines; a (line, comment) pair has its comment at a column of its own."""
    return "\n".join(line if isinstance(line, str) else f"{line[0]:<34} # {line[1]}" for line in lines) + "\n"


def _value(value: str) -> str:
    """A TOML string (JSON's quoting is TOML's basic string)."""
    return json.dumps(value, ensure_ascii=False)


def write_new(path: Path, text: str, force: bool = False, parents: bool = False) -> None:
    """Write a file whole or not at all (rulebot.atomic), refusing to replace an existing one unless `force`,
    and any inside the installed package."""
    outside_package(path, "the file")
    if path.exists() and not force:
        raise CurationError(f"{path} exists: add --force to replace it")
    if parents:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CurationError(f"cannot write {path}: {exc.strerror or exc}") from None
    atomic.write_file(path, text, replace=force)


MAX_NAME_LETTERS = 64
"""The longest slug, id prefix or source id `new-game` takes: each names a folder or a file, and an entry's id
starts with the prefix."""
EMPTY_LIST_RE = r"^(?P<key>{key})\s*=\s*\[\s*\]"


def record_import(game: Game, synonyms: list[list[str]], terms: list[str], source: str, document: str) -> tuple[list[str], bool]:
    """Write into the game's own game.toml, in one write, what an import leaves there: the proposed synonym groups
    and terms, each list only where it is still empty (`synonyms = []`, as new-game writes it: what the curator
    wrote is never changed), and the name of the document on its source's table (_document_named). The keys of
    the vocabulary written ("synonyms", "terms"), and whether the document's name replaced another one there (a
    new edition imported from a file of another name); nothing for a game.toml that cannot or must not be written
    (the shipped corpus's)."""
    if not _own_game_file(game):
        return [], False
    written: list[str] = []
    renamed: list[bool] = []

    def recorded(text: str | None) -> str | None:
        proposed, keys = _vocabulary_proposed(text, synonyms, terms, document)
        written[:] = keys
        named, replaced = _document_named(text if proposed is None else proposed, source, document)
        renamed[:] = [replaced]
        return proposed if named is None else named

    atomic.update_file(Path(game.path), recorded)
    return written, any(renamed)


def vocabulary_room(game: Game, synonyms: list[list[str]], terms: list[str]) -> list[str]:
    """The keys of the vocabulary record_import would write now, writing nothing: the import's notes say where its
    vocabulary went before it is written."""
    if not _own_game_file(game):
        return []
    try:
        data = atomic.read_regular(Path(game.path))  # (as record_import reads it: its line ends as they are)
        text = None if data is None else data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return _vocabulary_proposed(text, synonyms, terms, "")[1]


def _own_game_file(game: Game) -> bool:
    """Whether the game's game.toml is the curator's (not the installed package's)."""
    try:
        outside_package(Path(game.path), "the game file")
    except PackageWriteError:
        return False
    return True


def _vocabulary_proposed(text: str | None, synonyms: list[list[str]], terms: list[str], document: str) -> tuple[str | None, list[str]]:
    """game.toml's text with the synonyms and terms written into its empty lists of [vocabulary] (None: no
    list empty, or nothing to write), and the keys written. The lines written end as the list's own line does
    (CRLF in a file written so); the curator's lines are left as they are."""
    marker = re.search(r"(?m)^\[vocabulary\][ \t]*\r?$", text or "")
    if text is None or marker is None:
        return None, []
    head, vocabulary = text[: marker.end()], text[marker.end() :]
    note = f"# proposed by `rulebot import` from {document}: keep what players say, remove the rest"
    written: list[str] = []
    for key, values in (("synonyms", [json.dumps(g, ensure_ascii=False) for g in synonyms]), ("terms", [_value(t) for t in terms])):
        pattern = re.compile(EMPTY_LIST_RE.format(key=key) + r"[^\r\n]*(?P<end>\r?)$", re.MULTILINE)
        empty = pattern.search(vocabulary) if values else None
        if empty is None:
            continue
        end = empty.group("end") + "\n"
        listed = "".join(f"  {value},{end}" for value in values)
        vocabulary = f"{vocabulary[: empty.start()]}{note}{end}{key} = [{end}{listed}]{empty.group('end')}{vocabulary[empty.end() :]}"
        written.append(key)
    return (head + vocabulary if written else None), written


def _document_named(text: str | None, source: str, document: str) -> tuple[str | None, bool]:
    """game.toml's text with `document = "<file name>"` on the source's [[sources]] table, or in place of the one
    there (a new edition imported from a file of another name): `check --sources DIR` then finds the copy of the
    edition last imported by that name (None: nothing to change: the same name, or a value written otherwise, left
    to the curator); and whether it replaced another name."""
    tables = re.split(r"(?m)^(?=\[)", text or "")
    for index, table in enumerate(tables):
        if not table.startswith("[[sources]]") or not re.search(rf'(?m)^id\s*=\s*{re.escape(_value(source))}\s*(?:#.*)?$', table):
            continue
        line = re.search(r"(?m)^(document\s*=\s*)(\"(?:[^\"\\\r\n]|\\.)*\"|'[^'\r\n]*')", table)
        if line is not None:  # (its value only: a comment after it is kept)
            if line.group(2) == _value(document):
                return None, False
            tables[index] = table[: line.start(2)] + _value(document) + table[line.end(2) :]
            return "".join(tables), True
        if re.search(r"(?m)^document\s*=", table):
            return None, False  # (a value written otherwise: left to the curator)
        # (after the id line, ended as it is: a file of CRLF line ends keeps them)
        tables[index] = re.sub(r"(?m)^(id\s*=.*?(\r?\n))", lambda m: m.group(1) + f"document = {_value(document)}{m.group(2)}", table, count=1)
        return "".join(tables), False
    return None, False
