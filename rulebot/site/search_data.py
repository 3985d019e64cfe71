"""The data of the site's search, as JavaScript files that assign a global.

The search runs in the browser without a server (it must work from file://,
where fetch() of a JSON file is refused), so its data is loaded by `<script>`
tags: each file adds one key to `window.RULEBOT_DATA`. No page loads any of
it when it opens: the search script injects the tags when someone first
focuses the search box or types in it (or opens a page with `?q=`).

The index is inverted and cut into files, so that a question loads only
what its words need, on every page alike:

- `_search/games.js` (key "games"): every game's slug, name and pages, in
  the site's order, and under "search" what the search needs to read a
  question as `rulebot ask` does (`search_settings`): the ranking's
  constants (rulebot.index.fields, rulebot.search.constants), the stop words, question words and French
  markers (rulebot.language.analysis), the words of counts (rulebot.language.quantities),
  the index's statistics (documents, average field lengths, the lengths
  its field-length bytes stand for), how many files the terms and the
  entries are cut into, and each game's documents, names, expansions,
  terms and vocabulary (synonyms and French groups).
- `_search/lexicon-<c>.js` (key "lexicon:<c>"): every game's terms of the
  fields a question's words are looked up in before it is searched, those
  that begin with the letter or digit c (`lexicon_part`; "_" for the rest):
  the body's, with how many entries hold each (close spellings of unknown
  words), the names' words, with how many entries have each in a name (close
  spellings, first), and those of the other English and of the French
  fields (is a word only French?).
- `_search/terms-<n>.js` (key "terms:<n>"): the postings of the terms whose
  `shard_of` is n (`term_shards`): for each term, per field of fields.FIELDS,
  each entry holding it with the field's length and the term's places in
  it (what BM25F and the phrase and proximity steps read), made by
  rulebot.language.analysis from the very documents the index is built from
  (rulebot.index.build.documents); and the entries with a name whose first
  stem is the term (a game's page finds the other games' entries a question
  names by them).
- `_search/entries-<n>.js` (key "entries:<n>"): the entries numbered
  n * ENTRIES_PER_FILE and up in the index (`entry_rows`): what the results
  show of each (id, kind, title, aliases, flags, page) and what the ranking
  reads of it (its body's length, its names' and questions' stems, what its
  numbers count, the player counts it gives, its expansion, its source's
  trust, its links). A search loads those of its candidates only.
- `_search/<game>.pages.js` (key "pages:<slug>"): the ids of the entries of
  each of the game's pages, for an address whose #anchor is on another of
  its pages.
- `_search/<game>.texts.js` (key "texts:<slug>:0") and, for a game of
  several pages, `_search/<game>.texts-<n>.js` (key "texts:<slug>:<n>"): the
  plain texts of the game's entries on its page number n (numbered as in its
  games.js pages), in corpus order, for result snippets: a result's snippet
  loads the texts of its page only.

Every page loads the settings on the first search; then the lexicon files of
the question's words' letters, the terms files of its words, then the
entries files of its candidates (the engine says what it lacks; search.js
loads it and asks again).

Numbers in the postings are written with `encode`: base 32 with a digit set
for the last digit of a number and another for the others, so that a list
of numbers is a short string of ASCII letters with no separator.

The JSON is made safe to embed in a script: `<`, `>`, `&` and every non-ASCII
character (U+2028 and U+2029 included) are written as `\\uXXXX` escapes, so no
text of the corpus can close the script or break the file's encoding.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rulebot.corpus.model import Corpus, Entry
from rulebot.index import fields
from rulebot.index.payload import StoredEntry
from rulebot.index.reader import PAYLOAD_FIELD, STORED_LENGTHS
from rulebot.language import analysis, quantities
from rulebot.markdown import PRE, STRONG_OFF, STRONG_ON, TABLE, to_terminal
from rulebot.search import constants, features

SEARCH_DIR = "_search"
"""The output folder of the search data (an underscore: no game slug can clash)."""
GAMES_FILE = f"{SEARCH_DIR}/games.js"
ENGLISH_FIELDS = ("title", "aliases", "asked")
FRENCH_FIELDS = ("title_fr", "aliases_fr", "asked_fr", "body_fr")
"""The fields whose words tell a French question from an English one, besides the body (rulebot.search.question.QuestionReader._only_french)."""
FLAG_HOUSE = "house"
"""Flag of an entry that is a house rule (kind house-rule, or a source of trust house)."""
FLAG_DRAFT = "draft"
"""Flag of an entry whose text is still its source's own (`draft: true`)."""
FLAG_DEFERS = "defers"
"""Flag of a drafted glossary item that sends to the rule it sums up (rulebot.corpus.glossary.sends_to_rule)."""


DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
"""The digits of `encode`: the first 32 end a number, the last 32 go before its last digit."""
TERM_SHARD_BYTES = 2000
"""About how many bytes of postings a terms file holds: a question's words load a file each, so the smaller they
are the less a question loads (a common term's postings stay whole, however long). At 10,000 entries, 2,000 rather
than 6,000 took a 31-word question's terms files from 155 to 96 KB gzipped (1,500: 89 KB, in a third more files)."""
ENTRIES_PER_FILE = 16
"""How many entries an entries file holds: a search loads the files of its candidates (up to
constants.CANDIDATES), scattered through the index. At 10,000 entries, 16 rather than 32 took a first search's
entries files from 29 to 19 KB gzipped."""
TRUST_LEVELS = ("official", "designer", "community", "house")
"""The trust levels, by their number in the index data (the trust feature of rulebot.search.features counts them)."""


def pages_file(slug: str) -> str:
    """The path of a game's entries' pages, relative to the site root (a `.`: no clash with another game's files)."""
    return f"{SEARCH_DIR}/{slug}.pages.js"


def lexicon_file(part: str) -> str:
    """The path of the lexicon's words that begin with one letter (`lexicon_part`), relative to the site root."""
    return f"{SEARCH_DIR}/lexicon-{part}.js"


def terms_file(shard: int) -> str:
    """The path of the postings of the terms of one shard (`shard_of`), relative to the site root."""
    return f"{SEARCH_DIR}/terms-{shard}.js"


def entries_file(part: int) -> str:
    """The path of the entries numbered part * ENTRIES_PER_FILE and up in the index, relative to the site root."""
    return f"{SEARCH_DIR}/entries-{part}.js"


def texts_file(slug: str, page: int = 0) -> str:
    """The path of the texts of a game's entries on one of its pages (by its number in the names' pages), relative
    to the site root: `<game>.texts.js` for the first page (a game of one page has no other), `<game>.texts-<n>.js`."""
    return f"{SEARCH_DIR}/{slug}.texts.js" if page == 0 else f"{SEARCH_DIR}/{slug}.texts-{page}.js"


def script_json(value: Any) -> str:
    """JSON that can sit inside a `<script>`: no `<`, `>`, `&` or non-ASCII character."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def assignment(key: str, value: Any) -> str:
    """A JavaScript file adding `value` to window.RULEBOT_DATA under `key`."""
    return (
        "/* rulebot search data: generated, do not edit. */\n"
        "window.RULEBOT_DATA = window.RULEBOT_DATA || {};\n"
        f"window.RULEBOT_DATA[{script_json(key)}] = {script_json(value)};\n"
    )


def plain_text(markdown: str) -> str:
    """An entry text without its Markdown, on one line."""
    text = to_terminal(markdown)
    for mark in (STRONG_ON, STRONG_OFF, PRE, TABLE):
        text = text.replace(mark, "")
    return " ".join(text.split())  # (a table's CELL is a space to split())


def flags(entry: Entry, house: bool, defers: bool) -> list[str]:
    """The flags of an entry, in a fixed order: FLAG_HOUSE, FLAG_DRAFT, FLAG_DEFERS (`defers`: as its stored payload
    says)."""
    return [flag for flag, on in ((FLAG_HOUSE, house), (FLAG_DRAFT, entry.draft), (FLAG_DEFERS, defers)) if on]


def games_data(corpus: Corpus, games: list[str], indexed: Indexed, page_of: dict[str, str], shards: int) -> dict[str, Any]:
    """The games, in the site's order ([{"slug", "name", "pages"}]: its pages are file names in its folder, in the
    order their entries come in the corpus), and the search's settings (`search_settings`)."""
    return {
        "games": [{"slug": slug, "name": corpus.games[slug].name, "pages": game_pages(corpus, slug, page_of)} for slug in games],
        "search": search_settings(corpus, indexed, shards),
    }


def game_pages(corpus: Corpus, slug: str, page_of: dict[str, str]) -> list[str]:
    """A game's pages that have entries (file names in its folder), numbered in the order their first entries come."""
    return list(dict.fromkeys(page_of[entry.id].rpartition("/")[2] for entry in corpus.entries_of(slug)))


def pages_data(corpus: Corpus, slug: str, page_of: dict[str, str]) -> dict[str, Any]:
    """A game's pages (file names in its folder) with the ids of their entries, separated by spaces, in corpus order."""
    pages: dict[str, list[str]] = {}
    for entry in corpus.entries_of(slug):
        pages.setdefault(page_of[entry.id].rpartition("/")[2], []).append(entry.id)
    return {"pages": {page: " ".join(ids) for page, ids in pages.items()}}


def texts_data(entries: list[Entry]) -> dict[str, Any]:
    """The plain texts of entries of one game, in corpus order (the order of its names)."""
    return {"texts": [plain_text(entry.text) for entry in entries]}


def entries_by_page(corpus: Corpus, slug: str, page_of: dict[str, str]) -> list[list[Entry]]:
    """A game's entries on each of its pages, numbered as `names_data` numbers them, in corpus order."""
    pages: dict[str, list[Entry]] = {}
    for entry in corpus.entries_of(slug):
        pages.setdefault(page_of[entry.id], []).append(entry)
    return list(pages.values())


# -- the search index ----------------------------------------------------------------


@dataclass(frozen=True)
class Indexed:
    """The corpus's entries as the search index has them."""

    terms: dict[str, list[list[str]]]
    """Each entry's terms, by entry id: a list per field of fields.FIELDS, in order."""
    payloads: dict[str, StoredEntry]
    """Each entry's stored payload (rulebot.index.entry_payload, with name_stems, counted, player_counts), by id."""
    documents: int
    """How many entries the index has."""
    docnums: dict[str, int]
    """Each entry's number in the index (its place in the corpus), by id: the later of two that score alike comes after."""
    lengths: dict[str, float]
    """The average length (in terms) of each field."""
    df: list[Counter[str]]
    """Per field (fields.FIELDS), how many entries hold each term there."""


def index_entries(corpus: Corpus) -> Indexed:
    """The terms and payloads of every entry, made from the documents the index is built from (rulebot.index.build.documents)."""
    from rulebot.index.build import documents

    terms: dict[str, list[list[str]]] = {}
    payloads: dict[str, StoredEntry] = {}
    totals: Counter[str] = Counter()
    known: dict[str, dict[str, str | None]] = {analysed_as: {} for _name, analysed_as, _typed in fields.FIELDS}
    for _digest, make in documents(corpus, terminal=False):
        document = make()
        found_in = [_terms(analysed_as, document[name], known[analysed_as]) for name, analysed_as, _typed in fields.FIELDS]
        terms[document["id"]] = found_in
        payloads[document["id"]] = json.loads(document[PAYLOAD_FIELD])
        for (name, _analysed, _typed), found in zip(fields.FIELDS, found_in):
            totals[name] += len(found)
    count = len(terms)
    averages = {name: totals[name] / (count or 1) for name, _analysed, _typed in fields.FIELDS}
    df = [Counter(term for found in terms.values() for term in set(found[at])) for at in range(len(fields.FIELDS))]
    return Indexed(terms, payloads, count, {entry_id: at for at, entry_id in enumerate(terms)}, averages, df)


def _terms(analysed_as: str, text: str, known: dict[str, str | None]) -> list[str]:
    """analysis.terms(), each distinct word analysed once (as rulebot.index.build does for the index)."""
    term_of = analysis.ANALYSES[analysed_as]
    found = []
    for word in analysis.split(text):
        term = known.get(word, "")
        if term == "":
            term = known[word] = term_of(word)
        if term is not None:
            found.append(term)
    return found


def search_settings(corpus: Corpus, indexed: Indexed, shards: int) -> dict[str, Any]:
    """What the site's search needs besides the games' entries: the constants the command ranks and reads questions
    by, the index's statistics, how many terms files (`shards`) and entries files there are, and each game's
    documents (`docs`: [first document number, how many follow it] for each run of its entries in the index), names,
    expansions, terms and vocabulary (by the number of its groups in `groups`)."""
    groups: dict[tuple[str, ...], int] = {}

    def numbers(found: tuple[tuple[str, ...], ...]) -> list[int]:
        return [groups.setdefault(group, len(groups)) for group in found]

    games = {}
    for slug, game in corpus.games.items():
        games[slug] = {
            "docs": _runs([indexed.docnums[entry.id] for entry in corpus.entries_of(slug)]),
            # the entries of its expansions: those a question about the base game alone leaves out
            "expansion_docs": _runs([indexed.docnums[entry.id] for entry in corpus.entries_of(slug) if entry.expansion]),
            "names": sorted({" ".join(analysis.words(name)) for name in (game.name, *game.aliases)} - {""}, key=lambda n: (-len(n.split()), n)),
            "expansions": [[expansion.slug, " ".join(analysis.words(expansion.name))] for expansion in game.expansions],
            "terms": [stems for stems in (" ".join(map(analysis.stem, analysis.words(term))) for term in game.terms) if stems],
            "synonyms": numbers(game.synonyms),
            "french": numbers(game.french),
        }
    return {
        "ranking": ranking_constants(),
        "trust": list(TRUST_LEVELS),
        "analysis": {
            "question_filler": sorted(analysis.QUESTION_FILLER),
            "accented_filler": sorted(analysis.ACCENTED_FILLER),
            "negated": sorted(analysis.NEGATED),
            "french_markers": sorted(analysis.FRENCH_MARKERS),
            "strong_french_markers": sorted(analysis.STRONG_FRENCH_MARKERS),
            "french_letters": analysis.FRENCH_LETTERS,
            "english_stop_words": sorted(analysis.ENGLISH_STOP_WORDS),
            "french_stop_words": sorted(analysis.FRENCH_STOP_WORDS),
            "base_game_only": [" ".join(phrase) for phrase in analysis.BASE_GAME_ONLY],
            "base_game": [" ".join(phrase) for phrase in analysis.BASE_GAME],
            "expansion_words": sorted(analysis.EXPANSION_WORDS),
        },
        "quantities": {
            "number_words": quantities.NUMBER_WORDS,
            "player_words": sorted(quantities.PLAYER_WORDS),
            "solo_words": sorted(quantities.SOLO_WORDS),
            "count_prepositions": sorted(quantities.COUNT_PREPOSITIONS),
            "quantity_cues": [list(cue) for cue in quantities.QUANTITY_CUES],
            "max_players": quantities.MAX_PLAYERS,
            "french_noun_after": sorted(quantities.FRENCH_NOUN_AFTER),
            "compact_count": quantities.COMPACT_COUNT,
        },
        "english_fields": list(ENGLISH_FIELDS),
        "french_fields": list(FRENCH_FIELDS),
        "documents": indexed.documents,
        "shards": shards,
        "per_file": ENTRIES_PER_FILE,
        "length_bytes": list(STORED_LENGTHS),
        "lengths": indexed.lengths,
        "order": list(corpus.games),
        "games": games,
        "groups": [_group(group) for group in groups],
    }


def _runs(numbers: list[int]) -> list[list[int]]:
    """Numbers as runs of consecutive ones: [first, how many] each."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and runs[-1][0] + runs[-1][1] == number:
            runs[-1][1] += 1
        else:
            runs.append([number, 1])
    return runs


def _group(group: tuple[str, ...]) -> str:
    """A synonym group as analysis.synonym_table reads it: its members' folded words, members separated by
    commas (members without words left out). Questions are stemmed in the browser, and so are their synonyms."""
    return ",".join(" ".join(found) for found in map(analysis.words, group) if found)


LEXICON_PARTS = (*"0123456789abcdefghijklmnopqrstuvwxyz", "_")
"""The lexicon's parts (`lexicon_part`), each written even when no word of the corpus begins with its letter."""


def lexicon_part(word: str) -> str:
    """The lexicon file of a word: its first letter or digit (a to z, 0 to 9), "_" for any other first character,
    upper case included (the lexicon's words are folded), as search-engine.js tells it."""
    first = word[:1]
    return first if first and first in LEXICON_PARTS[:-1] else "_"


def lexicon_data(indexed: Indexed) -> dict[str, dict[str, str]]:
    """The lexicon, by `lexicon_part`: every game's terms a question's words are looked up in, those of each part
    that begin with its letter. "body" (separated by spaces, in order) and "df" (how many entries hold each there,
    `encode`); "names" and "names_df": the same of the names' words (the `names` field); "english": those of
    ENGLISH_FIELDS that no body has; "french": those of FRENCH_FIELDS. A question's close spellings begin with its
    word's letter: a question loads the parts of its words' letters only."""
    at = {name: number for number, (name, _analysed, _typed) in enumerate(fields.FIELDS)}
    body, names = indexed.df[at["body"]], indexed.df[at["names"]]
    english = set().union(*(indexed.df[at[name]] for name in ENGLISH_FIELDS)) - set(body)
    french = set().union(*(indexed.df[at[name]] for name in FRENCH_FIELDS))
    parts: dict[str, dict[str, list[str]]] = {part: {} for part in LEXICON_PARTS}
    for kind, words in (("body", body), ("names", names), ("english", english), ("french", french)):
        for word in sorted(words):
            parts.setdefault(lexicon_part(word), {}).setdefault(kind, []).append(word)
    return {
        part: {
            "body": " ".join(found.get("body", [])),
            "df": encode([body[t] for t in found.get("body", [])]),
            "names": " ".join(found.get("names", [])),
            "names_df": encode([names[w] for w in found.get("names", [])]),
            "english": " ".join(found.get("english", [])),
            "french": " ".join(found.get("french", [])),
        }
        for part, found in parts.items()
    }


def shard_of(term: str, shards: int) -> int:
    """The terms file of a term: its FNV-1a hash (32 bits, over its code points) modulo the number of files, as
    search-engine.js computes it."""
    value = 0x811C9DC5
    for char in term:
        value = ((value ^ ord(char)) * 0x01000193) & 0xFFFFFFFF
    return value % shards


def term_shards(indexed: Indexed) -> list[dict[str, dict[str, Any]]]:
    """The terms files' contents, by their number (`shard_of`), as many as TERM_SHARD_BYTES makes of the postings:

    - "terms": per term, its postings in each field of fields.FIELDS, separated by `|`: for each entry holding it
      there (by document number), the number counted from the previous entry's (from 0 for the first), the
      field's length in terms, how many times the term is in it, and its places (the first, then each counted
      from the one before), `encode`d;
    - "names": per stem, [document number, the stems of the name separated by spaces] of the entries' names
      (analysis.name_stems) whose first stem it is.
    """
    by_term: dict[str, list[list[int]]] = {}
    last: dict[tuple[str, int], int] = {}
    for entry_id, found_in in indexed.terms.items():
        docnum = indexed.docnums[entry_id]
        for at, found in enumerate(found_in):
            places: dict[str, list[int]] = {}
            for place, term in enumerate(found):
                places.setdefault(term, []).append(place)
            for term, where in places.items():
                postings = by_term.setdefault(term, [[] for _ in fields.FIELDS])[at]
                gaps = [b - a for a, b in zip([0, *where], where)]
                postings += [docnum - last.get((term, at), 0), len(found), len(where), where[0], *gaps[1:]]
                last[term, at] = docnum
    written = {term: "|".join(encode(postings) for postings in found) for term, found in by_term.items()}
    names: dict[str, list[list[Any]]] = {}
    for entry_id, payload in indexed.payloads.items():
        for stems in dict.fromkeys(" ".join(name) for name in payload["name_stems"] if name):
            names.setdefault(stems.split(" ")[0], []).append([indexed.docnums[entry_id], stems])
    size = sum(len(term) + len(text) for term, text in written.items()) + sum(len(json.dumps(found)) for found in names.values())
    count = max(1, round(size / TERM_SHARD_BYTES))
    shards: list[dict[str, dict[str, Any]]] = [{"terms": {}, "names": {}} for _ in range(count)]
    for term, text in written.items():
        shards[shard_of(term, count)]["terms"][term] = text
    for stem, named in names.items():
        shards[shard_of(stem, count)]["names"][stem] = named
    return shards


def entry_rows(corpus: Corpus, indexed: Indexed, page_of: dict[str, str]) -> list[list[Any]]:
    """Every entry's row, by document number: [id, kind, title, [[alias, lang], ...], [flag, ...], its page's
    number (in its game's pages), its place among its page's entries, its body's length in terms, the stems of its
    names (analysis.name_stems: separated by spaces, names by `,`), those of each question it answers (the same),
    those of what its numbers count (quantities.counted_stems, by spaces), its expansion (null for the base game),
    its source's trust (its number in TRUST_LEVELS), the player counts it gives, and the document numbers of the
    entries it links to (see also, modifies) and of those that modify it ([number, their expansion])]."""
    body = [name for name, _analysed, _typed in fields.FIELDS].index("body")
    where: dict[str, tuple[int, int]] = {}
    for slug in corpus.games:
        pages = {page: at for at, page in enumerate(game_pages(corpus, slug, page_of))}
        for on_page in entries_by_page(corpus, slug, page_of):
            for place, entry in enumerate(on_page):
                where[entry.id] = (pages[page_of[entry.id].rpartition("/")[2]], place)
    rows: list[list[Any]] = [[] for _ in range(indexed.documents)]
    docnum = indexed.docnums

    def numbers(ids: list[str]) -> list[int]:  # an id of no entry links to nothing the search can find
        return [docnum[i] for i in ids if i in docnum]

    for entry_id, payload in indexed.payloads.items():
        entry = corpus.entries[entry_id]
        rows[docnum[entry_id]] = [
            entry.id,
            entry.kind,
            entry.title,
            [[a.text, a.lang] for a in entry.aliases],
            flags(entry, corpus.is_house_rule(entry), payload["defers"]),
            *where[entry_id],
            len(indexed.terms[entry_id][body]),
            ",".join(" ".join(name) for name in payload["name_stems"]),
            ",".join(" ".join(analysis.name_stems(line["text"])) for line in payload["asked"]),
            " ".join(payload["counted"]),
            payload["expansion"],
            TRUST_LEVELS.index(payload["source"]["trust"] or "official"),
            payload["player_counts"],
            numbers(payload["see_also"]),
            numbers([r["id"] for r in payload["modifies"]]),
            [[docnum[r["id"]], r.get("expansion")] for r in payload["modified_by"] if r["id"] in docnum],
        ]
    return rows


def encode(numbers: list[int]) -> str:
    """Numbers (0 or more) as a string of DIGITS: base 32, the last digit of each from the first 32 digits, the others
    from the last 32 (so that numbers need no separator)."""
    out: list[str] = []
    for value in numbers:
        digits = [DIGITS[value % 32]]
        value //= 32
        while value:
            digits.append(DIGITS[32 + value % 32])
            value //= 32
        out.extend(reversed(digits))
    return "".join(out)


def decode(text: str) -> list[int]:
    """The numbers encode() wrote."""
    numbers, value = [], 0
    for char in text:
        digit = DIGITS.index(char)
        if digit < 32:
            numbers.append(value * 32 + digit)
            value = 0
        else:
            value = value * 32 + digit - 32
    return numbers


def ranking_constants() -> dict[str, object]:
    """The ranking's constants, as the site's search reads them (`RANKING`): the index's fields, boosts and
    BM25F parameters (rulebot.index.fields), every constant of rulebot.search.constants, and the ranking model's
    features and fitted weights (rulebot.search.features: FEATURES, CONFIDENCE, VETOES, RANKED_KINDS, MAX_MARGIN,
    NAMED_MARGIN, MODEL), as JSON data."""
    model = {name: getattr(features, name) for name in ("FEATURES", "CONFIDENCE", "VETOES", "RANKED_KINDS", "MAX_MARGIN", "NAMED_MARGIN", "MODEL")}
    found = {**vars(fields), **vars(constants), **model}
    return {
        name: [list(item) for item in value] if name == "FIELDS" else list(value) if isinstance(value, tuple) else value
        for name, value in sorted(found.items())
        if name.isupper() and not name.startswith("_")
    }
