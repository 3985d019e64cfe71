"""The version of rulebot (a leaf, so that any layer may say it)."""

__version__ = "0.1.0"
