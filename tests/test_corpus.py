"""The corpus loader and validator, on small corpora written for each case."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import pickle
import shutil
import time
from pathlib import Path

import pytest
from conftest import MINIMAL, TOY_GAME_TOML, write_corpus

from rulebot.corpus import files as corpus_files
from rulebot.corpus import load as corpus
from rulebot.corpus import review as corpus_review
from rulebot.corpus.entries import ParsedFile
from rulebot.corpus.model import Entry
from rulebot.errors import CorpusError, Problem, corpus_warning

GAME_TOML = TOY_GAME_TOML

ENTRY = """\
## toy-one
title: One
kind: rule
section: Part 1

The first rule of the toy game.
"""


def problems_for(tmp_path: Path, files: dict[str, str | bytes]) -> list[str]:
    """Problems of a corpus made of the given files, as 'FILE:LINE: message' strings."""
    root = write_corpus(tmp_path / "c", files)
    _, problems = corpus.check([root])
    return [f"{Path(p.path).name}:{p.line}: {p.message}" for p in problems]


class TestMinimalCorpus:
    def test_loads_every_entry(self):
        """The minimal test corpus loads with its six entries and one game."""
        loaded = corpus.load([MINIMAL])
        assert list(loaded.games) == ["lantern-harbor"]
        assert len(loaded.entries) == 6

    def test_entry_fields(self):
        """An entry carries its game, source, aliases by language and references."""
        loaded = corpus.load([MINIMAL])
        keeper = loaded.entry("lh-lantern-keeper")
        assert keeper.game == "lantern-harbor"
        assert keeper.source == "rulebook"
        assert [(a.text, a.lang) for a in keeper.aliases] == [("Gardien du Phare", "fr"), ("égalité", "fr")]
        assert keeper.line == 28

    def test_a_drafts_notes_to_its_curator_are_no_part_of_its_text(self, tmp_path: Path):
        """The "Draft note:" lines an import adds to a draft are for its curator, in the file: the ruling players read
        leaves them out; a curator's own entry keeps every line it has."""
        note = "Draft note: “See also Night Watch” names no drafted entry."
        root = write_corpus(tmp_path / "c", {
            "toy/game.toml": GAME_TOML,
            "toy/rules.md": f"## toy-draft\ntitle: Draft\nkind: rule\nsection: S\ndraft: true\n\nA drafted rule.\n\n{note}\n\n"
                            f"## toy-mine\ntitle: Mine\nkind: rule\nsection: S\n\nA rule of mine.\n\n{note}\n",
        })
        loaded = corpus.load([root])
        assert loaded.entry("toy-draft").text == "A drafted rule."
        assert loaded.entry("toy-mine").text == f"A rule of mine.\n\n{note}"

    def test_questions_players_ask(self, tmp_path: Path):
        """`asked` and `asked-XX` give the questions players ask of an entry, each with its language."""
        files = {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nasked: who starts?; first move\nasked-fr: qui commence")}
        loaded = corpus.load([write_corpus(tmp_path / "c", files)])
        assert [(a.text, a.lang) for a in loaded.entry("toy-one").asked] == [("who starts?", "en"), ("first move", "en"), ("qui commence", "fr")]
        assert loaded.entry("toy-one").aliases == ()

    def test_source_expansion_is_the_default(self):
        """Entries of a source declared for an expansion belong to it."""
        loaded = corpus.load([MINIMAL])
        assert loaded.entry("lh-tides-winning").expansion == "deep-tides"
        assert loaded.entry("lh-winning").expansion is None

    def test_backlinks(self):
        """modified_by and referenced_by are computed from modifies and see_also."""
        loaded = corpus.load([MINIMAL])
        assert loaded.modified_by()["lh-winning"] == ["lh-tides-winning"]
        assert set(loaded.referenced_by()["lh-winning"]) == {"lh-setup", "lh-tides-winning"}

    def test_revised_date(self):
        """A revised date is kept as an ISO string."""
        assert corpus.load([MINIMAL]).entry("lh-tides-whirlpool").revised == "2024-06-01"


BROKEN_CASES = [
    # (name, files, expected "FILE:LINE: fragment")
    ("missing title", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("title: One\n", "")}, "rules.md:1: entry 'toy-one' has no title"),
    ("unknown kind", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("kind: rule", "kind: law")}, "rules.md:3: unknown kind 'law'"),
    ("unknown key", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section", "colour: red\nsection")}, "rules.md:4: unknown key 'colour'"),
    ("key twice", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("kind: rule", "kind: rule\nkind: faq")}, "rules.md:4: key 'kind' given twice"),
    ("bad id", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("toy-one", "Toy One")}, "rules.md:1: id 'Toy One' must be lower case letters and digits joined by single hyphens; say 'toy-one'"),
    ("wrong prefix", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("toy-one", "other-one")}, "rules.md:1: id 'other-one' must start"),
    ("empty text", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("The first rule of the toy game.\n", "")}, "rules.md:1: entry 'toy-one' has no text"),
    ("duplicate id", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY + "\n" + ENTRY}, "rules.md:8: duplicate id 'toy-one'"),
    # (reported at once, not only once the other problems of either are fixed)
    ("duplicate id of an entry with problems", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY + "\n" + ENTRY.replace("kind: rule", "kind: rulez")},
     "rules.md:8: duplicate id 'toy-one' (first defined at "),
    ("duplicate id after an entry with problems", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("kind: rule", "kind: rulez") + "\n" + ENTRY},
     "rules.md:8: duplicate id 'toy-one' (first defined at "),
    ("unknown see_also", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nsee_also: toy-nowhere")}, "rules.md:5: see_also: unknown entry id 'toy-nowhere'"),
    ("unknown modifies", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nmodifies: toy-two")}, "rules.md:5: modifies: unknown entry id 'toy-two'"),
    ("unknown expansion", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nexpansion: nope")}, "rules.md:5: unknown expansion 'nope'"),
    ("bad revised", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nrevised: last week")}, "rules.md:5: revised must be a date"),
    ("header junk", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nthis is not a header")}, "rules.md:5: expected a 'key: value' header line"),
    ("unknown source file", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY, "toy/faq.md": ENTRY.replace("toy-one", "toy-two")}, "faq.md:0: no source 'faq'"),
    ("bad utf-8", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.encode() + b"\nbroken \xff byte\n"}, "rules.md:8: not valid UTF-8"),
    ("invalid toml", {"toy/game.toml": GAME_TOML.replace('name = "Toy Game"', "name = Toy Game"), "toy/rules.md": ENTRY}, "game.toml:2: invalid TOML"),
    ("missing slug", {"toy/game.toml": GAME_TOML.replace('slug = "toy"\n', ""), "toy/rules.md": ENTRY}, "game.toml:1: missing required key 'slug'"),
    ("slug differs", {"toy/game.toml": GAME_TOML.replace('slug = "toy"', 'slug = "toys"'), "toy/rules.md": ENTRY}, "game.toml:1: slug 'toys' differs from the folder name"),
    ("wrong type", {"toy/game.toml": GAME_TOML.replace('id_prefix = "toy"', "id_prefix = 3"), "toy/rules.md": ENTRY}, "game.toml:3: id_prefix must be a non-empty string"),
    ("unknown trust", {"toy/game.toml": GAME_TOML.replace('title = "Toy rules"', 'title = "Toy rules"\ntrust = "gossip"'), "toy/rules.md": ENTRY}, "game.toml:8: unknown trust 'gossip'"),
    ("no game.toml", {"toy/rules.md": ENTRY}, "toy:0: no game.toml"),
    ("language no code", {"toy/game.toml": GAME_TOML.replace('title = "Toy rules"', 'title = "Toy rules"\nlanguage = "english"'), "toy/rules.md": ENTRY},
     "game.toml:8: sources[0].language must be a two-letter code (en, fr, de...), not 'english'"),
    ("alias twice", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\naliases: Uno") + "\n" + ENTRY.replace("toy-one", "toy-two").replace("section: Part 1", "section: Part 1\naliases: uno")}, "rules.md:13: alias 'uno' is also claimed by 'toy-one'"),
    ("question twice", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nasked: who goes first?") + "\n" + ENTRY.replace("toy-one", "toy-two").replace("section: Part 1", "section: Part 1\nasked-fr: qui commence; Who goes first?")}, "rules.md:13: question 'Who goes first?' is also asked of 'toy-one'"),
    ("unknown language key", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nasked-french: qui commence")}, "rules.md:5: unknown key 'asked-french'"),
    ("see_also with commas", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nsee_also: toy-two, toy-three") + "\n" + ENTRY.replace("toy-one", "toy-two") + "\n" + ENTRY.replace("toy-one", "toy-three")},
     "rules.md:5: see_also: unknown entry id 'toy-two, toy-three' (separate ids with ';', not ',')"),
    ("see_also with commas, one unknown", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nsee_also: toy-nope, toy-two") + "\n" + ENTRY.replace("toy-one", "toy-two")},
     "rules.md:5: see_also: unknown entry id 'toy-nope, toy-two' (separate ids with ';', not ',')"),
    ("self reference", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nsee_also: toy-one")}, "rules.md:5: see_also names the entry itself"),
    ("modifies cycle", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("section: Part 1", "section: Part 1\nmodifies: toy-two") + "\n" + ENTRY.replace("toy-one", "toy-two").replace("section: Part 1", "section: Part 1\nmodifies: toy-one")}, "modifies forms a cycle"),
    ("bad vocabulary", {"toy/game.toml": GAME_TOML + '\n[vocabulary]\nsynonyms = ["money"]\n', "toy/rules.md": ENTRY}, "game.toml:14: synonyms must be a list of lists"),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in BROKEN_CASES], ids=[c[0] for c in BROKEN_CASES])
def test_broken_corpus_is_reported_with_file_and_line(tmp_path: Path, files: dict, expected: str):
    """Each kind of mistake is reported once, at its file and line."""
    found = problems_for(tmp_path, files)
    assert any(p.startswith(expected) or expected in p for p in found), found


def test_two_headings_of_no_id_are_no_id_written_twice(tmp_path: Path):
    """Two entries under the same heading that is no id ("Toy One"): each is reported for its id, not as a duplicate."""
    found = problems_for(tmp_path, {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("toy-one", "Toy One") + "\n" + ENTRY.replace("toy-one", "Toy One")})
    assert [p.split(": ", 1)[0] for p in found if "must be lower case" in p] == ["rules.md:1", "rules.md:8"], found
    assert not [p for p in found if "duplicate" in p], found


def test_a_language_code_in_capitals_is_read_in_lower_case(tmp_path: Path):
    """`language = "FR"` is the code fr, as a curator means it, not a problem."""
    root = write_corpus(tmp_path, {"toy/game.toml": GAME_TOML.replace('title = "Toy rules"', 'title = "Toy rules"\nlanguage = "FR"'), "toy/rules.md": ENTRY})
    assert corpus.load([root]).game("toy").sources[0].language == "fr"


def test_every_problem_is_collected(tmp_path: Path):
    """Two mistakes in two entries give two problems, not one."""
    files = {
        "toy/game.toml": GAME_TOML,
        "toy/rules.md": ENTRY.replace("kind: rule", "kind: law") + "\n" + ENTRY.replace("toy-one", "toy-two").replace("title: One\n", ""),
    }
    assert len(problems_for(tmp_path, files)) == 2


def test_load_raises_with_all_problems(tmp_path: Path):
    """load() raises CorpusError holding every problem."""
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY.replace("kind: rule", "kind: law")})
    with pytest.raises(CorpusError) as caught:
        corpus.load([root])
    assert len(caught.value.problems) == 1


def test_missing_folder(tmp_path: Path):
    """A corpus folder that does not exist is a problem, not a crash."""
    _, problems = corpus.check([tmp_path / "nowhere"])
    assert "no such directory" in problems[0].message


def test_symlink_loop_is_reported(tmp_path: Path):
    """A game folder that is a symlink loop is reported, not followed forever."""
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY})
    (root / "loop").symlink_to(root / "loop")
    _, problems = corpus.check([root])
    assert any("loop" in p.path for p in problems)


def test_a_game_toml_that_links_to_nothing_is_said_so(tmp_path: Path):
    """A game.toml that is a link to nothing is there and no file: said so at it, not "no game.toml" (as a folder
    of that name: tests/test_corpus_hostile.py)."""
    root = write_corpus(tmp_path / "c", {"toy/rules.md": ENTRY})
    (root / "toy" / "game.toml").symlink_to(root / "toy" / "nowhere.toml")
    _, problems = corpus.check([root])
    assert [(Path(p.path).name, p.line, p.message) for p in problems] == [("game.toml", 0, "not a regular file")]


def test_code_fence_does_not_start_an_entry(tmp_path: Path):
    """A '## ' line inside a fenced code block belongs to the text."""
    text = ENTRY + "\n```\n## not-an-entry\n```\n"
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": text})
    loaded = corpus.load([root])
    assert list(loaded.entries) == ["toy-one"]
    assert "## not-an-entry" in loaded.entry("toy-one").text


def test_fingerprint_changes_with_content(tmp_path: Path):
    """Editing one entry changes the corpus fingerprint; nothing else does."""
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY})
    before, _ = corpus_files.fingerprint([root])
    assert corpus_files.fingerprint([root])[0] == before
    (root / "toy/rules.md").write_text(ENTRY.replace("first", "only"), encoding="utf-8")
    assert corpus_files.fingerprint([root])[0] != before


def settle(root: Path) -> None:
    """Date every file of a corpus an hour back, as files not just written are."""
    old = time.time() - 3600
    for path in root.rglob("*"):
        os.utime(path, (old, old))


def test_fingerprint_trusts_only_unchanged_settled_stamps(tmp_path: Path):
    root = write_corpus(tmp_path / "c", {"toy/game.toml": GAME_TOML, "toy/rules.md": ENTRY})
    fresh, stamps = corpus_files.fingerprint([root])
    assert stamps == {}  # files just written: their stamps could be racy
    settle(root)
    settled, stamps = corpus_files.fingerprint([root])
    assert settled == fresh and set(stamps) == {str(root / "toy/game.toml"), str(root / "toy/rules.md")}
    # A stamp is trusted: a made-up hash in it changes the fingerprint, so the file was not read.
    forged = {path: [*stamp[:3], "0" * 64] for path, stamp in stamps.items()}
    assert corpus_files.fingerprint([root], forged)[0] != settled
    # An edit of the same size changes the modification time: the file is read again.
    rules = root / "toy/rules.md"
    rules.write_text(ENTRY.replace("first", "frist"), encoding="utf-8")
    settle(root)
    assert corpus_files.fingerprint([root], stamps)[0] != settled


def forged_parse(shape: str, loaded: corpus.Corpus) -> object:
    """A ParsedFile made only of the classes a kept parse may hold, holding what no parse does (FORGED_SHAPES)."""
    entry = next(iter(loaded.entries.values()))
    untitled = object.__new__(Entry)
    untitled.__dict__.update({k: v for k, v in vars(entry).items() if k != "title"})
    return {
        "entries=[42]": ParsedFile(entries=[42], problems=[], rejected=[], rejected_lines=[]),  # type: ignore[list-item]
        "entries not a list": ParsedFile(entries="lh-ferry-gull", problems=[], rejected=[], rejected_lines=[]),  # type: ignore[arg-type]
        "an entry without its title": ParsedFile(entries=[untitled], problems=[], rejected=[], rejected_lines=[]),
        "an entry whose id is a number": ParsedFile(entries=[dataclasses.replace(entry, id=7)], problems=[], rejected=[], rejected_lines=[]),
        "an entry whose line is a bool": ParsedFile(entries=[dataclasses.replace(entry, line=True)], problems=[], rejected=[], rejected_lines=[]),
        "an alias that is a string": ParsedFile(entries=[dataclasses.replace(entry, aliases=("gull",))], problems=[], rejected=[], rejected_lines=[]),
        "a problem as a plain tuple": ParsedFile(entries=[entry], problems=[("rules.md", 1, "bad")], rejected=[], rejected_lines=[]),  # type: ignore[list-item]
        "a problem's line as text": ParsedFile(entries=[entry], problems=[Problem("rules.md", "1", "bad")], rejected=[], rejected_lines=[]),  # type: ignore[arg-type]
        "a rejected id that is a number": ParsedFile(entries=[entry], problems=[], rejected=[3], rejected_lines=[1]),  # type: ignore[list-item]
        "a problem for a ParsedFile": Problem("rules.md", 1, "bad"),
    }[shape]


FORGED_SHAPES = [
    "entries=[42]", "entries not a list", "an entry without its title", "an entry whose id is a number",
    "an entry whose line is a bool", "an alias that is a string", "a problem as a plain tuple", "a problem's line as text",
    "a rejected id that is a number", "a problem for a ParsedFile",
]


class _Call:
    """Pickled as a call of a function (as a forged pickle names one)."""

    def __init__(self, function, *args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


class TestParsedFiles:
    """Entries files kept as parsed (corpus.ParsedFiles): a load gives what a fresh parse gives, and parses only what changed."""

    @staticmethod
    def load_counting(root: Path, parsed: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[corpus.Corpus, list[str], list[str]]:
        """(corpus, problems, names of the files parsed) of a load that keeps parsed files in `parsed` (saved after it)."""
        parsed_names: list[str] = []
        real = corpus.parse_file

        def counting(path, *args):
            parsed_names.append(path.name)
            return real(path, *args)

        monkeypatch.setattr(corpus, "parse_file", counting)
        kept = corpus.ParsedFiles(parsed)
        loaded, problems = corpus.check([root], kept)
        kept.save()
        monkeypatch.setattr(corpus, "parse_file", real)
        return loaded, [f"{Path(p.path).name}:{p.line}: {p.message}" for p in problems], parsed_names

    @pytest.mark.parametrize("files", [c[1] for c in BROKEN_CASES], ids=[c[0] for c in BROKEN_CASES])
    def test_same_problems_parsed_or_kept(self, tmp_path: Path, files: dict, monkeypatch: pytest.MonkeyPatch):
        """Every kind of mistake is reported the same, in the same order, whether its file was parsed or kept."""
        root = write_corpus(tmp_path / "c", files)
        fresh = [f"{Path(p.path).name}:{p.line}: {p.message}" for p in corpus.check([root])[1]]
        _, first, _ = self.load_counting(root, tmp_path / "parsed", monkeypatch)
        _, again, parsed = self.load_counting(root, tmp_path / "parsed", monkeypatch)
        assert first == fresh and again == fresh and parsed == []

    def test_only_the_edited_file_is_parsed_again(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """An edit re-parses its file alone, and the load equals a fresh one, entry for entry."""
        _, _, first = self.load_counting(minimal_copy, tmp_path / "parsed", monkeypatch)
        assert sorted(first) == ["rulebook.md", "tides-faq.md"]
        rules = minimal_copy / "lantern-harbor" / "rulebook.md"
        rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
        loaded, _, again = self.load_counting(minimal_copy, tmp_path / "parsed", monkeypatch)
        assert again == ["rulebook.md"]
        assert loaded.entries == corpus.load([minimal_copy]).entries
        assert "stormy" in loaded.entry("lh-ferry-gull").text

    def test_a_change_to_the_game_parses_its_files_again(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """Entries depend on their game (its id prefix, expansions, sources): a changed game.toml re-parses its files."""
        self.load_counting(minimal_copy, tmp_path / "parsed", monkeypatch)
        game = minimal_copy / "lantern-harbor" / "game.toml"
        game.write_text(game.read_text(encoding="utf-8").replace('id_prefix = "lh"', 'id_prefix = "lantern"'), encoding="utf-8")
        _, problems, again = self.load_counting(minimal_copy, tmp_path / "parsed", monkeypatch)
        assert len(again) == 2
        assert any("must start with the game's id_prefix 'lantern-'" in p for p in problems)

    @pytest.mark.parametrize("damage", [b"", b"garbage\n", b"not a key", None])
    def test_damaged_or_foreign_kept_files_are_parsed_again(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch, damage):
        """A kept file that is empty, from elsewhere or cut short is parsed again, and the load is unchanged."""
        parsed = tmp_path / "parsed"
        self.load_counting(minimal_copy, parsed, monkeypatch)
        for kept in parsed.iterdir():
            data = kept.read_bytes()
            kept.write_bytes(data[: len(data) // 2] if damage is None else damage)
        loaded, problems, again = self.load_counting(minimal_copy, parsed, monkeypatch)
        assert len(again) == 2 and problems == []
        assert loaded.entries == corpus.load([minimal_copy]).entries

    @pytest.mark.parametrize("call", ["open", "os.system", "corpus_warning"])
    def test_a_forged_kept_file_is_refused_and_parsed_again(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch, call):
        """A pickle planted in the cache folder under the right key runs nothing (nothing but rulebot's data classes
        and plain values is made): it is refused, and its file parsed again."""
        parsed, marker = tmp_path / "parsed", tmp_path / "ran"
        forged = {
            "open": _Call(open, str(marker), "w"),
            "os.system": _Call(os.system, f"touch {marker}"),
            "corpus_warning": _Call(corpus_warning, [], []),  # a function of rulebot's, not a data class
        }[call]
        self.load_counting(minimal_copy, parsed, monkeypatch)
        self.plant(parsed, forged)
        loaded, problems, again = self.load_counting(minimal_copy, parsed, monkeypatch)
        assert not marker.exists()
        assert sorted(again) == ["rulebook.md", "tides-faq.md"] and problems == []
        assert loaded.entries == corpus.load([minimal_copy]).entries

    @pytest.mark.parametrize("call", ["list(bytes(n))", "dict()", "Game"])
    def test_no_builtin_nor_other_class_is_made(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch, call):
        """Only the classes a parse is made of are made: no builtin is called (a `list(bytes(n))` would allocate
        n bytes), nor any other data class of rulebot's; the file is parsed again."""
        forged = {
            "list(bytes(n))": _Call(list, _Call(bytes, 10**6)),  # small here: refused, it allocates nothing at all
            "dict()": _Call(dict),
            "Game": corpus.load([minimal_copy]).games["lantern-harbor"],  # a dataclass of the corpus, but no part of a parse
        }[call]
        with pytest.raises(pickle.UnpicklingError):
            corpus._KeptUnpickler(io.BytesIO(pickle.dumps(forged, pickle.HIGHEST_PROTOCOL))).load()
        parsed = tmp_path / "parsed"
        self.load_counting(minimal_copy, parsed, monkeypatch)
        self.plant(parsed, forged)
        loaded, problems, again = self.load_counting(minimal_copy, parsed, monkeypatch)
        assert sorted(again) == ["rulebook.md", "tides-faq.md"] and problems == []
        assert loaded.entries == corpus.load([minimal_copy]).entries

    @staticmethod
    def plant(parsed: Path, forged: object) -> None:
        """Replace every kept file's parse with `forged`, under the right key."""
        for kept in parsed.iterdir():
            key = kept.read_bytes().split(b"\n", 1)[0]
            kept.write_bytes(key + b"\n" + pickle.dumps(forged, pickle.HIGHEST_PROTOCOL))

    @pytest.mark.parametrize("shape", FORGED_SHAPES)
    def test_a_kept_parse_of_the_wrong_shape_is_parsed_again(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch, shape):
        """A kept parse made only of the allowed classes, but holding what no parse holds (a number for an entry, an
        entry without a title...), is not used: its file is parsed again, and the load is the fresh one's."""
        parsed = tmp_path / "parsed"
        self.load_counting(minimal_copy, parsed, monkeypatch)
        self.plant(parsed, forged_parse(shape, corpus.load([minimal_copy])))
        loaded, problems, again = self.load_counting(minimal_copy, parsed, monkeypatch)
        assert sorted(again) == ["rulebook.md", "tides-faq.md"] and problems == []
        assert loaded.entries == corpus.load([minimal_copy]).entries

    @pytest.mark.parametrize("shape", ["entries=[42]", "an entry without its title", "a problem as a plain tuple"])
    def test_a_kept_parse_of_the_wrong_shape_does_not_break_answers(self, minimal_copy: Path, fresh_cache: Path, run_cli, shape):
        """Such a kept parse once made every index build fail (an internal error, until `index --rebuild`):
        the build parses the file again, and answers as before."""
        where = ("--no-shipped", "--corpus", str(minimal_copy))
        first = run_cli(*where, "ask", "--json", "ferry gull")
        assert first.exit_code == 0
        (home,) = (fresh_cache / "index").iterdir()
        self.plant(home / ".parsed", forged_parse(shape, corpus.load([minimal_copy])))
        for build in home.iterdir():
            if not build.name.startswith("."):
                shutil.rmtree(build)  # the next answer builds the index again, from the kept parses
        again = run_cli(*where, "ask", "--json", "ferry gull")
        assert again.exit_code == 0, again.output
        assert json.loads(again.stdout)["results"][0]["id"] == json.loads(first.stdout)["results"][0]["id"] == "lh-ferry-gull"

    def test_files_no_longer_in_the_corpus_are_forgotten(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """What a removed entries file was parsed into is removed by the next load."""
        parsed = tmp_path / "parsed"
        self.load_counting(minimal_copy, parsed, monkeypatch)
        assert len(list(parsed.iterdir())) == 2
        (minimal_copy / "lantern-harbor" / "tides-faq.md").unlink()
        corpus.check([minimal_copy], corpus.ParsedFiles(parsed))
        assert len(list(parsed.iterdir())) == 1

    def test_a_read_only_place_only_costs_parsing(self, tmp_path: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
        """Where nothing can be written (here: a file in the folder's place), every file is parsed and nothing fails."""
        blocker = tmp_path / "parsed"
        blocker.write_text("in the way", encoding="utf-8")
        loaded, problems, parsed = self.load_counting(minimal_copy, blocker, monkeypatch)
        assert len(parsed) == 2 and problems == [] and len(loaded.entries) == 6

    def test_nothing_is_written_before_save(self, tmp_path: Path, minimal_copy: Path):
        """A load only notes what it parsed: the files are written by save(), once."""
        kept = corpus.ParsedFiles(tmp_path / "parsed")
        corpus.load([minimal_copy], parsed=kept)
        assert not (tmp_path / "parsed").exists()
        kept.save()
        written = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "parsed").iterdir()}
        assert len(written) == 2
        kept.save()
        assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "parsed").iterdir()} == written


def test_a_synonym_that_names_another_games_term_is_a_warning(tmp_path: Path):
    """A synonym its game never uses that is a title word of another game's entry is reported (a warning, a problem with --strict)."""
    other = GAME_TOML.replace('"toy"', '"orchard"').replace("Toy Game", "Orchard").replace("[[expansions]]\nslug = \"extra\"\nname = \"Extra\"\n", "")
    files = {
        "toy/game.toml": GAME_TOML + '\n[vocabulary]\nsynonyms = [["coins", "gold"]]\n',
        "toy/rules.md": ENTRY.replace("The first rule of the toy game.", "Each player keeps their coins."),
        "orchard/game.toml": other,
        "orchard/rules.md": ENTRY.replace("toy-one", "orchard-gold").replace("title: One", "title: Gold apples"),
    }
    root = write_corpus(tmp_path / "c", files)
    review = corpus_review.review([root])
    assert [(Path(w.path).name, w.line) for w in review.warnings] == [("game.toml", 14)]
    assert "'gold'" in review.warnings[0].message and "orchard-gold" in review.warnings[0].message
    assert corpus_review.review([root], strict=True).problems
    files["toy/game.toml"] = GAME_TOML + '\n[vocabulary]\nsynonyms = [["coins", "money"]]\n'
    assert corpus_review.review([write_corpus(tmp_path / "d", files)]).warnings == []
