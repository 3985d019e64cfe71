"""Hostile questions: whatever is typed, `ask` answers or refuses cleanly, never crashes.

Property-based (hypothesis) over arbitrary Unicode, query-language syntax and
long inputs, through the library, the CLI runner and a real process. The
figures of these runs are in docs/reliability.md; the time the worst
questions take is measured by bench/worst_queries.py, not asserted here.
"""

from __future__ import annotations

import json
import os
import random
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebot.cli import output
from rulebot.cli.main import cli
from rulebot.errors import QueryError
from rulebot.index.cache import open_index
from rulebot.places import shipped_corpus_dir
from rulebot.search.answer import Answer
from rulebot.search.constants import MAX_UNITS
from rulebot.search.question import MAX_QUESTION_CHARS, valid_text
from rulebot.search.ranking import Searcher

# On a failure hypothesis writes a patch with libcst, which warns through
# mypy_extensions where both are installed: not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning")

# The autouse cache fixture is function-scoped; sharing it across examples is
# what we want (one index, many questions).
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

SPECIAL = [  # characters and short sequences that have broken text handling elsewhere
    *(chr(c) for c in range(0x20)), "\x7f", "\x85", "\xa0",
    "\u200b", "\u200c", "\u200d", "\u200e", "\u200f",  # zero-width, LRM, RLM
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # bidi embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069", "\u2028", "\u2029", "\ufeff", "\ufffd",
    "\ud800", "\udfff", "\udcff",  # lone surrogates (what undecodable argv bytes become)
    "\u0301" * 40,  # a pile of combining accents
    "🎲", "👨\u200d👩\u200d👧", "👍🏽", "🇫🇷",
    "ﷺ", "ﬃ", "㍻", "ǅ", "ß", "İ",  # NFKC / case folding grows these
    "ｔｉｔｌｅ：＊",  # full-width query syntax, folded by NFKC
]
SYNTAX = [
    "title:*", "id:*", "body:x", "game:dune-imperium", "names:(a OR b)", "*", "?", "**", "*:*",
    "AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "and", "not",
    '"', '""', '"chamurky tie"', "'", "(", ")", "((", "))", "[", "]", "{", "}", "[a TO z]", "{1 to 9}",
    "~", "~2", "chamurky~", "mage~3", "^", "^3", "essence^100", "\\", "/", "-", "+", "--", "-x", "--json",
    ":", "<", ">", ">=", "=", "!", "&&", "||", "|", "&", ";", "%", "$", "#", "@", ",", ".", "..", "...",
]
WORDS = [
    "chamurky", "chaumurky", "tie", "mage", "essence", "perle", "pearl", "égalité", "egalite", "combien",
    "actions", "tour", "coins", "vp", "victory", "points", "assassination", "mission", "trash", "can", "i",
    "the", "of", "res", "arcana", "dune", "imperium", "catalyst", "molthar", "702.19b", "1.2.3", "x" * 40,
]

hostile_char = st.one_of(
    st.characters(), st.characters(categories=["Cs"]), st.sampled_from([c for c in SPECIAL if len(c) == 1])
)
hostile_piece = st.one_of(hostile_char, st.sampled_from(SPECIAL))
fragment = st.one_of(st.sampled_from(SYNTAX), st.sampled_from(WORDS), st.lists(hostile_piece, max_size=8).map("".join))
unicode_text = st.lists(hostile_piece, max_size=300).map("".join)
query_syntax = st.lists(fragment, max_size=40).map(" ".join)
glued = st.lists(fragment, max_size=40).map("".join)
questions = st.one_of(unicode_text, query_syntax, glued)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Searcher]:
    """One searcher over the shipped corpus, in the session's isolated cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RULEBOT_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
        opened = open_index([shipped_corpus_dir()])
    with Searcher(opened) as searcher:
        yield searcher


def check_outcome(searcher: Searcher, question: str, game: str | None = None) -> Answer | QueryError:
    """Ask, then print the answer both ways; only an Answer or a QueryError may come out."""
    try:
        answer = searcher.ask(question, game=game)
    except QueryError as exc:
        assert str(exc)
        return exc
    assert isinstance(answer, Answer)
    assert answer.query == valid_text(question)
    answer.query.encode("utf-8")  # what is echoed back is always printable
    assert all(hit.data["id"] == hit.id for hit in answer.results)
    json.loads(output.to_json(answer.to_json()))
    output.answer_text(answer, output.Style(False))
    return answer


class TestLibrary:
    @SETTINGS
    @given(question=questions, game=st.sampled_from([None, "dune-imperium", "res-arcana", "catalyst", "portals-of-molthar"]))
    def test_any_text_is_answered_or_refused(self, searcher: Searcher, question: str, game: str | None):
        """Arbitrary Unicode and query syntax give an Answer or a QueryError, and both print."""
        check_outcome(searcher, question, game)

    @SETTINGS
    @given(question=st.lists(st.sampled_from(SYNTAX), min_size=1, max_size=20).map(" ".join))
    def test_query_syntax_is_never_parsed(self, searcher: Searcher, question: str):
        """Query-language fragments alone never reach a query parser: a clean outcome, never an error of Whoosh."""
        check_outcome(searcher, question)

    @settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(question=st.one_of(
        st.text(st.sampled_from("ab cdé"), min_size=MAX_QUESTION_CHARS - 10, max_size=MAX_QUESTION_CHARS + 10),
        st.lists(st.sampled_from(WORDS[:20]), min_size=150, max_size=400).map(" ".join),
        st.integers(MAX_QUESTION_CHARS + 1, 20 * MAX_QUESTION_CHARS).map(lambda n: "chamurky " * (n // 9 + 1)),
    ))
    def test_long_questions(self, searcher: Searcher, question: str):
        """Questions around and far beyond the length limit are answered or refused cleanly."""
        outcome = check_outcome(searcher, question)
        if len(question) > MAX_QUESTION_CHARS:
            assert isinstance(outcome, QueryError) and "too long" in str(outcome)

    @pytest.mark.parametrize("question", ["", " ", "\x00", "\u200b\u200f", "?!", "\ud800", "🎲🎲", "-" * 50])
    def test_no_words_is_a_query_error(self, searcher: Searcher, question: str):
        """A question without a searchable word is refused with a QueryError, not an empty crash."""
        assert isinstance(check_outcome(searcher, question), QueryError)


    @pytest.mark.parametrize("pasted", [
        "chau\x01murky tie", "\x1b[31mchaumurky\x1b[0m tie", "\x1b]0;title\x07chaumurky tie", "chau\u00admurky tie",
        "chaumurky\ttie", "chau\u200bmurky\r\ntie",
    ])
    def test_pasted_control_characters_leave_words_whole(self, searcher: Searcher, pasted: str):
        """A colour's escape pasted from a terminal, or a control or invisible character inside a word, is no part of
        the question and splits no word: it is answered as the clean question is."""
        answer, clean = searcher.ask(pasted), searcher.ask("chaumurky tie")
        assert [hit.id for hit in answer.results] == [hit.id for hit in clean.results]
        assert answer.results[0].id == "dune-chaumurky"


# -- the worst questions ---------------------------------------------------

def _invented(n: int, size: int) -> list[str]:
    """n words of `size` letters in no vocabulary, all starting with 's'.

    Typo look-ups keep the first letter, so a common one (as many words of
    the corpus start with s) makes each look-up walk a large part of it.
    """
    rng = random.Random(size)
    return ["s" + "".join(rng.choice(string.ascii_lowercase) for _ in range(size - 1)) for _ in range(n)]


def _fit(words: list[str]) -> str:
    """As many of the words as fit within MAX_QUESTION_CHARS."""
    out, length = [], 0
    for word in words:
        if length + len(word) + 1 > MAX_QUESTION_CHARS:
            break
        out.append(word)
        length += len(word) + 1
    return " ".join(out)


WORST = {
    # Each is answerable, within the length limit, and costly in its own way.
    "distinct-unknown-6": _fit(_invented(200, 6)),
    "distinct-unknown-8": _fit(_invented(200, 8)),
    "distinct-unknown-12": _fit(_invented(100, 12)),
    "near-misses": _fit([f"chamurk{c}" for c in "abcdefghijklmnopqrstuvwxyz" * 4]),
    "one-long-word": "x" * MAX_QUESTION_CHARS,
    "long-words": _fit(["supplementairez" * 3] * 30),
    "ligatures": "ﬃ" * MAX_QUESTION_CHARS,  # NFKC makes one 3000-letter word
    "nfkc-growth": "ﷺ" * MAX_QUESTION_CHARS,  # NFKC makes 4000 words
    "all-filler": _fit(["essence", *["can", "i", "what", "the", "of", "combien", "de"] * 100]),  # (one word to ask about)
    "synonym-phrases": _fit(["victory points", "vp", "essence", "mage"] * 60),
    "dotted": ".".join(["a1"] * (MAX_QUESTION_CHARS // 3)),
}


@pytest.fixture
def cold(searcher: Searcher, monkeypatch: pytest.MonkeyPatch) -> Searcher:
    """The shared searcher with an empty typo cache, as in a fresh `rulebot ask`."""
    monkeypatch.setattr(searcher.spellings, "_found", {})
    return searcher


@pytest.fixture
def fuzzy_calls(cold: Searcher, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Record every typo-tolerant look-up (field, word) instead of running it.

    Measuring a word against a field's vocabulary is the one step whose cost
    grows with the length of the word and the number of words (a 3,000-letter
    word took 5 to 40 s before typo look-ups were bounded): what is bounded
    is counted here.
    """
    calls: list[tuple[str, str]] = []

    def record(field: str, word: str, maxdist: int) -> list[str]:
        calls.append((field, word))
        return []

    monkeypatch.setattr(cold.spellings.vocabulary, "within", record)
    return calls


@pytest.mark.parametrize("name", list(WORST))
def test_worst_questions_complete(cold: Searcher, name: str):
    """The costliest questions found run to an Answer (their time is measured in bench/worst_queries.py)."""
    assert isinstance(check_outcome(cold, WORST[name]), Answer)


@pytest.mark.parametrize("name", ["distinct-unknown-8", "distinct-unknown-12", "one-long-word", "ligatures", "nfkc-growth"])
def test_typo_lookups_are_bounded(searcher: Searcher, fuzzy_calls: list, name: str):
    """At most one look-up per field for each of the first MAX_UNITS words, and none for a word no entry can be near.

    The longest word of the shipped vocabulary has 15 letters; a word of more
    than 32 is not within 2 edits of any of them.
    """
    searcher.ask(WORST[name])
    if name in ("one-long-word", "ligatures"):  # one word, longer than any name
        assert fuzzy_calls == []
    else:
        assert fuzzy_calls, "no look-up was counted"
    assert len(fuzzy_calls) <= 2 * MAX_UNITS, f"{len(fuzzy_calls)} look-ups"
    assert len(set(fuzzy_calls)) == len(fuzzy_calls), "a word was looked up twice in one field"
    assert max((len(word) for _, word in fuzzy_calls), default=0) <= 32


# -- through the CLI ----------------------------------------------------------

class TestCli:
    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(args=st.lists(fragment, min_size=1, max_size=8),
           separator=st.booleans(), as_json=st.booleans())
    def test_cli_exits_with_a_documented_status(self, args: list[str], separator: bool, as_json: bool):
        """`rulebot ask` with generated arguments exits 0, 1 or 3 (an answer, nothing, no clear answer; --json: 0)
        or 2 (usage error), never with a traceback."""
        command = ["ask", *(["--json"] if as_json else []), *(["--"] if separator else []), *args]
        result = CliRunner().invoke(cli, command)
        assert result.exit_code in ((0, 2) if as_json else (0, 1, 2, 3)), (command, result.output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit)
        if result.exit_code == 2:
            assert "Error:" in result.output
        elif as_json:
            json.loads(result.stdout)

    def test_json_keeps_utf8(self):
        """`ask --json` with a lone surrogate in the question prints JSON that encodes as UTF-8."""
        result = CliRunner().invoke(cli, ["ask", "--json", "chamurky", "\ud800"])
        assert result.exit_code == 0, result.exception
        assert json.loads(result.stdout)["results"]


def _process(*args: str | bytes, cache: Path, strict: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, RULEBOT_CACHE_DIR=str(cache), NO_COLOR="1")
    env.pop("PYTHONIOENCODING", None)
    if strict:  # what a UTF-8 locale such as en_US.UTF-8 gives; C.UTF-8 gives surrogateescape
        env["PYTHONIOENCODING"] = "utf-8:strict"
    return subprocess.run([sys.executable, "-m", "rulebot", *args], capture_output=True, env=env, timeout=120)


UNDECODABLE = [
    (b"\xff\xfe", 2, "undecodable"),  # undecodable bytes only: no words
    (b"\xc3", 2, "truncated-utf8"),
    (b"chamurky \xff tie", 0, "undecodable-among-words"),
    (b"chamurky \xed\xa0\x80", 0, "encoded-surrogate"),  # UTF-8 of a lone surrogate
]
STDOUTS = {"surrogateescape": False, "strict": True}  # C.UTF-8 gives the first, en_US.UTF-8 the second


@pytest.mark.parametrize(("argument", "expected"), [u[:2] for u in UNDECODABLE], ids=[u[2] for u in UNDECODABLE])
@pytest.mark.parametrize("strict", list(STDOUTS.values()), ids=list(STDOUTS))
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_undecodable_argument_in_a_real_process(tmp_path_factory, argument: bytes, expected: int, strict: bool, as_json: bool):
    """Bytes that are not UTF-8 in argv (lone surrogates in Python) give an answer or a usage error, no traceback."""
    cache = tmp_path_factory.getbasetemp() / "cache"
    done = _process("ask", *(["--json"] if as_json else []), argument, cache=cache, strict=strict)
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == expected, stderr
    assert "Traceback" not in stderr and "unexpected" not in stderr
    stdout = done.stdout.decode("utf-8")  # never invalid UTF-8
    if as_json and expected == 0:
        assert json.loads(stdout)["results"]
    if expected == 2:
        assert "Error: the question has no words to search for" in stderr


@pytest.mark.parametrize("command", [("show", b"dune\xff"), ("show", b"\xed\xa0\x80")], ids=["show", "show-encoded-surrogate"])
def test_undecodable_id_in_a_real_process(tmp_path_factory, command: tuple[str, bytes]):
    """Bytes that are not UTF-8 given as an entry id are no entry's: exit 2 and "no entry", no crash."""
    done = _process(*command, cache=tmp_path_factory.getbasetemp() / "cache", strict=True)
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "Error: no entry '" in stderr and "unexpected" not in stderr, stderr


def test_undecodable_id_in_the_library():
    """The same id through the Python API: UnknownEntryError, as for any id of no entry."""
    from rulebot import Library
    from rulebot.errors import UnknownEntryError

    with pytest.raises(UnknownEntryError, match="no entry 'dune\ufffd'"):
        Library().ruling("dune\udcff")
