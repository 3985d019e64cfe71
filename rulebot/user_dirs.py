"""Where rulebot keeps its files for the user: one folder per kind."""

from __future__ import annotations

import os
from pathlib import Path


def user_dir(kind: str) -> Path:
    """$RULEBOT_<KIND>_DIR, else the platform's user folder of that kind ("config", "cache" or "data").

    rulebot writes in these folders: one configured inside the installed
    package is refused (PackageWriteError).
    """
    variable = f"RULEBOT_{kind.upper()}_DIR"
    configured = os.environ.get(variable)
    if configured:
        from rulebot.corpus_files import outside_package

        return outside_package(Path(configured), f"${variable}")
    import platformdirs

    return getattr(platformdirs, f"user_{kind}_path")("rulebot", appauthor=False)
