"""The kinds of entries and the trust levels of sources: names the corpus format fixes.

Kept apart from the data models so that the command line can offer them
without loading the models.
"""

KINDS = ("rule", "setup", "faq", "errata", "fine-point", "term", "variant", "house-rule")
"""Every kind an entry may have, in the order the site lists them."""

TRUST_LEVELS = ("official", "designer", "community", "house")
"""How far a source can be trusted, most trusted first."""

def check_kind(kind: str) -> str:
    """The kind `kind` names, in any case ("FAQ" is faq); UnknownKindError, naming the kinds and the one meant,
    unless it is one of them."""
    if kind.lower() in KINDS:
        return kind.lower()
    from rulebot.errors import UnknownKindError
    from rulebot.text import meant, unknown

    raise UnknownKindError(unknown("kind", kind, KINDS, meant(kind, {k: [k] for k in KINDS})))


HOUSE_KIND = "house-rule"
HOUSE_TRUST = "house"
"""An entry of kind HOUSE_KIND, or restating a source of trust HOUSE_TRUST, is a house rule: never an official ruling."""
