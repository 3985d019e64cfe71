"""`ask --json` follows its shipped JSON Schema, and the entry's shape has one definition that every output keeps."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path

import jsonschema
import pytest
from conftest import MINIMAL

from rulebot import api
from rulebot.index.payload import EntryJSON
from rulebot.places import package_dir
from rulebot.search import rulings
from rulebot.search.answer import INTERNAL_KEYS

SCHEMA = json.loads((package_dir() / "schemas" / "ask.schema.json").read_text(encoding="utf-8"))
QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"


@pytest.fixture(scope="module")
def validator():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


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


# -- the entry's shape, checked field by field against its one definition -------------------------------------------

SHAPES = {"EntryJSON": "Ruling", "Citation": "Citation", "Link": "Link", "Phrase": "Phrase", "Translated": "Translated"}
"""Each TypedDict of rulebot.index.payload that makes up an entry, and the Python API's class that holds it."""
JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def _keys(shape: type) -> dict[str, tuple[object, bool]]:
    """A TypedDict's keys: (type, required) each (NotRequired read from the annotation: the module defers them)."""
    hints = typing.get_type_hints(shape, include_extras=True)
    out = {}
    for name, hint in hints.items():
        optional = typing.get_origin(hint) is typing.NotRequired
        out[name] = (typing.get_args(hint)[0] if optional else hint, not optional)
    return out


def _options(hint: object) -> tuple[object, ...]:
    """The types of a union (`str | None`), or the type alone."""
    return typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)


def _schema_problems(hint: object, node: dict, where: str) -> list[str]:
    """Where a JSON Schema node does not describe the values of a type of the entry's shape."""
    while "$ref" in node:
        node = SCHEMA["$defs"][node["$ref"].rpartition("/")[2]]
    if typing.is_typeddict(hint):
        keys = _keys(hint)
        problems = [] if node.get("type") == "object" else [f"{where}: not an object"]
        if set(node.get("properties", {})) != set(keys) or set(node.get("required", ())) != {k for k, (_, req) in keys.items() if req}:
            problems.append(f"{where}: properties {sorted(node.get('properties', {}))} and required {node.get('required')} are not {keys}")
            return problems
        for key, (value, _) in keys.items():
            problems += _schema_problems(value, node["properties"][key], f"{where}.{key}")
        return problems
    origin = typing.get_origin(hint)
    if origin is list:
        if node.get("type") != "array":
            return [f"{where}: not an array"]
        return _schema_problems(typing.get_args(hint)[0], node["items"], f"{where}[]")
    if origin is dict:
        if node.get("type") != "object" or "additionalProperties" not in node:
            return [f"{where}: not an object of values"]
        return _schema_problems(typing.get_args(hint)[1], node["additionalProperties"], f"{where}{{}}")
    wanted = {JSON_TYPES[option] for option in _options(hint)}
    given = node.get("type", [])
    said = set(given if isinstance(given, list) else [given]) or {JSON_TYPES[type(v)] for v in node.get("enum", ())}
    return [] if said == wanted else [f"{where}: the schema says {sorted(said)}, the shape {sorted(wanted)}"]


def _class_problems(hint: object, held: object, where: str) -> list[str]:
    """Where a type of the Python API does not hold the values of a type of the entry's shape: a list is a tuple,
    a dict a tuple of pairs, a TypedDict its class (SHAPES), a key that may be missing a value that may be None."""
    if typing.is_typeddict(hint):
        cls = getattr(rulings, SHAPES[hint.__name__])
        if held is not cls:
            return [f"{where}: {held} holds a {hint.__name__}"]
        fields = {f.name: f for f in dataclasses.fields(cls)}
        keys = _keys(hint)
        if set(fields) != set(keys):
            return [f"{where}: {cls.__name__} has {sorted(fields)}, {hint.__name__} {sorted(keys)}"]
        hints = typing.get_type_hints(cls)
        problems = []
        for key, (value, required) in keys.items():
            if not required:
                if fields[key].default is dataclasses.MISSING:
                    problems.append(f"{where}.{key}: may be missing, and has no default")
                if value is not bool and typing.get_origin(value) is not dict and type(None) not in _options(value):
                    value = value | None
            problems += _class_problems(value, hints[key], f"{where}.{key}")
        return problems
    origin = typing.get_origin(hint)
    if origin is list:
        args = typing.get_args(held)
        if typing.get_origin(held) is not tuple or args[1:] != (Ellipsis,):
            return [f"{where}: {held} holds a list"]
        return _class_problems(typing.get_args(hint)[0], args[0], f"{where}[]")
    if origin is dict:
        key, value = typing.get_args(hint)
        return [] if held == tuple[tuple[key, value], ...] else [f"{where}: {held} holds a {hint}"]
    return [] if set(_options(held)) == set(_options(hint)) else [f"{where}: {held} holds a {hint}"]


def test_the_schema_and_the_api_follow_the_entry_shape_field_by_field():
    """The JSON Schema's entry and the Python API's Ruling are checked against the one definition of an entry's shape
    (rulebot.index.payload.EntryJSON), each field's type too, down to its citation, links, phrases and translations."""
    assert api.Ruling is rulings.Ruling
    assert _schema_problems(EntryJSON, SCHEMA["$defs"]["entry"], "entry") == []
    assert _class_problems(EntryJSON, rulings.Ruling, "Ruling") == []


def test_a_ruling_holds_every_field_of_its_entry():
    """A Ruling made from an entry's payload gives back each of its fields (none left to its default), as JSON data
    shaped as the schema's entry (a link's titles an object by language)."""
    from rulebot.answering import searcher_over

    with searcher_over([MINIMAL]) as searcher:
        payloads = searcher.entries()
    entry = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/entry"})
    for payload in payloads:
        made = rulings.Ruling.from_payload(payload).to_json()
        assert made == json.loads(json.dumps(made))  # (plain JSON data: lists, not tuples)
        assert list(entry.iter_errors(made)) == [], payload["id"]
        for key in EntryJSON.__annotations__:
            value = made[key]
            if key in ("see_also_refs", "modifies", "modified_by"):  # a link's missing keys are its defaults
                value = [{k: v for k, v in link.items() if k in given} for link, given in zip(value, payload[key])]
            assert value == payload[key], (payload["id"], key)
