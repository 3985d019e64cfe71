"""How an index is built: two processes for large corpora, each word analysed once, the terminal text.

That rulebot's segment writer (rulebot.index.whoosh_writing.write_segment)
makes the index Whoosh's writer makes is tests/test_whoosh_format.py's.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import MINIMAL
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_index_faults import command, rulebot_env, write_synthetic_corpus
from test_whoosh_format import content, whoosh_built
from whoosh.filedb.filestore import FileStorage

from rulebot.corpus import load as corpus_module
from rulebot.corpus.load import load
from rulebot.errors import IndexBuildError
from rulebot.index import build as build_module
from rulebot.index import cache, whoosh_writing
from rulebot.index.build import terms_of, write_index
from rulebot.index.cache import open_index
from rulebot.index.schema import schema
from rulebot.markdown import to_terminal
from rulebot.places import shipped_corpus_dir
from rulebot.search.ranking import Searcher

on_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds take two processes on Linux only")


@on_linux
def test_two_processes_write_the_same_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """With two processes, the index has two segments, in corpus order, and reads as Whoosh's single one."""
    monkeypatch.setattr(build_module, "PARALLEL_FROM", 2)
    corpus = load([shipped_corpus_dir()])
    (tmp_path / "ours").mkdir()
    seen = []
    write_index(tmp_path / "ours", corpus, "fingerprint", progress=lambda done, total: seen.append((done, total)))
    ours = FileStorage(str(tmp_path / "ours")).open_index()
    assert len(ours.reader().leaf_readers()) == 2
    assert [stored["id"] for stored in ours.reader().all_stored_fields()] == list(corpus.entries)
    (tmp_path / "whoosh").mkdir()
    assert content(ours, totals=False) == content(whoosh_built(corpus, tmp_path / "whoosh"), totals=False)
    assert seen[-1] == (len(corpus.entries), len(corpus.entries))
    counts = [done for done, _ in seen]
    assert counts == sorted(set(counts))  # told from two threads: never backwards, never the same twice
    assert sorted(p.name for p in (tmp_path / "ours").iterdir() if p.is_dir()) == []  # no scratch folder left


@on_linux
def test_a_progress_that_fails_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd):
    """Progress is told from a thread during a two-process build: its error still ends the build, as an error
    of the build, never as a thread's traceback."""
    monkeypatch.setattr(build_module, "PARALLEL_FROM", 2)
    corpus = load([shipped_corpus_dir()])

    def progress(done: int, total: int) -> None:
        raise BrokenPipeError("stderr is closed")

    with pytest.raises(BrokenPipeError):
        write_index(tmp_path, corpus, "fingerprint", progress=progress)
    assert "Traceback" not in capfd.readouterr().err


def test_tricky_words_analysed_as_whoosh_does():
    """The remembered terms of words are the analyzers' own: accents, rule numbers, stop words first, French."""
    values = [
        "The Ferry Gull's *tide* — 702.19b, égalité; Égalité!",
        "a an the of",
        "of the first player, 10 victory points (VP)",
        "l'égalité des joueurs: à la fin de la partie",
        "naïve CAFÉ 3.5.2. x_y",
        "",
    ]
    for name, field in schema().items():
        if not field.indexed:
            continue
        analysed = terms_of(field)
        for value in values:
            tokens = [(t.text, t.pos) for t in field.analyzer(value, positions=True, mode="index")]
            terms, positions = analysed(value)
            assert terms == [text for text, _ in tokens], (name, value)
            if field.format.supports("positions"):
                assert list(positions) == [position for _, position in tokens], (name, value)


@on_linux
def test_parallel_build_answers(fresh_cache: Path, minimal_copy: Path, monkeypatch: pytest.MonkeyPatch):
    """A corpus indexed by two processes answers as one indexed by one, and its updates still work."""
    monkeypatch.setattr(build_module, "PARALLEL_FROM", 2)
    opened = open_index([minimal_copy])
    assert opened.built and len(opened.index.segments) == 2
    with Searcher(opened) as searcher:
        assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"
    rules = minimal_copy / "lantern-harbor" / "rulebook.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("even an occupied one", "even a stormy one"), encoding="utf-8")
    parsed: list[str] = []  # the files were kept as parsed by one of the two processes: only the edited one is parsed
    real = corpus_module.parse_file
    monkeypatch.setattr(corpus_module, "parse_file", lambda path, *args: parsed.append(path.name) or real(path, *args))
    updated = open_index([minimal_copy])
    assert parsed == ["rulebook.md"]
    assert updated.meta["updated"] == {"changed": 1, "removed": 0}
    with Searcher(updated) as searcher:
        assert searcher.ask("stormy dock").results[0].id == "lh-ferry-gull"


@on_linux
def test_spare_work_is_done_once(tmp_path: Path):
    """The work a parallel build does when a core is free is done by the first process done, and only by it."""
    import multiprocessing

    log = tmp_path / "log"

    def work() -> None:
        with log.open("a") as out:
            out.write(f"{os.getpid()}\n")

    context = multiprocessing.get_context("fork")
    spare = build_module._first_done(context, work)
    helper = context.Process(target=spare)
    helper.start()
    helper.join()
    spare()
    assert log.read_text().split() == [str(helper.pid)]


def _failing_in_helper(failure):
    """A write_segment that fails as `failure` says in the helper process only."""
    parent, real = os.getpid(), whoosh_writing.write_segment

    def write_segment(*args, **kwargs):
        if os.getpid() != parent:
            failure()
        return real(*args, **kwargs)

    return write_segment


def _full_disk():
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@on_linux
def test_full_disk_in_the_helper_process(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
    """The helper process's disk error reaches the build: memory, a warning, no build folder left."""
    monkeypatch.setattr(build_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(whoosh_writing, "write_segment", _failing_in_helper(_full_disk))
    warnings: list[str] = []
    opened = open_index([MINIMAL], warn=warnings.append)
    assert opened.path is None and "No space left on device" in warnings[0]
    with Searcher(opened) as searcher:
        assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"
    (home,) = (fresh_cache / "index").iterdir()
    assert [p.name for p in home.iterdir() if p.name not in (cache.STAMPS_FILE, cache.PARSED_DIR)] == []  # no build folder


@on_linux
def test_helper_process_dying(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch):
    """A helper process that dies without a word fails the build clearly, and leaves no build folder."""
    monkeypatch.setattr(build_module, "PARALLEL_FROM", 2)
    monkeypatch.setattr(whoosh_writing, "write_segment", _failing_in_helper(lambda: os._exit(3)))
    with pytest.raises(IndexBuildError, match="exit code 3"):
        open_index([MINIMAL])
    (home,) = (fresh_cache / "index").iterdir()
    assert [p.name for p in home.iterdir() if p.name not in (cache.STAMPS_FILE, cache.PARSED_DIR)] == []  # no build folder


@pytest.mark.parametrize(
    "text",
    [
        "“[d]eal 7 damage” resolves first.",  # brackets that make no link: plain text
        "See [Ferry Gull] and [rule 2].\n\nA second paragraph.",
        "[Ferry Gull](#lh-ferry-gull) moves.",  # a link: its text only
        "[gull]: #lh-ferry-gull\n\nA [gull] moves.",  # a reference definition vanishes
    ],
)
def test_terminal_text_of_brackets(text: str):
    """Texts whose brackets make no link skip the Markdown parser, and read as the parser renders them."""
    from rulebot.markdown import parser

    rendered = "\n\n".join(
        "".join(child.content for child in token.children if child.type == "text")
        for token in parser().parse(text)
        if token.type == "inline"
    )
    assert to_terminal(text) == rendered



@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from([*"ab1.)-+=~*_`|#<>\\&[]():!0", " ", "  ", "    ", "\n", "\n\n", "\t", "\r", "\u00a0", "\u2003", "\x0b", "\x0c"]), max_size=40).map("".join))
@example("a \n  b  \nc")  # spaces around line breaks go, those within a line stay
@example("\u00a0a\u00a0\n\u00a0b\u2003")  # other spaces stay, but at a paragraph's ends
@example(" \n  \nab \n\n\n  cd ")
@example("\tcode")
def test_texts_said_plain_read_as_the_parser_reads_them(text: str):
    """Most texts skip the Markdown parser: only those sure to be plain paragraphs, whose terminal text is the parser's."""
    from rulebot import markdown as render

    if not render.may_be_markup(text):
        assert to_terminal(text) == render._from_tokens(text)


def test_terminal_text_is_kept_only_for_texts_that_need_the_parser():
    """The index keeps the terminal text of texts that may hold Markdown; a plain one is made when shown, the same."""
    from rulebot import markdown as render
    from rulebot.cli import output

    with Searcher(open_index([shipped_corpus_dir()])) as searcher:
        payloads = searcher.entries()
        assert any("terminal" in p for p in payloads) and any("terminal" not in p for p in payloads)
        for payload in payloads:
            assert ("terminal" in payload) == render.may_be_markup(payload["text"]), payload["id"]
            kept = dict(payload, terminal=to_terminal(payload["text"]))
            assert output.entry_block(payload, output.Style(True)) == output.entry_block(kept, output.Style(True))


@pytest.mark.parametrize("text", ["- one\n- two", "Intro:\n  2) two", "Title\n=====", "Title\n---", "~~~\ncode\n~~~", "    code", "a\tb"])
def test_texts_with_block_markup_are_parsed(text: str):
    from rulebot import markdown as render

    assert render.may_be_markup(text)


def _slow_then_fast_corpus(root: Path, entries: int) -> Path:
    """A corpus whose first half (bulleted lists: the Markdown parser) takes longer to index than its plain second half."""
    write_synthetic_corpus(root, entries=entries)
    rules = root / "vornish" / "rules.md"
    chunks = rules.read_text(encoding="utf-8").split("\n## ")
    for number in range(1, len(chunks) // 2):
        head, _, text = chunks[number].partition("\n\n")
        chunks[number] = head + "\n\n" + "\n".join(f"- {word}" for word in text.split())
    rules.write_text("\n## ".join(chunks), encoding="utf-8")
    return root


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("when", ["writing", "reporting"])
def test_killed_build_leaves_no_helper_process(tmp_path: Path, when: str):
    """SIGKILL of a build run by two processes, while its helper writes or waits to report: the helper stops too."""
    corpus = _slow_then_fast_corpus(tmp_path / "corpus", entries=6000)
    process = subprocess.Popen(command(corpus, "index", "--rebuild"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=rulebot_env(tmp_path / "cache"))
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    helpers: list[str] = []
    waiting: list[str] = []
    while process.poll() is None:
        helpers = helpers or (children.read_text().split() if children.exists() else [])
        waiting = [pid for pid in helpers if "pipe" in _read(Path(f"/proc/{pid}/wchan"))]  # blocked sending its part
        if helpers and (when == "writing" or waiting):
            break
        time.sleep(0.005)
    process.kill()
    process.wait()
    if not helpers or (when == "reporting" and not waiting):
        pytest.skip("the build ended before the moment to kill it (or the kernel hides where processes wait)")
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in helpers):
        assert time.monotonic() < deadline, "the helper process outlived its build"
        time.sleep(0.05)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def test_edit_of_most_entries_builds_afresh(fresh_cache: Path, minimal_copy: Path):
    """An edit that changes most entries' documents (the game's name) makes a new build, not an update."""
    open_index([minimal_copy])
    toml = minimal_copy / "lantern-harbor" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('name = "Lantern Harbor"', 'name = "Lantern Haven"'), encoding="utf-8")
    opened = open_index([minimal_copy])
    assert opened.built and "updated" not in opened.meta
    assert opened.meta["games"]["lantern-harbor"]["name"] == "Lantern Haven"
    with Searcher(opened) as searcher:
        assert searcher.ask("ferry gull").results[0].id == "lh-ferry-gull"
