"""What an import refuses before it writes (rulebot.corpus.updating): a document that is likely not the source's.

Each refuse_ check raises CurationError, saying what to do (import under
another source id, or add --force); nothing is written then;
of_another_edition tells when an edition would date a file's older drafts.
They read the entries files as they are; a file that does not read is left
to the update, which says what is wrong with it.
"""

from __future__ import annotations

from pathlib import Path

from rulebot.corpus import scaffold
from rulebot.corpus.drafted import Imported, anchors_of
from rulebot.corpus.files import is_entries_file, translation_name
from rulebot.corpus.format import header, split_entries, split_list
from rulebot.corpus.model import Corpus, Source
from rulebot.corpus.pairing import pair
from rulebot.errors import CurationError
from rulebot.places import display_path
from rulebot.text import fold

UNMATCHED_GUARD = (5, 0.2)
"""An entries file with at least this many entries drafted from a document (anchored), of which at most this share
is found among a new import's drafts (or of the drafts, if fewer): the document is not that source's (another
game's rules, the wrong file), and importing it is refused unless forced. A new edition keeps most of its places."""

CITED_GUARD = (5, 0.5)
"""An entries file with at least this many restated entries citing a section of their source (none drafted), of which at
most this share cite a section the new document has: the document is not that source's either. A source's own
document has every one (`rulebot check --sources`); another game's, less than half."""

SAME_DOCUMENT_SHARE = 0.5
"""More than this share of an import's drafts found by anchor in another source's entries file: the document is
likely that source's, imported under the wrong id."""


def refuse_another_sources(corpus: Corpus, game: str, source_id: str, path: Path, drafted: Imported) -> None:
    """CurationError when most of the drafts' anchors are in another entries file of the game: another source's, or
    one of a source game.toml no longer declares (its id renamed, say: the drafts and the curator's work are there)."""
    mine = {fold(name) for name in anchors_of(drafted.entries).values()}
    if not mine:
        return
    the_game = corpus.game(game)
    declared = {source.id: scaffold.entries_file(corpus, game, source.id).resolve() for source in the_game.sources}
    folder = Path(the_game.path).parent
    try:
        undeclared = sorted(p for p in folder.iterdir() if is_entries_file(p) and translation_name(p) is None
                            and p.resolve() not in declared.values() and p.resolve() != path.resolve())
    except OSError:
        undeclared = []  # (`rulebot check` tells what is wrong with the folder)
    for file in undeclared:
        shared = len(mine & _anchors_in(file))
        if shared > SAME_DOCUMENT_SHARE * len(mine):
            raise CurationError(
                f"{shared} of the {len(mine)} drafts are already in {file}, of no source game.toml declares: was the source"
                f" {file.stem!r} renamed {source_id!r}? Then rename the file {path.name}; or add --force to import it anyway"
            )
    for source in the_game.sources:
        other = scaffold.entries_file(corpus, game, source.id)
        if source.id == source_id or other.resolve() == path.resolve() or not other.is_file():
            continue
        shared = len(mine & _anchors_in(other))
        if shared > SAME_DOCUMENT_SHARE * len(mine):
            raise CurationError(
                f"{shared} of the {len(mine)} drafts are already in {other}, of source {source.id!r}: is the document"
                f" that source's? Import it with --source {source.id}, or add --force to import it as {source_id!r} too"
            )


def of_another_edition(path: Path, edition: str) -> bool:
    """Whether an entries file holds drafts of a document (anchored), none of them of this edition (`revised:` it)."""
    try:
        raws = list(split_entries(path, path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return False  # (the update reads it again and says what is wrong)
    anchored = [raw for raw in raws if header(raw, "anchor")]
    return bool(anchored) and not any(header(raw, "revised") == edition for raw in anchored)


def _anchors_in(path: Path) -> set[str]:
    """The anchors (folded) of the entries of an entries file; none when it does not read (`rulebot check` tells)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    return {fold(name) for raw in split_entries(path, text) for name in split_list(header(raw, "anchor"))}


def refuse_another_document(path: Path, document: Path, source: Source | None, drafted: Imported) -> None:
    """CurationError when the entries file holds many drafts of a document and the new import pairs with almost
    none of them (UNMATCHED_GUARD), as the update would pair them (a heading moved under a new parent is still
    paired by its title): the document is likely not that source's."""
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return  # the update reads it again and says what is wrong
    raws = list(split_entries(path, text))
    theirs = [raw for raw in raws if header(raw, "anchor")]
    least, share = UNMATCHED_GUARD
    if len(theirs) < least:
        return
    mine = drafted.entries
    pairs, _ = pair(mine, raws, anchors_of(mine))
    shared = len(pairs)
    if shared > share * min(len(mine), len(theirs)):
        return
    declared = source.document if source is not None and source.document else ""
    named = f" (its source's document is {declared})" if declared and declared != document.name else ""
    raise CurationError(
        f"only {shared} of the {len(mine)} drafts of {document.name} are in {display_path(path)}, which holds {len(theirs)} drafted"
        f" entries{named}: is it the right document? Nothing written; add --force to import it anyway"
    )


def refuse_uncited_document(corpus: Corpus, path: Path, document: Path, game: str, source_id: str) -> None:
    """CurationError when the entries file holds no drafts to pair (refuse_another_document) but many entries a
    curator wrote citing the source's sections, and the document has few of those sections (CITED_GUARD): importing
    a Marvel Champions reference into a rulebook restated by hand would append it to that rulebook."""
    least, share = CITED_GUARD
    here = path.resolve()
    citing = [e for e in corpus.entries.values() if e.game == game and e.source == source_id and e.section and not e.draft
              and e.path and Path(e.path).resolve() == here]
    if len(citing) < least or len(_anchors_in(path)) >= least:  # (entries drafted from a document: paired by anchor)
        return
    from rulebot.corpus import citations
    from rulebot.corpus.documents import read_document

    try:
        looked = citations.Document(read_document(document), document.name)
    except CurationError:
        return  # (drafting it has read it: not reached)
    found = sum(1 for entry in citing if citations.cites_section_of(entry, looked))
    if found > share * len(citing):
        return
    raise CurationError(
        f"of the {len(citing)} entries of {display_path(path)} citing a section, only {found} cite one that {document.name} has:"
        " is it the right document? Nothing written; add --force to import it anyway"
    )
