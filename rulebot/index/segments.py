"""Writing a Whoosh segment directly, the same as Whoosh's own writer but several times faster.

Used by rulebot.index.cache for every build. It goes through Whoosh's own codec
and some private attributes of the pinned Whoosh-Reloaded 2.7.5;
tests/test_index_build.py checks that it writes the index Whoosh would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rulebot.language import analysis


def write_segment(storage, fields, index_name: str, documents: Iterable[dict]):
    """Write documents as a new segment of a storage, with a schema's fields, the same as Whoosh's writer would; return the segment.

    Whoosh's writer passes each word through a chain of generators, keeps
    every posting as a tuple to sort (spilling sorted runs to disk past a
    memory limit), then reads each posting's field length back from disk to
    write it: most of a build's time went there. Here each distinct word is
    analysed once (terms_of), postings are gathered by term as documents come
    (so already in order), and each term's postings go to Whoosh's own codec
    a block at a time. tests/test_index_build.py checks that both writers
    make the same index.
    """
    from rulebot.index.whoosh_api import byte_to_length, default_codec, length_to_byte

    codec = default_codec()
    segment = codec.new_segment(storage, index_name)
    perdoc = codec.per_document_writer(storage, segment)
    analysed = {name: terms_of(spec) for name, spec in fields.items() if spec.indexed}
    postings: dict[tuple[str, str], list] = {}  # (field, term): [docnum, frequency, encoded positions, docnum, ...]
    lengths: dict[str, list[int]] = {name: [] for name, spec in fields.items() if spec.scorable}  # by document
    lone: dict[str, dict[int, bytes]] = {name: {} for name in lengths}  # the encoding of each lone position, shared
    count = 0
    for docnum, document in enumerate(documents):
        perdoc.start_doc(docnum)
        for name, spec in fields.items():  # in name order, as Whoosh adds them
            value = document.get(name)
            length = 0
            if value is not None and spec.indexed:
                terms, positions = analysed[name](value)
                if spec.scorable:
                    length = len(terms)
                    places: dict[str, list[int]] = {}
                    for position, term in zip(positions, terms):
                        if term in places:
                            places[term].append(position)
                        else:
                            places[term] = [position]
                    for term, where in places.items():
                        if len(where) > 1:
                            encoded = spec.format.encode(where)
                        elif (encoded := lone[name].get(where[0])) is None:
                            encoded = lone[name][where[0]] = spec.format.encode(where)
                        if (found := postings.get((name, term))) is None:
                            postings[name, term] = [docnum, len(where), encoded]
                        else:
                            found += (docnum, len(where), encoded)
                else:
                    for term in dict.fromkeys(terms):
                        if (found := postings.get((name, term))) is None:
                            postings[name, term] = [docnum, 1, b""]
                        else:
                            found += (docnum, 1, b"")
            if spec.scorable:
                lengths[name].append(byte_to_length(length_to_byte(length)))  # as Whoosh reads it back
            if value is not None:
                perdoc.add_field(name, spec, value if spec.stored else None, length)
        perdoc.finish_doc()
        count += 1
    perdoc.close()
    writer = codec.field_writer(storage, segment)
    current = None
    for name, term in sorted(postings):  # str order is the UTF-8 byte order Whoosh sorts terms in
        if name != current:
            if current is not None:
                writer.finish_field()
            writer.start_field(name, fields[name])
            current, boost, field_lengths = name, fields[name].format.field_boost, lengths.get(name)
        writer.start_term(term.encode("utf-8"))
        found = postings[name, term]
        _write_postings(writer, found[0::3], found[1::3], found[2::3], field_lengths, boost)
        writer.finish_term()
    if current is not None:
        writer.finish_field()
    writer.close()
    segment.set_doc_count(count)
    segment.create_compound_file(storage)
    segment.compound = True
    return segment


def _write_postings(writer, docnums: list[int], frequencies: list[int], encoded: list[bytes], lengths: list[int] | None, boost: float) -> None:
    """Write a term's postings as Whoosh's W3PostingsWriter does, but a block at a time.

    Its add_posting() checks and files each posting on its own, which was a
    good part of a build's time: here each block's buffers and statistics are
    set at once, then the writer's own _write_block() writes it. These are
    private attributes of the pinned Whoosh-Reloaded 2.7.5: the tests compare
    the postings written with Whoosh's own, blocks of several included.
    """
    from array import array

    postings = writer._postwriter
    limit = postings._blocklimit
    for start in range(0, len(docnums), limit):
        block = slice(start, start + limit)
        frequency = frequencies[block]
        # A block of one posting (an id, a rare word: most terms) is left
        # uncompressed, as each block says: zlib would make it no shorter (its
        # header and checksum outweigh what it saves), and a call for each of
        # 100k such blocks at 100k entries was ~5% of writing a segment.
        # (Whoosh means to leave out pickles under 20 bytes, but a slip has it
        # compress every block.)
        postings._compression = writer._codec._compression if len(frequency) > 1 else 0
        postings._ids = array("I", docnums[block])
        postings._weights = array("f", [f * boost for f in frequency])
        postings._maxweight = max(frequency) * boost
        postings._values = [v for v in encoded[block] if v]
        sizes = [lengths[d] for d in docnums[block]] if lengths else []  # never 0: a posting has a word
        postings._minlength = min(sizes, default=None)
        postings._maxlength = max(sizes, default=0)
        postings._write_block(last=start + limit >= len(docnums))


def terms_of(spec) -> Callable[[str], tuple[list[str], list[int] | range]]:
    """A faster way to the terms a field's analyzer makes of a value, and their positions, in order.

    rulebot's text fields (rulebot.index.schema.WordAnalyzer) make each word a term
    on its own: so the term of each distinct word is remembered rather than
    made again, and Whoosh's token stream is skipped; positions as
    analysis.numbered() gives them. Other analyzers (the ID fields') run as
    they are.
    """
    analyzer = spec.analyzer
    term_of = analysis.ANALYSES.get(getattr(analyzer, "analysis", None))
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
