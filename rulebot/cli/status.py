"""The exit statuses of the `rulebot` command: grep's convention, extended (docs/scripts.md has the table).

Shared by the click commands (rulebot.cli.main) and the quick path (rulebot.cli.quick),
so that both end alike; nothing here imports anything.
"""

OK = 0
"""Success; for `ask`, an answer rulebot stands by (and any `ask --json` that printed its object)."""
NEGATIVE = 1
"""A negative result: `ask` found nothing that matches at all, `check` found problems, `config get` found the key not set."""
ERROR = 2
"""An error: bad usage, or one rulebot reports (unknown game, entry or expansion, unusable corpus, unwritable file...)."""
UNSURE = 3
"""`ask`: no entry answers clearly (the closest ones were shown)."""
INTERNAL = 70
"""An unexpected internal error (EX_SOFTWARE)."""
INTERRUPTED = 130
"""Interrupted by Ctrl-C (128 + SIGINT, as the shell reports it); not `site serve`, which Ctrl-C ends as it should (OK)."""
