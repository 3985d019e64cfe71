"""The site's search data: the index `rulebot ask` searches, and the constants it ranks and reads questions by."""

from __future__ import annotations

import json
import re
from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from whoosh.util.numeric import byte_to_length, length_to_byte

from rulebot.corpus.load import load
from rulebot.index import fields as index_fields
from rulebot.index.cache import open_index
from rulebot.language import analysis, quantities
from rulebot.places import shipped_corpus_dir
from rulebot.search import constants, features, query, scoring
from rulebot.search.ranking import Searcher
from rulebot.site import build as site
from rulebot.site import search_data as site_search
from rulebot.site import templates as site_templates
from rulebot.site import views as site_views

CORPORA = Path(__file__).parent / "corpora"


@pytest.fixture(scope="module")
def shipped_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("shipped") / "site"
    site.build(load([shipped_corpus_dir()]), out)
    return out


def _data(path: Path) -> dict:
    """The value a search data file assigns."""
    line = path.read_text(encoding="ascii").rstrip().splitlines()[-1]
    return json.loads(line.split("] = ", 1)[1].removesuffix(";"))


def _settings(site_dir: Path) -> dict:
    return _data(site_dir / site_search.GAMES_FILE)["search"]


def _shards(site_dir: Path) -> list[dict]:
    """The terms files' contents, by number."""
    return [_data(site_dir / site_search.terms_file(n)) for n in range(_settings(site_dir)["shards"])]


def _postings(text: str) -> list[tuple[int, int, list[int]]]:
    """A term's postings in a field, decoded: (document number, the field's length, the term's places)."""
    numbers, found, docnum, at = site_search.decode(text), [], 0, 0
    while at < len(numbers):
        docnum += numbers[at]
        length, count = numbers[at + 1], numbers[at + 2]
        gaps = numbers[at + 3 : at + 3 + count]
        found.append((docnum, length, [sum(gaps[: i + 1]) for i in range(count)]))
        at += 3 + count
    return found


def _rows(site_dir: Path) -> list[list]:
    """Every entry's row (site_search.entry_rows), by document number."""
    rows: list[list] = []
    part = 0
    while (site_dir / site_search.entries_file(part)).exists():
        rows += _data(site_dir / site_search.entries_file(part))["entries"]
        part += 1
    return rows


def test_site_index_scores_as_the_commands_index(shipped_site: Path):
    """Every term of every field scores each entry in the site's data exactly as it does in the command's index:
    the same terms, document frequencies (across every game), field lengths and document numbers; and each term is
    in the terms file its hash names."""
    settings, shards = _settings(shipped_site), _shards(shipped_site)
    opened = open_index([shipped_corpus_dir()])
    reader, scorer = opened.index, scoring.BM25F(opened.index)
    assert settings["documents"] == reader.doc_count_all()
    for docnum, row in enumerate(_rows(shipped_site)):
        assert reader.payload(docnum)["id"] == row[0]
    for n, shard in enumerate(shards):
        assert all(site_search.shard_of(term, len(shards)) == n for term in (*shard["terms"], *shard["names"]))
    postings = {term: text.split("|") for shard in shards for term, text in shard["terms"].items()}
    for f, (name, analysed, _typed) in enumerate(index_fields.FIELDS):
        kin = [k for k, (_other, its, _t) in enumerate(index_fields.FIELDS) if its == analysed]
        assert settings["lengths"][name] == pytest.approx(reader.avg_field_length(name), rel=1e-12)
        terms = [t.decode("utf-8") for t in reader.lexicon(name)]
        assert sorted(term for term, fields in postings.items() if fields[f]) == terms, name
        for t in terms:
            found = _postings(postings[t][f])
            assert len(found) == reader.doc_frequency(name, t)
            # The formula of rulebot.scoring, from the site's data alone: the term's frequency where it is highest
            # among the fields analysed alike.
            frequency = max(len(_postings(postings[t][k])) for k in kin)
            idf = scoring.log(settings["documents"] / (frequency + 1)) + 1
            values = {}
            for docnum, length, places in found:
                weight = array("f", [len(places) * index_fields.FIELD_BOOSTS[name]])[0]
                k_length = index_fields.K1 * index_fields.B / (settings["lengths"][name] or 1)
                stored = byte_to_length(length_to_byte(length))
                values[docnum] = idf * (index_fields.K1 + 1) * weight / (weight + (index_fields.K1 * (1 - index_fields.B) + k_length * stored))
            expected = scorer.term_scores(name, t)
            assert values.keys() == expected.keys(), (name, t)
            assert all(values[d] == pytest.approx(expected[d], rel=1e-12) for d in expected), (name, t)


def test_site_postings_hold_each_fields_terms_in_order(shipped_site: Path):
    """The places of the terms of an entry's field, put together, are the field's terms in order (what the phrase
    and proximity steps read), and its length is theirs."""
    corpus = load([shipped_corpus_dir()])
    indexed = site_search.index_entries(corpus)
    made: dict[tuple[int, int], dict[int, str]] = {}
    lengths: dict[tuple[int, int], int] = {}
    for shard in _shards(shipped_site):
        for term, text in shard["terms"].items():
            for f, field in enumerate(text.split("|")):
                for docnum, length, places in _postings(field):
                    lengths[docnum, f] = length
                    made.setdefault((docnum, f), {}).update(dict.fromkeys(places, term))
    for entry_id, fields in indexed.terms.items():
        for f, found in enumerate(fields):
            key = (indexed.docnums[entry_id], f)
            assert [made.get(key, {})[at] for at in range(len(found))] == found
            assert lengths.get(key, 0) == len(found)


def test_site_entries_carry_what_the_ranking_reads(shipped_site: Path):
    """Each entry's names' stems, counted stems, player counts, expansion, trust and links are the index's payload's,
    and the terms files list its names by their first stem."""
    opened = open_index([shipped_corpus_dir()])
    payloads = [opened.index.payload(docnum) for docnum in opened.index.docnums()]
    ids = [payload["id"] for payload in payloads]
    names = {}
    for shard in _shards(shipped_site):
        for first, found in shard["names"].items():
            for docnum, stems in found:
                assert stems.split(" ")[0] == first
                names.setdefault(docnum, []).append(stems.split(" "))
    for docnum, row in enumerate(_rows(shipped_site)):
        payload = payloads[docnum]
        assert row[0] == payload["id"]
        assert [name.split(" ") if name else [] for name in row[8].split(",")] == payload["name_stems"]
        assert sorted(names.get(docnum, [])) == sorted(map(list, {tuple(name) for name in payload["name_stems"] if name}))
        assert (row[10].split(" ") if row[10] else []) == payload["counted"]
        assert row[13] == payload["player_counts"]
        assert row[11] == payload["expansion"]
        assert site_search.TRUST_LEVELS[row[12]] == (payload["source"]["trust"] or "official")
        assert [ids[r] for r in row[14]] == payload["see_also"]
        assert [ids[r] for r in row[15]] == [r["id"] for r in payload["modifies"]]
        assert [[ids[r], expansion] for r, expansion in row[16]] == [[r["id"], r.get("expansion")] for r in payload["modified_by"]]


def test_search_settings_are_the_commands(shipped_site: Path):
    """The site reads questions and ranks by the very constants of the command: the index's fields and the ranking's
    (rulebot.index.fields, rulebot.search.constants), the analysis's word lists, the words of counts."""
    settings = _settings(shipped_site)
    assert settings["ranking"] == json.loads(json.dumps(site_search.ranking_constants()))
    for name in ("CANDIDATES", "SYNONYM_WEIGHT", "EXACT_NAME", "MAX_UNITS", "UNCOVERED_SHARE", "NAMED_LIFT"):
        assert settings["ranking"][name] == json.loads(json.dumps(getattr(constants, name)))
    for name in ("FEATURES", "CONFIDENCE", "RANKED_KINDS", "MODEL"):  # the ranking model: its features and fitted weights
        assert settings["ranking"][name] == json.loads(json.dumps(getattr(features, name)))
    assert settings["ranking"]["FIELDS"] == [list(f) for f in query.FIELDS] == [list(f) for f in index_fields.FIELDS]
    assert (scoring.B, scoring.K1) == (index_fields.B, index_fields.K1) == (settings["ranking"]["B"], settings["ranking"]["K1"])
    words = settings["analysis"]
    assert set(words["question_filler"]) == analysis.QUESTION_FILLER
    assert set(words["negated"]) == analysis.NEGATED
    assert set(words["english_stop_words"]) == analysis.ENGLISH_STOP_WORDS
    assert set(words["french_stop_words"]) == analysis.FRENCH_STOP_WORDS
    assert set(words["french_markers"]) == analysis.FRENCH_MARKERS
    assert settings["quantities"]["number_words"] == quantities.NUMBER_WORDS
    assert [tuple(cue) for cue in settings["quantities"]["quantity_cues"]] == list(quantities.QUANTITY_CUES)


def test_search_settings_hold_each_games_vocabulary(shipped_site: Path):
    """Each game's synonym groups (and French groups) make, in the site's data, the synonym tables of the index."""
    corpus = load([shipped_corpus_dir()])
    settings = _settings(shipped_site)
    opened = open_index([shipped_corpus_dir()])
    for slug, game in settings["games"].items():
        for language, numbers in (("en", game["synonyms"]), ("fr", game["synonyms"] + game["french"])):
            groups = [[" ".join(m) for m in (member.split(" ") for member in settings["groups"][n].split(","))] for n in numbers]
            expected = analysis.decode_synonyms(opened.meta["synonym_tables"][language][slug])
            assert analysis.synonym_table(groups) == expected, (slug, language)
        assert game["names"][0].split(" ") in [analysis.words(n) for n in (corpus.games[slug].name, *corpus.games[slug].aliases)]
    # the names a question calls each game by, in the order the command tries them
    with Searcher(opened) as searcher:
        for slug, game in settings["games"].items():
            assert game["names"] == [" ".join(name) for name in searcher.reading._game_names[slug]], slug


def test_search_script_holds_no_word_list():
    """Stop words, question words and number words come from the search data, not from the script."""
    script = (site_templates.templates_dir() / "static" / "search.js").read_text(encoding="utf-8")
    listed = analysis.QUESTION_FILLER | analysis.ENGLISH_STOP_WORDS | analysis.FRENCH_STOP_WORDS | set(quantities.NUMBER_WORDS)
    listed |= quantities.SOLO_WORDS | quantities.PLAYER_WORDS
    for literal in re.findall(r'"([^"\\\n]*)"', script):
        found = literal.split()
        if len(found) == 1:
            assert len(literal) < 3 or literal not in listed - set(site_views.KIND_LABELS), literal  # not "a", "p": tags
        elif len(found) >= 3:  # a message, not a list of words
            assert sum(word in listed for word in found) < 0.8 * len(found), literal
    for word in ("pourquoi", "combien", "tbd", "douze"):
        assert not re.search(rf"\b{word}\b", script), word


@given(st.lists(st.integers(min_value=0, max_value=2**40)))
def test_encoded_numbers_decode(numbers: list[int]):
    encoded = site_search.encode(numbers)
    assert site_search.decode(encoded) == numbers
    assert re.fullmatch(r"[0-9A-Za-z_-]*", encoded)


def test_a_question_loads_few_terms_files(shipped_site: Path):
    """The terms are spread over the files: no file holds more than a few times its share of the postings."""
    sizes = [len(site_search.script_json(shard)) for shard in _shards(shipped_site)]
    assert len(sizes) > 10
    assert max(sizes) < 5 * sum(sizes) / len(sizes)


def test_texts_are_written_per_page(tmp_path: Path):
    """A game split into pages has a texts file per page, holding the plain texts of that page's entries in order."""
    from conftest import LARGE_GAME, write_large_game

    corpus = load([write_large_game(tmp_path / "corpus")])
    out = tmp_path / "site"
    site.build(corpus, out)
    pages = next(game["pages"] for game in _data(out / site_search.GAMES_FILE)["games"] if game["slug"] == LARGE_GAME)
    rows = [row for row in _rows(out) if corpus.entries[row[0]].game == LARGE_GAME]
    assert len(pages) > 1
    for page in range(len(pages)):
        on_page = [row[0] for row in rows if row[5] == page]
        assert [row[6] for row in rows if row[5] == page] == list(range(len(on_page)))  # each one's place in the texts
        texts = _data(out / site_search.texts_file(LARGE_GAME, page))["texts"]
        assert texts == [site_search.plain_text(corpus.entries[entry_id].text) for entry_id in on_page]
    assert not (out / site_search.texts_file(LARGE_GAME, len(pages))).exists()


def test_lexicon_is_every_games_words(shipped_site: Path):
    """The lexicon holds every game's body terms and names' words with the index's counts, and the terms of the
    other fields that tell a French question: the search looks a question's words up as the command does. Each
    part holds the words of its first letter."""
    reader = open_index([shipped_corpus_dir()]).index
    files = sorted((shipped_site / site_search.SEARCH_DIR).glob("lexicon-*.js"))
    assert len(files) > 20
    parts = {path.stem.removeprefix("lexicon-"): _data(path) for path in files}

    def terms(*fields: str) -> set[str]:
        return {t.decode("utf-8") for name in fields for t in reader.lexicon(name)}

    def listed(kind: str) -> list[str]:
        found = [word for part, data in parts.items() for word in data[kind].split(" ") if word]
        assert all(site_search.lexicon_part(word) == part for part, data in parts.items() for word in data[kind].split(" ") if word)
        return found

    body, names = listed("body"), listed("names")
    assert sorted(body) == sorted(terms("body")) and len(body) == len(set(body))
    counts = [n for data in parts.values() for n in site_search.decode(data["df"])]
    assert counts == [reader.doc_frequency("body", t) for t in body]
    assert sorted(names) == sorted(terms("names"))
    counts = [n for data in parts.values() for n in site_search.decode(data["names_df"])]
    assert counts == [reader.doc_frequency("names", t) for t in names]
    assert set(listed("english")) == terms(*site_search.ENGLISH_FIELDS) - set(body)
    assert set(listed("french")) == terms(*site_search.FRENCH_FIELDS)
    assert {site_search.lexicon_part(w) for w in ("rule", "9", "Été", "é", "", "Rule")} == {"r", "9", "_"}


def test_every_part_of_the_lexicon_is_written(shipped_site: Path):
    """A word of any first letter finds its lexicon file, even when no word of the corpus begins with that letter
    (the shipped corpus has no word beginning with a Greek letter): else its question could never be read."""
    written = {path.stem.removeprefix("lexicon-") for path in (shipped_site / site_search.SEARCH_DIR).glob("lexicon-*.js")}
    assert written == set(site_search.LEXICON_PARTS)
    assert site_search.lexicon_part("σπαθί") in written
