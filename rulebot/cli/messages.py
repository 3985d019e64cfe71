"""The command line's words in the answer's language, through gettext: `_("Source: ")`.

English is the language of the code. The catalogs are in rulebot/locale
(`<lang>/LC_MESSAGES/rulebot.po`, compiled to `rulebot.mo`, both shipped),
with the site's words too (rulebot.site.languages), extracted from the code
and the templates (babel.cfg) and compiled with Babel:

    pybabel extract -F babel.cfg -o rulebot/locale/rulebot.pot --no-location --omit-header .
    pybabel update -i rulebot/locale/rulebot.pot -d rulebot/locale -D rulebot --no-location --omit-header
    pybabel compile -d rulebot/locale -D rulebot

A language's catalog is loaded when it is chosen (`use`): an answer in
English loads neither gettext nor a catalog.
"""

from __future__ import annotations

DOMAIN = "rulebot"
"""The name of the catalogs."""

_catalog = None
"""The chosen language's catalog (a gettext.GNUTranslations), None for English."""
_language = "en"


def use(lang: str) -> None:
    """Speak `lang` from now on (a language without a catalog: English)."""
    global _catalog, _language
    _language = lang
    if lang == "en":
        _catalog = None
        return
    import gettext

    from rulebot.places import package_dir

    _catalog = gettext.translation(DOMAIN, localedir=package_dir() / "locale", languages=[lang], fallback=True)


def language() -> str:
    """The language the command line speaks."""
    return _language


def _(message: str) -> str:
    """A message in the chosen language."""
    return message if _catalog is None else _catalog.gettext(message)


def N_(message: str) -> str:
    """A message for the catalogs (Babel extracts it), translated where it is shown, with `_`."""
    return message


def language_name(lang: str) -> str:
    """A language's name, in the chosen language."""
    return {"en": _("English"), "fr": _("French")}.get(lang, lang)
