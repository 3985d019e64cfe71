"""Building an index: the documents of a corpus's entries, written as segments by one process or two.

rulebot.index.cache builds an index here when none serves; Whoosh is
imported to build, never to answer. Its segments are written by
rulebot.index.whoosh_writing.write_segment, several times faster than
Whoosh's writer, as Whoosh would write them.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import whoosh
from whoosh.codec import default_codec
from whoosh.filedb.filestore import FileStorage, RamStorage
from whoosh.index import TOC

from rulebot import collector
from rulebot.corpus import glossary
from rulebot.corpus.drafts import MIN_TOPICS
from rulebot.errors import IndexBuildError
from rulebot.index import sealed, whoosh_writing
from rulebot.index.opened import ALL_GAMES, OpenIndex
from rulebot.index.payload import entry_payload, game_payload
from rulebot.index.reader import PAYLOAD_FIELD, TRANSLATED_TERMINAL, IndexReader, encode_payload
from rulebot.index.schema import schema
from rulebot.index.whoosh_format import INDEX_NAME, WHOOSH, release
from rulebot.language import analysis, quantities
from rulebot.text import link_words

if TYPE_CHECKING:
    import threading
    from ctypes import c_longlong
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkContext

    from rulebot.corpus.model import Corpus, Entry, Game
    from rulebot.index.payload import EntryJSON, StoredEntry

PARALLEL_FROM = 1000
"""From this many entries on, the index is built by two processes (a third faster at 1,000 entries)."""

Progress = Callable[[int, int], None]


def write_index(folder: Path, corpus: Corpus, fingerprint: str, progress: Progress | None = None, meanwhile: Callable[[], None] | None = None) -> dict[str, Any]:
    """Write the index of a corpus into an empty folder, with its metadata file last (see sealed.seal).

    `meanwhile`: other work, done once, when a core is free (see _fill).
    """
    meta = _fill(FileStorage(str(folder)), corpus, fingerprint, progress, meanwhile)
    sealed.seal(folder, meta)
    return meta


def build_in_memory(corpus: Corpus, fingerprint: str, progress: Progress | None) -> OpenIndex:
    """Build the index of a corpus in memory (when the cache cannot be written)."""
    storage = _memory_only()
    meta = _fill(storage, corpus, fingerprint, progress)
    return OpenIndex(IndexReader.open(None, INDEX_NAME, storage.files), meta, None, built=True)


def _memory_only() -> RamStorage:
    """A RamStorage whose scratch files stay in memory too.

    Whoosh's RamStorage writes a build's temporary files (sorted postings,
    columns) to the system temp folder: on a full disk the in-memory
    fallback would fail like the cache did.
    """

    class MemoryOnly(RamStorage):  # type: ignore[misc]  # Whoosh has no type information: RamStorage is Any
        def temp_storage(self, name: str | None = None) -> RamStorage:
            return MemoryOnly()

    return MemoryOnly()


def check_whoosh() -> None:
    """Refuse to write with another Whoosh than the one whose files rulebot reads (IndexBuildError)."""
    if tuple(whoosh.__version__[:3]) != WHOOSH:
        raise IndexBuildError(
            f"rulebot writes its index with Whoosh-Reloaded {release(WHOOSH)}, and {release(whoosh.__version__[:3])} is installed"
        )


def documents(corpus: Corpus, ids: Iterable[str] | None = None, terminal: bool = True) -> Iterator[tuple[str, Callable[[], dict[str, Any]]]]:
    """Each entry's (digest, document maker), in corpus order (or that of `ids`, when given).

    The digest covers everything the document is made from, so an update can
    skip an unchanged entry without paying for its rendering. Without
    `terminal`, the payload lacks the text rendered for the terminal (the
    site's search reads the rest).
    """
    modified_by = corpus.modified_by()
    referenced_by = corpus.referenced_by()
    topics = _numbered_topics(corpus)
    repeated = _repeated_headings(corpus, topics)
    for entry in corpus.entries.values() if ids is None else map(corpus.entries.__getitem__, ids):
        language = corpus.games[entry.game].language
        payload = entry_payload(corpus, entry, modified_by.get(entry.id, ()), referenced_by.get(entry.id, ()))
        heading = Heading(entry.id in repeated, (entry.game, entry.source) in topics)
        yield _digest(language, payload, heading), _maker(entry, language, cast("StoredEntry", payload), terminal, heading)  # make() adds the rest


class Heading(NamedTuple):
    """What an entry's title is among its source document's titles: what its name is made of (analysis.entry_name_stems)."""

    repeated: bool
    """Its words after its section number are an earlier title's of its document (_repeated_headings)."""
    topics: bool
    """Its document numbers its topics with a number alone (_numbered_topics)."""


def _numbered_topics(corpus: Corpus) -> set[tuple[str, str]]:
    """The source documents, as (game, source), that number their topics with a number alone, as a rules reference
    does ("3 Action Phase", "4 Active Player"): at least MIN_TOPICS of their titles open so. One such title alone is
    a name ("2 Player Game")."""
    counts = Counter((entry.game, entry.source) for entry in corpus.entries.values() if analysis.opens_with_topic_number(entry.title))
    return {document for document, count in counts.items() if count >= MIN_TOPICS}


def _repeated_headings(corpus: Corpus, topics: set[tuple[str, str]]) -> set[str]:
    """The entries whose title, after the section number it opens with, an earlier entry of their source document
    has (analysis.entry_name_stems): "702.85b Cascade" after "702.85a Cascade". Each document numbers its own
    sections: an expansion's rules or a FAQ has its own first "Setup". `topics`: the documents that number their
    topics with a number alone (_numbered_topics)."""
    seen, repeated = set(), set()
    for entry in corpus.entries.values():
        rest = analysis.unnumbered(entry.title, (entry.game, entry.source) in topics)
        if rest is not None:
            key = (entry.game, entry.source, tuple(analysis.name_stems(rest)))
            if key in seen:
                repeated.add(entry.id)
            seen.add(key)
    return repeated


def _maker(entry: Entry, language: str, payload: StoredEntry, terminal: bool, heading: Heading) -> Callable[[], dict[str, Any]]:
    def make() -> dict[str, Any]:
        from rulebot.markdown import may_be_markup, to_terminal

        if terminal and may_be_markup(entry.text):  # a plain text (most) is made terminal text when shown, in microseconds
            payload["terminal"] = to_terminal(entry.text)
        if terminal and any(may_be_markup(t.text) for t in entry.translations):
            payload[TRANSLATED_TERMINAL] = {t.lang: to_terminal(t.text) for t in entry.translations if may_be_markup(t.text)}
        # (a heading's number is the title's: an alias is a name as players say it, "2.5 players" too)
        payload["name_stems"] = [
            analysis.entry_name_stems(entry.title, heading.repeated, heading.topics), *(analysis.name_stems(a.text) for a in entry.aliases)
        ]
        # (a section number counts nothing: "98 Victory Points" states no number of points)
        title = analysis.unnumbered(entry.title, heading.topics) or entry.title
        read = link_words(entry.text)  # (what the text says, not where its links lead: "#toy-2-player-variant")
        described = "\n".join([title, *(a.text for a in entry.aliases), read])
        payload["counted"] = quantities.counted_stems(described)
        payload["player_counts"] = quantities.player_counts(described)
        payload["defers"] = glossary.sends_to_rule(entry)
        french = entry.translation("fr")
        return {
            "id": entry.id,
            "game": entry.game,
            "kind": entry.kind,
            "expansion": entry.expansion or "base",
            "house_rule": "yes" if payload["house_rule"] else None,  # what --official-only leaves out
            "title": entry.title,
            "names": "\n".join(entry.names()),
            "aliases": "\n".join(a.text for a in entry.aliases if a.lang != "fr"),
            "aliases_fr": "\n".join(a.text for a in entry.aliases if a.lang == "fr") or (entry.title if language == "fr" else ""),
            "asked": "\n".join(a.text for a in entry.asked if a.lang != "fr"),
            "asked_fr": "\n".join(a.text for a in entry.asked if a.lang == "fr"),
            "body": read,
            "title_fr": french.title if french else "",
            "body_fr": link_words(french.text) if french else "",
            "section": f"{entry.section}\n{entry.kind}",  # "setup", "errata": what the entry is, a weak hint too
            PAYLOAD_FIELD: encode_payload(payload),
        }

    return make


def _digest(language: str, payload: EntryJSON, heading: Heading) -> str:
    """A short hash of what an entry's document is made from: equal hashes, nothing to re-index.

    A document is made from the entry's payload (which holds every field of
    the entry), its game's language and what its title is among its
    document's (Heading).
    """
    # marshal's version 2 writes values only (the later versions add shared
    # references and interning flags, which vary from run to run), so equal
    # payloads give equal bytes; it is four times faster than JSON, and a
    # one-entry update hashes every entry. The payload is built in a fixed key
    # order, so its keys need no sorting.
    return hashlib.sha1(marshal.dumps((sealed.FORMAT, language, tuple(heading), cast("dict[str, Any]", payload)), 2)).hexdigest()[:20]


@collector.paused()
def _fill(storage: FileStorage | RamStorage, corpus: Corpus, fingerprint: str, progress: Progress | None, meanwhile: Callable[[], None] | None = None) -> dict[str, Any]:
    """Write the index of a corpus into an empty storage: its segments, then the table of contents naming them.

    `meanwhile` is done once: by whichever process writing a part is done
    first, or after the one segment.
    """
    import sys

    check_whoosh()
    ids = list(corpus.entries)
    total = len(ids)
    digests: dict[str, str] = {}
    done, helper_done = 0, None  # entries written here, and by the helper process (in shared memory)
    shown = -1

    def report() -> None:
        nonlocal shown
        count = done + (helper_done.value if helper_done else 0)
        if progress is not None and count != shown:
            shown = count
            progress(count, total)

    def tick() -> None:
        nonlocal done
        done += 1
        if helper_done is None and (done % 500 == 0 or done == total):
            report()

    # Index builds are CPU-bound, and the machines rulebot runs on have two
    # cores or more: a large corpus is cut in two parts of about as much work,
    # and a forked helper process writes the second part as a segment of its
    # own while this one writes the first. Readers take the two segments in
    # order, as one index, whose documents are in corpus order as a single
    # segment's would be. Small corpora are not worth a process; forking is
    # left to Linux (macOS's system libraries are not safe to fork).
    if total < PARALLEL_FROM or not isinstance(storage, FileStorage) or not sys.platform.startswith("linux"):
        written = [_segment(storage, _made(corpus, ids, digests, tick))]
        if meanwhile is not None:
            meanwhile()
    else:
        import multiprocessing
        import threading

        first, second = _halves(corpus, ids)
        context = multiprocessing.get_context("fork")
        helper_done = context.RawValue("q", 0)
        spare = _first_done(context, meanwhile)
        receiver, sender = context.Pipe(duplex=False)
        helper = context.Process(target=_write_part, args=(storage, corpus, second, helper_done, spare, receiver, sender), daemon=True)
        helper.start()
        sender.close()
        # Progress is told from a thread (started after the fork): this
        # process spends seconds writing its part's postings while the
        # helper is still adding documents.
        failed: list[Exception]
        reporting, failed = threading.Event(), []
        reporter = threading.Thread(target=_every, args=(0.2, report, reporting, failed), daemon=True)
        reporter.start()
        try:
            written = [_segment(storage, _made(corpus, first, digests, tick))]
            spare()
            outcome = receiver.recv()  # once the helper is done
        except EOFError:  # the helper died without a word
            helper.join()
            outcome = IndexBuildError(f"the helper process writing the index ended abruptly (exit code {helper.exitcode})")
        except BaseException:
            helper.terminate()
            raise
        finally:
            reporting.set()
            reporter.join()
            helper.join()
            receiver.close()
        if failed:
            raise failed[0]  # telling the progress failed (a closed terminal): as it fails without a thread
        if isinstance(outcome, BaseException):
            raise outcome
        written.append(outcome[0])
        digests.update(outcome[1])
    if total:
        report()  # the end: total of total (if not told yet)
    TOC(schema(), written, 0).write(storage, INDEX_NAME)
    whoosh_writing.remove_scratch(storage)
    return index_meta(corpus, fingerprint, digests)


def _segment(storage: FileStorage | RamStorage, documents: Iterable[dict[str, Any]]) -> Any:
    """Write documents as a segment of the storage; the segment."""
    return whoosh_writing.write_segment(storage, default_codec(), schema(), documents, terms_of)


def _every(seconds: float, work: Callable[[], None], stop: threading.Event, failed: list[Exception]) -> None:
    """Do some work every few seconds until stopped, or until it fails (the error is put in `failed`)."""
    while not stop.wait(seconds):
        try:
            work()
        except Exception as exc:
            failed.append(exc)
            return


def _halves(corpus: Corpus, ids: list[str]) -> tuple[list[str], list[str]]:
    """Entry ids cut in two runs of about as much work: an entry's is about its text's length and 200 characters more."""
    import bisect
    import itertools

    sizes = list(itertools.accumulate(len(corpus.entries[i].text) + 200 for i in ids))
    cut = bisect.bisect_left(sizes, sizes[-1] / 2)
    return ids[:cut], ids[cut:]


def _made(corpus: Corpus, ids: list[str], digests: dict[str, str], tick: Callable[[], None]) -> Iterator[dict[str, Any]]:
    """The documents of some entries, in order; records each one's digest and ticks once it is written."""
    for entry_id, (digest, make) in zip(ids, documents(corpus, ids)):
        digests[entry_id] = digest
        yield make()
        tick()


def _first_done(context: ForkContext, work: Callable[[], None] | None) -> Callable[[], None]:
    """What each process of a parallel build calls once its part is written: the work is done by the first to call."""
    claimed = context.Value("b", 0)

    def spare() -> None:
        with claimed.get_lock():
            first, claimed.value = not claimed.value, 1
        if first and work is not None:
            work()

    return spare


def _write_part(
    storage: FileStorage, corpus: Corpus, ids: list[str], done: c_longlong, spare: Callable[[], None], parent_end: Connection, connection: Connection
) -> None:
    """The helper process of _fill: write some entries as a segment, do the spare work if first,
    and send back (segment, digests) or the error."""
    parent_end.close()  # this process's copy: once the parent is gone, sending fails instead of waiting for ever
    try:
        digests: dict[str, str] = {}
        parent = os.getppid()

        def tick() -> None:
            done.value += 1
            if done.value % 100 == 0 and os.getppid() != parent:
                raise IndexBuildError("the build was abandoned")  # its process was killed: no use going on

        segment = _segment(storage, _made(corpus, ids, digests, tick))
        spare()
        connection.send((segment, digests))
    except BaseException as exc:  # raised by the parent (an OSError there means "use memory")
        failure = exc if isinstance(exc, OSError) else IndexBuildError(f"the helper process writing the index failed: {exc!r}")
        with contextlib.suppress(OSError):  # the parent is gone
            connection.send(failure)


def index_meta(corpus: Corpus, fingerprint: str, digests: dict[str, str]) -> dict[str, Any]:
    """The metadata written beside an index: what answering needs to know without the corpus."""
    from collections import Counter

    entries = Counter(e.game for e in corpus.entries.values())
    # per question language: French questions also use the French words of each vocabulary
    vocabularies: list[tuple[str, Callable[[Game], tuple[tuple[str, ...], ...]]]] = [
        ("en", lambda g: g.synonyms), ("fr", lambda g: g.synonyms + g.french)
    ]
    return {
        "format": sealed.FORMAT,
        "whoosh": release(whoosh.__version__[:3]),
        "fingerprint": fingerprint,
        "count": len(corpus.entries),
        "built_at": time.time(),
        "games": {slug: game_payload(corpus, slug, entries.get(slug, 0)) for slug in corpus.games},
        "synonym_tables": {
            language: {
                **{slug: analysis.encode_synonyms(analysis.synonym_table(groups(g))) for slug, g in corpus.games.items()},
                ALL_GAMES: analysis.encode_synonyms(analysis.synonym_table([s for g in corpus.games.values() for s in groups(g)])),
            }
            for language, groups in vocabularies
        },
        "digests": digests,
        # Told whenever the index is opened: a later `ask` does not load the corpus to find them.
        "problems": [[p.path if os.path.isabs(p.path) else str(Path.cwd() / p.path), p.line, p.message] for p in corpus.problems],
        "left_out": corpus.left_out,
    }


def terms_of(spec: Any) -> Callable[[str], tuple[list[str], list[int] | range]]:
    """A faster way to the terms a field's analyzer makes of a value, and their positions, in order.

    rulebot's text fields (rulebot.index.schema.WordAnalyzer) make each word a term
    on its own: so the term of each distinct word is remembered rather than
    made again, and Whoosh's token stream is skipped; positions as
    analysis.numbered() gives them. Other analyzers (the ID fields') run as
    they are.
    """
    analyzer = spec.analyzer
    term_of = analysis.ANALYSES.get(getattr(analyzer, "analysis", ""))  # "": not one of rulebot's analyses
    if term_of is None:
        import functools

        @functools.lru_cache(maxsize=1024)  # most ID values recur: games, kinds, expansions
        def tokens(value: str) -> tuple[list[str], list[int]]:
            found = [(token.text, token.pos) for token in analyzer(value, positions=True)]
            return [text for text, _ in found], [position for _, position in found]

        return tokens
    known: dict[str, str | None] = {}

    def terms(text: str) -> tuple[list[str], range]:
        words = analysis.split(text)
        try:
            made = [known[word] for word in words]
        except KeyError:  # words met for the first time
            for word in words:
                if word not in known:
                    known[word] = term_of(word)
            made = [known[word] for word in words]
        return analysis.numbered(made)

    return terms
