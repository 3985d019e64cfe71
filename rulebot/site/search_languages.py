"""What the search box shows of a result in another language than the entries' own: kept apart from the data the
ranking reads (rulebot.site.search_data), which it does not change.

The ranking searches the words of every language at once; this only says how a result is shown when the answer is
in another language, as `rulebot ask` answers in the question's language (rulebot.answering.answer_language): on a
page in that language (`index.fr.html`), or for a question in it, the search box shows each entry's title and
snippet in the language where it has them, and its own words (labels) in it.

- `_search/<lang>.js` (key "lang:<lang>"): "labels", the search box's words (SEARCH_LABELS and the kinds), English
  to `lang`, from the catalogs of rulebot/locale; "titles", for each game with entries in `lang`, each entry's title
  in `lang` (in the order of the game's names; null for an entry without one).
- `_search/<game>.texts.<lang>.js`, `<game>.texts-<n>.<lang>.js` for its n-th page (key "texts:<slug>:<n>:<lang>"):
  the plain texts in `lang` of the entries on that page (in the order of its English texts; null where none), for
  the results' snippets; written for the pages with at least one such entry.
"""

from __future__ import annotations

from collections.abc import Iterator

from rulebot.corpus.model import Corpus, Entry
from rulebot.site import languages
from rulebot.site.search_data import SEARCH_DIR, assignment, entries_by_page, plain_text
from rulebot.site.views import KIND_LABELS, N_

SEARCH_LABELS = (
    N_("1 result"),
    N_("{count} results"),
    N_("No entry answers this clearly; the closest of {results}."),
    N_("Loading the search…"),
    N_("The search could not load its data."),
    N_("No entry matches “{query}”."),
    N_("Question words alone ask nothing: say what the question is about."),
    N_("also called"),
    N_("in English"),
    N_("Another game"),
    N_("House rule — not an official ruling"),
    N_("Draft"),
    N_("Search every game"),
    N_("Base game only: the expansions are left out."),
    N_("Did you mean: "),
    N_("{suggestions}?"),
)
"""The words templates/static/search.js shows (its `say`), in English as written there."""


def language_file(lang: str) -> str:
    """The path of the labels and titles in `lang`, relative to the site root."""
    return f"{SEARCH_DIR}/{lang}.js"


def translated_texts_file(slug: str, page: int, lang: str) -> str:
    """The path of the texts in `lang` of a game's entries on one of its pages (numbered as its names number them)."""
    return f"{SEARCH_DIR}/{slug}.texts.{lang}.js" if page == 0 else f"{SEARCH_DIR}/{slug}.texts-{page}.{lang}.js"


def files(corpus: Corpus, games: list[str], page_of: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The search's files for each language of the entries' translations (rulebot.site.languages)."""
    by_game = languages.languages_of(corpus)
    for lang in sorted({lang for langs in by_game.values() for lang in langs}):
        words = languages.catalog(lang)
        labels = {message: words.gettext(message) for message in (*SEARCH_LABELS, *KIND_LABELS.values())}
        titles: dict[str, list[str | None]] = {}
        for slug in games:
            if lang not in by_game.get(slug, ()):
                continue
            titles[slug] = [_in(entry, lang, "title") for entry in corpus.entries_of(slug)]
            for page, entries in enumerate(entries_by_page(corpus, slug, page_of)):
                texts = [_in(entry, lang, "text") for entry in entries]
                if any(text is not None for text in texts):
                    texts = [plain_text(text) if text is not None else None for text in texts]
                    yield translated_texts_file(slug, page, lang), assignment(f"texts:{slug}:{page}:{lang}", {"texts": texts})
        yield language_file(lang), assignment(f"lang:{lang}", {"labels": labels, "titles": titles})


def _in(entry: Entry, lang: str, what: str) -> str | None:
    """An entry's title or text in `lang`, None when it has none."""
    translation = entry.translation(lang)
    return None if translation is None else str(getattr(translation, what))
