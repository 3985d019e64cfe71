"""Where rulebot keeps its files for the user: one folder per kind."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from rulebot.lean_imports import StandIn, import_lean


def user_dir(kind: str) -> Path:
    """$RULEBOT_<KIND>_DIR, else the platform's user folder of that kind ("config", "cache" or "data")."""
    configured = os.environ.get(f"RULEBOT_{kind.upper()}_DIR")
    if configured:
        return Path(configured)
    # platformdirs loads tempfile (and with it shutil, random, bz2 and lzma)
    # for a fallback of its runtime folder, which rulebot does not ask for.
    import_lean(["platformdirs"], [StandIn("tempfile", ("gettempdir",))])
    return getattr(sys.modules["platformdirs"], f"user_{kind}_path")("rulebot", appauthor=False)
