"""rulebot's term-at-a-time BM25F against Whoosh's own scoring, on random indexes."""

from __future__ import annotations

import random
from math import log
from pathlib import Path

import pytest
from whoosh import query
from whoosh.fields import ID, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.writing import NO_MERGE

from rulebot.index import whoosh_format
from rulebot.index.reader import IndexReader
from rulebot.search import scoring
from rulebot.search.scoring import BM25F, Clause

WORDS = "alpha beta gamma delta card player turn spice coin deck trash draw".split()


def random_text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30)))


def build(folder: Path, rng: random.Random, *, segments: int, deletions: int) -> FileStorage:
    """An index of random texts in several segments, some documents deleted."""
    schema = Schema(id=ID(stored=True, unique=True), title=TEXT(field_boost=3.0), body=TEXT)
    storage = FileStorage(str(folder))
    index = storage.create_index(schema)
    number = 0
    for _ in range(segments):
        writer = index.writer()
        for _ in range(rng.randint(20, 60)):
            writer.add_document(id=str(number), title=" ".join(rng.sample(WORDS, 2)), body=random_text(rng))
            number += 1
        writer.commit(mergetype=NO_MERGE)
    writer = index.writer()
    for victim in rng.sample(range(number), deletions):
        writer.delete_by_term("id", str(victim))
    writer.commit(mergetype=NO_MERGE)
    return storage


@pytest.fixture
def own():
    """Makes rulebot's scorer over the index in a folder (closed after the test)."""
    readers = []

    def scorer(folder: Path) -> BM25F:
        readers.append(IndexReader.open(folder, "MAIN"))
        return BM25F(readers[-1])

    yield scorer
    for reader in readers:
        reader.close()


def whoosh_scores(searcher, q) -> dict[int, float]:
    return {hit.docnum: hit.score for hit in searcher.search(q, limit=None, optimize=False)}


@pytest.mark.parametrize("seed, segments, deletions", [(1, 1, 0), (2, 3, 0), (3, 3, 15)])
def test_terms_and_phrases_score_as_whoosh_scores_them(own, tmp_path: Path, seed: int, segments: int, deletions: int):
    rng = random.Random(seed)
    index = build(tmp_path, rng, segments=segments, deletions=deletions).open_index()
    with index.searcher() as searcher:
        assert len(searcher.leaf_searchers()) == segments  # the multi-segment path is exercised
        scorer = own(tmp_path)
        documents = searcher.doc_count_all()
        for field in ("title", "body"):
            for word in WORDS:
                mine = scorer.clause_scores(Clause(field, (word,), 0.7))
                theirs = whoosh_scores(searcher, query.Term(field, word, boost=0.7))
                assert mine.keys() == theirs.keys()
                # Whoosh's idf is of the field's documents; rulebot's, of those of the field (title or body) where
                # the word is most frequent: the rest of the formula is Whoosh's.
                own_idf = log(documents / (searcher.doc_frequency(field, word) + 1)) + 1
                kin_idf = log(documents / (max(searcher.doc_frequency(f, word) for f in ("title", "body")) + 1)) + 1
                assert all(mine[d] == pytest.approx(theirs[d] * kin_idf / own_idf, rel=1e-9) for d in theirs)
        for _ in range(60):
            words = tuple(rng.choice(WORDS) for _ in range(rng.choice((2, 3))))
            slop = rng.choice((1, 2, 3))
            mine = scorer.clause_scores(Clause("body", words, 0.5, slop=slop))
            theirs = whoosh_scores(searcher, query.Phrase("body", list(words), slop=slop, boost=0.5))
            assert mine.keys() == theirs.keys(), (words, slop)
            assert all(mine[d] == pytest.approx(theirs[d], rel=1e-9) for d in theirs)


def test_deleted_documents_are_never_scored(own, tmp_path: Path):
    index = build(tmp_path, random.Random(4), segments=2, deletions=30).open_index()
    with index.searcher() as searcher:
        live = {docnum for docnum, _ in searcher.iter_docs()}
        scorer = own(tmp_path)
        found = scorer.score([[[Clause("body", (word,))] for word in WORDS]])
        assert found.totals and set(found.totals) <= live
        assert all(found.units_matched(d) == 1 for d in found.totals)
        assert scorer.docs("body", "card") <= live


def test_a_word_common_in_texts_is_common_in_titles_too(own, tmp_path: Path):
    """A word most texts hold ("card") weighs as little in the one title that has it as in the texts: the entry
    whose text holds the rare word asked about ("sideboard") comes first, not the one whose title holds the common one."""
    schema = Schema(id=ID(stored=True), title=TEXT(field_boost=4.0), body=TEXT)
    index = FileStorage(str(tmp_path)).create_index(schema)
    with index.writer() as writer:
        for number in range(40):
            writer.add_document(id=str(number), title=f"rule {number}", body="each card of the deck is a card")
        writer.add_document(id="split", title="split card", body="a split card has two halves")
        writer.add_document(id="sideboard", title="general", body="a sideboard holds at most fifteen cards: the sideboard of a match")
    with index.searcher() as searcher:
        split, sideboard = (searcher.document_number(id=name) for name in ("split", "sideboard"))
        scorer = own(tmp_path)
        units = [[[Clause(field, (word,))] for field in ("title", "body")] for word in ("card", "sideboard")]
        totals = scorer.score(units).totals
        assert totals[sideboard] > totals[split]
        # (in the title, "card" has the idf of the 41 texts that hold it, not of the one title)
        title = scorer.term_scores("title", "card")[split]
        assert title < scorer.term_scores("body", "sideboard")[sideboard]


def bodies(folder: Path, *texts: str):
    """An index of one document per text, numbered in order."""
    index = FileStorage(str(folder)).create_index(Schema(id=ID(stored=True), body=TEXT))
    with index.writer() as writer:
        for number, text in enumerate(texts):
            writer.add_document(id=str(number), body=text)
    return index


def long_bodies(folder: Path, rng: random.Random, count: int):
    """An index of `count` random texts in one segment: common words have postings of several blocks
    (Whoosh writes 128 a block)."""
    index = FileStorage(str(folder)).create_index(Schema(id=ID(stored=True), body=TEXT))
    with index.writer() as writer:
        for number in range(count):
            writer.add_document(id=str(number), body=random_text(rng))
    return index


def test_the_best_alternative_counts_in_each_document(own, tmp_path: Path):
    """A document that only a weaker alternative matches gets that alternative's own score."""
    with bodies(tmp_path, "trash trash", "discard").searcher():
        scorer = own(tmp_path)
        typed, synonym = Clause("body", ("trash",)), Clause("body", ("discard",), 0.85)
        found = scorer.score([[[typed, synonym]]])
        scores = found.totals
        assert scores[1] == pytest.approx(0.85 * scorer.term_scores("body", "discard")[1])
        assert scores[0] == pytest.approx(scorer.term_scores("body", "trash")[0])
        assert found.units_matched(0) == found.units_matched(1) == 1


def test_units_matched_are_counted_per_document(own, tmp_path: Path):
    with bodies(tmp_path, "spice coin", "coin").searcher():
        found = own(tmp_path).score([[[Clause("body", ("spice",))]], [[Clause("body", ("coin",))]]])
        assert found.units_matched(0) == 2 and found.units_matched(1) == 1


def test_recent_term_scores_stay_bounded(own, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(scoring, "RECENT_POSTINGS", 50)
    index = build(tmp_path, random.Random(5), segments=1, deletions=0).open_index()
    with index.searcher():
        scorer = own(tmp_path)
        first = scorer.term_scores("body", "card")
        for word in WORDS:
            scorer.term_scores("body", word)
        assert scorer._recent.spent == sum(len(ids) + 1 for ids, *_ in scorer._recent.values())
        assert scorer._recent.spent <= 50 or len(scorer._recent) == 1
        assert scorer.term_scores("body", "card") == first  # read again, the same


def test_a_phrase_asked_again_is_kept_not_searched_again(own, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A synonym's phrase comes back question after question: its scores are kept with the terms'."""
    with bodies(tmp_path, "victory points at the end", "points of victory", "victory gained, points lost").searcher():
        scorer = own(tmp_path)
        phrase = Clause("body", ("victory", "points"), 0.85)
        first = scorer.clause_scores(phrase)
        assert set(first) == {0} and first[0] == pytest.approx(0.85 * sum(scorer.term_scores("body", w)[0] for w in phrase.words))
        searched = []
        monkeypatch.setattr(scorer, "_phrase_scores", lambda *args: searched.append(args) or {})
        assert scorer.clause_scores(phrase) == first and searched == []
        assert scorer.clause_scores(phrase, among={0, 1}) == {} and searched  # among some documents: searched


def test_long_postings_and_a_few_documents_among_them(own, tmp_path: Path):
    """Postings of several blocks (Whoosh writes 128 a block), read whole or for a few documents."""
    rng = random.Random(6)
    index = long_bodies(tmp_path, rng, 700)
    with index.searcher() as searcher:
        scorer = own(tmp_path)
        for words in (("card",), ("card", "deck")):
            clause = Clause("body", words, 0.5, slop=2)
            every = scorer.clause_scores(clause)
            theirs = whoosh_scores(searcher, query.Term("body", words[0], boost=0.5) if len(words) == 1 else query.Phrase("body", list(words), slop=2, boost=0.5))
            assert len(every) > 100 and every.keys() == theirs.keys()
            assert all(every[d] == pytest.approx(theirs[d], rel=1e-9) for d in theirs)
            for size in (3, 60, 500):  # looked up one by one, or filtered
                among = set(rng.sample(range(700), size))
                assert scorer.clause_scores(clause, among) == {d: v for d, v in every.items() if d in among}


def test_blocks_unpacked_for_positions_are_kept_and_bounded(own, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A phrase's positions come from posting blocks: the blocks unpacked for one question are kept for the next
    (up to RECENT_BLOCKS), and give the same phrases as blocks unpacked anew."""
    monkeypatch.setattr(scoring, "RECENT_BLOCKS", 4)
    rng = random.Random(7)
    long_bodies(tmp_path, rng, 700)
    scorer = own(tmp_path)
    clause = Clause("body", ("card", "deck"), 0.5, slop=2)
    every = scorer.clause_scores(clause)  # every block of both words, more than are kept
    assert len(scorer._recent_blocks) == 4
    unpacked: list = []
    real = whoosh_format._unpack
    monkeypatch.setattr(whoosh_format, "_unpack", lambda *args: unpacked.append(args) or real(*args))
    among = set(range(40))  # in the first block of each word
    first = scorer.clause_scores(clause, among)
    assert len(unpacked) == 2 and len(scorer._recent_blocks) == 4
    assert scorer.clause_scores(clause, among) == first == {d: v for d, v in every.items() if d in among}
    assert len(unpacked) == 2  # kept: not unpacked again


def random_parts(rng: random.Random, documents: int) -> list:
    """The parts of a question's scores: terms (arrays) and fields of several alternatives (dicts),
    rare ones scoring high and common ones low, as in a large corpus; coarse scores tie often."""
    from array import array

    parts: list = []
    coarse = rng.random() < 0.3
    for _ in range(rng.randint(1, 14)):
        count = rng.choice([1, 8, 60, 500, 2_500])
        ids = sorted(rng.sample(range(documents), count))
        high = 8.0 / (1 + count) ** 0.3 * rng.choice([0.5, 1.0, 3.0])
        values = [round(rng.uniform(0.05, high), 1 if coarse else 9) or 0.05 for _ in ids]
        if rng.random() < 0.6:
            parts.append(scoring._Term(array("I", ids), array("d", values), max(values), rng.choice([1.0, 0.85, 0.7])))
        else:
            parts.append(dict(zip(ids, values)))
    return parts


def test_summing_for_the_best_leaves_out_only_documents_that_cannot_be_among_them():
    """With a number of best documents wanted (of some eligible ones), every document that can be among them
    is summed, ties at the cut too, each to the same total as when every document is; others may be left out."""
    rng = random.Random(9)
    documents, left_out = 4_000, 0
    for case in range(120):
        parts = random_parts(rng, documents)
        eligible = None if case % 3 else set(rng.sample(range(documents), documents // 4))
        every = scoring._totals(parts, None, None)
        candidates = sorted((d for d in every if eligible is None or d in eligible), key=lambda d: (-every[d], d))
        for best in (1, 40, 200):
            summed = scoring._totals(parts, best, eligible)
            assert all(every[d] == total for d, total in summed.items()), case  # to the last bit
            if candidates:
                cut = every[candidates[min(best, len(candidates)) - 1]]
                assert {d for d in candidates if every[d] >= cut} <= summed.keys(), (case, best)
            left_out += len(summed) < len(every)
    assert left_out > 100  # most cases leave documents out: the path is exercised


def test_scores_for_the_best_are_the_best_of_all_scores(own, tmp_path: Path):
    """BM25F.score with a number of best documents: the same best documents and totals as scoring every one."""
    index = build(tmp_path, random.Random(10), segments=3, deletions=10).open_index()
    with index.searcher():
        scorer = own(tmp_path)
        units = [[[Clause("title", (word,))], [Clause("body", (word,)), Clause("body", (other,), 0.85)]] for word, other in zip(WORDS, WORDS[3:])]
        every = scorer.score(units).totals
        for best in (1, 5, 20):
            summed = scorer.score(units, best).totals
            ranked = sorted(every, key=lambda d: (-every[d], d))[:best]
            assert sorted(summed, key=lambda d: (-summed[d], d))[:best] == ranked
            assert all(summed[d] == every[d] for d in ranked)


def test_a_document_that_can_only_just_tie_the_best_is_summed():
    """Document 0 can only tie document 1, by scoring every part's top that is left: it is kept, and comes first
    (on a tie, the earlier document)."""
    parts = [{1: 5.0, 0: 3.0, 2: 1.0}, {0: 2.0, 2: 0.5}]
    summed = scoring._totals(parts, 1, None)
    assert summed == {1: 5.0, 0: 5.0}  # document 2 (at most 3.0) is left out
