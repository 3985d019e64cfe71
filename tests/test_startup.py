"""`rulebot ask` loads only what answering needs: none of Whoosh, nor the code that builds an index."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What `ask` must not load: click (rulebot.cli.quick answers it), any of
# Whoosh (rulebot.index.reader reads the index files, rulebot.language.analysis
# analyses questions), what Whoosh would have loaded (a downloader, an event
# loop), the code that builds or updates an index, the site's templating and
# Markdown (answers are rendered at build time), the corpus loader and its
# models (the index has what answering needs), TOML without a config file,
# and dataclasses, whose import of `inspect` (with ast, dis and tokenize)
# costs ~10 ms of a cold answer: the records on the way are named tuples or
# plain classes.
NOT_FOR_ASK = (
    "click",
    "dataclasses",
    "inspect",
    "whoosh",
    "asyncio",
    "urllib.request",
    "http.client",
    "jinja2",
    "markdown_it",
    "rulebot.corpus.load",
    "rulebot.corpus.model",
    "rulebot.index.schema",
    "rulebot.index.build",
    "rulebot.index.update",
    "rulebot.index.payload",
    "tomllib",
    "tomlkit",  # only `config set` writes the settings; reading them is tomllib's
    "rulebot.atomic",
    "gettext",  # the French catalog only for an answer in French
)


def run_python(code: str, tmp_path: Path, env: dict | None = None) -> str:
    if env is None:
        env = dict(
            os.environ,
            RULEBOT_CACHE_DIR=str(tmp_path / "cache"),
            RULEBOT_CONFIG_DIR=str(tmp_path / "config"),
            PYTHONPATH=str(ROOT),
        )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


ASK = ["ask", "can", "i", "trash", "assassination", "mission"]
ASK_AND_LIST_MODULES = """
import json, sys
from rulebot.cli.quick import main  # what the `rulebot` command runs
sys.argv = ["rulebot", *ARGS]
try:
    main()
except SystemExit as exit:
    assert exit.code in (0, None), exit.code
print(json.dumps(sorted(sys.modules)))
"""


def modules_loaded_by_ask(tmp_path: Path, env: dict | None = None, args: list[str] = ASK) -> tuple[str, set[str]]:
    """The answer of a second `ask` (the first builds the index), and the modules it added.

    Modules the interpreter loads before any code runs (a site hook of the
    machine may import tempfile, say) are not the ask's doing, and are left out.
    """
    code = ASK_AND_LIST_MODULES.replace("ARGS", repr(args))
    run_python(code, tmp_path, env)
    answer, _, modules = run_python(code, tmp_path, env).rpartition("\n[")
    at_start = json.loads(run_python("import json, sys; print(json.dumps(sorted(sys.modules)))", tmp_path, env))
    return answer, set(json.loads("[" + modules)) - set(at_start)


def test_ask_loads_only_what_it_needs(tmp_path: Path):
    answer, loaded = modules_loaded_by_ask(tmp_path)
    assert "Assassination Mission" in answer
    assert "rulebot.index.reader" in loaded and "Stemmer" in loaded
    assert [m for m in sorted(loaded) if m.partition(".")[0] in NOT_FOR_ASK or m in NOT_FOR_ASK] == []


def test_ask_with_options_loads_no_more(tmp_path: Path):
    """`ask` with its options, and the group's, is answered without click too."""
    args = ["--color", "never", "ask", "--json", "-n", "2", "--game", "dune-imperium", "--with=rise-of-ix", "--official-only", "chaumurky", "tie"]
    answer, loaded = modules_loaded_by_ask(tmp_path, args=args)
    assert '"game": "dune-imperium"' in answer
    assert [m for m in sorted(loaded) if m.partition(".")[0] in NOT_FOR_ASK or m in NOT_FOR_ASK] == []


def test_ask_with_settings_reads_them_without_tomlkit(tmp_path: Path):
    """A config file written by `config set` (with tomlkit, keeping comments) is read by `ask` with tomllib only."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('# mine\n\n[dune-imperium]\nwith = ["rise-of-ix"]  # we own it\n', encoding="utf-8")
    answer, loaded = modules_loaded_by_ask(tmp_path, args=["ask", "--json", "chaumurky", "tie"])
    assert '"rise-of-ix"' in answer
    assert "tomllib" in loaded and "tomlkit" not in loaded and "rulebot.atomic" not in loaded


def test_ask_of_a_corpus_with_problems_loads_no_more(tmp_path: Path):
    """With the index up to date, the problems of a corpus are told without loading the corpus loader."""
    corpus = tmp_path / "corpus"
    shutil.copytree(ROOT / "tests" / "corpora" / "minimal", corpus)
    rules = corpus / "lantern-harbor" / "rulebook.md"
    rules.write_text(rules.read_text(encoding="utf-8").replace("section: End of the game\n", ""), encoding="utf-8")
    args = ["--no-shipped", "--corpus", str(corpus), "ask", "ferry", "gull"]
    env = dict(os.environ, RULEBOT_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    answer, loaded = modules_loaded_by_ask(tmp_path, env, args)
    assert answer.startswith("Ferry Gull")
    assert [m for m in sorted(loaded) if m.partition(".")[0] in NOT_FOR_ASK or m in NOT_FOR_ASK] == []
    code = ASK_AND_LIST_MODULES.replace("ARGS", repr(args))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert "Building" not in done.stderr and "rulebook.md:11: entry 'lh-winning' has no section" in done.stderr


def test_ask_in_the_user_folders_builds_its_index_there(tmp_path: Path):
    """Without RULEBOT_*_DIR, the index is built in the platform's user cache folder (platformdirs)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULEBOT_", "XDG_"))}
    env.update(HOME=str(tmp_path), XDG_CACHE_HOME=str(tmp_path / "xdg-cache"), PYTHONPATH=str(ROOT))
    answer, loaded = modules_loaded_by_ask(tmp_path, env)
    assert "Assassination Mission" in answer
    assert "platformdirs" in loaded
    assert list((tmp_path / "xdg-cache" / "rulebot" / "index").iterdir())


@pytest.mark.parametrize("word, stem", [("adding", "add"), ("rules", "rule"), ("cards", "card"), ("Épées", "epe")])
def test_english_stems(word: str, stem: str):
    from rulebot.language import analysis

    assert analysis.terms("english", word) == [stem]


def test_french_stems_fold_accents():
    from rulebot.language import analysis

    assert analysis.terms("french", "égalité") == analysis.terms("french", "egalite") == ["egalit"]
    assert analysis.terms("french", "à la fin du tour") == ["fin", "tour"]  # stop words by their accents


def test_decomposed_accents_make_the_same_terms():
    """Text typed with accents as letters of their own (NFD) makes the terms of composed text."""
    import unicodedata

    from rulebot.language import analysis

    for text in ("égalité défausse", "Épée"):
        decomposed = unicodedata.normalize("NFD", text)
        for name in analysis.ANALYSES:
            assert analysis.terms(name, decomposed) == analysis.terms(name, text), (name, text)


def test_the_schema_analyses_as_questions_are_analysed():
    """Whoosh's side (rulebot.index.schema.WordAnalyzer) makes the terms rulebot.language.analysis makes, numbered as Whoosh's StopFilter would."""
    from whoosh.analysis import LowercaseFilter, RegexTokenizer, StopFilter

    from rulebot.index.schema import WordAnalyzer
    from rulebot.language import analysis

    text = "The Mentat **may** trash a card, and the 702.19b rule applies to Cœur."
    for name in analysis.ANALYSES:
        made = [(t.text, t.pos) for t in WordAnalyzer(name)(text, positions=True)]
        assert [term for term, _ in made] == analysis.terms(name, text)
    whoosh_chain = RegexTokenizer(analysis.WORD_PATTERN) | LowercaseFilter() | StopFilter(stoplist=analysis.ENGLISH_STOP_WORDS, minsize=1)
    expected = [t.pos for t in whoosh_chain(text, positions=True)]
    assert [t.pos for t in WordAnalyzer("english")(text, positions=True)] == expected
