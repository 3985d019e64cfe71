"""rulebot: a board-game rules FAQ and errata assistant."""

__version__ = "0.1.0"
