"""The documentation stays true to the code: every module it names exists, and the README stays short."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest
from conftest import resolves

ROOT = Path(__file__).resolve().parent.parent
USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGES = [*USER_DOCS, ROOT / "corpus" / "README.md", ROOT / "bench" / "README.md"]

# A path inside the package (`rulebot/index/build.py`), not one that merely ends in a folder named rulebot
# (`~/.local/share/rulebot/play-history`, the user's data).
MODULE_PATH = re.compile(r"(?<![\w/.~$-])rulebot/[\w/.-]*\w")
# A dotted name (`rulebot.index.payload.EntryJSON`); a file name such as `rulebot.po` is not one.
DOTTED_NAME = re.compile(r"(?<![\w/.~$-])rulebot(?:\.[A-Za-z_]\w*)+")
FILE_SUFFIXES = {"po", "mo", "pot", "fish", "bash", "zsh", "toml", "json", "md"}


def comments_and_docstrings(source: str) -> str:
    """What a module says in prose: its comments and docstrings, not its code."""
    said = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            said.append(ast.get_docstring(node) or "")
    return "\n".join(said)


def texts() -> dict[str, str]:
    """Each place that names modules, with its prose: the docs, pyproject.toml's comments, the package's own."""
    found = {str(page.relative_to(ROOT)): page.read_text(encoding="utf-8") for page in PAGES}
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    found["pyproject.toml"] = "\n".join(line.split("#", 1)[1] for line in pyproject if "#" in line)
    for module in sorted((ROOT / "rulebot").rglob("*.py")):
        found[str(module.relative_to(ROOT))] = comments_and_docstrings(module.read_text(encoding="utf-8"))
    return found


def test_every_module_named_exists():
    """Each `rulebot/...` path and `rulebot.x.y` name in the docs, comments and docstrings is there."""
    stale = []
    for place, text in texts().items():
        stale += [f"{place}: {path}" for path in MODULE_PATH.findall(text) if not (ROOT / path).exists()]
        stale += [
            f"{place}: {name}"
            for name in DOTTED_NAME.findall(text)
            if name.rsplit(".", 1)[1] not in FILE_SUFFIXES and not resolves(name)
        ]
    assert not stale, "\n".join(stale)


@pytest.mark.parametrize("name", ["rulebot/search.py", "rulebot.changes.changes", "rulebot.index.nothing"])
def test_a_stale_name_is_found(name: str):
    """The check itself: a module that moved, or a name a module does not define, is caught."""
    assert MODULE_PATH.findall(f"see `{name}`") or DOTTED_NAME.findall(f"see `{name}`")
    assert not ((ROOT / name).exists() if "/" in name else resolves(name))


def test_readme_is_short():
    """The README is read in a few minutes: under 8 KB, the rest in docs/."""
    assert (ROOT / "README.md").stat().st_size < 8 * 1024


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_links_between_pages_lead_somewhere():
    """Each relative link of the README and docs/ names a file that exists, and a heading of it when it names one."""
    broken = []
    for page in USER_DOCS:
        for target in re.findall(r"\]\(([^)]+)\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists() or (anchor and anchor not in anchors(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
