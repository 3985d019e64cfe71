"""The Whoosh schema of an entry document: loaded only to write an index.

Text fields are analysed by rulebot.language.analysis, through WordAnalyzer, the same
functions that analyse questions: answering a question needs no Whoosh. The
entry's payload is kept as JSON in a column of compressed bytes (see
rulebot.index.reader.PAYLOAD_FIELD), no pickle: answering reads it without Whoosh.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from whoosh.analysis import Token, Tokenizer
from whoosh.columns import CompressedBytesColumn
from whoosh.fields import COLUMN, ID, TEXT, Schema

from rulebot.index.fields import FIELD_BOOSTS
from rulebot.index.reader import PAYLOAD_FIELD
from rulebot.language import analysis


class WordAnalyzer(Tokenizer):  # type: ignore[misc]  # Whoosh has no type information: Tokenizer is Any
    """One of rulebot's analyses as Whoosh's analyzer: a text's words, each made a term (a stop word none),
    at the positions analysis.numbered() gives them. The schema pickles it by its analysis's name.
    (No character offsets: rulebot's fields do not keep them.)
    """

    def __init__(self, analysis: str):
        self.analysis = analysis

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.analysis == self.analysis

    def __hash__(self) -> int:
        return hash(self.analysis)

    def __call__(self, value: str, positions: bool = False, chars: bool = False, keeporiginal: bool = False,
                 removestops: bool = True, start_pos: int = 0, start_char: int = 0, tokenize: bool = True,
                 mode: str = "", **kwargs: Any) -> Iterator[Token]:
        term_of = analysis.ANALYSES[self.analysis]
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        terms, places = analysis.numbered([term_of(word) for word in analysis.split(value)])
        for term, place in zip(terms, places):
            token.text, token.boost, token.stopped = term, 1.0, False
            if positions:
                token.pos = start_pos + place
            yield token


def schema() -> Schema:
    """The fields of an entry document and how each is analysed."""
    english, french, names = WordAnalyzer("english"), WordAnalyzer("french"), WordAnalyzer("names")
    return Schema(
        id=ID(stored=True, unique=True),
        game=ID(stored=True),
        kind=ID(stored=True),
        expansion=ID(stored=True),
        house_rule=ID(),
        title=TEXT(analyzer=english, field_boost=FIELD_BOOSTS["title"]),
        names=TEXT(analyzer=names, field_boost=FIELD_BOOSTS["names"]),
        aliases=TEXT(analyzer=english, field_boost=FIELD_BOOSTS["aliases"]),
        aliases_fr=TEXT(analyzer=french, field_boost=FIELD_BOOSTS["aliases_fr"]),
        asked=TEXT(analyzer=english, field_boost=FIELD_BOOSTS["asked"]),
        asked_fr=TEXT(analyzer=french, field_boost=FIELD_BOOSTS["asked_fr"]),
        body=TEXT(analyzer=english, field_boost=FIELD_BOOSTS["body"]),
        title_fr=TEXT(analyzer=french, field_boost=FIELD_BOOSTS["title_fr"]),
        body_fr=TEXT(analyzer=french, field_boost=FIELD_BOOSTS["body_fr"]),
        section=TEXT(analyzer=english, field_boost=FIELD_BOOSTS["section"]),
        **{PAYLOAD_FIELD: COLUMN(CompressedBytesColumn())},
    )
