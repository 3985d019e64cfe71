"""The templates (templates/): where they are, their jinja2 environment in a language, and rendering a page with them."""

from __future__ import annotations

from pathlib import Path

import jinja2

from rulebot.corpus.model import TEXT_LANGUAGE
from rulebot.places import shipped
from rulebot.search.constants import MAX_QUESTION_CHARS
from rulebot.site import languages
from rulebot.site.views import PageContext


def templates_dir() -> Path:
    """The site's templates: inside the installed package, or the source tree's."""
    return shipped("templates")


def environment(lang: str = TEXT_LANGUAGE) -> jinja2.Environment:
    """The templates' environment, in a language (`{{ _("Source:") }}`: rulebot.site.languages.install_catalog)."""
    env = jinja2.Environment(
        extensions=["jinja2.ext.i18n"],
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # One environment per build: a template loaded once stays as it was,
        # rather than its file being checked again at every include (an
        # include per entry).
        auto_reload=False,
    )
    env.filters["count"] = count
    # The search box takes no more than `rulebot ask` reads: a longer question is refused there, cut short here.
    env.globals["max_question_chars"] = MAX_QUESTION_CHARS
    languages.install_catalog(env, lang)
    return env


def count(number: int, one: str, many: str) -> str:
    """A number and its noun, singular for 1: "1 entry", "2 entries" (the templates' `count` filter)."""
    return f"{number} {one if number == 1 else many}"


def render_page(env: jinja2.Environment, names: list[str], context: PageContext) -> str:
    """Render the first of `names` that exists (most specific first)."""
    return env.select_template(names).render(**context)
