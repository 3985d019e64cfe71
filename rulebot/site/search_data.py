"""The data of the site's search, as JavaScript files that assign a global.

The search runs in the browser without a server (it must work from file://,
where fetch() of a JSON file is refused), so its data is loaded by `<script>`
tags: each file adds one key to `window.RULEBOT_DATA`. No page loads any of
it when it opens: the search script injects the tags when someone first
focuses the search box or types in it (or opens a page with `?q=`).

- `_search/games.js` (key "games"): every game's slug and name, in the
  site's order, and under "search" what the search needs to read a
  question as `rulebot ask` does (`search_settings`): the ranking's
  constants (rulebot.index.fields, rulebot.search.constants), the stop words, question words and French
  markers (rulebot.language.analysis), the words of counts (rulebot.language.quantities),
  the index's statistics (documents, average field lengths, the lengths
  its field-length bytes stand for), and each
  game's names, expansions, terms and vocabulary (synonyms and French
  groups).
- `_search/<game>.names.js` (key "names:<slug>"): the game's name, its pages and, for
  each entry, its id, kind, title, aliases with their language, flags
  (FLAG_HOUSE for a house rule, never an official ruling; FLAG_DRAFT for a
  draft) and page: enough to find any card or term by name, to flag house
  rules in the results and to link each result to the page it is on.
- `_search/<game>.index.js` (key "index:<slug>"): the game's entries as the
  search index has them (`index_data`): the terms of each field of each
  entry, in order, made by rulebot.language.analysis from the very documents the
  index is built from (rulebot.index.build.documents); how many entries of the
  other games hold each term; and what the ranking reads of each entry
  (its names' stems, what its numbers count, the player counts it gives, its
  expansion, its source's trust, its links).
- `_search/lexicon.js` (key "lexicon"): every game's terms of the fields
  a question's words are looked up in before it is searched, for a game's
  page (which loads no other game's index): the body's, with how many
  entries hold each (close spellings of unknown words), and those of the
  other English and of the French fields (is a word only French?).
- `_search/<game>.texts.js` (key "texts:<slug>:0") and, for a game of
  several pages, `_search/<game>.texts-<n>.js` (key "texts:<slug>:<n>"): the
  plain texts of the game's entries on its page number n (numbered as in its
  names file), in the order of its names file, for result snippets: a
  result's snippet loads the texts of its page only.

A game's page loads its own game's names and index, the names of the other
games and the lexicon; a page of no game (home, sources) loads every game's
names and index. Texts are loaded for the results shown.

Terms are written as numbers (`encode`): each game's terms are listed once,
the most used first, and each term of a field is its place in that list,
in base 32 with a digit set for the last digit of a number and another for
the others, so that a field is a short string of ASCII letters and the most
used terms take one or two of them.

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
from rulebot.index.reader import PAYLOAD_FIELD
from rulebot.index.whoosh_format import LENGTHS
from rulebot.language import analysis, quantities
from rulebot.markdown import PRE, STRONG_OFF, STRONG_ON, to_terminal
from rulebot.search import constants, features

SEARCH_DIR = "_search"
"""The output folder of the search data (an underscore: no game slug can clash)."""
GAMES_FILE = f"{SEARCH_DIR}/games.js"
LEXICON_FILE = f"{SEARCH_DIR}/lexicon.js"
ENGLISH_FIELDS = ("title", "aliases", "asked")
FRENCH_FIELDS = ("title_fr", "aliases_fr", "asked_fr", "body_fr")
"""The fields whose words tell a French question from an English one, besides the body (Searcher._only_french)."""
FLAG_HOUSE = "house"
"""Flag of an entry that is a house rule (kind house-rule, or a source of trust house)."""
FLAG_DRAFT = "draft"
"""Flag of an entry whose text is still its source's own (`draft: true`)."""


DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
"""The digits of `encode`: the first 32 end a number, the last 32 go before its last digit."""
TRUST_LEVELS = ("official", "designer", "community", "house")
"""The trust levels, by their number in the index data (the trust feature of rulebot.search.features counts them)."""


def names_file(slug: str) -> str:
    """The path of a game's names, relative to the site root (a `.`: no clash with another game's files)."""
    return f"{SEARCH_DIR}/{slug}.names.js"


def texts_file(slug: str, page: int = 0) -> str:
    """The path of the texts of a game's entries on one of its pages (by its number in the names' pages), relative
    to the site root: `<game>.texts.js` for the first page (a game of one page has no other), `<game>.texts-<n>.js`."""
    return f"{SEARCH_DIR}/{slug}.texts.js" if page == 0 else f"{SEARCH_DIR}/{slug}.texts-{page}.js"


def index_file(slug: str) -> str:
    """The path of a game's index data, relative to the site root."""
    return f"{SEARCH_DIR}/{slug}.index.js"


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
    for mark in (STRONG_ON, STRONG_OFF, PRE):
        text = text.replace(mark, "")
    return " ".join(text.split())


def flags(entry: Entry, house: bool) -> list[str]:
    """The flags of an entry, in a fixed order: FLAG_HOUSE, FLAG_DRAFT."""
    return [flag for flag, on in ((FLAG_HOUSE, house), (FLAG_DRAFT, entry.draft)) if on]


def games_data(corpus: Corpus, games: list[str], indexed: Indexed) -> dict[str, Any]:
    """The games, in the site's order ([{"slug", "name"}]), and the search's settings (`search_settings`)."""
    return {"games": [{"slug": slug, "name": corpus.games[slug].name} for slug in games], "search": search_settings(corpus, indexed)}


def names_data(corpus: Corpus, slug: str, page_of: dict[str, str]) -> dict[str, Any]:
    """A game's name, its pages (file names in its folder) and [id, kind, title, [[alias, lang], ...], [flag, ...], page index] per entry."""
    pages: dict[str, int] = {}
    entries: list[list[Any]] = []
    for entry in corpus.entries_of(slug):
        page = pages.setdefault(page_of[entry.id].rpartition("/")[2], len(pages))
        aliases = [[a.text, a.lang] for a in entry.aliases]
        entries.append([entry.id, entry.kind, entry.title, aliases, flags(entry, corpus.is_house_rule(entry)), page])
    return {"name": corpus.games[slug].name, "pages": list(pages), "entries": entries}


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


def search_settings(corpus: Corpus, indexed: Indexed) -> dict[str, Any]:
    """What the site's search needs besides the games' entries: the constants the command ranks and reads questions
    by, the index's statistics, and each game's names, expansions, terms and vocabulary (by the number of its groups
    in `groups`)."""
    groups: dict[tuple[str, ...], int] = {}

    def numbers(found: tuple[tuple[str, ...], ...]) -> list[int]:
        return [groups.setdefault(group, len(groups)) for group in found]

    games = {}
    for slug, game in corpus.games.items():
        games[slug] = {
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
            "french_markers": sorted(analysis.FRENCH_MARKERS),
            "strong_french_markers": sorted(analysis.STRONG_FRENCH_MARKERS),
            "french_letters": analysis.FRENCH_LETTERS,
            "english_stop_words": sorted(analysis.ENGLISH_STOP_WORDS),
            "french_stop_words": sorted(analysis.FRENCH_STOP_WORDS),
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
        "length_bytes": list(LENGTHS),
        "lengths": indexed.lengths,
        "order": list(corpus.games),
        "games": games,
        "groups": [_group(group) for group in groups],
    }


def _group(group: tuple[str, ...]) -> str:
    """A synonym group as analysis.synonym_table reads it: its members' folded words, members separated by
    commas (members without words left out). Questions are stemmed in the browser, and so are their synonyms."""
    return ",".join(" ".join(found) for found in map(analysis.words, group) if found)


def lexicon_data(indexed: Indexed) -> dict[str, str]:
    """Every game's terms a question's words are looked up in: "body" (separated by spaces, in order) and "df" (how
    many entries hold each there, `encode`); "english": those of ENGLISH_FIELDS that no body has; "french": those of
    FRENCH_FIELDS."""
    at = {name: number for number, (name, _analysed, _typed) in enumerate(fields.FIELDS)}
    body = indexed.df[at["body"]]
    terms = sorted(body)
    english = set().union(*(indexed.df[at[name]] for name in ENGLISH_FIELDS)) - set(body)
    french = set().union(*(indexed.df[at[name]] for name in FRENCH_FIELDS))
    return {"body": " ".join(terms), "df": encode([body[t] for t in terms]), "english": " ".join(sorted(english)), "french": " ".join(sorted(french))}


def index_data(corpus: Corpus, slug: str, indexed: Indexed) -> dict[str, Any]:
    """A game's entries as the index has them, in corpus order (the order of its names):

    - "terms": the game's terms, most used first, separated by spaces;
    - "docnums": each entry's number in the index, in order: the first one's when they follow each other;
    - "docs": per entry, its fields (fields.FIELDS) separated by `|`, each its terms in order (`encode`);
    - "df": per field, how many entries of the other games hold each of the game's terms there: pairs of
      numbers (the term's number, counted from the previous pair's; the count), for the terms the other
      games have (`encode`);
    - "names": per entry, the stems of its title and aliases (analysis.name_stems), names separated by `,`;
    - "asked": per entry, the stems of each question it answers (analysis.name_stems), separated by `,`;
    - "counted": per entry, the stems of what its numbers count (quantities.counted_stems);
    - "expansion": per entry, its expansion's number among the game's (from 1), 0 for the base game (`encode`);
    - "trust": per entry, its source's trust level's number in TRUST_LEVELS (`encode`);
    - "players": [entry number, [player counts]] of the entries giving a value for player counts;
    - "links": [entry number, see also, modifies, modified by] of the entries linked to others, each link
      the other entry's number in the game, or its id when it is another game's.
    """
    entries = corpus.entries_of(slug)
    number = {entry.id: at for at, entry in enumerate(entries)}
    expansions = {expansion.slug: at for at, expansion in enumerate(corpus.games[slug].expansions, 1)}
    payloads = [indexed.payloads[entry.id] for entry in entries]
    fields = [indexed.terms[entry.id] for entry in entries]
    used = Counter(term for found in fields for field in found for term in field)
    used.update(stem for payload in payloads for name in payload["name_stems"] for stem in name)
    asked = [[analysis.name_stems(line["text"]) for line in payload["asked"]] for payload in payloads]
    used.update(stem for lines in asked for line in lines for stem in line)
    used.update(stem for payload in payloads for stem in payload["counted"])
    vocabulary = sorted(used, key=lambda term: (-used[term], term))
    code = {term: at for at, term in enumerate(vocabulary)}
    df = []
    for at, everywhere in enumerate(indexed.df):
        own = Counter(term for found in fields for term in set(found[at]))
        pairs, last = [], 0
        for term_number, term in enumerate(vocabulary):
            others = everywhere[term] - own[term]
            if others:
                pairs += [term_number - last, others]
                last = term_number
        df.append(encode(pairs))

    def ref(entry_id: str) -> int | str:
        return number.get(entry_id, entry_id)

    links = []
    for at, payload in enumerate(payloads):
        found = [
            [ref(i) for i in payload["see_also"]],
            [ref(r["id"]) for r in payload["modifies"]],
            [ref(r["id"]) for r in payload["modified_by"]],
        ]
        if any(found):
            links.append([at, *found])
    docnums = [indexed.docnums[entry.id] for entry in entries]
    return {
        "docnums": docnums[0] if docnums and docnums == list(range(docnums[0], docnums[0] + len(docnums))) else docnums,
        "terms": " ".join(vocabulary),
        "docs": ["|".join(encode([code[t] for t in field]) for field in found) for found in fields],
        "df": df,
        "names": [",".join(encode([code[s] for s in name]) for name in payload["name_stems"]) for payload in payloads],
        "asked": [",".join(encode([code[s] for s in line]) for line in lines) for lines in asked],
        "counted": [encode([code[s] for s in payload["counted"]]) for payload in payloads],
        "expansion": encode([expansions.get(payload["expansion"] or "", 0) for payload in payloads]),
        "trust": encode([TRUST_LEVELS.index(payload["source"]["trust"] or "official") for payload in payloads]),
        "players": [[at, payload["player_counts"]] for at, payload in enumerate(payloads) if payload["player_counts"]],
        "links": links,
    }


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
    features and fitted weights (rulebot.search.features: FEATURES, CONFIDENCE, RANKED_KINDS, MAX_MARGIN, MODEL),
    as JSON data."""
    model = {name: getattr(features, name) for name in ("FEATURES", "CONFIDENCE", "RANKED_KINDS", "MAX_MARGIN", "MODEL")}
    found = {**vars(fields), **vars(constants), **model}
    return {
        name: [list(item) for item in value] if name == "FIELDS" else list(value) if isinstance(value, tuple) else value
        for name, value in sorted(found.items())
        if name.isupper() and not name.startswith("_")
    }
