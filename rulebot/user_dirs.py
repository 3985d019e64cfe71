"""Where rulebot keeps its files for the user: one folder per kind."""

from __future__ import annotations

import os
from pathlib import Path


def user_dir(kind: str) -> Path:
    """$RULEBOT_<KIND>_DIR, else the platform's user folder of that kind ("config", "cache" or "data")."""
    configured = os.environ.get(f"RULEBOT_{kind.upper()}_DIR")
    if configured:
        return Path(configured)
    import platformdirs

    return getattr(platformdirs, f"user_{kind}_path")("rulebot", appauthor=False)
