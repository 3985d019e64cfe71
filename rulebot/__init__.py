"""rulebot: a board-game rules FAQ and errata assistant.

For scripts and chat bots (see rulebot.api):

    from rulebot import Library

    with Library() as rules:
        answer = rules.ask("can i trash assassination mission")
        print(answer.rulings[0].title)
"""

from typing import TYPE_CHECKING

from rulebot.version import __version__

if TYPE_CHECKING:  # what __getattr__ gives, for type checkers: a script's `rulebot.Library` has its real type
    from rulebot.api import Answer, Citation, GameInfo, Library, Link, Match, Phrase, Ruling
    from rulebot.errors import RulebotError

__all__ = ["Answer", "Citation", "GameInfo", "Library", "Link", "Match", "Phrase", "RulebotError", "Ruling", "__version__"]

_API = {"Answer", "Citation", "GameInfo", "Library", "Link", "Match", "Phrase", "Ruling"}


def __getattr__(name: str) -> object:
    # Imported when first named: `rulebot ask` loads none of it.
    if name in _API:
        from rulebot import api

        return getattr(api, name)
    if name == "RulebotError":
        from rulebot.errors import RulebotError

        return RulebotError
    raise AttributeError(f"module 'rulebot' has no attribute {name!r}")
