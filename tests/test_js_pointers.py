"""The site's scripts point at the Python they mirror by dotted names (`rulebot.search.scoring.BM25F.score`): each
must name something that exists, so that a reader (or a change to the ranking) finds its counterpart."""

from __future__ import annotations

import re

import pytest
from conftest import resolves

from rulebot.site import templates as site_templates

POINTER = re.compile(r"\brulebot(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _pointers() -> list[tuple[str, str]]:
    """Every dotted `rulebot.` name the scripts' text names: (script, name)."""
    static = site_templates.templates_dir() / "static"
    return sorted({(path.name, name) for path in static.glob("*.js") for name in POINTER.findall(path.read_text(encoding="utf-8"))})


def test_scripts_point_at_python_names():
    """The scripts name the Python they mirror: the search engine most of all."""
    named = {name for script, name in _pointers() if script == "search-engine.js"}
    assert {"rulebot.search.scoring.BM25F.score", "rulebot.search.ranking.Searcher.ask", "rulebot.language.analysis"} <= named


@pytest.mark.parametrize(("script", "name"), _pointers())
def test_every_python_name_a_script_points_at_exists(script: str, name: str):
    assert resolves(name), f"{script} names {name}, which does not exist"


def test_a_name_that_is_gone_is_found():
    assert not resolves("rulebot.search.Searcher") and not resolves("rulebot.nothing.here")
    assert resolves("rulebot.text.fold") and resolves("rulebot.search.scoring.BM25F.score")
