"""The `rulebot` command: the only layer that imports click or prompt_toolkit.

- `quick`: the entry point; answers `ask` without loading click when it can, and hands the rest to click.
- `asking`: `ask` without click: its options and the group's (a table click's are declared from), and what it does.
- `main`: the click group with every command; `shared`: what the commands share; `failures`: how they end.
- `answers`, `curation`, `upkeep`: the commands, by what they are for.
- `output` (printing), `play` (the interactive session), `completion` (Tab in a shell), `status` (exit statuses).

Importing this package loads nothing.
"""
