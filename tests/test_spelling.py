"""Close spellings from the index vocabulary, against Whoosh's own look-up."""

from __future__ import annotations

import random
from pathlib import Path

from whoosh.fields import ID, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.reading import IndexReader

from rulebot.index.reader import IndexReader as OwnReader
from rulebot.search.spelling import Vocabulary, distance
from rulebot.text import meant, named


def test_close_spellings_are_whooshs(tmp_path: Path):
    rng = random.Random(7)
    letters = "abcdeé"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(1, 8))) for _ in range(400)}
    index = FileStorage(str(tmp_path)).create_index(Schema(id=ID(stored=True), body=TEXT))
    with index.writer() as writer:
        for number, word in enumerate(sorted(words)):
            writer.add_document(id=str(number), body=word)
    with index.searcher() as searcher:
        reader = searcher.reader()
        own = OwnReader.open(tmp_path, "MAIN")
        vocabulary = Vocabulary(own)
        for _ in range(200):
            typed = "".join(rng.choice(letters) for _ in range(rng.randint(1, 9)))
            maxdist = rng.choice((1, 2))
            # IndexReader's own method measures every term sharing the first letter.
            theirs = set(IndexReader.terms_within(reader, "body", typed, maxdist, prefix=1))
            assert set(vocabulary.within("body", typed, maxdist)) == theirs
        own.close()


def test_a_swap_of_neighbours_is_one_edit():
    assert distance("chaumurky", "chaumurky") == 0
    assert distance("chaumurky", "cahumurky") == 1
    assert distance("mentat", "mnetta") == 2


def test_a_whole_name_comes_before_the_beginning_of_a_slug():
    """A game named by its alias is that game even when another's slug begins with the alias; a beginning
    shared by two slugs names neither; a unique beginning still names its game."""
    names = {"portale-von-molthar": ["Die Portale von Molthar", "molthar"], "molthar-legends": ["Molthar Legends"], "catalyst": ["Catalyst"]}
    assert named("molthar", names) == "portale-von-molthar"
    assert meant("molthar", names) == ["portale-von-molthar"]
    assert named("Molthar Legends", names) == "molthar-legends"
    assert named("cata", names) == "catalyst"
    assert named("ca", names | {"cascadia": ["Cascadia"]}) is None


def test_a_game_written_without_its_hyphen_or_spaces_is_named():
    """"xwing" and "X Wing" are x-wing, as a player types it; a compact form two games share names neither."""
    names = {"x-wing": ["X-Wing"], "catalyst": ["Catalyst"]}
    assert named("xwing", names) == named("X Wing", names) == named("X-WING", names) == "x-wing"
    assert named("xwing", names | {"xwi-ng": ["Xwi Ng"]}) is None
