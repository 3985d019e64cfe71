"""The curators' commands: `check`, `import`, `new`, `new-game` and `changes`.

They read the corpus itself (rulebot.corpus), not the index: a curator
sees every problem, and what they add is written to their corpus folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulebot.cli import completion, status
from rulebot.cli.shared import Settings, current_style, echo, kind_option, notify, warn
from rulebot.corpus.kinds import KINDS
from rulebot.text import plural

if TYPE_CHECKING:
    from collections import Counter

    from rulebot.corpus.review import Review


@click.command()
# A folder that is not there is a usage error (2), as --sources's is, not a problem found in a corpus (1).
@click.argument("corpus_dirs", nargs=-1, type=click.Path(path_type=Path, exists=True, file_okay=False), metavar="[CORPUS_DIR]...")
@click.option("--strict", is_flag=True, help="Fail on warnings too: draft entries, ambiguous citations.")
@click.option(
    "--sources",
    "sources_dir",
    metavar="DIR",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="Check that each cited section is in your copy of its source document (DIR/<source-id>.md or .txt).",
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print one object: {"ok", "problems": [{"file", "line", "message", "severity"}], "summary"}.'
)
@click.pass_context
def check(ctx: click.Context, corpus_dirs: tuple[Path, ...], strict: bool, sources_dir: Path | None, as_json: bool) -> None:
    """Validate a corpus and report every problem as FILE:LINE: message.

    Without CORPUS_DIR, checks the corpora rulebot uses (the shipped one,
    your own corpus folder and any --corpus). As a linter, prints each
    problem (and warning) on standard output, the summary on standard
    error; exits 1 when there is a problem, 0 when none.
    Draft entries (`rulebot import`) are counted in a warning; --strict lists
    them as problems. --sources DIR also reports dangling citations (a section
    not found in its document) and, as warnings, ambiguous ones. --json prints
    every problem and warning in one object (same exit status).
    """
    from collections import Counter

    from rulebot.corpus import review as corpus_review

    dirs = list(corpus_dirs) or ctx.obj.corpus_dirs()
    review = corpus_review.review(dirs, strict=strict, sources=sources_dir)
    loaded, problems = review.corpus, review.problems
    counts = Counter(e.game for e in loaded.entries.values())
    if as_json:
        from rulebot.cli import output

        click.echo(output.to_json(_check_json(review, counts)))
        ctx.exit(status.NEGATIVE if problems else status.OK)
    # As a linter: the findings on standard output (`rulebot check | grep`), what they add up to on standard error.
    for problem in problems:
        echo(str(problem))
    for warning in review.warnings:
        echo(f"{warning.path}:{warning.line}: warning: {warning.message}")
    if review.drafts:
        drafts = plural(len(review.drafts), "draft entry", "draft entries")
        warn(f"{drafts}, whose text is still the document's own (--strict lists them)")
    for note in review.notes:
        notify(note)
    if problems:
        found = click.ClickException(f"{plural(len(problems), 'problem')} found")
        found.exit_code = status.NEGATIVE
        raise found
    per_game = ", ".join(f"{slug} {counts.get(slug, 0)}" for slug in loaded.games)
    entries, games = plural(len(loaded.entries), "entry", "entries"), plural(len(loaded.games), "game")
    click.echo(f"OK: {entries} in {games} ({per_game})", err=True)


def _check_json(review: Review, counts: Counter[str]) -> dict:
    """The object `check --json` prints: problems are errors, warnings and drafts are warnings
    (with --strict they are among the problems by then, so errors)."""
    found = [(p, "error") for p in review.problems] + [(p, "warning") for p in [*review.warnings, *review.drafts]]
    return {
        "ok": not review.problems,
        "problems": [{"file": str(p.path), "line": p.line, "message": p.message, "severity": severity} for p, severity in found],
        "summary": {
            "entries": len(review.corpus.entries),
            "games": {slug: counts.get(slug, 0) for slug in review.corpus.games},
            "errors": len(review.problems),
            "warnings": len(found) - len(review.problems),
            "notes": review.notes,
        },
    }


@click.command(name="import")
@click.argument("document", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("-g", "--game", required=True, metavar="SLUG", shell_complete=completion.game_slugs, help="The game the document is for.")
@click.option("-s", "--source", "source_id", required=True, metavar="ID", help="The source the drafts cite (declared in game.toml).")
@click.option("-o", "--out", type=click.Path(path_type=Path, dir_okay=False), help="Write the drafts to FILE instead of printing them.")
@click.option("--force", is_flag=True, help="With --out: replace FILE if it exists.")
@click.option("--append", is_flag=True, help="Add the drafts to the source's entries file in the corpus, where rulebot finds them.")
@click.pass_obj
def import_(settings: Settings, document: Path, game: str, source_id: str, out: Path | None, force: bool, append: bool) -> None:
    """Draft corpus entries from a rules or FAQ document (.md, or plain text).

    Headings, bold lead-ins (**Name** — text), Q:/A: pairs and numbered rules
    (702.19b) become entries; See also lines, `see rule 702.19` and links to
    headings become see_also; redirects (X - See Y.) become aliases. Every
    entry is marked `draft: true` until a curator restates it.

    The drafts are printed, written to --out FILE, or with --append added to
    the source's entries file (of a game started with `rulebot new-game`, say),
    so that `rulebot ask` finds them at once.
    """
    from rulebot.corpus import importing as importer
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    if force and out is None:
        raise click.UsageError("--force goes with --out")
    if append and out is not None:
        raise click.UsageError("--append and --out are two places for the drafts: choose one")
    loaded, _ = corpus.check(settings.corpus_dirs())
    drafted = importer.import_document(document, loaded, game, source_id)
    summary = drafted.summary()
    if append:
        path = scaffold.writable_entries_file(scaffold.entries_file(loaded, game, source_id), game, instead=", write the drafts elsewhere (--out FILE)")
        done = importer.append_drafts(path, drafted)
        if done.added:
            summary += f"; written to {path}"
        elif done.present:
            summary += f"; every one is in {path} already (same section and title): nothing written"
        if done.added and done.present:
            summary += f" ({done.present} left out: in it already, same section and title)"
    elif out is None:
        click.echo(drafted.to_markdown(), nl=False)
    else:
        scaffold.write_new(out, drafted.to_markdown(), force=force)
        summary += f"; written to {out}"
    click.echo(summary, err=True)


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
    file, except in the corpus installed with rulebot, which is never changed.
    """
    from rulebot.corpus import load as corpus
    from rulebot.corpus import scaffold

    loaded, _ = corpus.check(settings.corpus_dirs())
    block = scaffold.scaffold(loaded, game, kind, source_id, title, own_dir=settings.own_dir() if append else None)
    if append:
        path = scaffold.append(block)
        click.echo(f"{block.id} appended to {path}", err=True)
    else:
        click.echo(block.block, nl=False)


@click.command(name="new-game")
@click.argument("slug")
@click.option("-n", "--name", required=True, help="The game's name, as players know it.")
@click.option("-s", "--source", "source_id", default="rules", show_default=True, metavar="ID", help="The id of its first source document.")
@click.option("-t", "--title", required=True, help="The title of that document.")
@click.option("--edition", default="", help="The document's edition, version or revision.")
@click.option("--date", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="The document's date (YYYY-MM-DD).")
@click.option("--language", default="en", show_default=True, metavar="XX", help="The language of the game's sources (two letters).")
@click.option("--id-prefix", metavar="PREFIX", help="What every entry id of the game starts with (default: the slug).")
@click.pass_obj
def new_game(
    settings: Settings, slug: str, name: str, source_id: str, title: str, edition: str, date: str | None, language: str, id_prefix: str | None
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

    loaded, _ = corpus.check(settings.corpus_dirs())
    folder = scaffold.new_game(
        loaded, settings.own_dir(), slug, name=name, source=source_id, title=title,
        id_prefix=id_prefix, edition=edition, date=date, language=language,
    )
    click.echo(f"{slug} started in {folder}; next: rulebot import DOCUMENT --game {slug} --source {source_id} --append", err=True)


@click.command()
@click.argument("game", metavar="GAME", shell_complete=completion.game_slugs)
@click.option("--since", metavar="DATE", callback=lambda ctx, param, value: _date(value), help="Only entries dated DATE (YYYY-MM-DD) or later.")
@click.option("--json", "as_json", is_flag=True, help='Print {"game", "since", "results": [...]}, entries with "changed", "after" and "because".')
@click.pass_obj
def changes(settings: Settings, game: str, since: str | None, as_json: bool) -> None:
    """List a game's entries new or revised since a date, newest first.

    An entry's date is its `revised` date (the edition of its source that marks it
    changed), else its source's date (its oldest edition's). Without --since,
    every dated entry is listed.
    """
    from rulebot.cli import output
    from rulebot.corpus import changes as changes_core

    loaded = settings.usable_corpus()
    found = changes_core.changes(loaded, game, since)
    if as_json:
        from rulebot.index.payload import entry_payload

        results = [output.public(entry_payload(loaded, c.entry), changed=c.date, after=c.after, because=c.because) for c in found]
        click.echo(output.to_json({"game": game, "since": since, "results": results}))
        return
    style = current_style()
    name = loaded.games[game].name
    echo(f"{name}: {plural(len(found), 'entry', 'entries')} new or revised" + (f" since {since}" if since else ""))
    for change in found:
        why = "source date" if change.because == changes_core.SOURCE else "revised" + (f" since {change.after}" if change.after else "")
        echo(f"{change.date}  {change.entry.id}  {change.entry.title} {style('[' + change.entry.kind + ', ' + why + ']', output.DIM)}")


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
