"""`ask --json` follows its shipped JSON Schema, and the entry's shape has one definition that every output keeps."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import MINIMAL

from rulebot import api
from rulebot.cli.output import INTERNAL_KEYS
from rulebot.index.payload import EntryJSON
from rulebot.places import package_dir

SCHEMA = json.loads((package_dir() / "schemas" / "ask.schema.json").read_text(encoding="utf-8"))
QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


def test_the_schema_describes_the_entry_shape():
    """The schema's entry has exactly the fields of EntryJSON, all required."""
    entry = SCHEMA["$defs"]["entry"]
    assert set(entry["properties"]) == set(entry["required"]) == set(EntryJSON.__annotations__)


def test_the_api_ruling_has_the_entry_shape():
    """rulebot.api.Ruling holds exactly the fields of EntryJSON."""
    assert {f.name for f in dataclasses.fields(api.Ruling)} == set(EntryJSON.__annotations__)


@pytest.mark.parametrize(
    "question, args",
    [
        ("chaumurky tie", ()),
        ("who wins a tie", ()),  # several games
        ("how many monuments with 3 players", ("-g", "res-arcana", "--with", "perlae-imperii")),
        ("combien de perles en main", ()),
        ("zzqx blorf", ()),  # nothing matches
        ("tie zzqx blorf qqq", ()),  # unsure, with suggestions
    ],
)
def test_ask_json_follows_the_schema(run_cli, validator, question: str, args: tuple[str, ...]):
    """Answers of every kind (clear, several games, a count, French, nothing, unsure) are valid against the schema."""
    printed = json.loads(run_cli("ask", "--json", "--limit", "10", *args, question).stdout)
    errors = sorted(validator.iter_errors(printed), key=str)
    assert not errors, [e.message for e in errors]


def test_every_project_question_follows_the_schema(run_cli, validator):
    """The answers to all of the project's questions are valid, and their entries carry no internal field."""
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        args = ["ask", "--json", *(["--game", row["game"]] if row["game"] else []), row["q"]]
        printed = json.loads(run_cli(*args).stdout)
        assert not list(validator.iter_errors(printed)), row["q"]
        assert not any(set(INTERNAL_KEYS) & set(result) for result in printed["results"])


def test_a_house_rule_corpus_follows_the_schema(run_cli, validator, tmp_path: Path):
    """Entries of a corpus of one's own (another game, links) are valid too."""
    printed = json.loads(run_cli("--no-shipped", "--corpus", str(MINIMAL), "ask", "--json", "ferry gull").stdout)
    assert not list(validator.iter_errors(printed))
