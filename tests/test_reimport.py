"""Importing a document again is an update: drafts rewritten in place by their anchors, new ones added, those
gone listed and kept, restated entries left byte for byte, and a new edition dated (`rulebot changes`)."""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

import pytest
from conftest import rulebot_process, skyrail_toml, write_corpus

from rulebot.corpus import load as corpus
from rulebot.corpus import scaffold
from rulebot.corpus.format import renumbered_id

RULES = """\
# Skyrail Rules

## Setup

Each conductor takes **4 tickets** and a locomotive of their colour.

## Coupling

A conductor may couple two carriages of the same colour at a depot.

Hitching - See Coupling.

## Derailment

A locomotive that crosses a broken rail derails and skips the next turn.

## FAQ

Q: Can a locomotive couple in a tunnel?
A: No, tunnels are too narrow.

Q: May a conductor derail on purpose?
A: Yes, to block a rival's line.
"""

NEW_EDITION = """\
# Skyrail Rules

## Setup

Each conductor takes **5 tickets** and a locomotive of their colour.

## Coupling

A conductor may couple two carriages of the same colour at a depot or a station.

## Tunnels

A locomotive in a tunnel may not couple.

## FAQ

Q: May a conductor derail on purpose?
A: Yes, to block a rival's line.

Q: Can a locomotive couple in a tunnel?
A: No, tunnels are too narrow.
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A corpus folder with the game skyrail, its entries file empty, and the rules document beside it."""
    return write_corpus(tmp_path, {
        "games/skyrail/game.toml": skyrail_toml("2024-01-01"),
        "games/skyrail/rules.md": "# Skyrail rulebook\n",
        "rules.md": RULES,
    })


def run_import(run_cli, root: Path, *more: str):
    return run_cli("--no-shipped", "--corpus", str(root / "games"), "import", str(root / "rules.md"), "-g", "skyrail", "-s", "rules",
                   "--append", *more)


def entries(root: Path) -> dict:
    loaded, problems = corpus.check([root / "games"])
    assert problems == []
    return {e.id: e for e in loaded.entries_of("skyrail")}


def restate(path: Path, entry_id: str, new_block: str) -> None:
    """Replace an entry's block by the curator's restatement (no `draft: true`)."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"## {entry_id}\n")
    end = text.find("\n## ", start + 1)
    path.write_text(text[:start] + new_block + (text[end + 1:] if end != -1 else ""), encoding="utf-8")


class TestReimport:
    def test_the_same_document_again_adds_nothing(self, run_cli, game: Path):
        """A second import of the same document writes nothing, says so, and check stays clean: the drafts come out
        as the first time (an alias from a redirect included, though the entry there has it already)."""
        first = run_import(run_cli, game)
        assert first.exit_code == 0, first.output
        assert "0 updated, 5 added, 0 unchanged, 0 gone, 0 kept as restated" in first.stderr
        before = (game / "games/skyrail/rules.md").read_bytes()
        again = run_import(run_cli, game)
        assert again.exit_code == 0, again.output
        assert "0 updated, 0 added, 5 unchanged, 0 gone, 0 kept as restated; nothing written" in again.stderr
        assert (game / "games/skyrail/rules.md").read_bytes() == before
        assert len(entries(game)) == 5
        assert [a.text for a in entries(game)["skyrail-coupling"].aliases] == ["Hitching"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    @pytest.mark.parametrize(("change", "said"), [
        (("## skyrail-derailment\n", "## skyrail-coupling\n"), "id 'skyrail-coupling' given twice (first at line"),
        (("## skyrail-derailment\n", " ## skyrail-derailment\n"), "an entry's heading is read as text"),
        (("## skyrail-setup\n", "### skyrail-setup\n"), "an entry's heading is read as text"),
    ])
    def test_an_entries_file_read_otherwise_than_written_is_not_updated(self, run_cli, game: Path, change, said: str):
        """An id given twice (the drafts paired with one would take the other's links) or an entry's heading read as
        text (the entry lost in the text above would be drafted again): import says where, and writes nothing."""
        assert run_import(run_cli, game).exit_code == 0
        path = game / "games/skyrail/rules.md"
        text = path.read_text(encoding="utf-8").replace(*change)
        path.write_text(text, encoding="utf-8")
        line = text[: text.rindex(change[1])].count("\n") + 1  # (of an id given twice, the second)
        before = path.read_bytes()
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 2, result.output
        assert f"rules.md:{line}: {said}" in result.stderr and "nothing written" in result.stderr, result.stderr
        assert path.read_bytes() == before

    def test_drafts_record_their_anchor(self, run_cli, game: Path):
        """Each draft written has an `anchor:` header: where in the document it came from."""
        run_import(run_cli, game)
        text = (game / "games/skyrail/rules.md").read_text(encoding="utf-8")
        assert "section: Setup\nanchor: Setup\n" in text
        assert "section: FAQ, question 1\nanchor: FAQ > Can a locomotive couple in a tunnel?\n" in text

    def test_a_restated_entry_survives_byte_for_byte(self, run_cli, game: Path):
        """An entry no longer marked draft is never rewritten, even retitled and with its document's text changed."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        restate(path, "skyrail-setup", "## skyrail-setup\ntitle: Starting hands\nkind: setup\nsection: Setup\nanchor: Setup\n\n"
                "Every conductor starts with four tickets  \r\nand a locomotive in their colour.\n\n")
        kept = path.read_bytes()[path.read_bytes().index(b"## skyrail-setup"):path.read_bytes().index(b"## skyrail-coupling")]
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "1 kept as restated" in result.stderr
        assert kept in path.read_bytes()
        found = entries(game)
        assert [e.id for e in found.values() if e.title in ("Setup", "Starting hands")] == ["skyrail-setup"]

    def test_a_changed_document_updates_adds_and_lists_the_gone(self, run_cli, game: Path):
        """The changed drafts are rewritten in place (same ids), the new one added after the draft before it in the
        document, the one gone listed and kept, a renumbered question moved without a duplicate; check stays clean."""
        run_import(run_cli, game)
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "4 updated, 1 added, 0 unchanged, 1 gone, 0 kept as restated; written to" in result.stderr
        assert "gone from the document (kept, to restate or delete): skyrail-derailment (Derailment)" in result.stderr
        found = entries(game)
        assert list(found) == [
            "skyrail-setup", "skyrail-coupling", "skyrail-tunnels", "skyrail-derailment", "skyrail-can-a-locomotive-couple-in-a-tunnel",
            "skyrail-may-a-conductor-derail-on-purpose",
        ]
        assert "5 tickets" in found["skyrail-setup"].text and "or a station" in found["skyrail-coupling"].text
        assert found["skyrail-may-a-conductor-derail-on-purpose"].section == "FAQ, question 1"
        assert all(e.draft for e in found.values())
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    @pytest.mark.parametrize(("before", "at"), [("## Setup", 0), ("## Derailment", 2), ("## FAQ", 3)])
    def test_a_draft_added_goes_among_its_neighbours(self, run_cli, game: Path, before: str, at: int):
        """A section a new edition adds, first, in the middle or before the questions, is written where the document
        has it, one blank line on each side, and the entries file stays clean."""
        run_import(run_cli, game)
        (game / "rules.md").write_text(RULES.replace(before, "## Tickets\n\nA ticket is kept face down.\n\n" + before), encoding="utf-8")
        result = run_import(run_cli, game)
        assert "1 added" in result.stderr, result.stderr
        assert list(entries(game)).index("skyrail-tickets") == at
        text = (game / "games/skyrail/rules.md").read_text(encoding="utf-8")
        assert "\n\n## skyrail-tickets\n" in text and "A ticket is kept face down.\n\n## skyrail-" in text and "\n\n\n" not in text
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_keys_the_importer_does_not_write_are_kept(self, run_cli, game: Path):
        """A draft updated keeps the `asked` a curator added to it."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        path.write_text(path.read_text(encoding="utf-8").replace("anchor: Coupling\n", "anchor: Coupling\nasked: can I couple?\n"), encoding="utf-8")
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        run_import(run_cli, game)
        coupling = entries(game)["skyrail-coupling"]
        assert "or a station" in coupling.text and [a.text for a in coupling.asked] == ["can I couple?"]

    def test_a_new_edition_dates_what_it_changed(self, run_cli, game: Path):
        """With --edition, the drafts the new edition adds or changes get `revised:` it, and `changes` lists them: the
        one it adds marked `new`, and labelled so (the others "new or revised"); changed again by a later edition, it
        is revised, no longer new."""
        run_import(run_cli, game)
        toml = game / "games/skyrail/game.toml"
        toml.write_text(skyrail_toml("2025-03-01", "editions = [{ date = 2024-01-01 }]"), encoding="utf-8")
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game, "--edition", "2025-03-01")
        assert result.exit_code == 0, result.output
        found = entries(game)
        assert {i for i, e in found.items() if e.revised == "2025-03-01"} == {"skyrail-setup", "skyrail-coupling", "skyrail-tunnels"}
        listed = run_cli("--no-shipped", "--corpus", str(game / "games"), "changes", "skyrail", "--since", "2025-01-01")
        assert listed.exit_code == 0
        assert [line.split()[1] for line in listed.stdout.splitlines()[1:]] == ["skyrail-setup", "skyrail-coupling", "skyrail-tunnels"]
        assert {i for i, e in found.items() if e.new} == {"skyrail-tunnels"}
        shown = run_cli("--no-shipped", "--corpus", str(game / "games"), "show", "skyrail-tunnels").stdout
        assert "new in the edition of 2025-03-01" in shown, shown
        assert "Tunnels [rule, new since 2024-01-01]" in listed.stdout and "Setup [setup, new or revised since 2024-01-01]" in listed.stdout
        as_json = json.loads(run_cli("--no-shipped", "--corpus", str(game / "games"), "changes", "skyrail", "--json").stdout)
        assert {r["id"]: r["because"] for r in as_json["results"] if r["id"] in ("skyrail-tunnels", "skyrail-setup")} == {
            "skyrail-tunnels": "new", "skyrail-setup": "revised"}
        toml.write_text(skyrail_toml("2026-01-01", "editions = [{ date = 2024-01-01 }, { date = 2025-03-01 }]"), encoding="utf-8")
        (game / "rules.md").write_text(NEW_EDITION.replace("may not couple", "may never couple"), encoding="utf-8")
        assert run_import(run_cli, game, "--edition", "2026-01-01").exit_code == 0
        tunnels = entries(game)["skyrail-tunnels"]
        assert (tunnels.revised, tunnels.new) == ("2026-01-01", False)

    def test_an_undeclared_edition_is_refused(self, run_cli, game: Path):
        """An edition not in game.toml: a one-line error saying how to declare it, nothing written."""
        before = (game / "games/skyrail/rules.md").read_bytes()
        result = run_import(run_cli, game, "--edition", "2030-01-01")
        assert result.exit_code == 2
        assert result.stderr.startswith("Error: edition 2030-01-01 is not declared for source 'rules'")
        assert "Traceback" not in result.output
        assert (game / "games/skyrail/rules.md").read_bytes() == before

    def test_an_edition_of_an_undated_source_says_to_date_the_earlier_one(self, run_cli, game: Path):
        """A source with no date: the hint says to list the edition imported before, and followed, `changes` lists what
        the new edition changed, not every entry."""
        toml = game / "games/skyrail/game.toml"
        toml.write_text(skyrail_toml(), encoding="utf-8")
        run_import(run_cli, game)
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        refused = run_import(run_cli, game, "--edition", "2025-03-01")
        assert refused.exit_code == 2
        assert "which has no date: in game.toml, set its date = 2025-03-01 and list the edition imported before as" in refused.stderr
        toml.write_text(skyrail_toml("2025-03-01"), encoding="utf-8")  # (half the hint followed: the earlier edition not listed)
        refused = run_import(run_cli, game, "--edition", "2025-03-01")
        assert refused.exit_code == 2 and "holds drafts imported before without it: if they are of an earlier edition, list it" in refused.stderr
        assert run_import(run_cli, game, "--edition", "2025-03-01", "--force").exit_code == 0  # (drafts of this edition)
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        toml.write_text(skyrail_toml("2025-03-01", "editions = [{ date = 2024-01-01 }]"), encoding="utf-8")
        assert run_import(run_cli, game, "--edition", "2025-03-01").exit_code == 0
        listed = run_cli("--no-shipped", "--corpus", str(game / "games"), "changes", "skyrail", "--since", "2025-03-01")
        assert [line.split()[1] for line in listed.stdout.splitlines()[1:]] == ["skyrail-setup", "skyrail-coupling", "skyrail-tunnels"]
        toml.write_text(skyrail_toml("2025-03-01"), encoding="utf-8")  # (that edition's drafts there: the same again is no other)
        assert run_import(run_cli, game, "--edition", "2025-03-01").exit_code == 0

    def test_a_new_edition_under_another_name_is_the_document_named(self, run_cli, game: Path):
        """A new edition imported from a file of another name: game.toml's `document` names it from then on (what
        `check --sources` looks for), a comment after it kept."""
        assert run_import(run_cli, game).exit_code == 0
        toml = game / "games/skyrail/game.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace('document = "rules.md"', 'document = "my \\"rules\\".md"  # my copy'), encoding="utf-8")
        (game / "rules-v2.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules-v2.md"), "-g", "skyrail", "--append")
        assert result.exit_code == 0, result.output
        assert 'document = "rules-v2.md"  # my copy' in toml.read_text(encoding="utf-8")
        assert corpus.load([game / "games"]).game("skyrail").source("rules").document == "rules-v2.md"
        assert f"The source's document is now rules-v2.md in {toml}" in result.stderr, result.stderr  # (said: not a quiet change)
        again = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules-v2.md"), "-g", "skyrail", "--append")
        assert again.exit_code == 0 and "document is now" not in again.stderr

    def test_an_interrupt_between_the_drafts_and_game_toml_waits_for_both(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """Ctrl-C after the drafts of a new edition are written and before game.toml names its document: the import
        ends interrupted, with both written (never the drafts of one document, named as another's)."""
        assert run_import(run_cli, game).exit_code == 0
        (game / "rules-v2.md").write_text(NEW_EDITION, encoding="utf-8")
        real = scaffold.record_import

        def interrupted(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGINT)  # (as a curator's Ctrl-C, delivered now)
            return real(*args, **kwargs)

        monkeypatch.setattr(scaffold, "record_import", interrupted)
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules-v2.md"), "-g", "skyrail", "--append")
        assert result.exit_code != 0 and "Traceback" not in result.output, result.output
        assert corpus.load([game / "games"]).game("skyrail").source("rules").document == "rules-v2.md"
        assert "Tunnels" in (game / "games/skyrail/rules.md").read_text(encoding="utf-8")

    def test_edition_goes_with_append(self, run_cli, game: Path):
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules",
                         "--edition", "2024-01-01")
        assert result.exit_code == 2 and "--edition goes with --append" in result.stderr

    def test_as_a_real_process(self, game: Path):
        """The summary of an update, from a real process."""
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules", "--append")
        assert rulebot_process(*args).returncode == 0
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = rulebot_process(*args)
        assert result.returncode == 0, result.stderr
        assert "4 updated, 1 added, 0 unchanged, 1 gone, 0 kept as restated" in result.stderr

    def test_a_restated_entry_whose_place_is_gone_is_named(self, run_cli, game: Path):
        """A restated entry whose anchor the new document no longer has is left as it is, and named."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        path.write_text(path.read_text(encoding="utf-8").replace("anchor: Derailment\ndraft: true\n", "anchor: Derailment\n"), encoding="utf-8")
        before = path.read_bytes()
        (game / "rules.md").write_text(RULES.replace("## Derailment", "## Other").replace("derails and skips", "stops and skips"),
                                       encoding="utf-8")
        result = run_import(run_cli, game)
        assert "0 updated, 1 added, 4 unchanged, 0 gone, 0 kept as restated" in result.stderr
        assert "restated, its place gone from the document (left as it is): skyrail-derailment (Derailment)" in result.stderr
        restated = before[before.index(b"## skyrail-derailment"):before.index(b"## skyrail-can-a")]
        after = path.read_bytes()
        assert restated in after  # byte for byte
        assert list(entries(game))[:4] == ["skyrail-setup", "skyrail-coupling", "skyrail-other", "skyrail-derailment"]

    def test_a_restated_question_retitled_and_renumbered_is_not_drafted_again(self, run_cli, game: Path):
        """A question's anchor is the question, not its number: restated under a new title, then moved down by a
        question added above it, it is still the curator's entry, and no draft of it is added."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        restate(path, "skyrail-can-a-locomotive-couple-in-a-tunnel",
                "## skyrail-can-a-locomotive-couple-in-a-tunnel\ntitle: Coupling in tunnels\nkind: faq\nsection: FAQ, question 1\n"
                "anchor: FAQ > Can a locomotive couple in a tunnel?\n\nTunnels leave no room to couple.\n\n")
        (game / "rules.md").write_text(RULES.replace("## FAQ\n", "## FAQ\n\nQ: Who goes first?\nA: The oldest conductor.\n"),
                                       encoding="utf-8")
        result = run_import(run_cli, game)
        # The other question only moved (question 2 now 3): updated, its section only.
        assert "1 updated, 1 added, 3 unchanged, 0 gone, 1 kept as restated" in result.stderr, result.stderr
        titles = [e.title for e in entries(game).values()]
        assert "Can a locomotive couple in a tunnel?" not in titles and "Who goes first?" in titles

    def test_drafts_written_before_anchors_are_paired_by_section_and_title(self, run_cli, game: Path):
        """Drafts of an earlier rulebot (no `anchor:`) are paired by section and title: the same document again
        leaves them byte for byte."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        path.write_text("\n".join(line for line in path.read_text(encoding="utf-8").split("\n") if not line.startswith("anchor: ")),
                        encoding="utf-8")
        before = path.read_bytes()
        result = run_import(run_cli, game)
        assert "0 updated, 0 added, 5 unchanged, 0 gone, 0 kept as restated; nothing written" in result.stderr, result.stderr
        assert path.read_bytes() == before

    def test_a_renamed_heading_moves_its_draft(self, run_cli, game: Path):
        """A heading renamed, its text the same: the draft is rewritten in place (same id, new title, its alias
        kept), not listed gone and added again; no `revised`, as its rule has not changed; check stays clean."""
        run_import(run_cli, game)
        toml = game / "games/skyrail/game.toml"
        toml.write_text(skyrail_toml("2025-03-01", "editions = [{ date = 2024-01-01 }]"), encoding="utf-8")
        (game / "rules.md").write_text(RULES.replace("## Coupling", "## Couplings").replace("See Coupling.", "See Couplings."),
                                       encoding="utf-8")
        result = run_import(run_cli, game, "--edition", "2025-03-01")
        assert "1 updated, 0 added, 4 unchanged, 0 gone, 0 kept as restated" in result.stderr, result.stderr
        found = entries(game)
        assert found["skyrail-coupling"].title == "Couplings" and found["skyrail-coupling"].revised is None
        assert [a.text for a in found["skyrail-coupling"].aliases] == ["Hitching"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_a_renamed_heading_of_a_restated_entry_adds_no_draft(self, run_cli, game: Path):
        """A heading renamed above an entry the curator accepted as drafted (its `drafted:` the fingerprint of the
        same text): the entry is kept as restated, byte for byte, and no draft of the same rule is added beside it."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        text = path.read_text(encoding="utf-8")
        start = text.index("## skyrail-derailment\n")
        end = text.find("\n## ", start + 1)
        block = text[start:end + 1].replace("draft: true\n", "")  # (accepted as it is: `review`'s "a")
        restate(path, "skyrail-derailment", block)
        before = path.read_bytes()
        (game / "rules.md").write_text(RULES.replace("## Derailment", "## Derailing"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert "0 updated, 0 added, 4 unchanged, 0 gone, 1 kept as restated" in result.stderr, result.stderr
        assert path.read_bytes() == before
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0
        # Its anchor is the curator's to set: said, and once set, a later edition that changes its text pairs it still.
        said = "restated, its heading renamed or moved in the document (left as it is): skyrail-derailment (Derailment); set its anchor: to Derailing"
        assert said in result.stderr, result.stderr
        path.write_text(path.read_text(encoding="utf-8").replace("anchor: Derailment\n", "anchor: Derailing\n"), encoding="utf-8")
        (game / "rules.md").write_text(RULES.replace("## Derailment", "## Derailing").replace("skips the next turn", "skips two turns"), encoding="utf-8")
        again = run_import(run_cli, game)
        assert "0 added" in again.stderr and "restated, its text changed in the document since (left as it is): skyrail-derailment" in again.stderr, again.stderr

    def test_a_short_text_restated_pairs_with_no_other_question(self, run_cli, game: Path):
        """A question the curator accepted, gone from a new edition that asks another with the same short answer:
        the new question is drafted, and the accepted one is said to be gone (a short text pairs nothing)."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        text = path.read_text(encoding="utf-8")
        accepted = next(e.id for e in entries(game).values() if e.title == "Can a locomotive couple in a tunnel?")
        start = text.index(f"## {accepted}\n")
        end = text.find("\n## ", start + 1)
        restate(path, accepted, text[start:end + 1].replace("draft: true\n", ""))
        (game / "rules.md").write_text(RULES.replace("Can a locomotive couple in a tunnel?", "Can a conductor pass a red signal?"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert "1 added" in result.stderr and f"its place gone from the document (left as it is): {accepted}" in result.stderr, result.stderr
        assert "Can a conductor pass a red signal?" in [e.title for e in entries(game).values()]

    def test_links_in_a_text_follow_its_entries(self, run_cli, game: Path):
        """A link of a draft's text leads to the entry drafted from the heading it names, under the id that entry has
        in the file (a curator's renamed one); a link that only leads elsewhere than an earlier import wrote is no
        change of the rule (no `revised`)."""
        from rulebot.corpus.drafted import drafted_fingerprint

        linked = RULES.replace("derails and skips the next turn.", "derails and skips the next turn; see [Coupling](#coupling).")
        (game / "rules.md").write_text(linked, encoding="utf-8")
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        assert "see [Coupling](#skyrail-coupling)." in entries(game)["skyrail-derailment"].text
        # As an earlier import wrote it (the document's anchor), and the entry renamed by a curator.
        text = path.read_text(encoding="utf-8")
        old_body = "A locomotive that crosses a broken rail derails and skips the next turn; see [Coupling](#coupling)."
        text = text.replace(drafted_fingerprint(old_body.replace("#coupling", "#skyrail-coupling")), drafted_fingerprint(old_body))
        text = text.replace("(#skyrail-coupling)", "(#coupling)").replace("## skyrail-coupling\n", "## skyrail-hitch\n")
        path.write_text(text.replace("see_also: skyrail-coupling\n", "see_also: skyrail-hitch\n"), encoding="utf-8")
        toml = game / "games/skyrail/game.toml"
        toml.write_text(skyrail_toml("2025-03-01", "editions = [{ date = 2024-01-01 }]"), encoding="utf-8")
        result = run_import(run_cli, game, "--edition", "2025-03-01")
        assert result.exit_code == 0, result.output
        derailment = entries(game)["skyrail-derailment"]
        assert "see [Coupling](#skyrail-hitch)." in derailment.text and derailment.revised is None
        assert derailment.see_also == ("skyrail-hitch",)
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_a_gone_draft_gives_up_the_aliases_a_new_one_claims(self, run_cli, game: Path):
        """A heading renamed and its text changed: the old draft is gone (kept), the new one added, and the alias
        both would claim goes to the new one only, so that check stays clean."""
        run_import(run_cli, game)
        (game / "rules.md").write_text(
            RULES.replace("## Coupling", "## Couplings").replace("See Coupling.", "See Couplings.").replace("at a depot", "anywhere"),
            encoding="utf-8")
        result = run_import(run_cli, game)
        assert "0 updated, 1 added, 4 unchanged, 1 gone, 0 kept as restated" in result.stderr, result.stderr
        found = entries(game)
        assert found["skyrail-coupling"].aliases == () and [a.text for a in found["skyrail-couplings"].aliases] == ["Hitching"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    NUMBERED = (
        "# Skyrail Rules\n\n## 7. Rails\n\n### 7.1. Switches\n\n#### 7.1.1.\n\nA switch sends a train left or right.\n\n"
        "#### 7.1.2.\n\nA conductor may throw one switch per turn.\n\n#### 7.1.3.\n\nA broken switch stays where it is.\n\n"
        "#### 7.1.4.\n\nA switch thrown twice returns to where it was.\n\n### 7.2. Bridges\n\nBridges carry one train at a time.\n"
    )
    RULE_DRAFTS = [f"skyrail-7-1-{n}-switches" for n in range(1, 5)]

    def drafted_before_joining(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch, *more: str) -> Path:
        """The numbered document imported (with `more` options) as before rules were joined: one draft per rule;
        its entries file."""
        from rulebot.corpus import shaping

        (game / "rules.md").write_text(self.NUMBERED, encoding="utf-8")
        monkeypatch.setattr(shaping, "JOIN_WORDS", 0)
        assert run_import(run_cli, game, *more).exit_code == 0
        monkeypatch.setattr(shaping, "JOIN_WORDS", 40)  # from now on 7.1 joins, not the whole of 7
        assert list(entries(game))[:4] == self.RULE_DRAFTS
        return game / "games/skyrail/rules.md"

    def left(self, game: Path) -> list[str]:
        return [i for i in self.RULE_DRAFTS if i in entries(game)]

    def test_drafts_a_joined_rule_now_holds_are_removed(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """Importing again a document drafted before its rules were joined: each rule's untouched draft, whose text the
        joined draft now holds, is removed and named; the second import after changes nothing; check stays clean."""
        self.drafted_before_joining(run_cli, game, monkeypatch)
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "0 gone, 0 kept as restated, 4 removed as joined with their rule's family" in result.stderr, result.stderr
        assert "removed, their rule now one draft with its family, which holds their text: skyrail-7-1-1-switches," in result.stderr
        assert self.left(game) == []
        assert "**7.1.1** A switch sends a train left or right." in entries(game)["skyrail-7-1-switches"].text
        assert "0 added, 2 unchanged, 0 gone" in run_import(run_cli, game).stderr
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_drafts_removed_as_joined_at_the_end_leave_the_file_ending_as_it_did(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """The rules joined are the last of the document, and of the entries file: their drafts removed, the joined
        draft goes where they were, and the file ends with one line ending, as it did."""
        from rulebot.corpus import shaping

        track = "## 6. Track\n\nTrack is laid before the first turn.\n\n## 7. Rails"
        (game / "rules.md").write_text(self.NUMBERED.replace("## 7. Rails", track).split("### 7.2")[0], encoding="utf-8")
        monkeypatch.setattr(shaping, "JOIN_WORDS", 0)
        assert run_import(run_cli, game).exit_code == 0
        monkeypatch.setattr(shaping, "JOIN_WORDS", 40)
        path = game / "games/skyrail/rules.md"
        assert path.read_text(encoding="utf-8").endswith("returns to where it was.\n")
        assert "1 added, 1 unchanged, 0 gone, 0 kept as restated, 4 removed as joined" in run_import(run_cli, game).stderr
        text = path.read_text(encoding="utf-8")
        assert text.endswith("returns to where it was.\n") and not text.endswith("\n\n") and "\n\n\n" not in text
        assert list(entries(game))[-1] == "skyrail-7-1-switches"
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_a_draft_whose_related_topics_line_was_text_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """A document drafted when a `Related topics:` line was text of the rule above it: that rule's draft holds
        more than its place in the joined draft, so it is kept and listed as gone, never removed with what a curator
        may have written in that line; the joined draft links to what the line names."""
        from rulebot.corpus import importing, shaping

        numbered = self.NUMBERED.replace("returns to where it was.\n", "returns to where it was.\n\nRelated topics: Bridges\n")
        monkeypatch.setattr(self, "NUMBERED", numbered)
        monkeypatch.setattr(importing, "RELATED_RE", re.compile(r"(?!)"))  # the line read as text, as it was
        path = self.drafted_before_joining(run_cli, game, monkeypatch)
        assert "returns to where it was.\n\nRelated topics: Bridges" in path.read_text(encoding="utf-8")
        monkeypatch.undo()
        monkeypatch.setattr(self, "NUMBERED", numbered)
        monkeypatch.setattr(shaping, "JOIN_WORDS", 40)
        result = run_import(run_cli, game)
        assert "1 gone, 0 kept as restated, 3 removed as joined" in result.stderr, result.stderr
        assert self.left(game) == ["skyrail-7-1-4-switches"]
        assert entries(game)["skyrail-7-1-switches"].see_also == ("skyrail-7-2-bridges",)

    @pytest.mark.parametrize(
        ("change", "kept"),
        [
            # A key of the curator's, and a link from it to 7.1.4: both kept (a draft kept keeps its links).
            (("title: 7.1.3 Switches\n", "title: 7.1.3 Switches\nasked: is a broken switch stuck\nsee_also: skyrail-7-1-4-switches\n"),
             ["skyrail-7-1-3-switches", "skyrail-7-1-4-switches"]),
            # Its title or kind changed by the curator, though still a draft.
            (("title: 7.1.1 Switches\n", "title: Left or right\n"), ["skyrail-7-1-1-switches"]),
            (("title: 7.1.2 Switches\nkind: rule\n", "title: 7.1.2 Switches\nkind: fine-point\n"), ["skyrail-7-1-2-switches"]),
            # Its text trimmed by the curator: the joined draft holds more than it.
            (("A switch thrown twice returns to where it was.", "A switch thrown twice returns."), ["skyrail-7-1-4-switches"]),
        ],
    )
    def test_a_touched_draft_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch, change, kept):
        """A rule's draft the curator has touched is kept as gone, whatever the joined draft holds."""
        path = self.drafted_before_joining(run_cli, game, monkeypatch)
        text = path.read_text(encoding="utf-8")
        assert change[0] in text
        path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        assert self.left(game) == kept
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_a_draft_written_by_no_joined_draft_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """When the joined draft is not written (paired with an entry the curator has restated), the rules' drafts
        are kept: their text would be nowhere else."""
        path = self.drafted_before_joining(run_cli, game, monkeypatch)
        # The first import had no 7.1 of its own: give the file a restated entry in the joined draft's place.
        from rulebot.corpus.drafted import anchor

        block = f"## skyrail-switches\ntitle: 7.1 Switches\nkind: rule\nsection: 7. Rails > 7.1. Switches\nanchor: {anchor('7. Rails > 7.1. Switches', '7.1 Switches')}\n\nSwitches, restated.\n\n"
        path.write_text(path.read_text(encoding="utf-8") + "\n" + block, encoding="utf-8")
        result = run_import(run_cli, game)
        assert "1 kept as restated" in result.stderr and "removed as joined" not in result.stderr, result.stderr
        assert self.left(game) == self.RULE_DRAFTS

    def test_a_draft_linked_from_another_file_or_being_edited_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """A rule's draft that an entry of another file links to, or that has an edit in progress (rulebot review),
        is kept; an earlier edit kept beside a fresh one (`.earlier.md`) names no draft."""
        from rulebot.corpus.files import review_dir, review_key

        path = self.drafted_before_joining(run_cli, game, monkeypatch)
        faq = game / "games/skyrail/faq.md"
        faq.write_text("# Skyrail FAQ\n\n## skyrail-faq-switch\ntitle: Switch\nkind: faq\nsection: FAQ\nsee_also: skyrail-7-1-1-switches\n\nAsk the conductor.\n", encoding="utf-8")
        toml = game / "games/skyrail/game.toml"
        toml.write_text(toml.read_text(encoding="utf-8") + '\n[[sources]]\nid = "faq"\ntitle = "Skyrail FAQ"\n', encoding="utf-8")
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0
        review = review_dir()
        review.mkdir(parents=True, exist_ok=True)
        (review / f"{review_key('skyrail', path)}.skyrail-7-1-2-switches.md").write_text("an edit in progress\n", encoding="utf-8")
        (review / f"{review_key('skyrail', path)}.skyrail-7-1-3-switches.earlier.md").write_text("an earlier edit\n", encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        assert self.left(game) == ["skyrail-7-1-1-switches", "skyrail-7-1-2-switches"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    @pytest.mark.parametrize(
        ("name", "text"),
        [
            # A curator's translation of it.
            ("rules.fr.md", "# Traduction\n\n## skyrail-7-1-2-switches\ntitle: 7.1.2 Aiguillage\n\nUn conducteur peut basculer un aiguillage par tour.\n"),
            # A setup step pointing to it.
            ("setup.toml", 'players = [2, 3]\n\n[[steps]]\nid = "switches"\norder = 10\nentry = "skyrail-7-1-2-switches"\n'
                           'text = "Throw the switches to the left."\n'),
        ],
    )
    def test_a_draft_another_file_names_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str):
        """A rule's draft named in another file of the game's folder (a translation, a setup step) is kept."""
        self.drafted_before_joining(run_cli, game, monkeypatch)
        (game / "games/skyrail" / name).write_text(text, encoding="utf-8")
        checked = run_cli("--no-shipped", "--corpus", str(game / "games"), "check")
        assert checked.exit_code == 0, checked.output
        assert run_import(run_cli, game).exit_code == 0
        assert self.left(game) == ["skyrail-7-1-2-switches"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_a_draft_a_house_rule_changes_is_kept(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
        """A rule's draft that a house rule of another folder (`extends`) modifies is kept, and check stays clean."""
        self.drafted_before_joining(run_cli, game, monkeypatch)
        house = write_corpus(tmp_path / "house", {
            "skyrail-house/game.toml": 'extends = "skyrail"\n\n[[sources]]\nid = "our-table"\ntitle = "Our table"\n',
            "skyrail-house/our-table.md": "# Ours\n\n## skyrail-house-two-throws\ntitle: Two throws\nkind: house-rule\n"
                                          "section: Our table\nmodifies: skyrail-7-1-2-switches\n\nAt our table two switches a turn.\n",
        })
        both = ("--no-shipped", "--corpus", str(game / "games"), "--corpus", str(house))
        assert run_cli(*both, "check").exit_code == 0
        result = run_cli(*both, "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rules", "--append")
        assert "3 removed as joined" in result.stderr, result.stderr
        assert self.left(game) == ["skyrail-7-1-2-switches"]
        assert run_cli(*both, "check").exit_code == 0

    def test_nothing_is_removed_while_the_corpus_has_problems(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """An entry left out for a problem of its own may link to a draft: while `check` reports one, no draft is
        removed as joined."""
        self.drafted_before_joining(run_cli, game, monkeypatch)
        (game / "games/skyrail/faq.md").write_text("# FAQ\n\n## skyrail-faq-switch\ntitle: Switch\nkind: nonsense\nsection: FAQ\n\nAsk.\n", encoding="utf-8")
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code != 0
        result = run_import(run_cli, game)
        assert result.exit_code == 0 and "removed as joined" not in result.stderr, result.stderr
        (game / "games/skyrail/faq.md").unlink()
        assert self.left(game) == self.RULE_DRAFTS

    def test_drafts_of_an_edition_are_removed_too(self, run_cli, game: Path, monkeypatch: pytest.MonkeyPatch):
        """Drafts that an import with --edition dated (`revised:`) are as drafted all the same."""
        path = self.drafted_before_joining(run_cli, game, monkeypatch, "--edition", "2024-01-01")
        assert "revised: 2024-01-01" in path.read_text(encoding="utf-8")
        assert "4 removed as joined" in run_import(run_cli, game).stderr
        assert self.left(game) == []

    def test_the_report_names_five_removed_and_counts_the_rest(self, tmp_path: Path):
        """Hundreds of drafts may be removed: the report names the first five and counts the others."""
        from rulebot.corpus.drafted import Imported
        from rulebot.corpus.updated import DraftsWritten, Gone, Update

        written = DraftsWritten(tmp_path / "rules.md", joined=[Gone(f"skyrail-{n}", f"{n}", n) for n in range(7)])
        report = Update(Imported(document="rules.md", game="skyrail", source="rules"), written).report()
        assert "7 removed as joined with their rule's family" in report
        assert "which holds their text: skyrail-0, skyrail-1, skyrail-2, skyrail-3, skyrail-4 and 2 more" in report

    def test_a_rule_gone_from_a_new_edition_stays_gone(self, run_cli, game: Path):
        """A rule the new edition drops is listed as gone and kept, even when the new edition quotes its words."""
        run_import(run_cli, game)
        quoted = NEW_EDITION + "\n## Changes\n\nThe rule that a locomotive that crosses a broken rail derails and skips the next turn is gone.\n"
        (game / "rules.md").write_text(quoted, encoding="utf-8")
        result = run_import(run_cli, game)
        assert "1 gone" in result.stderr and "removed as joined" not in result.stderr, result.stderr
        assert "skyrail-derailment" in entries(game)

    def test_ids_taken_are_numbered_afresh(self, run_cli, game: Path):
        """Two headings of one name under renamed parents, their texts changed: the drafts added are numbered on from
        the ids taken (`-3`, `-4`), never `-2-2`."""
        assert renumbered_id("skyrail-example-2", "Example", {"skyrail-example", "skyrail-example-2"}) == "skyrail-example-3"
        assert renumbered_id("skyrail-rule-2", "Rule 2", {"skyrail-rule-2"}) == "skyrail-rule-2-2"
        dup = "# Rules\n\n## Combat\n\n### Example\n\nFirst example about combat.\n\n### Example\n\nSecond example about combat.\n"
        (game / "rules.md").write_text(dup, encoding="utf-8")
        run_import(run_cli, game)
        assert list(entries(game)) == ["skyrail-example-combat", "skyrail-example-combat-2"]
        # Moved under a new heading, their texts changed: paired with nothing, their ids taken.
        moved = dup.replace("## Combat", "## Battles\n\nHow battles go.\n\n### Combat").replace("### Example", "#### Example")
        (game / "rules.md").write_text(moved.replace("about", "of"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert "0 updated, 3 added, 0 unchanged, 2 gone" in result.stderr, result.stderr
        assert list(entries(game))[2:] == ["skyrail-battles", "skyrail-example-combat-3", "skyrail-example-combat-4"]
        assert run_cli("--no-shipped", "--corpus", str(game / "games"), "check").exit_code == 0

    def test_the_same_heading_twice_in_a_section_is_told_apart(self, run_cli, game: Path):
        """Two headings of one name in one section each have their own anchor: the first's text changed, it alone
        is updated, the second unchanged, and both stay drafts."""
        dup = "# Rules\n\n## Combat\n\n### Example\n\nFirst example about combat.\n\n### Example\n\nSecond example about combat.\n"
        (game / "rules.md").write_text(dup, encoding="utf-8")
        run_import(run_cli, game)
        (game / "rules.md").write_text(dup.replace("First example", "First example, changed,"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert "1 updated, 0 added, 1 unchanged, 0 gone, 0 kept as restated; written to" in result.stderr, result.stderr
        found = entries(game)
        assert "changed" in found["skyrail-example-combat"].text and "Second" in found["skyrail-example-combat-2"].text
        assert all(e.draft for e in found.values())

    def test_the_edition_is_checked_before_the_document_is_read(self, run_cli, game: Path):
        """An undeclared edition is told first, whatever the document: nothing is drafted for an import bound to fail."""
        (game / "rules.md").write_bytes(b"\xff\xfe not text")
        result = run_import(run_cli, game, "--edition", "2030-01-01")
        assert result.exit_code == 2 and result.stderr.startswith("Error: edition 2030-01-01 is not declared"), result.output

    def test_the_same_document_under_another_source_is_refused(self, run_cli, game: Path):
        """A document whose drafts are mostly another source's file of the game: refused, nothing written, unless
        --force."""
        toml = game / "games/skyrail/game.toml"
        toml.write_text(skyrail_toml("2024-01-01") + '\n[[sources]]\nid = "faq"\ntitle = "Skyrail FAQ"\n',
                        encoding="utf-8")
        run_import(run_cli, game)
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "faq", "--append")
        refused = run_cli(*args)
        assert refused.exit_code == 2, refused.output
        assert "5 of the 5 drafts are already in" in refused.stderr and "of source 'rules'" in refused.stderr
        assert "Traceback" not in refused.output and not (game / "games/skyrail/faq.md").exists()
        forced = run_cli(*args, "--force")
        assert forced.exit_code == 0 and "5 added" in forced.stderr, forced.output

    def test_the_same_document_after_its_source_was_renamed_is_refused(self, run_cli, game: Path):
        """The source's id renamed in game.toml, its entries file not: the drafts (and the curator's work) are in a file
        of no source, and an import under the new id would draft it all again beside it. Refused, the way said."""
        run_import(run_cli, game)
        toml = game / "games/skyrail/game.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace('id = "rules"', 'id = "rulebook"'), encoding="utf-8")
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", "-s", "rulebook", "--append")
        refused = run_cli(*args)
        assert refused.exit_code == 2, refused.output
        assert "5 of the 5 drafts are already in" in refused.stderr and "rules.md, of no source game.toml declares" in refused.stderr
        assert "was the source 'rules' renamed 'rulebook'? Then rename the file rulebook.md" in refused.stderr
        assert not (game / "games/skyrail/rulebook.md").exists()
        (game / "games/skyrail/rules.md").rename(game / "games/skyrail/rulebook.md")
        again = run_cli(*args)
        assert again.exit_code == 0 and "0 added, 5 unchanged" in again.stderr, again.output

    def test_a_crlf_file_keeps_its_line_ending(self, run_cli, game: Path):
        """An entries file written with CRLF: the drafts an import adds to it are joined with CRLF too, no bare LF."""
        (game / "rules.md").write_text(RULES.split("## Derailment")[0], encoding="utf-8")
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
        (game / "rules.md").write_text(RULES, encoding="utf-8")
        result = run_import(run_cli, game)
        assert "3 added" in result.stderr, result.output
        assert b"\n" not in path.read_bytes().replace(b"\r\n", b"")


def _other_game(sections: int) -> str:
    """Another game's rules: headings none of skyrail's drafts has."""
    return "# Orchard Rules\n\n" + "".join(f"## Orchard rule {n}\n\nA grower plants tree number {n} in the orchard.\n\n" for n in range(sections))


class TestCuratorsWorkIsKept:
    def test_a_draft_edited_in_place_is_kept(self, run_cli, game: Path):
        """A draft whose text a curator has edited, its `draft: true` left, is not rewritten by the next import (its
        `drafted:` fingerprint is the imported text's): kept byte for byte and listed; the untouched ones update."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        text = path.read_text(encoding="utf-8")
        assert re.search(r"(?m)^drafted: [0-9a-f]{12}$", text)
        path.write_text(text.replace("Each conductor takes **4 tickets** and a locomotive of their colour.",
                                     "Every conductor starts with four tickets (work in progress)."), encoding="utf-8")
        edited = path.read_bytes()
        block = edited[edited.index(b"## skyrail-setup"):edited.index(b"## skyrail-coupling")]
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "1 kept as edited (still marked draft) (1 of them changed in the document)" in result.stderr
        assert "edited since it was imported (left as it is; remove its draft: true line once restated): skyrail-setup" in result.stderr
        # (the new edition changed its rule too: 4 tickets are 5)
        assert "  edited, its text changed in the document since (left as it is): skyrail-setup (Setup); once" in result.stderr
        assert block in path.read_bytes()
        assert "at a depot or a station" in entries(game)["skyrail-coupling"].text  # the untouched draft updated

    def test_a_restated_entry_whose_rule_changed_in_the_document_is_listed(self, run_cli, game: Path):
        """An entry accepted in review keeps its `drafted:` fingerprint: a new edition whose text for it differs leaves
        it byte for byte and lists it, with the new text's fingerprint; once that is its `drafted:`, it is listed no
        more. The same document again lists nothing."""
        run_import(run_cli, game)
        accepted = run_cli("--no-shipped", "--corpus", str(game / "games"), "review", "skyrail", input="a\nq\n")
        assert accepted.exit_code == 0 and "1 accepted" in accepted.stderr, accepted.output
        again = run_import(run_cli, game)
        assert "1 kept as restated;" in again.stderr and "changed in the document" not in again.stderr, again.stderr
        path = game / "games/skyrail/rules.md"
        before = path.read_text(encoding="utf-8")
        block = before[before.index("## skyrail-setup"):before.index("## skyrail-coupling")]
        assert "draft: true" not in block and "drafted: " in block
        (game / "rules.md").write_text(NEW_EDITION, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "1 kept as restated (1 of them changed in the document)" in result.stderr
        told = re.search(r"restated, its text changed in the document since \(left as it is\): skyrail-setup \(Setup\);"
                         r" once it says what the document says now, set its drafted: to ([0-9a-f]{12})", result.stderr)
        assert told, result.stderr
        after = path.read_text(encoding="utf-8")
        assert block in after and "4 tickets" in block
        new_block = block.replace("**4 tickets**", "five tickets")
        new_block = re.sub(r"drafted: [0-9a-f]{12}", f"drafted: {told.group(1)}", new_block)
        path.write_text(after.replace(block, new_block), encoding="utf-8")
        settled = run_import(run_cli, game)
        assert settled.exit_code == 0 and "changed in the document" not in settled.stderr, settled.stderr

    def test_a_restated_entry_whose_link_now_leads_to_a_renamed_entry_is_not_listed(self, run_cli, game: Path):
        """The document unchanged, an entry its restated one links to renamed by the curator: where the link leads has
        changed, not what the document says; nothing is listed."""
        (game / "rules.md").write_text(RULES.replace("and a locomotive of their colour.", "and a locomotive of their colour (see [Coupling](#coupling))."),
                                       encoding="utf-8")
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        assert "(#skyrail-coupling)" in path.read_text(encoding="utf-8")
        accepted = run_cli("--no-shipped", "--corpus", str(game / "games"), "review", "skyrail", input="a\nq\n")
        assert "1 accepted" in accepted.stderr, accepted.output
        path.write_text(path.read_text(encoding="utf-8").replace("## skyrail-coupling\n", "## skyrail-couple\n"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "1 kept as restated;" in result.stderr and "changed in the document" not in result.stderr, result.stderr

    def test_a_restated_entry_without_its_anchor_is_not_drafted_again(self, run_cli, game: Path):
        """An entry restated with its `anchor:` line deleted is paired with its draft by the id it was given: no
        second draft of it is added, and it is left as it is."""
        run_import(run_cli, game)
        path = game / "games/skyrail/rules.md"
        restate(path, "skyrail-setup", "## skyrail-setup\ntitle: Starting hands\nkind: setup\nsection: Setup\n\n"
                "Every conductor starts with four tickets and a locomotive in their colour.\n\n")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "0 added" in result.stderr and "1 kept as restated" in result.stderr
        assert "skyrail-setup-2" not in path.read_text(encoding="utf-8")

    def test_another_games_document_is_refused(self, run_cli, game: Path):
        """A document that matches almost none of the many drafts already in the file (another game's rules, the
        wrong file) is refused: nothing written, the declared document named; --force imports it anyway."""
        (game / "rules.md").write_text(RULES + "".join(f"\n## Station {n}\n\nA station of number {n} sells {n} tickets.\n" for n in range(25)),
                                       encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        toml = game / "games/skyrail/game.toml"
        assert 'document = "rules.md"' in toml.read_text(encoding="utf-8")
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        (game / "orchard.md").write_text(_other_game(30), encoding="utf-8")
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "orchard.md"), "-g", "skyrail", "--append")
        refused = run_cli(*args)
        assert refused.exit_code == 2, refused.output
        assert "only 0 of the 30 drafts of orchard.md are in" in refused.stderr
        assert "its source's document is rules.md" in refused.stderr and "--force" in refused.stderr
        assert path.read_bytes() == before
        forced = run_cli(*args, "--force")
        assert forced.exit_code == 0 and "30 added" in forced.stderr, forced.output

    def test_another_games_document_is_refused_by_a_small_file_too(self, run_cli, game: Path):
        """A file of a few drafts none of which the new document has is not that document's either: refused."""
        (game / "rules.md").write_text(RULES + "".join(f"\n## Station {n}\n\nA station of number {n} sells {n} tickets.\n" for n in range(3)),
                                       encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        assert before.count(b"\nanchor: ") >= 5
        (game / "orchard.md").write_text(_other_game(4), encoding="utf-8")
        args = ("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "orchard.md"), "-g", "skyrail", "--append")
        refused = run_cli(*args)
        assert refused.exit_code == 2 and "only 0 of the 4 drafts of orchard.md are in" in refused.stderr, refused.output
        assert path.read_bytes() == before

    @pytest.mark.parametrize(("document", "refused"), [("orchard.md", True), ("rules.md", False)])
    def test_another_games_document_is_refused_by_a_file_restated_by_hand(self, run_cli, game: Path, document: str, refused: bool):
        """A file of entries a curator wrote (no draft, no anchor), each citing a section of its source: a document that
        has few of those sections is another's, refused, nothing written; the source's own is imported."""
        sections = ["Setup", "Coupling", "Derailment", "FAQ", "Setup"]
        written = "".join(f"## skyrail-mine-{n}\ntitle: Mine {n}\nkind: rule\nsection: {section}\n\nA rule of mine, number {n}.\n\n"
                          for n, section in enumerate(sections))
        path = game / "games/skyrail/rules.md"
        path.write_text(written, encoding="utf-8")
        (game / "orchard.md").write_text(_other_game(30), encoding="utf-8")
        before = path.read_bytes()
        result = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / document), "-g", "skyrail", "--append")
        if refused:
            assert result.exit_code == 2, result.output
            assert "citing a section, only 0 cite one that orchard.md has: is it the right document?" in result.stderr
            assert path.read_bytes() == before
        else:
            assert result.exit_code == 0, result.output
            assert path.read_bytes().startswith(before)

    def test_a_new_edition_is_not_refused(self, run_cli, game: Path):
        """A new edition, most of whose places are the file's, is an update, however many drafts the file has."""
        many = "".join(f"\n## Station {n}\n\nA station of number {n} sells {n} tickets.\n" for n in range(25))
        (game / "rules.md").write_text(RULES + many, encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        (game / "rules.md").write_text(NEW_EDITION + many.replace("sells", "sold"), encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "updated" in result.stderr

    def test_a_new_edition_that_moves_its_headings_is_not_refused(self, run_cli, game: Path):
        """A new edition whose sections moved under a new parent heading (every anchor changed, the titles
        kept) is an update, as the update pairs them by title."""
        many = "".join(f"\n## Station {n}\n\nA station of number {n} sells {n} tickets.\n" for n in range(25))
        (game / "rules.md").write_text(RULES + many, encoding="utf-8")
        assert run_import(run_cli, game).exit_code == 0
        moved = "\n# Stations\n\nEvery station of the line.\n" + many.replace("## Station", "### Station")
        (game / "rules.md").write_text(RULES + moved, encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 0, result.output
        assert "updated" in result.stderr and "Station 7" in (game / "games/skyrail/rules.md").read_text(encoding="utf-8")

    def test_a_document_with_nothing_to_draft_is_refused(self, run_cli, game: Path):
        """An empty document drafts nothing: refused, rather than listing every draft of the file as gone."""
        assert run_import(run_cli, game).exit_code == 0
        path = game / "games/skyrail/rules.md"
        before = path.read_bytes()
        (game / "rules.md").write_text("", encoding="utf-8")
        result = run_import(run_cli, game)
        assert result.exit_code == 2, result.output
        assert "holds no rule to draft" in result.stderr and "Traceback" not in result.output
        assert path.read_bytes() == before
        # printed or written elsewhere, alike: no header of an import of nothing
        for where in ((), ("--out", str(game / "drafts.md"))):
            printed = run_cli("--no-shipped", "--corpus", str(game / "games"), "import", str(game / "rules.md"), "-g", "skyrail", *where)
            assert printed.exit_code == 2 and "holds no rule to draft" in printed.stderr and not printed.stdout, printed.output
        assert not (game / "drafts.md").exists()


@pytest.mark.parametrize(("broken", "said"), [
    (lambda toml: toml.write_text(toml.read_text(encoding="utf-8").replace('title = "Skyrail rulebook"\n', 'title = "Skyrail rulebook"\n'
                                                                          'trust = "oficial"\n'), encoding="utf-8"),
     "game.toml:{line}: unknown trust 'oficial'"),
    (lambda toml: toml.unlink(), "skyrail:0: no game.toml in this game folder"),
])
@pytest.mark.parametrize("command", [("import", "{doc}", "-g", "skyrail", "-s", "rules", "--append"), ("review", "skyrail"),
                                     ("new", "-g", "skyrail", "-k", "faq"), ("changes", "skyrail")])
def test_a_game_left_out_for_its_game_toml_is_told_why(run_cli, game: Path, broken, said: str, command: tuple[str, ...]):
    """A curator command on a game whose game.toml does not read says so, at the file and line, not "no game"."""
    toml = game / "games/skyrail/game.toml"
    line = toml.read_text(encoding="utf-8")[: toml.read_text(encoding="utf-8").index("title =")].count("\n") + 2  # (after the title)
    broken(toml)
    result = run_cli("--corpus", str(game / "games"), *(part.format(doc=game / "rules.md") for part in command), input="")
    assert result.exit_code == 2, result.output
    assert "Error: the game 'skyrail' is left out of the corpus for a problem: " in result.stderr, result.stderr
    assert said.format(line=line) in result.stderr and "no game 'skyrail'" not in result.stderr


@pytest.mark.parametrize("named", ["Skyrail Express", "skyrail express", "SKYRAIL"])
def test_curator_commands_take_the_game_by_its_name(run_cli, game: Path, named: str):
    """import, review, new and changes read a game as ask's --game does: its slug, its name, an alias, in any case."""
    corpus_args = ("--no-shipped", "--corpus", str(game / "games"))
    imported = run_cli(*corpus_args, "import", str(game / "rules.md"), "-g", named, "-s", "rules", "--append")
    assert imported.exit_code == 0 and "5 added" in imported.stderr, imported.output
    assert "skyrail-setup (5 left)" in run_cli(*corpus_args, "review", named, input="q\n").stdout
    assert run_cli(*corpus_args, "new", "-g", named, "-k", "faq", "-t", "Tunnels?").stdout.startswith("## skyrail-tunnels\n")
    listed = run_cli(*corpus_args, "changes", named, "--json")
    assert listed.exit_code == 0 and json.loads(listed.stdout)["game"] == "skyrail"


def test_a_game_left_out_is_not_taken_for_another_it_begins(run_cli, game: Path):
    """A left-out game whose slug begins another game's ("sky" beside skyrail) is said left out, never taken for it."""
    toml = skyrail_toml().replace('slug = "skyrail"', 'slug = "sky"').replace('id_prefix = "skyrail"', 'id_prefix = "sky"\nyear = "soon"')
    write_corpus(game, {"games/sky/game.toml": toml, "games/sky/rules.md": "# Sky\n"})
    result = run_cli("--no-shipped", "--corpus", str(game / "games"), "new", "-g", "sky", "-k", "faq", "-t", "Q")
    assert result.exit_code == 2 and "the game 'sky' is left out of the corpus for a problem" in result.stderr, result.output
