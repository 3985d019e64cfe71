"""The curators' commands: `check`, `import`, `new`, `new-game`, `changes` and `review`.

They read the corpus itself (rulebot.corpus), not the index: a curator
sees every problem, and what they add is written to their corpus folder.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulebot.cli import completion, status
from rulebot.cli.shared import Settings, current_style, echo, kind_option, notify, warn
from rulebot.corpus.kinds import KINDS
from rulebot.errors import CurationError, PackageWriteError, UnknownGameError
from rulebot.places import outside_package
from rulebot.text import plural

if TYPE_CHECKING:
    from collections import Counter

    from rulebot.corpus.model import Corpus
    from rulebot.corpus.review import Review
    from rulebot.corpus.walk import Draft, DraftWalk


@click.command()
# A folder that is not there is a usage error (2), as --sources's is, not a problem found in a corpus (1).
@click.argument("corpus_dirs", nargs=-1, type=click.Path(path_type=Path, exists=True, file_okay=False), metavar="[CORPUS_DIR]...")
@click.option("--strict", is_flag=True, help="Fail on warnings too: draft entries, ambiguous citations.")
@click.option(
    "--sources",
    "sources_dir",
    metavar="DIR",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Check that each cited section is in your copy of its source document (DIR/<source-id>.md, .txt or .pdf, or"
    " the file its source's `document` names).",
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print one object: {"ok", "problems": [{"file", "line", "message", "severity"}], "summary"}.'
)
@click.pass_context
def check(ctx: click.Context, corpus_dirs: tuple[Path, ...], strict: bool, sources_dir: Path | None, as_json: bool) -> None:
    """Validate a corpus and report every problem as FILE:LINE: message.

    Reports on your folders: the CORPUS_DIRs, else the corpora rulebot uses
    (your own corpus folder and any --corpus; the shipped one only when there
    is nothing else, as it is not yours to edit). The shipped corpus is still
    read, for house rules that extend its games. As a linter, prints each
    problem (and warning) on standard output, the summary on standard error;
    exits 1 when there is a problem, 0 when none. A file's first 50 problems
    are printed, then how many more it has (--json lists them all).
    Draft entries (`rulebot import`) are counted in a warning; --strict lists
    them as problems. --sources DIR also reports dangling citations (a section
    not found in its document) and, as warnings, ambiguous ones. --json prints
    every problem and warning in one object (same exit status).
    """
    from rulebot.corpus import review as corpus_review
    from rulebot.corpus.files import chosen_dirs

    ctx.obj.check_folders()  # (a folder given as CORPUS_DIR that is not there is one too: click's Path says so)
    in_use = chosen_dirs(ctx.obj.extra, shipped=ctx.obj.shipped)
    if not corpus_dirs and not in_use:
        raise click.UsageError("no corpus: --no-shipped needs at least one --corpus DIR")
    owned, dirs = corpus_review.scope(list(corpus_dirs), in_use)
    review = corpus_review.review(dirs, strict=strict, sources=sources_dir, owned=owned)
    problems, counts = review.problems, review.counts
    if as_json:
        from rulebot.cli import output

        click.echo(output.to_json(_check_json(review, counts)))
        ctx.exit(status.NEGATIVE if problems else status.OK)
    # As a linter: the findings on standard output (`rulebot check | grep`), what they add up to on standard error.
    from rulebot.corpus.load import at_most_per_file

    for problem in at_most_per_file(problems):  # a file of thousands of broken entries: its first ones, and a count
        echo(str(problem))
    for warning in review.warnings:
        echo(f"{warning.path}:{warning.line}: warning: {warning.message}")
    if review.drafts:
        drafts = plural(len(review.drafts), "draft entry", "draft entries")
        warn(f"{drafts}, whose text is still the document's own (--strict lists them)")
    for note in review.notes:
        notify(note)
    _warn_stale_weights()
    if problems:
        raise ProblemsFound(f"{plural(len(problems), 'problem')} found")
    per_game = ", ".join(f"{slug} {counts.get(slug, 0)}" for slug in review.games)
    entries, games = plural(sum(counts.values()), "entry", "entries"), plural(len(review.games), "game")
    click.echo(f"OK: {entries} in {games} ({per_game})", err=True)


def _warn_stale_weights() -> None:
    """Tell that the ranking's fitted weights are older than its features (they still answer: see
    rulebot.search.features.STALE), so that they are refitted before a release."""
    from rulebot.search.features import STALE, WEIGHTS_FILE

    if STALE.missing or STALE.unknown:
        parts = [f"no weight for {', '.join(STALE.missing)} (its prior is used)"] if STALE.missing else []
        parts += [f"weights of unknown features {', '.join(STALE.unknown)} (ignored)"] if STALE.unknown else []
        warn(f"{WEIGHTS_FILE.name} is older than the ranking features: {'; '.join(parts)}; refit with bench/fit_ranking.py")


class ProblemsFound(click.ClickException):
    """`check` found problems in the corpus: a negative result, told as click tells an error."""

    exit_code = status.NEGATIVE


def _check_json(review: Review, counts: Counter[str]) -> dict[str, object]:
    """The object `check --json` prints: problems are errors, warnings and drafts are warnings
    (with --strict they are among the problems by then, so errors)."""
    found = [(p, "error") for p in review.problems] + [(p, "warning") for p in [*review.warnings, *review.drafts]]
    return {
        "ok": not review.problems,
        "problems": [{"file": str(p.path), "line": p.line, "message": p.message, "severity": severity} for p, severity in found],
        "summary": {
            "entries": sum(counts.values()),
            "games": {slug: counts.get(slug, 0) for slug in review.games},
            "errors": len(review.problems),
            "warnings": len(found) - len(review.problems),
            "notes": review.notes,
        },
    }


@click.command(name="import")
@click.argument("document", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("-g", "--game", required=True, metavar="SLUG", shell_complete=completion.game_slugs, help="The game the document is for.")
@click.option(
    "-s", "--source", "source_id", metavar="ID", help="The source the drafts cite (declared in game.toml; default: the game's only one).",
)
@click.option("-o", "--out", type=click.Path(path_type=Path, dir_okay=False), help="Write the drafts to FILE instead of printing them.")
@click.option(
    "--force", is_flag=True,
    help="With --out: replace FILE if it exists. With --append: import even when most drafts are already another source's,"
    " or when the document matches almost none of the drafts already there (another game's rules?).",
)
@click.option(
    "--append", is_flag=True, help="Write the drafts to the source's entries file in the corpus, where rulebot finds them (an update when there)."
)
@click.option(
    "--edition", metavar="DATE", callback=lambda ctx, param, value: _date(value),
    help="With --append: the document is the source's edition dated DATE (YYYY-MM-DD, as game.toml's `editions` date them, not a"
    " version label); drafts it adds or changes get revised: DATE.",
)
@click.pass_obj
def import_(settings: Settings, document: Path, game: str, source_id: str | None, out: Path | None, force: bool, append: bool, edition: str | None) -> None:
    """Draft corpus entries from a rules or FAQ document (.md, .pdf, or plain text).

    Headings, bold lead-ins (**Name** — text; a short one within the text of a
    ### heading stays in it), Q:/A: pairs and numbered rules (702.19b) become
    entries; See also lines, `see rule 702.19` and links to
    headings become see_also; redirects (X - See Y.) become aliases. Every
    entry is marked `draft: true` until a curator restates it.

    The drafts are printed, written to --out FILE, or with --append written to
    the source's entries file (of a game started with `rulebot new-game`, say),
    so that `rulebot ask` finds them at once. Importing the document again (a
    new edition, say) updates that file: drafts are rewritten in place by where
    they came from in the document, new ones added, those the document no longer
    has listed (and kept), and entries a curator has restated left as they are.
    """
    from rulebot.corpus import importing as importer
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold, updating

    if force and out is None and not append:
        raise click.UsageError("--force goes with --out or --append")
    if append and out is not None:
        raise click.UsageError("--append and --out are two places for the drafts: choose one")
    if edition is not None and not append:
        raise click.UsageError("--edition goes with --append")
    loaded, problems = corpus.check(settings.corpus_dirs())
    game = _game_of(settings, loaded, game)  # (named as players name it: "dune", "Res Arcana")
    source_id = importer.imported_source(loaded, game, source_id)
    if append:
        update = updating.import_update(
            loaded, document, game, source_id, edition, force=force, instead=", write the drafts elsewhere (--out FILE)",
            clean=not problems,
        )
        click.echo(update.report(), err=True)
        return
    drafted = importer.import_document(document, loaded, game, source_id)
    if not drafted.entries:  # (as --append refuses it: a file of no drafts is no import, printed or written)
        raise CurationError(f"{document} holds no rule to draft (no heading with text under it): nothing written")
    summary = drafted.summary()
    if out is None:
        click.echo(drafted.to_markdown(), nl=False)
    else:
        scaffold.write_new(out, drafted.to_markdown(), force=force)
        summary += f"; written to {out}"
    click.echo("\n".join([summary, *drafted.unresolved_lines()]), err=True)


@click.command()
@click.option("-g", "--game", required=True, metavar="SLUG", shell_complete=completion.game_slugs, help="The game of the entry.")
@kind_option(f"The entry's kind ({', '.join(KINDS)}).", required=True)
@click.option("-s", "--source", "source_id", metavar="ID", help="The source it restates (default: the game's first).")
@click.option("-t", "--title", help="Its title (also gives its id).")
@click.option("--append", is_flag=True, help="Append it to the source's entries file instead of printing it.")
@click.pass_obj
def new(settings: Settings, game: str, kind: str, source_id: str | None, title: str | None, append: bool) -> None:
    """Start a new entry: a block with a fresh unique id, ready to fill in.

    The section and text are left empty: `rulebot check` points at them
    until they are written. With --append, a house rule goes to the game's
    house-rules folder in your corpus folder (the last --corpus DIR, else the
    user corpus folder), made when missing; other entries to their source's
    file, except in the corpus installed with rulebot, which is never changed
    (a source checkout's corpus/ is not installed: it is written).
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    loaded, _ = corpus.check(settings.corpus_dirs(making=append))
    game = _game_of(settings, loaded, game)
    block = scaffold.scaffold(loaded, game, kind, source_id, title, own_dir=settings.own_dir() if append else None)
    if append:
        written = scaffold.append(block)
        click.echo(f"{written.id} appended to {written.path}", err=True)
    else:
        click.echo(block.block, nl=False)


@click.command(name="new-game")
@click.argument("slug")
@click.option("-n", "--name", required=True, help="The game's name, as players know it.")
@click.option("-s", "--source", "source_id", default="rules", show_default=True, metavar="ID", help="The id of its first source document.")
@click.option("-t", "--title", help='The title of that document (default: the name and "rules", "Skyrail rules").')
@click.option("--edition", default="", help="The document's edition, version or revision, as a label ('1.4.6'); its date goes with --date.")
@click.option("--date", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="The document's date (YYYY-MM-DD).")
@click.option("--language", default="en", show_default=True, metavar="XX", help="The language of the game's sources (two letters).")
@click.option("--id-prefix", metavar="PREFIX", help="What every entry id of the game starts with (default: the slug).")
@click.pass_obj
def new_game(
    settings: Settings, slug: str, name: str, source_id: str, title: str | None, edition: str, date: str | None, language: str,
    id_prefix: str | None,
) -> None:
    """Start a new game: its folder, with a game.toml declaring the game and its first source.

    The folder goes to your corpus folder (the last --corpus DIR, else the
    user corpus folder, read by every command from then on). Then draft its
    entries from the rules document:

    \b
      rulebot new-game x-wing --name "Star Wars: X-Wing" --source rules-reference --title "Rules Reference"
      rulebot import rules.md --game x-wing --source rules-reference --append
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    loaded, _ = corpus.check(settings.corpus_dirs(making=True))
    folder = scaffold.new_game(
        loaded, settings.own_dir(), slug, name=name, source=source_id, title=title or f"{name} rules",
        id_prefix=id_prefix, edition=edition, date=date, language=language,
    )
    # The next command must find the game: a folder given with --corpus is read only when named again.
    named = f" --corpus {shlex.quote(str(folder.parent))}" if settings.extra else ""
    click.echo(f"{slug} started in {folder}; next: rulebot{named} import DOCUMENT --game {slug} --source {source_id} --append", err=True)


@click.command()
@click.argument("game", metavar="GAME", shell_complete=completion.game_slugs)
@click.option("--since", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="Only entries dated DATE (YYYY-MM-DD) or later.")
@click.option("--json", "as_json", is_flag=True, help='Print {"game", "since", "results": [...]}, entries with "changed", "after" and "because".')
@click.pass_obj
def changes(settings: Settings, game: str, since: str | None, as_json: bool) -> None:
    """List a game's entries new or revised since a date, newest first.

    An entry's date is its `revised` date (the edition of its source that marks it
    changed), else that of its source's oldest edition (when the source lists
    its editions), else its source's date. Without --since, every dated entry is
    listed.
    """
    from rulebot.cli import output
    from rulebot.corpus import changes as changes_core

    loaded = settings.usable_corpus()
    game = _game_of(settings, loaded, game)
    found = changes_core.changes(loaded, game, since)
    if as_json:
        from rulebot.index.payload import entry_payload
        from rulebot.search.answer import public

        results = [public(entry_payload(loaded, c.entry), changed=c.date, after=c.after, because=c.because) for c in found]
        click.echo(output.to_json({"game": game, "since": since, "results": results}))
        return
    style = current_style()
    name = loaded.games[game].name
    echo(f"{name}: {plural(len(found), 'entry', 'entries')} new or revised" + (f" since {since}" if since else ""))
    for change in found:
        why = changes_core.LABELS[change.because] + (f" since {change.after}" if change.after else "")
        echo(f"{change.date}  {change.entry.id}  {change.entry.title} {style('[' + change.entry.kind + ', ' + why + ']', output.DIM)}")
    # (an entry nothing dates is in no list: say why, and how to date it, rather than let "0 entries" stand alone)
    for source, count in changes_core.undated(loaded, game).items():
        undated = f"{plural(count, 'entry', 'entries')} of source {source!r} {'has' if count == 1 else 'have'} no date"
        try:  # (the installed package's game.toml is never changed: no curator is sent there)
            outside_package(Path(loaded.games[game].path), "the game file")
        except PackageWriteError:
            notify(f"{undated}: the corpus installed with rulebot gives that source none")
            continue
        notify(f"{undated}: give the source its `date` in {loaded.games[game].path} (and its earlier `editions`) to list them")


def _game_of(settings: Settings, loaded: Corpus, game: str) -> str:
    """The slug of the game a curator names; UnknownGameError with, when no --corpus was given, where a game started
    in a folder of one's own is (the game of `--corpus DIR new-game` is not read without --corpus DIR)."""
    try:
        return loaded.game(game).slug
    except UnknownGameError as exc:
        raise _without_corpus(settings, exc) from None


def _without_corpus(settings: Settings, error: UnknownGameError) -> UnknownGameError:
    if settings.extra:
        return error
    return type(error)(f"{error} (a game started with `rulebot --corpus DIR new-game` needs that --corpus DIR again)")


def _date(value: str | None) -> str | None:
    """A date given (`--date`, `--since`) checked: YYYY-MM-DD, else a usage error."""
    if value is None:
        return None
    from rulebot.corpus.changes import parse_date
    from rulebot.errors import CurationError

    try:
        return parse_date(value)
    except CurationError as exc:
        raise click.BadParameter(str(exc)) from None


REVIEW_CHOICES = (
    ("a", "accept as is"), ("e", "edit"), ("m", "merge with the next"), ("s", "split"), ("k", "skip"), ("q", "quit"),
)
"""The choices of `rulebot review`, by the letter typed."""


@click.command()
@click.argument("game", metavar="GAME", shell_complete=completion.game_slugs)
@click.option("--start-over", is_flag=True, help="Offer again the drafts skipped in earlier walks.")
@click.pass_obj
def review(settings: Settings, game: str, start_over: bool) -> None:
    """Walk through a game's drafts one at a time, in file order (the game's sources, then each file's entries:
    rulebot keeps no record of what players ask most).

    Each draft is shown, then: [a]ccept it as is (its `draft: true` line goes;
    an edit of it in progress is dropped only once you say y), [e]dit it in
    $EDITOR (checked as `rulebot check` does on save; an edit that does not
    pass is kept and opened again; a draft an import changed since your edit
    began is [r]e-edited from its new text, your edit kept beside it),
    [m]erge it with the next entry, [s]plit it at each `>>> split TITLE` line
    put in the editor, s[k]ip it, or [q]uit. Every choice is written at once;
    the walk keeps its place (the drafts skipped) for the next time. Choices
    are read a line at a time from standard input, so that a script can give
    them.
    """
    from rulebot.corpus import walk as draft_walk

    try:
        walk = draft_walk.load_walk(settings.corpus_dirs(), game, start_over=start_over)
    except UnknownGameError as exc:
        raise _without_corpus(settings, exc) from None
    letters = "/".join(letter for letter, _ in REVIEW_CHOICES)
    menu = ", ".join(f"{letter} {what}" for letter, what in REVIEW_CHOICES)
    while drafts := walk.drafts():
        draft = drafts[0]
        echo(f"\n{draft.path}:{draft.line}: {draft.id} ({len(drafts)} left)\n")
        echo(draft.block.rstrip("\n"))
        if walk.has_edit(draft):
            notify(f"an edit of {draft.id} is in progress: e opens it again")
        choice = _review_choice(f"\n[{letters}] ({menu}): ", {c for c, _ in REVIEW_CHOICES})
        if choice == "q":
            break
        if choice == "a":
            # (the draft as drafted: an edit of it in progress would be lost, which only the curator may decide)
            if walk.has_edit(draft) and _review_choice(
                f"[y/n] (y discard your edit of {draft.id} in progress and accept the draft as drafted; n back to the choices): ", {"y", "n"}
            ) != "y":
                continue
            walk.accept(draft)
        elif choice == "k":
            walk.skip(draft)
        elif choice == "m":
            try:
                notify(f"{walk.merge_next(draft)} merged into {draft.id}")
            except CurationError as exc:
                notify(f"not merged: {exc}")
        else:
            try:
                edited = _review_edit(walk, draft, split=choice == "s")
            except CurationError:
                notify(walk.report())  # (what the walk did before it: written already, and said)
                raise
            if edited == "quit":
                break
    notify(walk.report())


def _review_edit(walk: DraftWalk, draft: Draft, split: bool) -> str:
    """Edit (or split) a draft until its edit passes: "saved", "unchanged" (closed as it was), "discarded", or "quit"
    (the edit kept for later)."""
    import os
    import sys

    from rulebot.corpus.walk import SPLIT_MARK, ChangedMeanwhileError

    if not (os.environ.get("VISUAL") or os.environ.get("EDITOR")) and not sys.stdin.isatty():
        # (click would start vi on a pipe, which waits for ever on the script's input)
        raise CurationError(f"no editor to edit in: set $EDITOR (or $VISUAL) to your editor's command; {draft.id} is left as it was")
    path = walk.edit_file(draft, split=split)
    while True:
        try:
            click.edit(filename=str(path))
        except click.ClickException as exc:  # (the editor could not be started, or failed)
            if walk.edit_unchanged(draft):
                walk.discard_edit(draft)
                started = "Errno" not in exc.format_message()  # (click says why an editor could not be started)
                raise CurationError(
                    f"{exc.format_message()}: " + ("the edit was left, nothing changed" if started else "set $EDITOR (or $VISUAL) to your editor's command")
                ) from None
            raise CurationError(f"{exc.format_message()}; your edit is kept in {path}") from None
        if walk.edit_unchanged(draft):
            walk.discard_edit(draft)
            notify(f"{draft.id} not split: no '{SPLIT_MARK} TITLE' line was put in it; left as it was" if split else f"{draft.id} not changed: left as it was")
            return "unchanged"
        try:
            problems = walk.save_edit(draft)
        except ChangedMeanwhileError as exc:
            notify(str(exc))
            again = _review_choice(
                "[r/q] (r edit its current text afresh, your edit kept beside it to copy from; q quit and keep your edit for later): ",
                {"r", "q"},
            )
            if again == "q":
                return "quit"
            notify(f"your earlier edit of {draft.id} is kept in {walk.reopen_edit(draft, split=split)}")
            continue
        if not problems:
            notify(f"{draft.id} saved")
            for warning in walk.warnings:
                notify(f"{draft.id}: warning: {warning}")
            return "saved"
        for problem in problems:
            notify(f"{draft.id}: {problem}")
        again = _review_choice("[e/d/q] (e edit again, d discard the edit, q quit and keep it for later): ", {"e", "d", "q"})
        if again == "d":
            walk.discard_edit(draft)
            return "discarded"
        if again == "q":
            notify(f"your edit of {draft.id} is kept in {path}")
            return "quit"


def _review_choice(prompt: str, choices: set[str]) -> str:
    """A letter among `choices`, read from standard input (a terminal or not); end of input is q."""
    import sys

    while True:
        click.echo(prompt, nl=False)
        # sys.stdin itself, read a line at a time: a wrapper made for each prompt would keep what it read ahead.
        line = sys.stdin.readline()
        if not line:
            click.echo()
            return "q"
        choice = line.strip().lower()[:1]
        if choice in choices:
            return choice
        click.echo(f"type one of {', '.join(sorted(choices))}")
