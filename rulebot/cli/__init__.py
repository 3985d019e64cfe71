"""The `rulebot` command: the only layer that imports click or prompt_toolkit.

Importing this package loads nothing: the quick path of `rulebot ask`
(rulebot.cli.quick) answers without click."""
