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


def _indexes(site_dir: Path) -> dict[str, dict]:
    """Each game's index data, by slug."""
    return {slug: _data(site_dir / site_search.index_file(slug)) for slug in _settings(site_dir)["order"]}


def _fields(index: dict) -> list[list[list[str]]]:
    """A game's index data decoded: per entry, per field (index_fields.FIELDS), its terms in order."""
    vocabulary = index["terms"].split(" ")
    return [[[vocabulary[n] for n in site_search.decode(field)] for field in doc.split("|")] for doc in index["docs"]]


def test_site_index_scores_as_the_commands_index(shipped_site: Path):
    """Every term of every field scores each entry in the site's data exactly as it does in the command's index:
    the same terms, document frequencies (across every game), field lengths and document numbers."""
    settings, indexes = _settings(shipped_site), _indexes(shipped_site)
    opened = open_index([shipped_corpus_dir()])
    reader, scorer = opened.index, scoring.BM25F(opened.index)
    assert settings["documents"] == reader.doc_count_all()
    docnum = {}
    for slug, index in indexes.items():
        numbers = index["docnums"]
        for at, data in enumerate(_data(shipped_site / site_search.names_file(slug))["entries"]):
            docnum[slug, at] = numbers + at if isinstance(numbers, int) else numbers[at]
            assert reader.payload(docnum[slug, at])["id"] == data[0]
    for f, (name, _analysed, _typed) in enumerate(index_fields.FIELDS):
        assert settings["lengths"][name] == pytest.approx(reader.avg_field_length(name), rel=1e-12)
        found: dict[str, dict[int, float]] = {}
        for slug, index in indexes.items():
            fields = _fields(index)
            vocabulary = index["terms"].split(" ")
            others = site_search.decode(index["df"][f])
            other_df, term = {}, 0
            for delta, count in zip(others[0::2], others[1::2]):
                term += delta
                other_df[vocabulary[term]] = count
            own_df = {}
            for doc in fields:
                for t in set(doc[f]):
                    own_df[t] = own_df.get(t, 0) + 1
            # Every term a game has (in any field) knows its count in every field, across the games.
            assert {t: own_df.get(t, 0) + other_df.get(t, 0) for t in vocabulary} == {t: reader.doc_frequency(name, t) for t in vocabulary}
            for at, doc in enumerate(fields):
                length = byte_to_length(length_to_byte(len(doc[f])))
                for t in set(doc[f]):
                    # The formula of rulebot.scoring, from the site's data alone.
                    df = own_df[t] + other_df.get(t, 0)
                    idf = scoring.log(settings["documents"] / (df + 1)) + 1
                    weight = array("f", [doc[f].count(t) * index_fields.FIELD_BOOSTS[name]])[0]
                    k_length = index_fields.K1 * index_fields.B / (settings["lengths"][name] or 1)
                    value = idf * (index_fields.K1 + 1) * weight / (weight + (index_fields.K1 * (1 - index_fields.B) + k_length * length))
                    found.setdefault(t, {})[docnum[slug, at]] = value
        terms = [t.decode("utf-8") for t in reader.lexicon(name)]
        assert sorted(found) == terms, name
        for t in terms:
            expected = scorer.term_scores(name, t)
            assert found[t].keys() == expected.keys(), (name, t)
            assert all(found[t][d] == pytest.approx(expected[d], rel=1e-12) for d in expected), (name, t)


def test_site_entries_carry_what_the_ranking_reads(shipped_site: Path):
    """Each entry's names' stems, counted stems, player counts, expansion, trust and links are the index's payload's."""
    opened = open_index([shipped_corpus_dir()])
    payloads = {}
    for docnum in opened.index.docnums():
        data = opened.index.payload(docnum)
        payloads[data["id"]] = data
    for slug, index in _indexes(shipped_site).items():
        vocabulary = index["terms"].split(" ")
        ids = [row[0] for row in _data(shipped_site / site_search.names_file(slug))["entries"]]
        expansions = [None] + [e[0] for e in _settings(shipped_site)["games"][slug]["expansions"]]
        players = dict((at, counts) for at, counts in index["players"])
        links = {row[0]: row[1:] for row in index["links"]}
        for at, entry_id in enumerate(ids):
            payload = payloads[entry_id]
            names = [[vocabulary[n] for n in site_search.decode(name)] for name in index["names"][at].split(",")]
            assert names == payload["name_stems"]
            assert [vocabulary[n] for n in site_search.decode(index["counted"][at])] == payload["counted"]
            assert players.get(at, []) == payload["player_counts"]
            assert expansions[site_search.decode(index["expansion"])[at]] == payload["expansion"]
            assert site_search.TRUST_LEVELS[site_search.decode(index["trust"])[at]] == (payload["source"]["trust"] or "official")
            see_also, modifies, modified_by = links.get(at, ([], [], []))
            name = lambda ref, ids=ids: ids[ref] if isinstance(ref, int) else ref  # noqa: E731
            assert [name(r) for r in see_also] == payload["see_also"]
            assert [name(r) for r in modifies] == [r["id"] for r in payload["modifies"]]
            assert [name(r) for r in modified_by] == [r["id"] for r in payload["modified_by"]]


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


def test_common_terms_take_fewer_letters(shipped_site: Path):
    """A game's terms are numbered most used first: its commonest terms take one letter, the rest mostly two."""
    for index in _indexes(shipped_site).values():
        vocabulary = index["terms"].split(" ")
        assert len(vocabulary) == len(set(vocabulary))
        assert site_search.encode([31]) == "V" and len(site_search.encode([1023])) == 2
        letters = sum(len(field) for doc in index["docs"] for field in doc.split("|"))
        terms = sum(len(site_search.decode(field)) for doc in index["docs"] for field in doc.split("|"))
        assert letters < 2 * terms


def test_texts_are_written_per_page(tmp_path: Path):
    """A game split into pages has a texts file per page, holding the plain texts of that page's entries in order."""
    from conftest import LARGE_GAME, write_large_game

    corpus = load([write_large_game(tmp_path / "corpus")])
    out = tmp_path / "site"
    site.build(corpus, out)
    names = _data(out / site_search.names_file(LARGE_GAME))
    assert len(names["pages"]) > 1
    for page in range(len(names["pages"])):
        on_page = [row[0] for row in names["entries"] if row[5] == page]
        texts = _data(out / site_search.texts_file(LARGE_GAME, page))["texts"]
        assert texts == [site_search.plain_text(corpus.entries[entry_id].text) for entry_id in on_page]
    assert not (out / site_search.texts_file(LARGE_GAME, len(names["pages"]))).exists()


def test_lexicon_is_every_games_words(shipped_site: Path):
    """The lexicon (for a game's page) holds every game's body terms with the index's counts, and the terms of the
    other fields that tell a French question: a game's page looks a question's words up as the command does."""
    lexicon = _data(shipped_site / site_search.LEXICON_FILE)
    reader = open_index([shipped_corpus_dir()]).index

    def terms(*fields: str) -> set[str]:
        return {t.decode("utf-8") for name in fields for t in reader.lexicon(name)}

    body = lexicon["body"].split(" ")
    assert body == sorted(terms("body"))
    assert site_search.decode(lexicon["df"]) == [reader.doc_frequency("body", t) for t in body]
    assert set(lexicon["english"].split(" ")) == terms(*site_search.ENGLISH_FIELDS) - set(body)
    assert set(lexicon["french"].split(" ")) == terms(*site_search.FRENCH_FIELDS)
