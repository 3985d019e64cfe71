"""A game's pages: its entries by source and section on one page, or for a large game a page of its "What's new" and its pages, and pages of sections.

Also the summary of a game (its sources and counts) that the home and
sources pages list.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import jinja2
from markupsafe import Markup

from rulebot.corpus.model import TEXT_LANGUAGE, Entry, Game, Source
from rulebot.site.arrangement import Site
from rulebot.site.links import LinkContext, NameTable, to_html
from rulebot.site.pages import Page
from rulebot.site.paths import WHATS_NEW_ANCHOR, game_page, index_page, relative_path, source_anchor
from rulebot.site.templates import render_page
from rulebot.site.views import (
    KIND_LABELS,
    TRUST_LABELS,
    ChangeGroup,
    ChangeItem,
    Citation,
    EntryView,
    GameContentsContext,
    GameContext,
    GameSectionContext,
    GameSummary,
    PageLink,
    SectionLink,
    SectionView,
    SourceView,
)

LISTED_SECTIONS = 12
"""The page of a split game lists the sections of each of its pages that holds several, up to this many."""


def game_summary(site: Site, slug: str, page: str) -> GameSummary:
    game = site.corpus.games[slug]
    root = "../" * page.count("/")
    counts: dict[str, int] = {}
    for entry in site.corpus.entries_of(slug):
        counts[entry.source] = counts.get(entry.source, 0) + 1
    sources = tuple(
        SourceView(
            source=source,
            anchor=source_anchor(slug, source.id),
            href=f"{root}{game_page(slug)}#s--{source.id}",
            trust_label=TRUST_LABELS.get(source.trust, source.trust),
            expansion=_expansion_name(game, source.expansion),
            entry_count=counts.get(source.id, 0),
        )
        for source in game.sources
    )
    return GameSummary(
        game=game,
        href=root + game_page(slug),
        az_href=root + index_page(slug),
        sources_href=f"{root}sources.html#g--{slug}",
        anchor=f"g--{slug}",
        entry_count=sum(counts.values()),
        sources=sources,
        house_count=sum(1 for entry in site.corpus.entries_of(slug) if site.corpus.is_house_rule(entry)),
        untranslated=site.lang != TEXT_LANGUAGE and site.lang not in site.languages.get(slug, ()),
    )


def _expansion_name(game: Game, slug: str | None) -> str:
    if not slug:
        return ""
    expansion = game.expansion(slug)
    return expansion.name if expansion else slug


def game_pages(site: Site, env: jinja2.Environment) -> Iterator[tuple[str, str]]:
    for slug in site.games:
        game = site.corpus.games[slug]
        layout = site.layouts[slug]
        entries = site.corpus.entries_of(slug)
        names = NameTable.for_entries(entries)
        views = {entry.id: _entry_view(site, entry, layout.page_of[entry.id], names) for entry in entries}
        summary = game_summary(site, slug, layout.index)
        whats_new = _whats_new(site, slug)
        whats_new_count = sum(len(group.items) for group in whats_new)
        if not layout.split:
            page = layout.pages[0]
            whole = GameContext(
                **site.base(page.path, game.name, game),
                sources=[_source_view(source, _section_views(page, source, views, site.lang)) for source in summary.sources],
                entry_count=len(entries),
                whats_new=whats_new,
                whats_new_count=whats_new_count,
            )
            yield page.path, render_page(env, [f"game-{slug}.html", "game.html"], whole)
            continue
        contents = GameContentsContext(
            **site.base(layout.index, game.name, game),
            sources=[
                _source_view(source, (), tuple(_page_link(p, layout.index, source) for p in layout.pages if p.sections[0].source == source.source.id))
                for source in summary.sources
            ],
            entry_count=len(entries),
            whats_new=whats_new,
            whats_new_count=whats_new_count,
            page_count=len(layout.pages),
        )
        yield layout.index, render_page(env, ["game-contents.html"], contents)
        for number, page in enumerate(layout.pages):
            source = _source_of(summary, page)
            before = layout.pages[number - 1] if number else None
            after = layout.pages[number + 1] if number + 1 < len(layout.pages) else None
            context = GameSectionContext(
                **site.base(page.path, f"{game.name}: {page.label}", game),
                sources=[_source_view(source, _section_views(page, source, views, site.lang))],
                label=page.label,
                lang=source.source.language,
                entry_count=page.entry_count,
                game_entry_count=len(entries),
                page_number=number + 1,
                page_count=len(layout.pages),
                previous=_page_link(before, page.path, _source_of(summary, before)) if before else None,
                next=_page_link(after, page.path, _source_of(summary, after)) if after else None,
            )
            yield page.path, render_page(env, ["game-section.html"], context)


def _source_of(summary: GameSummary, page: Page) -> SourceView:
    return next(source for source in summary.sources if source.source.id == page.sections[0].source)


def _source_view(summary: SourceView, sections: tuple[SectionView, ...], pages: tuple[PageLink, ...] = ()) -> SourceView:
    """A source of the game (as `game_summary` lists it) on a page of the game, with its sections or its pages there."""
    source_id = summary.source.id
    return replace(summary, anchor=f"s--{source_id}", href=f"#s--{source_id}", sections=sections, pages=pages)


def _section_views(page: Page, source: SourceView, views: dict[str, EntryView], lang: str) -> tuple[SectionView, ...]:
    """The sections of one source on a page in `lang`, with their entries' views; a heading in `lang` where the
    corpus gives one (`Source.headings`, in the entries' language), else as the document has it."""
    translated = {section.title: source.source.heading(section.title) for section in page.sections} if lang == TEXT_LANGUAGE else {}
    return tuple(
        SectionView(
            title=translated.get(section.title) or section.title,
            lang=lang if translated.get(section.title) else source.source.language,
            anchor=section.anchor,
            entries=tuple(views[entry.id] for entry in section.entries),
            part_label=section.part_label,
            span=section.span,
        )
        for section in page.sections
        if section.source == source.source.id
    )


def _page_link(page: Page, here: str, source: SourceView) -> PageLink:
    """A page of a split game, linked from the page `here`."""
    href = relative_path(page.path, here)
    sections = page.sections if 1 < len(page.sections) <= LISTED_SECTIONS else ()
    return PageLink(
        href=href,
        label=page.label,
        lang=source.source.language,
        count=page.entry_count,
        span=page.sections[0].span,
        sections=tuple(SectionLink(title=s.title, href=f"{href}#{s.anchor}", count=len(s.entries)) for s in sections),
    )


def _whats_new(site: Site, slug: str) -> list[ChangeGroup]:
    """A game's revised entries, newest first, grouped by date and source (groups in order of first appearance)."""
    game = site.corpus.games[slug]
    grouped: dict[tuple[str, str | None, str], list[Entry]] = {}
    for change in site.changes[slug]:
        grouped.setdefault((change.date, change.after, change.entry.source), []).append(change.entry)
    groups = []
    for number, ((date, after, source_id), entries) in enumerate(grouped.items(), 1):
        source = game.source(source_id) or Source(id=source_id, title=source_id)
        items = tuple(
            ChangeItem(
                href=site.href(entry.id, game_page(slug)) or f"#{entry.id}",
                title=entry.title,
                kind_label=KIND_LABELS.get(entry.kind, entry.kind),
                note=_expansion_name(game, entry.expansion),
                house=site.corpus.is_house_rule(entry),
                draft=entry.draft,
                new=entry.new,
            )
            for entry in entries
        )
        groups.append(
            ChangeGroup(
                date=date,
                after=after,
                anchor=f"{WHATS_NEW_ANCHOR}--{number}",
                source_title=source.title,
                source_href=f"#s--{source.id}",
                items=items,
            )
        )
    return groups


def _entry_view(site: Site, entry: Entry, page: str, names: NameTable) -> EntryView:
    game = site.corpus.games[entry.game]
    source = game.source(entry.source) or Source(id=entry.source, title=entry.source)
    context = LinkContext(
        entry_id=entry.id,
        names=names,
        href_for=lambda target: site.href(target, page),
        titles=site.titles,
        relative=lambda href: site.relative(href, page),
    )
    return EntryView(
        id=entry.id,
        title=entry.title,
        kind=entry.kind,
        kind_label=KIND_LABELS.get(entry.kind, entry.kind),
        expansion=_expansion_name(game, entry.expansion) or "Base game",
        expansion_slug=entry.expansion,
        revised=entry.revised,
        new=entry.new,
        html=Markup(to_html(entry.text, context)),  # safe: raw HTML disabled, links checked
        # A page gives the names players use in its language; those of a language the game has no pages in too.
        aliases=tuple(a for a in entry.aliases if a.lang == site.lang or a.lang not in (TEXT_LANGUAGE, *site.languages.get(entry.game, ()))),
        see_also=site.links(entry.see_also, page, entry.game),
        referenced_by=site.links(site.referenced_by.get(entry.id, []), page, entry.game),
        modifies=site.links(entry.modifies, page, entry.game),
        modified_by=site.links(site.modified_by.get(entry.id, []), page, entry.game),
        citation=Citation(
            source_title=source.title,
            source_href=site.source_href(page, entry.game, source.id),
            edition=source.edition,
            date=source.date,
            section=entry.section,
            trust=source.trust,
            trust_label=TRUST_LABELS.get(source.trust, source.trust),
            lang=source.language,
        ),
        draft=entry.draft,
        house=site.corpus.is_house_rule(entry),
        lang=site.entry_lang(entry),
    )
