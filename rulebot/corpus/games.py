"""Reading the TOML files of a corpus: a game's game.toml, a house-rules folder's, a corpus folder's vocabulary.toml.

Each function is given a file's text and parsed content (the loader reads
them) and adds every problem it finds, at the line of its key, to a list.
"""

from __future__ import annotations

import datetime
import itertools
import re
import tomllib
from dataclasses import replace
from pathlib import Path

from rulebot.corpus.files import TomlTable
from rulebot.corpus.format import ID_RE, LANGUAGE_RE, is_date, not_an_id, split_lines
from rulebot.corpus.kinds import HOUSE_TRUST, TRUST_LEVELS
from rulebot.corpus.model import Edition, Expansion, Game, Source
from rulebot.errors import Problem
from rulebot.places import display_path, shipped_corpus_dir
from rulebot.text import CONTROL_CHARACTER

TOML_LINE_RE = re.compile(r"at line (\d+)")
GAME_KEYS = {"slug", "name", "id_prefix", "publisher", "year", "language", "aliases", "expansions", "sources", "vocabulary"}
"""The keys of a game's game.toml."""
OVERLAY_KEYS = {"extends", "sources"}
"""The only keys of a house-rules folder's game.toml."""

Groups = tuple[tuple[str, ...], ...]
"""Groups of words or phrases that mean the same (a vocabulary's synonyms, its French words)."""


def parse_toml(path: Path, text: str, problems: list[Problem]) -> TomlTable | None:
    """The parsed content of a TOML file's text, or None after adding why not to `problems`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = TOML_LINE_RE.search(str(exc))
        problems.append(Problem(display_path(path), int(match.group(1)) if match else 0, f"invalid TOML: {exc}"))
        return None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        problems.append(Problem(display_path(path), 0, "invalid TOML: arrays or tables nested too deeply"))
        return None
    if any(CONTROL_CHARACTER.search(value) for value in _strings(data)):
        # TOML allows control characters as escapes in strings (\u001b, \b): a terminal would act on them.
        escaped = re.compile(r"\\(?:[bfr]|u00(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|U000000(?:[01][0-9a-fA-F]|7[fF]|[89][0-9a-fA-F]))")
        lines = split_lines(text)
        line = next((n for n, content in enumerate(lines, 1) if CONTROL_CHARACTER.search(content) or escaped.search(content)), 0)
        problems.append(Problem(display_path(path), line, "a control character in a value (an escape sequence): a terminal would act on it; remove it"))
        return None
    return data


def _strings(value: object) -> list[str]:
    """Every string of a parsed TOML file, keys included."""
    found: list[str] = []
    stack = [value]
    while stack:  # not recursive: tomllib has already refused what is too deep for it, and that is all
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def read_vocabulary(path: Path, text: str, data: TomlTable, problems: list[Problem]) -> tuple[Groups, Groups]:
    """The synonym groups and French groups of a corpus folder's vocabulary.toml."""
    toml = TomlFile(path, text, problems)
    toml.unknown_keys(data, {"synonyms", "french"})
    return groups(toml.string_lists(data, "synonyms")), groups(toml.string_lists(data, "french"))


def read_game(path: Path, text: str, data: TomlTable, games: dict[str, Game], problems: list[Problem]) -> Game | None:
    """The game of a game.toml, or None when it has problems (or is one of `games` already)."""
    toml = TomlFile(path, text, problems)
    before = len(problems)

    slug = toml.string(data, "slug", required=True)
    if slug and slug != path.parent.name:
        toml.error("slug", f"slug {slug!r} differs from the folder name {path.parent.name!r}")
    if slug and not ID_RE.match(slug):
        toml.error("slug", not_an_id("slug", slug))
    name = toml.string(data, "name", required=True)
    prefix = toml.string(data, "id_prefix", required=True)
    if prefix and not ID_RE.match(prefix):
        toml.error("id_prefix", not_an_id("id_prefix", prefix))
    year = toml.integer(data, "year")
    expansions = tuple(
        Expansion(
            slug=toml.string(item, "slug", required=True, table="expansions", index=i),
            name=toml.string(item, "name", required=True, table="expansions", index=i),
            year=toml.integer(item, "year", table="expansions", index=i),
        )
        for i, item in enumerate(toml.tables(data, "expansions"))
    )
    for i, expansion in enumerate(expansions):
        if expansion.slug and not ID_RE.match(expansion.slug):
            toml.error("slug", not_an_id("expansion slug", expansion.slug), "expansions", i)
    sources = read_sources(toml, data, {e.slug for e in expansions})
    vocabulary = data.get("vocabulary", {})
    if not isinstance(vocabulary, dict):
        toml.error("vocabulary", "vocabulary must be a table")
        vocabulary = {}
    synonyms = toml.string_lists(vocabulary, "synonyms")
    terms = toml.string_list(vocabulary, "terms")
    aliases = toml.string_list(data, "aliases")
    toml.unknown_keys(data, GAME_KEYS)
    toml.unknown_keys(vocabulary, {"synonyms", "terms", "french"})
    for what, items in (("expansion", [e.slug for e in expansions]), ("source", [s.id for s in sources])):
        seen = set()
        for item in items:
            if item in seen:
                toml.error(what, f"{what} {item!r} declared twice")
            seen.add(item)
    if len(problems) > before:
        return None
    if slug in games:
        problems.append(Problem(
            display_path(path), 1,
            f"game {slug!r} already defined in {games[slug].path}"
            f" (house rules for it: a game.toml with only extends = {slug!r} and [[sources]])",
        ))
        return None
    return Game(
        slug=slug,
        name=name,
        id_prefix=prefix,
        publisher=toml.string(data, "publisher"),
        year=year,
        language=toml.language(data),
        aliases=tuple(aliases),
        expansions=expansions,
        sources=tuple(sources),
        synonyms=groups(synonyms),
        french=groups(toml.string_lists(vocabulary, "french")),
        terms=tuple(t.lower() for t in terms),
        path=display_path(path),
    )


def read_house_rules(path: Path, text: str, data: TomlTable, games: dict[str, Game], problems: list[Problem]) -> tuple[Game, Game] | None:
    """A house-rules folder's game.toml (it `extends` one of `games`): the game with the folder's sources
    added, and the game as the folder's own files see it (with those sources only); None when it has problems."""
    toml = TomlFile(path, text, problems)
    before = len(problems)
    slug = toml.string(data, "extends", required=True)
    toml.unknown_keys(data, OVERLAY_KEYS)
    game = games.get(slug)
    if slug and game is None:
        known = ", ".join(games) or "none"
        # (a game of the shipped corpus, not read here (--no-shipped): the folder is right, what is read is not)
        shipped = (shipped_corpus_dir() / slug / "game.toml").is_file() if ID_RE.match(slug) else False
        why = ": a game of the corpus shipped with rulebot, which is not read here (--no-shipped?)" if shipped else ""
        toml.error("extends", f"extends unknown game {slug!r} (known: {known}){why}")
    if game is None:
        return None
    sources = read_sources(toml, data, {e.slug for e in game.expansions}, default_trust=HOUSE_TRUST)
    if not sources:
        toml.error("sources", "a house-rules folder declares its own [[sources]]")
    for i, source in enumerate(sources):
        if source.trust != HOUSE_TRUST:
            toml.error("trust", f"source {source.id!r} of a house-rules folder must have trust \"house\", not {source.trust!r}", "sources", i)
        if game.source(source.id) is not None:
            toml.error("id", f"source {source.id!r} is already declared by {slug!r} ({game.path})", "sources", i)
        if source.id in {s.id for s in sources[:i]}:
            toml.error("id", f"source {source.id!r} declared twice", "sources", i)
    if len(problems) > before:
        return None
    return replace(game, sources=game.sources + tuple(sources)), replace(game, sources=tuple(sources))


def read_sources(toml: TomlFile, data: TomlTable, expansion_slugs: set[str], default_trust: str = "official") -> list[Source]:
    """The `[[sources]]` of a game.toml, each checked."""
    sources = []
    for i, item in enumerate(toml.tables(data, "sources")):
        source = Source(
            id=toml.string(item, "id", required=True, table="sources", index=i),
            title=toml.string(item, "title", required=True, table="sources", index=i),
            edition=toml.string(item, "edition", table="sources", index=i),
            date=toml.date(item, "date", table="sources", index=i),
            language=toml.language(item, table="sources", index=i),
            trust=toml.string(item, "trust", table="sources", index=i) or default_trust,
            expansion=toml.string(item, "expansion", table="sources", index=i) or None,
            headings=_headings(toml, item, i),
            document=toml.string(item, "document", table="sources", index=i),
        )
        source = replace(source, editions=read_editions(toml, item, source, i))
        if source.id and not ID_RE.match(source.id):
            toml.error("id", not_an_id("source id", source.id) + " (it names the file SOURCE-ID.md)", "sources", i)
        if source.trust not in TRUST_LEVELS:
            toml.error("trust", f"unknown trust {source.trust!r} (one of: {', '.join(TRUST_LEVELS)})", "sources", i)
        if source.expansion and source.expansion not in expansion_slugs:
            toml.error("expansion", f"unknown expansion {source.expansion!r}", "sources", i)
        sources.append(source)
    return sources


def read_editions(toml: TomlFile, item: TomlTable, source: Source, index: int) -> tuple[Edition, ...]:
    """A source's earlier editions (`editions = [{ date = ..., edition = "..." }]`), each checked: a date
    before the next one's and before the source's own `date`, which they need."""
    value = item.get("editions", [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        toml.error("editions", "editions must be a list of tables: [{ date = YYYY-MM-DD, edition = \"...\" }]", "sources", index)
        return ()
    editions = []
    for n, table in enumerate(value):
        where = f"sources[{index}].editions[{n}]"
        unknown = sorted(set(table) - {"date", "edition"})
        if unknown:
            toml.error("editions", f"{where}: unknown key {unknown[0]!r} (known: date, edition)", "sources", index)
        date = table.get("date")
        if isinstance(date, datetime.date) and not isinstance(date, datetime.datetime):
            date = date.isoformat()
        if not isinstance(date, str) or not is_date(date):
            toml.error("editions", f"{where}.date must be a date YYYY-MM-DD", "sources", index)
            continue
        name = table.get("edition", "")
        if not isinstance(name, str):
            toml.error("editions", f"{where}.edition must be a string", "sources", index)
            name = ""
        editions.append(Edition(date=date, edition=name.strip()))
    if editions and not source.date:
        toml.error("editions", f"source {source.id!r} lists earlier editions: it needs its own date (the latest edition)", "sources", index)
    dates = [e.date for e in editions] + ([source.date] if source.date else [])
    if any(later <= earlier for earlier, later in itertools.pairwise(dates)):
        toml.error("editions", f"the editions of source {source.id!r} must be oldest first, each before the next and before its date", "sources", index)
    return tuple(editions)
def _headings(toml: TomlFile, item: TomlTable, index: int) -> tuple[tuple[str, str], ...]:
    """A source's `headings`: its section headings in the entries' language, by heading as the document has it."""
    value = item.get("headings", {})
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) and k.strip() and v.strip() for k, v in value.items()):
        toml.error("headings", "headings must be a table of non-empty strings (heading as the document has it = heading in English)", "sources", index)
        return ()
    return tuple((k.strip(), v.strip()) for k, v in value.items())


def groups(lists: list[list[str]]) -> Groups:
    """Synonym groups as the search uses them: lower case."""
    return tuple(tuple(word.lower() for word in group) for group in lists)


class TomlFile:
    """Typed access to a parsed TOML file that records problems at the key's line."""

    def __init__(self, path: Path, text: str, problems: list[Problem]):
        self.path = path
        self.lines = split_lines(text)
        self.problems = problems

    def line_of(self, key: str, table: str | None = None, index: int = 0) -> int:
        start = 0
        if table is not None:
            headers = [n for n, line in enumerate(self.lines) if line.strip() == f"[[{table}]]"]
            if index < len(headers):
                start = headers[index]
        # `key = ...`, `"key" = ...`, or a table of that name: `[key]`, `[[key]]`, `[vocabulary.key]`.
        name = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
        pattern = re.compile(rf"^\s*(?:{name}\s*[=.]|\[\[?\s*(?:[^\]]*\.\s*)?{name}\s*\]\]?)")
        for number in range(start, len(self.lines)):
            if pattern.match(self.lines[number]):
                return number + 1
        return start + 1 if table is not None else 1

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(display_path(self.path), line, message))

    def error(self, key: str, message: str, table: str | None = None, index: int = 0) -> None:
        self.problem(self.line_of(key, table, index), message)

    def _where(self, key: str, table: str | None, index: int) -> str:
        return f"{table}[{index}].{key}" if table else key

    def string(self, data: TomlTable, key: str, required: bool = False, table: str | None = None, index: int = 0) -> str:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(self.line_of(key, table, index) if table else 1, f"missing required key {self._where(key, table, index)!r}")
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            self.error(key, f"{self._where(key, table, index)} must be a non-empty string", table, index)
            return ""
        return value.strip()

    def integer(self, data: TomlTable, key: str, table: str | None = None, index: int = 0) -> int | None:
        value = data.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            self.error(key, f"{self._where(key, table, index)} must be a whole number", table, index)
            return None
        return value

    def date(self, data: TomlTable, key: str, table: str | None = None, index: int = 0) -> str | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
            return value.isoformat()
        if isinstance(value, str) and is_date(value):
            return value
        self.error(key, f"{self._where(key, table, index)} must be a date YYYY-MM-DD", table, index)
        return None

    def tables(self, data: TomlTable, key: str) -> list[TomlTable]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.error(key, f"{key} must be an array of tables ([[{key}]])")
            return []
        return value

    def language(self, data: TomlTable, table: str | None = None, index: int = 0) -> str:
        """A `language`: a two-letter code in either case, read in lower case ("en" when not given; a problem, and
        "en", for anything else: "english")."""
        value = self.string(data, "language", table=table, index=index).lower()
        if value and not LANGUAGE_RE.fullmatch(value):
            self.error("language", f"{self._where('language', table, index)} must be a two-letter code (en, fr, de...), not {value!r}", table, index)
            return "en"
        return value or "en"

    def string_list(self, data: TomlTable, key: str) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            self.error(key, f"{key} must be a list of non-empty strings")
            return []
        return [v.strip() for v in value]

    def string_lists(self, data: TomlTable, key: str) -> list[list[str]]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(group, list) and len(group) >= 2 and all(isinstance(v, str) and v.strip() for v in group)
            for group in value
        ):
            self.error(key, f"{key} must be a list of lists of two or more strings")
            return []
        return [[v.strip() for v in group] for group in value]

    def unknown_keys(self, data: TomlTable, known: set[str]) -> None:
        for key in data:
            if key not in known:
                self.error(key, f"unknown key {key!r} (known: {', '.join(sorted(known))})")
