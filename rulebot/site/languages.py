"""The site in the languages of the entries' translations: a game whose entries have French texts gets French pages.

A game's pages are in the entries' own language (TEXT_LANGUAGE), beside
`index.html` and `a-z.html`; in another language they are the same pages
made from the entries' translations, named `index.fr.html`, `a-z.fr.html`,
in the same folder, so that every relative link of a page holds. An entry
without a text in the page's language keeps its own, marked with its
`lang`. Each page of such a game has a switch to its other languages.
"""

from __future__ import annotations

import gettext
import posixpath
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, replace

from rulebot.corpus.model import TEXT_LANGUAGE, Corpus
from rulebot.places import package_dir

LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
"""Each language by its own name, for the switch."""


def N_(message: str) -> str:
    """A message for the catalogs, translated where it is shown (`{{ _(label) }}` in a template)."""
    return message


NO_TRANSLATION = N_("This game's pages have no translation: the home page in this language")
"""Why the language switch of a game with no translation leads to the home page in another language (its title)."""
HOME_PAGE = N_("home page")
"""Where that link leads, in a word (beside the language's name)."""


def catalog(lang: str) -> gettext.NullTranslations:
    """The words of `lang`: those of the catalogs of rulebot/locale, as the command line has them
    (rulebot.cli.messages); English as written."""
    if lang == TEXT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation("rulebot", localedir=package_dir() / "locale", languages=[lang], fallback=True)


def install_catalog(env: object, lang: str) -> None:
    """Give a Jinja environment (with the i18n extension) the words of `lang` (`catalog`)."""
    env.install_gettext_translations(catalog(lang), newstyle=True)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class LanguageLink:
    """A page in one of its languages, for the language switch."""

    lang: str
    label: str
    """The language's own name."""
    href: str
    """The page in that language, from the page itself ("./index.fr.html")."""
    current: bool
    """Whether it is the page itself."""
    home_note: str = ""
    """For a page that has no version in that language: why the link leads to the home page in it instead (in that
    language), else empty."""
    home_name: str = ""
    """...and what the link leads to, in a word of that language ("accueil")."""


def languages_of(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    """Each game's languages beyond the entries' own, by slug: those its entries have translations in."""
    found: dict[str, set[str]] = {}
    for entry in corpus.entries.values():
        found.setdefault(entry.game, set()).update(t.lang for t in entry.translations)
    return {slug: tuple(sorted(langs)) for slug, langs in found.items() if langs}


def all_languages(languages: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Every language of the games' translations (`languages_of`), sorted: those of the pages of every game."""
    return tuple(sorted({lang for langs in languages.values() for lang in langs}))


def in_language(corpus: Corpus, lang: str) -> tuple[Corpus, frozenset[str]]:
    """The corpus with each entry's title and text in `lang` where it has them, and the ids of those entries."""
    entries, translated = {}, set()
    for entry_id, entry in corpus.entries.items():
        text = entry.translation(lang)
        if text is not None:
            entry = replace(entry, title=text.title, text=text.text)
            translated.add(entry_id)
        entries[entry_id] = entry
    return replace(corpus, entries=entries), frozenset(translated)


def page_in(page: str, lang: str) -> str:
    """A page's path in a language: `game/a-z.html` is `game/a-z.fr.html` in French."""
    return page if lang == TEXT_LANGUAGE else f"{page.removesuffix('.html')}.{lang}.html"


def switch(languages: dict[str, tuple[str, ...]], page: str, lang: str) -> list[LanguageLink]:
    """The language switch of a page (its path in the entries' own language) shown in `lang`: none for a page
    that is not of a game with translations."""
    slug, slash, name = page.partition("/")
    if not slash:  # a page of every game (home, sources): in every language of one
        slug, name, languages = "", page, {"": all_languages(languages)}
    elif not languages.get(slug) and all_languages(languages):
        # A page of a game with no translation, on a site with pages in other languages: the switch leads to the home
        # page in each of them, so that a reader who came from there is not left in this page's language.
        home = "../" * page.count("/")
        return [
            LanguageLink(lang=TEXT_LANGUAGE, label=LANGUAGE_NAMES[TEXT_LANGUAGE], href="./" + name, current=True),
            *(
                LanguageLink(lang=other, label=LANGUAGE_NAMES.get(other, other), href=home + page_in("index.html", other), current=False,
                             home_note=catalog(other).gettext(NO_TRANSLATION), home_name=catalog(other).gettext(HOME_PAGE))
                for other in all_languages(languages)
            ),
        ]
    if not languages.get(slug):
        return []
    return [
        LanguageLink(lang=other, label=LANGUAGE_NAMES.get(other, other), href="./" + page_in(name, other), current=other == lang)
        for other in (TEXT_LANGUAGE, *languages[slug])
    ]


def translated_pages(
    corpus: Corpus, render: Callable[[Corpus, str, frozenset[str]], Iterable[tuple[str, str]]]
) -> Iterator[tuple[str, str]]:
    """The pages of the games with translations in each of their languages, and the pages of every game (home,
    sources) in each of those languages: `render(corpus, lang, translated)` renders the pages of a corpus whose
    entries are in `lang` where they can be (those of `translated`)."""
    languages = languages_of(corpus)
    for lang in all_languages(languages):
        games = {slug for slug, langs in languages.items() if lang in langs}
        translated_corpus, translated = in_language(corpus, lang)
        pages = [(path, content) for path, content in render(translated_corpus, lang, translated) if "/" not in path or path.partition("/")[0] in games]
        made = {path for path, _content in pages}
        for path, content in pages:
            yield page_in(path, lang), _links_in(content, path, lang, made)


_PAGE_LINK = re.compile(r'href="([^"./:?#][^":?#]*|\.\./[^":?#]*)\.html')
"""A link to a page of the site by its path from the page: not the language switch's (`./`), nor a link out."""


def _links_in(html: str, page: str, lang: str, made: Collection[str]) -> str:
    """A page's links to the pages that exist in `lang` (`made`), made links to those pages in `lang`; links to pages
    only in the text's language (a game without translations, the setup page) and the language switch's (`./`)
    stay as they are."""
    folder = posixpath.dirname(page)

    def localised(link: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(folder, link.group(1) + ".html"))
        return f'href="{link.group(1)}.{lang}.html' if target in made else link.group(0)

    return _PAGE_LINK.sub(localised, html)
