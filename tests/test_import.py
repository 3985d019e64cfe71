"""`rulebot import`: drafting entries from small Markdown and plain-text documents written for these tests."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import MINIMAL, write_corpus

from rulebot.corpus import importing as importer
from rulebot.corpus import load as corpus
from rulebot.corpus import shaping
from rulebot.corpus.drafted import DraftEntry, Imported
from rulebot.corpus.model import Game, Source

GAME = Game(slug="toy", name="Toy Game", id_prefix="toy", sources=(Source(id="reference", title="Toy reference"),))
SOURCE = GAME.sources[0]

FAQ_MD = """\
# Toy Game Reference

Read this after the rulebook.

## Errata

**Ferry Gull** — The card should say one ferry, not two.

## Frequently Asked Questions

**Lantern Keeper** — The keeper breaks every tie at the end of the game.

#### See also Tides, "Night Watch."

\\* **Tides** — The tide rises by one each round. **Storm Bell** — Ringing it ends the round at once.

#### Keeper - See Lantern Keeper.

Beacon – See Nowhere Card.

Q: Can one ferry carry two captains?

A: No, a ferry carries a single captain.

It may carry cargo too.

## Glossary

### Dock

A dock holds two ferries at most. Its rules are in [the tides entry](#tides-and-docks).

```
## not a heading: code
```

### Tides and Docks

Docks flood when the tide reaches 5 (see Dock).

### Harbour Master

See Lantern Keeper.
"""

RULES_TXT = """\
Toy Comprehensive Rules

These rules apply from the first game on.

1. Basics

100. General

100.1. A game is played by two to four captains.

100.2. Ferries

100.2a A ferry moves one dock per turn. See rule 100.1.
Example: A ferry on dock 3 can reach dock 4.

100.2b A ferry never sinks (see rules 100.2a–c and 101.1).

100.2c A sunk ferry is a house rule only.

101. Docks

101.1. Each dock holds two ferries. See rule 100.

Glossary

Dock
A place where ferries wait. See rule 101.1.

Ferry
A boat of a captain. See rule 100.2.
"""


def draft(text: str, markdown: bool = True, existing: corpus.Corpus | None = None) -> Imported:
    """Draft the toy game's entries from a document text."""
    return importer.draft_entries(text, game=GAME, source=SOURCE, markdown=markdown, corpus=existing, document="doc")


def by_title(result: Imported) -> dict[str, DraftEntry]:
    """The drafts of a result by title."""
    return {e.title: e for e in result.entries}


class TestMarkdown:
    def test_lead_ins_become_entries_with_sections_and_kinds(self):
        """A bold lead-in is an entry titled by its name, in the section of the headings above it."""
        entries = by_title(draft(FAQ_MD))
        gull = entries["Ferry Gull"]
        assert (gull.id, gull.kind, gull.section) == ("toy-ferry-gull", "errata", "Errata > Ferry Gull")
        assert gull.text == "The card should say one ferry, not two."
        assert entries["Lantern Keeper"].kind == "faq"

    @pytest.mark.parametrize("heading", ["Variant", "Variants", "Variantes", "House Rules"])
    def test_a_kind_is_read_from_a_plural_heading_too(self, heading: str):
        """"## Variants" makes its items variants as "## Variant" does (house rules, house rules)."""
        kind = "house-rule" if heading == "House Rules" else "variant"
        entries = by_title(draft(f"# Toy\n\n## {heading}\n\n**Solo** — Play alone against the tide.\n"))
        assert entries["Solo"].kind == kind

    def test_heading_with_text_is_an_entry(self):
        """A heading with text of its own is an entry; the document title is no section."""
        entries = by_title(draft(FAQ_MD))
        assert entries["Dock"].section == "Glossary > Dock"
        assert entries["Dock"].kind == "term"
        assert entries["Toy Game Reference"].text == "Read this after the rulebook."

    def test_lead_in_in_the_middle_of_a_paragraph(self):
        """A second bold lead-in inside a paragraph starts an entry of its own."""
        entries = by_title(draft(FAQ_MD))
        assert entries["Tides"].text.startswith("The tide rises by one each round.")
        assert "Storm Bell" not in entries["Tides"].text
        assert entries["Storm Bell"].text == "Ringing it ends the round at once."

    def test_revision_mark_is_noted(self):
        """An entry marked new or revised (a leading *) says so in a draft note."""
        assert "Draft note: the document marks this entry as new or revised." in by_title(draft(FAQ_MD))["Tides"].text

    def test_see_also_resolves_to_drafted_ids(self):
        """A See also line links to the draft of that title; one naming nothing stays as a note."""
        result = draft(FAQ_MD)
        keeper = by_title(result)["Lantern Keeper"]
        assert keeper.see_also == ("toy-tides",)
        assert "Draft note: “See also Night Watch” names no drafted entry." in keeper.text
        assert any(text == "Night Watch" for _, text in result.unresolved)

    def test_redirects_become_aliases(self):
        """`X - See Y.` puts the alias X on Y; a heading whose only text is `See Y.` too."""
        result = draft(FAQ_MD)
        keeper = by_title(result)["Lantern Keeper"]
        assert keeper.aliases == ("Keeper", "Harbour Master")
        assert "Harbour Master" not in by_title(result)
        assert result.aliases == 2
        assert [text for _, text in result.redirects_unresolved] == ["Beacon – See Nowhere Card."]

    def test_question_and_answer(self):
        """A Q:/A: pair is an FAQ entry titled by the question, its text the answer and what follows."""
        question = by_title(draft(FAQ_MD))["Can one ferry carry two captains?"]
        assert question.kind == "faq"
        assert question.section == "Frequently Asked Questions, question 1"
        assert question.text == "No, a ferry carries a single captain.\n\nIt may carry cargo too."

    def test_a_question_in_bold_under_a_heading_of_questions(self):
        """Under a heading of questions, a paragraph all in bold that asks is an FAQ entry, its answer the paragraphs
        after it; elsewhere a question in bold stays text."""
        document = (
            "# Reference\n\n## Dock\n\nA dock holds ferries.\n\n**Can a dock hold three ferries?**\n\nOnly two.\n\n"
            "## Questions and Answers\n\n**Can a ferry wait at\na full dock?**\n\nNo. It moves on.\n\nIt may come back later.\n\n"
            "**Who moves first at low tide?**\n\nThe harbour master.\n"
        )
        entries = draft(document).entries
        assert [(e.title, e.kind) for e in entries] == [
            ("Dock", "rule"), ("Can a ferry wait at a full dock?", "faq"), ("Who moves first at low tide?", "faq"),
        ]
        assert "**Can a dock hold three ferries?**" in entries[0].text
        assert entries[1].text == "No. It moves on.\n\nIt may come back later."
        assert entries[2].section == "Questions and Answers, question 2"

    def test_a_question_in_bold_keeps_an_answer_that_begins_like_an_entry(self):
        """The paragraph after a question is its answer, a bold lead-in or a numbered rule too: the question is
        not left empty (and dropped) while its answer becomes an entry of its own."""
        document = (
            "# Toy\n\n## FAQ\n\n**Can a ferry wait?**\n\n**Yes.** It waits one round.\n\n"
            "**When does the tide rise?**\n\n3.2 The tide rises at dusk.\n"
        )
        entries = draft(document).entries
        assert [(e.title, e.kind, e.text) for e in entries] == [
            ("Can a ferry wait?", "faq", "**Yes.** It waits one round."),
            ("When does the tide rise?", "faq", "3.2 The tide rises at dusk."),
        ]

    def test_questions_in_bold_in_a_sub_section_of_questions_or_a_document_of_them(self):
        """Below a heading of questions ("FAQ > Setup"), or in a document titled as one, a question in bold is one."""
        below = draft("# Toy\n\n## FAQ\n\n### Setup\n\n**How many ferries?**\n\nTwo.\n").entries
        assert [(e.title, e.kind, e.text) for e in below] == [("How many ferries?", "faq", "Two.")]
        titled = draft("# Toy Game FAQ\n\n**Can a ferry wait?**\n\nYes, one round.\n").entries
        assert [(e.title, e.kind, e.text) for e in titled] == [("Can a ferry wait?", "faq", "Yes, one round.")]

    def test_links_and_see_references(self):
        """A link to a heading of the document and `(see X)` become see_also."""
        entries = by_title(draft(FAQ_MD))
        assert entries["Dock"].see_also == ("toy-tides-and-docks",)
        assert entries["Tides and Docks"].see_also == ("toy-dock",)

    def test_links_to_headings_lead_to_their_entries(self):
        """A link to a heading of the document leads to the entry drafted from it (the site links entries by id),
        a link to no heading drafted is left as its words; "See [X](#x) for ..." is that link, no name to resolve."""
        result = draft(
            "# Toy\n\n## Attack\n\nRoll. See [Defense](#defense) for blocking, and [the rest](#nowhere).\n\n"
            "## Defense\n\nA defender rolls evade dice.\n"
        )
        attack = by_title(result)["Attack"]
        assert attack.text == "Roll. See [Defense](#toy-defense) for blocking, and the rest."
        assert attack.see_also == ("toy-defense",)
        assert [text for _line, text in result.unresolved] == ["#nowhere"]

    def test_links_in_code_stay_and_links_of_any_form_are_followed(self):
        """Code is left as it is; a link with brackets in its words or a title leads to its entry too; a link's words
        make no "See" name of words that only begin like them ("(see Movement Points)" is no link "move")."""
        result = draft(
            "# Toy\n\n## Attack\n\nRoll `[x](#defense)`; see [Defense [D]](#defense \"blocking\"); [move](#move) "
            "one space (see Movement Points); [`Dice`](<#defense> 'the dice').\n\n```\n[y](#defense)\n```\n\n"
            "## Defense\n\nDice.\n\n## Move\n\nGo.\n"
        )
        attack = by_title(result)["Attack"]
        assert attack.text.startswith(
            "Roll `[x](#defense)`; see [Defense [D]](#toy-defense); [move](#toy-move) one space (see Movement Points); "
            "[`Dice`](#toy-defense)."
        )
        assert "[y](#defense)" in attack.text and attack.see_also == ("toy-defense", "toy-move")
        assert "(see Movement Points)" in [text for _line, text in result.unresolved]

    def test_code_spans_close_on_as_many_backticks(self):
        """Inline code runs from a run of backticks to the next run of as many (CommonMark): a link inside is code, a
        lone backtick is none; a long run of backticks and many fences are read in one pass."""
        from rulebot.text import links, target_of

        assert links("`` [a](#b) ` [c](#d) ``") == []
        assert [target_of(link) for link in links("x ` [a](#b)")] == ["#b"]
        assert [target_of(link) for link in links("x `` [a](#b) `y` [c](#d)")] == ["#b", "#d"]
        assert [target_of(link) for link in links("`" * 40000 + " [a](#b)")] == ["#b"]
        assert links("```\n" * 20001 + "[a](#b)") == []  # (the last fence, never closed, runs to the end)

    def test_code_stays_in_the_text(self):
        """A `## ` line inside a fenced code block stays text, and the file still loads."""
        assert "## not a heading: code" in by_title(draft(FAQ_MD))["Dock"].text

    def test_every_entry_is_a_draft_and_the_file_loads(self, tmp_path: Path):
        """The drafted file is a valid entries file whose entries are all drafts."""
        result = draft(FAQ_MD)
        root = write_corpus(tmp_path / "c", {
            "toy/game.toml": 'slug = "toy"\nname = "Toy Game"\nid_prefix = "toy"\n\n[[sources]]\nid = "reference"\ntitle = "Toy reference"\n',
            "toy/reference.md": result.to_markdown(),
        })
        loaded, problems = corpus.check([root])
        assert problems == []
        assert len(loaded.entries) == len(result.entries)
        assert all(e.draft for e in loaded.entries.values())
        assert loaded.entry("toy-lantern-keeper").aliases[0].text == "Keeper"

    def test_ids_are_unique(self):
        """Two drafts of one title, or a title already taken in the corpus, get -2, -3 ..."""
        existing = corpus.load([MINIMAL])
        game = Game(slug="lantern-harbor", name="Lantern Harbor", id_prefix="lh", sources=(SOURCE,))
        text = "## Setup\n\nFirst.\n\n## Setup\n\nSecond.\n"
        result = importer.draft_entries(text, game=game, source=SOURCE, corpus=existing)
        assert [e.id for e in result.entries] == ["lh-setup-2", "lh-setup-3"]

    def test_references_may_name_existing_entries(self):
        """A See also naming an entry already in the game's corpus links to it."""
        existing = corpus.load([MINIMAL])
        game = existing.game("lantern-harbor")
        result = importer.draft_entries("## Tie\n\nCaptains compare shells.\n\nSee also Lantern Keeper.\n", game=game, source=SOURCE, corpus=existing)
        assert result.entries[0].see_also == ("lh-lantern-keeper",)


@pytest.fixture
def apart(monkeypatch):
    """Every family of rules too long to be joined: each rule a draft of its own."""
    monkeypatch.setattr(shaping, "JOIN_WORDS", 0)


class TestPlainText:
    @pytest.mark.usefixtures("apart")
    def test_numbered_rules_are_entries(self):
        """Each numbered rule is an entry titled by its number and the name of the rule above it."""
        entries = {e.id: e for e in draft(RULES_TXT, markdown=False).entries}
        rule = entries["toy-100-2a-ferries"]
        assert rule.title == "100.2a Ferries"
        assert rule.section == "1. Basics > 100. General > 100.2a"
        assert rule.text.startswith("A ferry moves one dock per turn.")
        assert "Example: A ferry on dock 3" in rule.text
        assert entries["toy-100-1-general"].text == "A game is played by two to four captains."

    def test_titled_rule_is_no_entry(self):
        """`100.2. Ferries` names the rules below it instead of being an entry."""
        titles = [e.title for e in draft(RULES_TXT, markdown=False).entries]
        assert "100.2 Ferries" not in titles

    @pytest.mark.usefixtures("apart")
    def test_rule_references(self):
        """`See rule N`, `rules A–c and B` and section numbers resolve to the clauses they name."""
        entries = {e.id: e for e in draft(RULES_TXT, markdown=False).entries}
        assert entries["toy-100-2a-ferries"].see_also == ("toy-100-1-general",)
        assert entries["toy-100-2b-ferries"].see_also == ("toy-100-2a-ferries", "toy-100-2c-ferries", "toy-101-1-docks")
        assert entries["toy-101-1-docks"].see_also == ("toy-100-1-general",)
        assert entries["toy-ferry"].see_also == ("toy-100-2a-ferries",)

    def test_short_family_is_one_entry(self):
        """A rule and its sub-rules short enough to be one answer are one entry, the deeper family first: each
        rule's text after its number, a family joined before after its title."""
        entries = {e.id: e for e in draft(RULES_TXT, markdown=False).entries}
        family = entries["toy-100-general"]
        assert (family.title, family.section) == ("100 General", "1. Basics > 100. General")
        assert family.text.split("\n\n") == [
            "**100.1** A game is played by two to four captains.",
            "**100.2 Ferries**",
            "**100.2a** A ferry moves one dock per turn. See rule 100.1.\nExample: A ferry on dock 3 can reach dock 4.",
            "**100.2b** A ferry never sinks (see rules 100.2a–c and 101.1).",
            "**100.2c** A sunk ferry is a house rule only.",
        ]
        assert not any(id.startswith(("toy-100-1", "toy-100-2")) for id in entries)

    def test_references_to_a_joined_rule(self):
        """A reference to a rule of a joined family names the family's entry."""
        entries = {e.id: e for e in draft(RULES_TXT, markdown=False).entries}
        assert entries["toy-ferry"].see_also == ("toy-100-general",)
        assert entries["toy-101-1-docks"].see_also == ("toy-100-general",)
        assert entries["toy-100-general"].see_also == ("toy-101-1-docks",)

    def test_long_family_stays_apart(self, monkeypatch):
        """A family over JOIN_WORDS is not joined, while a shorter one is."""
        monkeypatch.setattr(shaping, "JOIN_WORDS", 40)
        titles = [e.title for e in draft(RULES_TXT, markdown=False).entries]
        assert "100.2 Ferries" in titles and "100.1 General" in titles and "100 General" not in titles

    def test_family_joins_with_its_head_or_not_at_all(self, monkeypatch):
        """A rule's sub-rules are not joined without the rule's own text, when all of them are too long."""
        monkeypatch.setattr(shaping, "JOIN_WORDS", 40)
        text = RULES_TXT.replace("100.2. Ferries\n", "100.2. Ferries are the boats, each with a captain, a crew and a lantern, sailing between the docks.\n")
        titles = [e.title for e in draft(text, markdown=False).entries]
        assert titles.count("100.2 General") == 1 and "100.2a General" in titles

    def test_interrupted_family_stays_apart(self):
        """Rules of one family with other text between them are not joined over it."""
        text = RULES_TXT.replace("100.2c A sunk", "Harbour notes\nA glossary line.\n\n100.2c A sunk")
        titles = [e.title for e in draft(text, markdown=False).entries]
        assert "100 General" not in titles and "100.2c Ferries" in titles

    def test_glossary_terms(self):
        """A short line with its definition below is a glossary entry."""
        dock = by_title(draft(RULES_TXT, markdown=False))["Dock"]
        assert (dock.kind, dock.section, dock.text) == ("term", "Glossary > Dock", "A place where ferries wait. See rule 101.1.")

    def test_wrapped_sentence_is_no_term(self):
        """A sentence wrapped over two lines, as text out of a PDF is, stays text: its first line is no term."""
        text = RULES_TXT.replace("See rule 101.1.\n", "See rule 101.1.\n\nA ferry may dock at\nany pier of its colour.\n", 1)
        entries = by_title(draft(text, markdown=False))
        assert "A ferry may dock at" not in entries
        assert entries["Dock"].text.endswith("A ferry may dock at\nany pier of its colour.")

    def test_short_term_with_a_lower_case_definition_is_a_term(self):
        """A short name over a definition in lower case is a glossary term all the same, not a wrapped sentence."""
        text = RULES_TXT.replace("Ferry\n", "Moor\nto tie a ferry to its dock.\n\nFerry\n", 1)
        moor = by_title(draft(text, markdown=False))["Moor"]
        assert (moor.kind, moor.text) == ("term", "to tie a ferry to its dock.")

    PROSE = " ".join(["Captains sail their ferries between the docks of every colour and trade cargo as they go."] * 4)
    """About sixty words of a section's text, so that a rulebook of a few sections writes its headings in capitals."""
    RULEBOOK_TXT = f"""\
Toy Rulebook

SETUP
Each captain takes two ferries. {PROSE}

Docks
Each dock holds two ferries.

PLAYING THE GAME
Captains take turns. {PROSE}

Moving
A ferry moves one dock per turn.

END OF THE GAME
The game ends when a ferry sinks. {PROSE}
"""

    def sections(self, text: str) -> dict[str, tuple[str, str]]:
        """Each draft's (kind, section), by title."""
        return {e.title: (e.kind, e.section) for e in draft(text, markdown=False).entries}

    def test_headings_in_capitals_head_their_sections(self):
        """A rulebook taken out of a PDF writes its headings in capitals, its text right below them: each heads a
        section, and the short lines over a definition between them sit in theirs."""
        entries = by_title(draft(self.RULEBOOK_TXT, markdown=False))
        assert [(e.title, e.kind, e.section) for e in entries.values()] == [
            ("Setup", "setup", "Setup"),
            ("Docks", "setup", "Setup > Docks"),
            ("Playing the Game", "rule", "Playing the Game"),
            ("Moving", "rule", "Playing the Game > Moving"),
            ("End of the Game", "rule", "End of the Game"),
        ]
        assert entries["Setup"].text == f"Each captain takes two ferries. {self.PROSE}"
        assert entries["Moving"].text == "A ferry moves one dock per turn."

    def test_a_first_heading_in_capitals_over_its_text_is_no_title(self):
        """With no title line above it (a PDF's title is often a picture), the first heading in capitals over its
        text heads its section as the others do: it is not the document's title."""
        assert self.sections(self.RULEBOOK_TXT.replace("Toy Rulebook\n\n", "", 1))["Docks"] == ("setup", "Setup > Docks")

    def test_the_text_of_a_heading_in_capitals_is_text_whatever_it_looks_like(self):
        """A section's text of one line with no full stop is its text, not a heading of its own."""
        text = self.RULEBOOK_TXT.replace("The game ends when a ferry sinks. ", "The captain with most ferries wins\n\n", 1)
        entries = by_title(draft(text, markdown=False))
        assert entries["End of the Game"].text.startswith("The captain with most ferries wins")

    def test_a_wrapped_sentence_in_capitals_is_no_heading(self):
        """A line in capitals going on in lower case on the next line is a sentence the page wrapped."""
        text = self.RULEBOOK_TXT.replace("Moving\n", "IMPORTANT: NO CAPTAIN MAY EVER MOVE MORE THAN\ntwo ferries in one turn.\n\nMoving\n", 1)
        sections = self.sections(text)
        assert not any(title.startswith("Important") for title in sections)
        assert "two ferries in one turn." in by_title(draft(text, markdown=False))["Playing the Game"].text

    def test_numbered_headings_sit_under_those_in_capitals(self):
        """A numbered heading sits under the last heading in capitals, and keeps its items apart; one in capitals
        heads a section of its own."""
        text = self.RULEBOOK_TXT + f"\n12. Variants\n\nSome variants change the rules.\n\nSolo — You sail against the tide.\n\n13. CREDITS\n\nDesigned by a captain. {self.PROSE}\n"
        sections = self.sections(text)
        assert sections["12. Variants"][1] == "End of the Game > 12. Variants"
        assert sections["Solo"][1] == "End of the Game > 12. Variants > Solo"
        assert sections["13. Credits"][1] == "13. Credits"

    def test_a_glossary_in_capitals_is_a_glossary(self):
        """Terms in capitals over a line or two of definition are a glossary's, not sections in capitals."""
        text = "Toy Rulebook\n\nGlossary\n\nEXHAUST\nTurn the card sideways.\n\nREADY\nTurn the card upright.\n\nDISCARD\nPut the card in the discard pile.\n"
        assert self.sections(text) == {
            "Exhaust": ("term", "Glossary > Exhaust"), "Ready": ("term", "Glossary > Ready"), "Discard": ("term", "Glossary > Discard"),
        }

    def test_a_line_or_two_in_capitals_is_no_style_of_headings(self):
        """Two lines in capitals are no way of writing headings: each is a name over its text, as before, a rule (or
        what its name says it is: a setup), not a glossary's term, under no glossary heading."""
        text = self.RULEBOOK_TXT.replace("PLAYING THE GAME", "Playing the game")
        assert self.sections(text) == {
            "Setup": ("setup", "Setup"), "Docks": ("rule", "Docks"), "Playing the game": ("rule", "Playing the game"),
            "Moving": ("rule", "Moving"), "End of the Game": ("rule", "End of the Game"),
        }

    def test_questions_run_on_in_one_paragraph_are_each_an_entry(self):
        """`Q:` and `A:` lines with no blank line between them (as a plain text runs them on): each question is an FAQ
        entry of its own, with its answer."""
        text = "Toy Rulebook\n\nFAQ\n\nQ: Can a ferry sink twice?\nA: No, a sunk ferry leaves the game.\nQ: May captains trade docks?\nA: Yes, once per turn.\n"
        entries = by_title(draft(text, markdown=False))
        assert {title: (e.kind, e.text) for title, e in entries.items() if e.kind == "faq"} == {
            "Can a ferry sink twice?": ("faq", "No, a sunk ferry leaves the game."),
            "May captains trade docks?": ("faq", "Yes, once per turn."),
        }

    def test_counts(self):
        """The result counts the drafts and the references resolved."""
        result = draft(RULES_TXT, markdown=False)
        assert len(result.entries) == 5
        assert result.resolved == 4 and result.unresolved == []

    def test_hash_line_is_escaped(self):
        """A plain-text line starting with # cannot become a heading in the draft."""
        result = draft("Rules\n\n# of ferries is four.\n", markdown=False)
        assert result.entries[0].text == "\\# of ferries is four."


NUMBERED_MD = """\
# Reference

## 1. BASICS

### 1.1. FERRIES

#### 1.1.1. Moving

A ferry moves one dock. [See 1.2. Docks](#12-docks)

##### 1.1.1.A.

A ferry may wait instead.

### 1.2. DOCKS

#### 1.2.1.

A dock holds two ferries.
"""


class TestNumberedMarkdown:
    @pytest.mark.usefixtures("apart")
    def test_numbered_headings(self):
        """Numbered headings are rules titled by number and name; a sub-rule takes its parent's name."""
        entries = draft(NUMBERED_MD).entries
        assert [(e.title, e.section) for e in entries] == [
            ("1.1.1 Moving", "1. Basics > 1.1. Ferries > 1.1.1. Moving"),
            ("1.1.1.A Moving", "1. Basics > 1.1. Ferries > 1.1.1. Moving > 1.1.1.A"),
            ("1.2.1 Docks", "1. Basics > 1.2. Docks > 1.2.1"),
        ]

    def test_short_heading_family_is_one_entry(self):
        """A numbered heading's text and its short numbered sub-headings are one entry, under the heading's title."""
        entries = draft(NUMBERED_MD).entries
        assert [(e.title, e.section) for e in entries] == [
            ("1.1.1 Moving", "1. Basics > 1.1. Ferries > 1.1.1. Moving"),
            ("1.2.1 Docks", "1. Basics > 1.2. Docks > 1.2.1"),
        ]
        assert entries[0].text.endswith("\n\n**1.1.1.A** A ferry may wait instead.")

    def test_joined_family_keeps_names_markdown_and_see_also(self):
        """A joined family is titled by its heading's name; a sub-rule keeps a name of its own; the bold number goes
        on a paragraph of its own before a code block or a list, which it would break; a See also line that is a
        sub-rule's only text stays in the text."""
        document = (
            "# Reference\n\n### 1.3. GOLDEN RULES\n\n#### 1.3.1. Precedence\n\nCards beat the rules.\n\n"
            "#### 1.3.2.\n\n```\npower = base + damage\n```\n\n#### 1.3.3.\n\n- one\n- two\n\n"
            "#### 1.3.4. Timing\n\nSee also: Precedence\n"
        )
        entry = draft(document).entries[0]
        assert (entry.title, entry.section) == ("1.3 Golden Rules", "1.3. Golden Rules")
        assert entry.text.split("\n\n") == [
            "**1.3.1 Precedence** Cards beat the rules.",
            "**1.3.2**", "```\npower = base + damage\n```",
            "**1.3.3**", "- one\n- two",
            "**1.3.4 Timing** See also: Precedence",
        ]

    @pytest.mark.parametrize("gap", ["\n\n", "\n"], ids=["paragraphs", "lines"])
    def test_a_rule_with_sub_rules_is_numbered_before_its_own_text(self, gap: str):
        """A numbered rule with text of its own and sub-rules under it, joined with its siblings: its number in bold
        starts its text, as every rule's does ("**4.2** Do one action.", not "**4.2**" standing alone); rules on
        lines of their own with no blank line between are rules each, as in a plain-text document."""
        rules = gap.join(["4.1 Go clockwise.", "4.2 Do one action.", "4.2a Float: play a card.", "4.2b Gust: move."])
        entry = draft(f"# Toy\n\n## 4 Turn\n\n{rules}\n\n## 5 End\n\n5.1 The tide ends it.\n\n5.2 Then count.\n").entries[0]
        assert entry.text.split("\n\n") == ["**4.1** Go clockwise.", "**4.2** Do one action.", "**4.2a** Float: play a card.", "**4.2b** Gust: move."]

    def test_a_wrapped_line_that_starts_with_a_number_is_no_rule(self):
        """A paragraph hard-wrapped where a line happens to start with a rule number ("… the limits of rule" /
        "3.1 and …"): the number goes back, so it is one paragraph of one rule, not a rule 3.1 under 4."""
        document = ("# Toy\n\n## 3 Movement\n\n3.1 A ferry moves one dock.\n\n3.2 It may wait.\n\n## 4 Coupling\n\n"
                    "4.1 A ferry couples following the limits of rule\n3.1 and paying one ticket.\n\n4.2 Then it rests.\n")
        entries = draft(document).entries
        assert [e.title for e in entries] == ["3 Movement", "4 Coupling"]
        assert "**4.1** A ferry couples following the limits of rule\n3.1 and paying one ticket." in entries[1].text

    def test_joined_family_names_only_what_is_named(self, monkeypatch):
        """A family with no heading of its own is named by the nearest heading above it, and each rule keeps its
        own name only: an unnamed rule, or a family joined before, shows its number alone. A tab-indented code
        block, a table whose rows start with no `|` and a thematic break get the number on a paragraph of their own."""
        document = (
            "# Reference\n\n## 5. MOVEMENT\n\n#### 5.1.1. Terrain\n\nHills slow ships.\n\n#### 5.1.2.\n\n"
            "\tspeed = 3 - hills\n\n#### 5.1.3. Roads\n\nCase | Speed\n---|---\nroad | 4\n\n#### 5.1.4.\n\n___\n\n"
            "### 5.2. DOCKS\n\n#### 5.2.1.\n\nA dock holds two ships.\n\n#### 5.2.2.\n\nA ship may wait there.\n"
        )
        monkeypatch.setattr(shaping, "JOIN_WORDS", 30)  # each family joins, not the two together
        entries = draft(document).entries
        assert [e.title for e in entries] == ["5.1 Movement", "5.2 Docks"]
        assert entries[0].text.split("\n\n") == [
            "**5.1.1 Terrain** Hills slow ships.",
            "**5.1.2**", "\tspeed = 3 - hills",
            "**5.1.3 Roads**", "Case | Speed\n---|---\nroad | 4",
            "**5.1.4**", "___",
        ]
        assert entries[1].text == "**5.2.1** A dock holds two ships.\n\n**5.2.2** A ship may wait there."

    def test_link_to_a_numbered_section(self):
        """`[See 1.2. Docks](#12-docks)` links to the first rule of that section."""
        assert draft(NUMBERED_MD).entries[0].see_also == ("toy-1-2-1-docks",)


REFERENCE_MD = """\
# Reference

## 3 FERRY PHASE

Each player moves a ferry in turn.

3.1 A player who cannot move must pass.

3.2 A passed player takes no more turns.

a. Passing ends no one else's turn.

### TIDES

3.3 A ferry never moves at low tide.

RELATED TOPICS: Docks, Tides of Skyrail

## 4 DOCKS

A dock holds two ferries.

4.1 A full dock takes no ferry.

## 5 HARBOUR MASTER

5.1 The harbour master settles disputes.
"""


class TestRulesReference:
    """A rules reference's topics: `3 Ferry Phase` headings numbered without a dot, their rules written as paragraphs
    starting with their numbers (`3.1 ...`), and a Related topics line ending each topic."""

    def test_a_topic_and_its_short_rules_are_one_entry_numbered_once(self):
        entries = draft(REFERENCE_MD).entries
        assert [e.title for e in entries] == ["3 Ferry Phase", "4 Docks", "5.1 Harbour Master"]
        assert entries[0].text.split("\n\n")[:4] == [
            "Each player moves a ferry in turn.",
            "**3.1** A player who cannot move must pass.",
            "**3.2** A passed player takes no more turns.",
            "a. Passing ends no one else's turn.",
        ]
        assert "**3.3** A ferry never moves at low tide." in entries[0].text

    def test_a_number_in_bold_is_shown_once_and_no_text_becomes_a_list(self):
        document = REFERENCE_MD.replace("3.1 A player", "**3.1** A player").replace("3.2 A passed", "3.2 - A passed")
        paragraphs = draft(document).entries[0].text.split("\n\n")
        assert "**3.1** A player who cannot move must pass." in paragraphs
        assert "**3.2** 3.2 - A passed player takes no more turns." in paragraphs  # not `- A passed ...`: a list
        named = draft(REFERENCE_MD.replace("3.1 A player", "**3.1 Passing:** A player")).entries[0].text.split("\n\n")
        assert named[1:3] == ["**3.1**", "**Passing:** A player who cannot move must pass."]

    def test_a_heading_starting_with_a_topics_number_is_no_topic(self):
        """`4 Players` before the topic `4 Docks`: the topic is the heading with rules 4.x under it."""
        document = REFERENCE_MD.replace("## 3 FERRY PHASE", "## 4 Players\n\nUse the small board.\n\n## 3 FERRY PHASE")
        result = draft(document)
        assert [e.title for e in result.entries] == ["4 Players", "3 Ferry Phase", "4 Docks", "5.1 Harbour Master"]
        assert "**4.1** A full dock takes no ferry." in result.entries[2].text
        assert result.vocabulary.terms == ["ferry phase", "docks", "harbour master"]

    def test_a_topic_of_one_paragraph_in_the_topics_order_is_one(self):
        """`4 Docks` with no rule of its own, between topics 3 and 5, is a topic (a term); `10 Minutes` is not."""
        document = REFERENCE_MD.replace("4.1 A full dock takes no ferry.\n", "").replace("## 5 HARBOUR", "## 10 Minutes\n\nPlay fast.\n\n## 5 HARBOUR")
        document += "\n## 6 TIDES\n\n6.1 Tides turn at noon.\n"
        assert draft(document).vocabulary.terms == ["ferry phase", "docks", "harbour master", "tides"]

    def test_a_dotted_heading_of_a_topics_number_leaves_the_topic_its_name_and_is_no_term(self):
        """An appendix numbered `5.` after topic 5: the topic keeps its name for its rules, and only topics are proposed as terms."""
        document = REFERENCE_MD + "\n## APPENDIX\n\n### 5. Quick Setup\n\nLay out the board.\n"
        result = draft(document)
        assert [e.title for e in result.entries] == ["3 Ferry Phase", "4 Docks", "5.1 Harbour Master", "5. Quick Setup"]
        assert result.vocabulary.terms == ["ferry phase", "docks", "harbour master"]

    def test_related_topics_after_an_example_or_in_the_rules_paragraph_go_to_the_topic(self):
        example = REFERENCE_MD.replace("RELATED TOPICS:", "### EXAMPLE\n\nA ferry waits at dock 3.\n\nRELATED TOPICS:")
        inline = REFERENCE_MD.replace("3.3 A ferry never moves at low tide.\n\nRELATED", "3.3 A ferry never moves at low tide.\nRELATED")
        for document in (example, inline):
            entries = by_title(draft(document))
            assert entries["3 Ferry Phase"].see_also == (entries["4 Docks"].id,), document
            assert "RELATED" not in entries["3 Ferry Phase"].text.upper()

    def test_a_related_topics_line_wrapped_in_plain_text_is_read_whole(self):
        plain = REFERENCE_MD.replace("### ", "").replace("## ", "").replace("RELATED TOPICS: Docks, Tides of Skyrail", "RELATED TOPICS: Tides of\nSkyrail, Docks")
        result = draft(plain, markdown=False)
        entries = by_title(result)
        assert entries["3 Ferry Phase"].see_also == (entries["4 Docks"].id,)
        assert [text for _line, text in result.unresolved] == ["Tides of Skyrail"]

    @pytest.mark.usefixtures("apart")
    def test_rules_under_an_unnumbered_heading_of_a_numbered_chapter_keep_the_chapters_name(self):
        """Not a reference by topics (`## 1. BASICS`, with a dot): `### Overview` does not name rule 1.1, as before."""
        entries = draft("# Reference\n\n## 1. BASICS\n\n### Overview\n\n1.1 A ferry moves.\n\n1.2 A dock waits.\n").entries
        assert [e.title for e in entries] == ["1.1 Basics", "1.2 Basics"]

    def test_related_topics_are_the_topics_see_also_not_its_last_rules_text(self):
        result = draft(REFERENCE_MD)
        ferry, docks, _master = result.entries
        assert ferry.see_also == (docks.id,)
        assert "RELATED" not in ferry.text.upper()
        assert [text for _line, text in result.unresolved] == ["Tides of Skyrail"]

    @pytest.mark.usefixtures("apart")
    def test_related_topics_go_to_the_topic_when_its_rules_stay_apart(self):
        entries = by_title(draft(REFERENCE_MD))
        assert entries["3 Ferry Phase"].see_also == (entries["4 Docks"].id,)
        assert entries["3.3 Tides"].see_also == ()
        assert entries["3.1 Ferry Phase"].text == "3.1 A player who cannot move must pass."

    @pytest.mark.usefixtures("apart")
    def test_plain_text_reads_it_alike(self):
        """Taken out of a PDF, every heading a line of its own: a sub-heading's rules take its name, and the Related
        topics line (a short line, read as a heading) still links the topic."""
        plain = REFERENCE_MD.replace("### ", "").replace("## ", "")
        entries = by_title(draft(plain, markdown=False))
        assert "3.3 Tides" in entries and "3.1 Ferry Phase" in entries
        assert entries["3 Ferry Phase"].see_also == (entries["4 Docks"].id,)

    def test_related_topics_of_a_glossary_stay_with_each_entry(self):
        """In a glossary of lead-ins, each entry's Related topics line is that entry's: no topic is numbered."""
        document = (
            "# Reference\n\n## A\n\n**Anchor** — An anchored ferry cannot move.\n\nRelated topics: Tide\n\n"
            "**Action** — On your turn you take one action.\n\nRelated topics: Turn\n\n"
            "## T\n\n**Tide** — The sea rises.\n\n**Turn** — Each player in turn.\n"
        )
        entries = by_title(draft(document))
        assert entries["Anchor"].see_also == (entries["Tide"].id,)
        assert entries["Action"].see_also == (entries["Turn"].id,)

    def test_topics_are_the_terms_of_a_reference_with_no_glossary(self):
        """A reference by topics has no glossary: its topics' names, numbers aside, are the game's terms; not a
        heading starting with a count that has no rules under it, nor a part of a long topic."""
        document = REFERENCE_MD + "\n## 10 Minute Quickstart\n\nDeal the ferries and start.\n"
        document += "\n## 6 STORMS\n\n" + "A storm sinks the weakest ferry of every harbour it passes. " * 30 + "\n\n"
        document += "A sunk ferry goes back to the box. " * 30 + "\n\n6.1 A storm ends at dusk.\n"
        assert draft(document).vocabulary.terms == ["ferry phase", "docks", "harbour master", "storms"]
        assert draft(REFERENCE_MD.replace("## 5 HARBOUR MASTER", "## HARBOUR MASTER")).vocabulary.terms == []  # two topics
        with_glossary = REFERENCE_MD + "\n## Glossary\n\n**Skyrail** — the rail ferries ride on.\n"
        assert draft(with_glossary).vocabulary.terms == ["skyrail"]

    def test_a_heading_starting_with_a_count_names_no_rules(self):
        """`2 Players` with no rules numbered 2.x under it stays an entry of its own, titled as written; a later
        heading starting with a topic's number renames no topic."""
        entries = draft("# Reference\n\n## 2 Players\n\nEach takes a ferry.\n\n## 3 Players\n\nOne takes two.\n").entries
        assert [(e.title, e.text) for e in entries] == [("2 Players", "Each takes a ferry."), ("3 Players", "One takes two.")]
        later = REFERENCE_MD + "\n## 9 SETUP\n\n9.1 Deal the ferries.\n\n### 3 PLAYERS\n\nRemove one ferry.\n"
        assert draft(later).entries[0].title == "3 Ferry Phase"
        assert "players" not in draft(later).vocabulary.terms


class TestCommand:
    @pytest.fixture
    def document(self, tmp_path: Path) -> Path:
        """A small FAQ document on disk."""
        path = tmp_path / "faq.md"
        path.write_text(FAQ_MD, encoding="utf-8")
        return path

    ARGS = ("--no-shipped", "--corpus", str(MINIMAL), "import")

    def test_prints_drafts(self, run_cli, document: Path):
        """Without --out the drafts go to stdout and the summary to stderr."""
        result = run_cli(*self.ARGS, str(document), "--game", "lantern-harbor", "--source", "tides-faq")
        assert result.exit_code == 0
        # (with the anchor and fingerprint an update writes: a file of printed drafts is updated as its own)
        assert re.search(r"## lh-ferry-gull-2\ntitle: Ferry Gull\nkind: errata\nsection: Errata > Ferry Gull\nanchor: Errata > Ferry Gull\n"
                         r"draft: true\ndrafted: [0-9a-f]{12}\n", result.stdout), result.stdout
        assert "Drafted 8 entries from faq.md: 3 references resolved, 2 unresolved, 2 aliases" in result.stderr
        # each unresolved reference named, at its line of the document (the count alone says not where to look)
        named = re.findall(r"^  unresolved, line (\d+) of the document: (.+)$", result.stderr, re.MULTILINE)
        assert len(named) == 2, result.stderr
        lines = document.read_text(encoding="utf-8").split("\n")
        assert all(text.split(" (the existing")[0].strip(".") in lines[int(line) - 1] for line, text in named), named

    def test_out_refuses_to_overwrite(self, run_cli, document: Path, tmp_path: Path):
        """--out writes a new file, refuses an existing one, and replaces it with --force."""
        out = tmp_path / "drafts.md"
        args = (*self.ARGS, str(document), "-g", "lantern-harbor", "-s", "tides-faq", "--out", str(out))
        assert run_cli(*args).exit_code == 0
        assert out.read_text(encoding="utf-8").startswith("# Drafts imported from faq.md")
        out.write_text("mine", encoding="utf-8")
        refused = run_cli(*args)
        assert refused.exit_code == 2
        assert f"Error: {out} exists: add --force to replace it" in refused.output
        assert out.read_text(encoding="utf-8") == "mine"
        assert run_cli(*args, "--force").exit_code == 0
        assert out.read_text(encoding="utf-8") != "mine"

    def test_force_without_out_is_usage_error(self, run_cli, document: Path):
        """--force alone is a usage error (exit 2)."""
        result = run_cli(*self.ARGS, str(document), "-g", "lantern-harbor", "-s", "tides-faq", "--force")
        assert result.exit_code == 2

    def test_unknown_source(self, run_cli, document: Path):
        """A source the game does not declare is a one-line error (exit 2)."""
        result = run_cli(*self.ARGS, str(document), "-g", "lantern-harbor", "-s", "nope")
        assert result.exit_code == 2
        assert "Error: no source 'nope' in lantern-harbor (declared: rulebook, tides-faq); declare it in game.toml first" in result.output

    def test_not_utf8(self, run_cli, tmp_path: Path):
        """A document that is not UTF-8 is a one-line error with its line (exit 2)."""
        path = tmp_path / "bad.txt"
        path.write_bytes(b"Rules\n\ncaf\xe9\n")
        result = run_cli(*self.ARGS, str(path), "-g", "lantern-harbor", "-s", "rulebook")
        assert result.exit_code == 2
        assert "bad.txt:3: not valid UTF-8" in result.output


def _stress_bullets() -> str:
    """Seven bullets of about forty words each: a section too long to be one answer."""
    return "\n".join(
        f"- Rule {n}: a stressed train in situation {n} keeps its stress token until the end phase, "
        f"and the conductor checks the timetable, the signal box and the depot log before moving it again, "
        f"which takes one more turn than usual for case {n}."
        for n in range(1, 8)
    )


SHAPED_MD = f"""\
# Skyrail Reference

A reference. Attack values are written ATK on cards, and ATK is printed in red.

## Glossary

### Bearing

Each move has a bearing, shown by an arrow on the dial.

#### Advanced Moves

- Loop Turn: The loop turn moves a train forward and turns it around.
- Slide: The slide moves a train sideways.

### Loop Turn

See Bearing.

### Stress

A train with a stress token is stressed.

{_stress_bullets()}

### ATK

See Attack.

### Attack

A train attacks an adjacent train. See Bearing. A freight depot is also called a cargo station. See Nowhere Yet.

### Status Cards

Status cards sit on a train.

**Tough** — A tough card stops the next damage.

See also Attack.

### Tough

A tough train ignores its first damage each round.

### ATK RULES

Extra attack rules.

## Huge Trains

### Setup

Huge trains start in the yard.

## Setup

Every conductor takes four tickets.

## FAQ

### Movement

Movement happens in speed order.

Q: Can a train move twice?

A: No, once per round.
"""


class TestShapedForAnswers:
    """Drafts shaped for answers: one rule per entry, a title of its own, aliases where the definition is."""

    def test_alias_goes_to_the_entry_that_defines_it(self):
        """A redirect's name lands on the sub-entry whose text defines it, not on the emptied parent."""
        entries = by_title(draft(SHAPED_MD))
        assert "Loop Turn" in entries["Advanced Moves"].aliases
        assert "Loop Turn" not in entries["Bearing"].aliases

    def test_repeated_titles_are_told_apart(self):
        """A title used twice is qualified by the section it is in."""
        titles = [e.title for e in draft(SHAPED_MD).entries]
        assert len(titles) == len(set(titles))
        assert {"Setup", "Setup (Huge Trains)"} <= set(titles)

    def test_lead_in_inside_an_entry_stays_there(self):
        """A short bold lead-in inside a glossary entry is its text: the entry keeps its See also and the id
        of the glossary's own entry of that name is not taken."""
        entries = by_title(draft(SHAPED_MD))
        status = entries["Status Cards"]
        assert "A tough card stops the next damage." in status.text
        assert status.see_also == ("toy-attack",)
        assert entries["Tough"].id == "toy-tough"

    def test_long_entry_is_cut_into_parts(self):
        """A section too long for an answer is cut at its bullets: the entry keeps its first part, the other
        parts are entries titled and cited by it, linked both ways; none is over the size."""
        result = draft(SHAPED_MD)
        stress = by_title(result)["Stress"]
        parts = [e for e in result.entries if e.title.startswith("Stress: ")]
        assert parts and all(e.section.startswith("Glossary > Stress, bullet") for e in parts)
        assert all(e.see_also[0] == stress.id for e in parts)
        assert set(stress.see_also) >= {e.id for e in parts}
        assert max(len(e.text.split()) for e in result.entries) <= 250
        assert sum(e.text.count("- Rule ") for e in [stress, *parts]) == 7

    def test_one_long_paragraph_is_cut_between_sentences(self):
        """A single paragraph too long for an answer is cut between its sentences, each part one paragraph."""
        paragraph = " ".join(f"Signal {n} turns green when the train before it has left block {n}." for n in range(1, 31))
        result = draft(f"# Ref\n\n## Signals\n\n{paragraph}\n")
        assert len(result.entries) > 1
        assert all(len(e.text.split()) <= 250 and "\n\n" not in e.text for e in result.entries)
        assert result.entries[1].title.startswith("Signals: Signal ") and result.entries[1].section == "Signals, paragraph 1"

    def test_a_rules_examples_are_parts_of_their_own_never_cut(self):
        """A long rule followed by its examples, each a line `Example: …` of its paragraph (as a numbered reference writes
        them): the entry keeps the rule's text alone, the examples follow in parts of kind fine-point titled by the
        first words of the first one, and no part starts or ends inside an example."""
        examples = [
            f"Example: The {name} coach is coupled behind a locomotive at the depot. "
            + " ".join(f"Step {n}: the conductor checks the {name} coach's couplings and signals the driver." for n in range(6))
            for name in ("red", "blue", "green", "grey")
        ]
        rule = "A coach is coupled to the train in front of it when both stand on the same block of track."
        result = draft("# Ref\n\n## Coupling\n\n" + rule + "\n" + "\n".join(examples) + "\n")
        first, *parts = result.entries
        assert first.title == "Coupling" and first.text == rule
        assert parts and all(e.kind == "fine-point" and e.title.startswith("Coupling: Example") for e in parts)
        assert parts[0].title.startswith("Coupling: Example — The red coach is coupled")
        texts = " ".join(e.text for e in parts)
        assert all(texts.count(example) == 1 for example in examples)  # each example whole, in one part

    def test_rules_each_with_its_example_stay_rules(self):
        """A long section of rules, each a paragraph followed by its example: every rule's text is in the entry or a
        rule part, every example in a part of examples, none of them in the other; an example too long for an
        answer alone is cut between its sentences, its parts still examples; `Exemple :` keeps its word."""
        rules = [f"Rule {name}: a coach coupled at the {name} depot waits a turn before it leaves with the train." for name in "abcde"]
        shown = [f"Exemple\u00a0: the {name} coach " + " ".join(f"then checks coupling {n} of the train." for n in range(12)) for name in "abcde"]
        long = "Example: the long one. " + " ".join(f"Step {n} of the long example checks a coupling and a signal." for n in range(30))
        body = "\n\n".join(f"{rule}\n{example}" for rule, example in zip(rules, shown)) + "\n\nA last rule closes the section.\n" + long
        result = draft(f"# Ref\n\n## Coupling\n\n{body}\n")
        examples = [e for e in result.entries if e.kind == "fine-point"]
        told = [e for e in result.entries if e.kind != "fine-point"]
        assert all(sum(rule in e.text for e in told) == 1 and not any(rule in e.text for e in examples) for rule in rules)
        assert all(any(example in e.text for e in examples) and not any(example in e.text for e in told) for example in shown)
        assert all(e.title.startswith("Coupling: Exemple") for e in examples if "coach" in e.text)
        assert "Step 29 of the long example" in examples[-1].text and "Step 0 of the long example" not in examples[-1].text
        assert max(len(e.text.split()) for e in result.entries) <= 250

    def test_an_example_in_a_sentence_is_titled_by_what_it_shows(self):
        """"For example, consider …" starts a part of examples as "Example: …" does, titled by its words past the
        lead and its comma."""
        answer = " ".join(f"Rule {n} of the timetable changes what each conductor may couple at a depot." for n in range(25))
        shown = " ".join(f"Then the conductor of coach {n} checks its couplings." for n in range(10))
        result = draft(f"# Ref\n\n## Coupling\n\n{answer}\n\nFor example, consider a red coach behind a locomotive. {shown}\n")
        assert [e.title for e in result.entries if e.kind == "fine-point"] == ["Coupling: Example — consider a red coach behind a locomotive"]

    def test_a_long_entry_is_cut_before_its_bold_leads(self):
        """A long section of rules each led by a bold name (`**Night Run** — …`, its bullets after it): each part starts
        at a lead, holds its bullets, and is titled by its name."""
        modes = "".join(
            f"**{name} Run** — The {name.lower()} run is a way to play a line with its own pace and timetable.\n\n"
            + "".join(f"* On a {name.lower()} run, rule {n} of the timetable changes what each conductor may couple at a depot.\n" for n in range(4))
            + "\n"
            for name in ("Day", "Night", "Express", "Freight")
        )
        result = draft(f"# Ref\n\n## Glossary\n\n### Runs\n\nA line may be played in several runs:\n\n{modes}")
        titles = [e.title for e in result.entries]
        assert titles == ["Runs", "Runs: Night Run", "Runs: Express Run", "Runs: Freight Run"]
        assert all(e.text.startswith(f"**{e.title.split(': ')[1]}** — ") and e.text.count("* On a") == 4 for e in result.entries[1:])

    def test_a_run_of_bold_leads_is_cut_as_paragraphs_are(self):
        """Paragraphs led by bold names one after the other, no bullets between: each leads no list, and the section is
        cut into parts of the usual size."""
        leads = "".join(f"**Mode {n} Run** — The run number {n} is a way to play a line with its own pace, timetable and fares for every conductor.\n\n"
                        for n in range(30))
        result = draft(f"# Ref\n\n## Glossary\n\n### Runs\n\nA line may be played in several runs:\n\n{leads}")
        assert len(result.entries) > 3 and max(len(e.text.split()) for e in result.entries) <= 250

    def test_short_sections_stay_whole(self):
        """A short section is one entry."""
        assert [e.title for e in draft(SHAPED_MD).entries if e.title.startswith("Attack")] == ["Attack"]

    def test_capitals_and_acronyms(self):
        """A heading in capitals becomes title case, keeping the words the document writes in capitals."""
        entries = by_title(draft(SHAPED_MD))
        assert "ATK Rules" in entries
        assert "ATK" in entries["Attack"].aliases  # `### ATK` / `See Attack.`: a redirect

    def test_kinds_from_the_structure(self):
        """Glossary items are terms, what lies under them rules; under a FAQ heading only questions are faq."""
        entries = by_title(draft(SHAPED_MD))
        assert (entries["Bearing"].kind, entries["Advanced Moves"].kind) == ("term", "rule")
        assert entries["Movement"].kind == "rule"
        assert entries["Can a train move twice?"].kind == "faq"

    def test_see_sentences_inside_a_paragraph(self):
        """`See X.` in the middle of a paragraph links X, or is counted as unresolved."""
        result = draft(SHAPED_MD)
        attack = by_title(result)["Attack"]
        assert by_title(result)["Bearing"].id in attack.see_also
        assert "See Nowhere Yet." in [text for _, text in result.unresolved]
        assert "0 unresolved" not in result.summary()

    def test_vocabulary_is_proposed(self):
        """The document's abbreviations and other names are proposed as synonyms, its glossary words as terms."""
        vocabulary = draft(SHAPED_MD).vocabulary
        assert ["attack", "atk"] in vocabulary.synonyms
        assert ["freight depot", "cargo station"] in vocabulary.synonyms
        assert {"bearing", "stress", "tough"} <= set(vocabulary.terms)
        assert "- synonyms: attack, atk" in draft(SHAPED_MD).to_markdown()  # for a curator who prints the drafts

    def test_terms_of_other_games_are_not_proposed(self):
        """A glossary word another game of the corpus uses points at no game: it is not proposed."""
        existing = corpus.load([MINIMAL])
        other = next(iter(existing.entries.values()))
        word = other.title.split()[0]
        text = f"# Ref\n\n## Glossary\n\n### {word}\n\nA word of ours too.\n\n### Zeppelin\n\nA flying thing.\n"
        terms = importer.draft_entries(text, game=GAME, source=SOURCE, corpus=existing).vocabulary.terms
        assert "zeppelin" in terms and word.lower() not in terms

    def test_a_heading_of_several_names_is_a_term_each_and_plain_english_none(self):
        """"Initiative, Initiative Counter" is two terms; "Other, Another" and "Can't" are words of any question: no
        term of the game, which a question saying them would lean to."""
        text = (
            "# Ref\n\n## Glossary\n\n### Initiative, Initiative Counter\n\nWho acts first.\n\n### Other, Another\n\nNot yours.\n\n"
            "### Can’t\n\nAbsolute.\n\n### Zeppelin\n\nA flying thing.\n\n### 1,000 Points\n\nA big score.\n"
        )
        terms = importer.draft_entries(text, game=GAME, source=SOURCE, corpus=corpus.load([MINIMAL])).vocabulary.terms
        assert terms == ["initiative", "initiative counter", "zeppelin", "1,000 points"]

    @pytest.mark.parametrize(("most", "more"), [(4, False), (3, True)])
    def test_a_glossary_of_more_terms_than_are_proposed_says_so(self, monkeypatch: pytest.MonkeyPatch, most: int, more: bool):
        """At most MAX_TERMS terms are proposed; the summary says when the glossary has more, and only then."""
        from rulebot.corpus import glossary

        monkeypatch.setattr(glossary, "MAX_TERMS", most)
        text = "# Ref\n\n## Glossary\n\n" + "".join(f"### {name}\n\nA thing.\n\n" for name in ("Zeppelin", "Hangar", "Ballast", "Mooring"))
        result = importer.draft_entries(text, game=GAME, source=SOURCE, corpus=corpus.load([MINIMAL]))
        assert len(result.vocabulary.terms) == min(most, 4)
        assert ("the glossary has more" in result.summary()) is more


class TestVocabularyWritten:
    def test_append_writes_the_games_own_vocabulary(self, run_cli, tmp_path: Path):
        """import --append writes the proposals into the new game's game.toml, which still checks; a second
        import leaves what is there."""
        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules", "--id-prefix", "toy").exit_code == 0
        result = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append")
        assert result.exit_code == 0, result.output
        assert "written to" in result.stderr and "game.toml" in result.stderr
        game = corpus.load([games]).game("skyrail")
        assert game.source("rules").document == "skyrail.md"  # check --sources finds the copy by that name
        assert ("attack", "atk") in game.synonyms
        assert {"stress", "tough"} <= set(game.terms)
        notes = (games / "skyrail" / "rules.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
        assert "The synonyms and terms the document defines are proposed in the game's game.toml" in notes
        assert "Vocabulary the document defines" not in notes and "- terms:" not in notes  # (not again in the entries file)
        before = (games / "skyrail" / "game.toml").read_text(encoding="utf-8")
        again = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--out", str(tmp_path / "d.md"))
        assert again.exit_code == 0 and (games / "skyrail" / "game.toml").read_text(encoding="utf-8") == before
        # appended again: what game.toml has already is no proposal left unwritten
        appended = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append")
        assert appended.exit_code == 0 and "not written" not in appended.stderr and "Proposed vocabulary" not in appended.stderr, appended.stderr
        assert (games / "skyrail" / "game.toml").read_text(encoding="utf-8") == before
        # a term the document defines anew, with game.toml's terms no longer empty: said, not written
        document.write_text(SHAPED_MD.replace("## Huge Trains", "### Zeppelin\n\nA flying thing.\n\n## Huge Trains"), encoding="utf-8")
        newer = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append")
        assert newer.exit_code == 0, newer.output
        assert "1 proposed term not written, as " in newer.stderr and "under [vocabulary]: zeppelin" in newer.stderr, newer.stderr


    def test_game_toml_is_written_once(self, run_cli, tmp_path: Path, monkeypatch):
        """What an import leaves in game.toml (the proposed vocabulary, the document's name) is one write: a process
        killed between two writes would leave the vocabulary without the name by which `check --sources` finds it."""
        from rulebot import atomic

        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules", "--id-prefix", "toy").exit_code == 0
        writes: list[str] = []
        update_file = atomic.update_file

        def counted(path, change, *args, **kwargs):
            writes.append(Path(path).name)
            return update_file(path, change, *args, **kwargs)

        monkeypatch.setattr(atomic, "update_file", counted)
        assert run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append").exit_code == 0
        assert writes.count("game.toml") == 1, writes
        game = corpus.load([games]).game("skyrail")
        assert game.source("rules").document == "skyrail.md" and ("attack", "atk") in game.synonyms

    def test_notes_list_what_game_toml_had_no_room_for(self, run_cli, tmp_path: Path):
        """Synonyms the curator already wrote stay, and the proposed ones are listed in the notes instead of
        lost; the terms, still empty, go to game.toml."""
        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules", "--id-prefix", "toy").exit_code == 0
        toml = games / "skyrail" / "game.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace("synonyms = []", 'synonyms = [["zeppelin", "airship"]]'), encoding="utf-8")
        assert run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append").exit_code == 0
        game = corpus.load([games]).game("skyrail")
        assert ("attack", "atk") not in game.synonyms and {"stress", "tough"} <= set(game.terms)
        notes = (games / "skyrail" / "rules.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
        assert "The terms the document defines are proposed in the game's game.toml" in notes
        assert "- synonyms: attack, atk" in notes and "- terms:" not in notes and "had no empty list under [vocabulary] for" in notes

    def test_the_report_says_what_was_not_written(self, run_cli, tmp_path: Path):
        """Synonyms game.toml had no room for are said in the report, at each import (the notes are a new file's)."""
        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "--id-prefix", "toy").exit_code == 0
        toml = games / "skyrail" / "game.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace("synonyms = []", 'synonyms = [["zeppelin", "airship"]]'), encoding="utf-8")
        for _ in range(2):
            result = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append")
            assert result.exit_code == 0
            assert "2 proposed synonym groups not written, as " in result.stderr and "has no empty `synonyms = []` under [vocabulary]: attack = atk" in result.stderr, result.stderr

    def test_a_game_toml_of_crlf_line_ends_gets_the_vocabulary_and_keeps_them(self, run_cli, tmp_path: Path):
        """game.toml written with CRLF line ends (a Windows checkout): the vocabulary is written there as the notes
        say, and every line still ends in CRLF."""
        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "--id-prefix", "toy").exit_code == 0
        toml = games / "skyrail" / "game.toml"
        toml.write_bytes(toml.read_bytes().replace(b"\n", b"\r\n"))
        result = run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append")
        assert result.exit_code == 0 and "written to" in result.stderr and "game.toml" in result.stderr, result.output
        data = toml.read_bytes()
        assert data.count(b"\n") == data.count(b"\r\n")
        game = corpus.load([games]).game("skyrail")
        assert ("attack", "atk") in game.synonyms and "stress" in game.terms

    def test_the_curators_lines_of_game_toml_are_left_as_they_end(self, run_cli, tmp_path: Path):
        """A game.toml of LF line ends with one CRLF line: only the lines the import writes are new; every line
        that was there ends as it did."""
        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.md": SHAPED_MD}) / "skyrail.md"
        assert run_cli("--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "--id-prefix", "toy").exit_code == 0
        toml = games / "skyrail" / "game.toml"
        before = toml.read_bytes().replace(b'name = "Skyrail"\n', b'name = "Skyrail"\r\n')
        toml.write_bytes(before)
        assert run_cli("--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append").exit_code == 0
        after = toml.read_bytes()
        kept = {line for line in before.splitlines(keepends=True) if b"= []" not in line}  # (the empty lists are filled)
        assert after.count(b"\r\n") == 1 and kept <= set(after.splitlines(keepends=True))


def _linked_rules_document(rules: int = 420, terms: int = 40) -> str:
    """A plain-text comprehensive rules document whose every rule names ten glossary terms: the site links each."""
    names = [f"Zephyr Token {chr(65 + n // 26)}{chr(65 + n % 26)}" for n in range(terms)]
    lines = ["Skyrail Comprehensive Rules", "", "1. Game Concepts", "", "100. General", ""]
    for n in range(1, rules + 1):
        named = ", ".join(names[(n + k) % terms] for k in range(10))
        lines += [f"100.{n}. A train on track {n} checks {named} before it leaves the depot, in the order the timetable lists them.", ""]
    lines += ["Glossary", ""]
    for name in names:
        lines += [name, f"A piece the conductor places on a carriage; called {name.lower()} in these rules.", ""]
    return "\n".join(lines)


class TestImportedSite:
    def test_no_page_over_the_page_size(self, run_cli, tmp_path: Path):
        """The site of an imported, heavily cross-linked game has no page heavier than PAGE_BYTES: the links
        the site adds to texts (names of other entries) are weighed when pages are made."""
        from rulebot.site import pages as site_pages

        games = tmp_path / "games"
        document = write_corpus(tmp_path, {"skyrail.txt": _linked_rules_document()}) / "skyrail.txt"
        assert run_cli("--no-shipped", "--corpus", str(games), "new-game", "skyrail", "-n", "Skyrail", "-t", "Rules").exit_code == 0
        assert run_cli("--no-shipped", "--corpus", str(games), "import", str(document), "-g", "skyrail", "-s", "rules", "--append").exit_code == 0
        built = run_cli("--no-shipped", "--corpus", str(games), "site", "build", str(tmp_path / "site"))
        assert built.exit_code == 0, built.output
        pages = list((tmp_path / "site" / "skyrail").glob("*.html"))
        assert len(pages) > 2
        assert max(p.stat().st_size for p in pages) <= site_pages.PAGE_BYTES


def test_the_unresolved_named_are_the_first_few():
    """A document of many references to nothing names the first UNRESOLVED_NAMED, in document order, and counts the rest."""
    from rulebot.corpus.drafted import UNRESOLVED_NAMED

    drafted = Imported(document="d.md", game="g", source="s", unresolved=[(line, f"See Topic {line}") for line in range(20, 8, -1)])
    lines = drafted.unresolved_lines()
    assert lines[:2] == ["  unresolved, line 9 of the document: See Topic 9", "  unresolved, line 10 of the document: See Topic 10"]
    assert len(lines) == UNRESOLVED_NAMED + 1 and lines[-1].startswith(f"  and {12 - UNRESOLVED_NAMED} more")
