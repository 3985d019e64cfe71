"""User settings: the language to answer in, and which expansions are in play for each game, by default.

The file is `config.toml` in the user config directory ($RULEBOT_CONFIG_DIR
overrides it), for example:

    lang = "fr"

    [res-arcana]
    with = ["perlae-imperii"]
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rulebot.errors import RulebotError
from rulebot.places import user_dir

CONFIG_FILE = "config.toml"
KEYS = ("with",)
"""Settings a game can have: `with`, the expansions in play."""
LANG = "lang"
"""The setting of the language to answer in (not a game's)."""
LANGUAGES = ("en", "fr")
"""The languages rulebot answers in."""


class ConfigError(RulebotError):
    """Raised by the config module for an unreadable file or an unknown key."""


def config_path() -> Path:
    """The config file: $RULEBOT_CONFIG_DIR/config.toml, else in the user config directory."""
    return user_dir("config") / CONFIG_FILE


def load() -> dict[str, dict[str, list[str]]]:
    """The settings per game; empty when there is no config file."""
    return {game: table for game, table in _read().items() if game != LANG}  # type: ignore[misc]


def language() -> str | None:
    """The language to answer in, when one is set."""
    return _read().get(LANG)  # type: ignore[return-value]


def set_language(lang: str | None) -> Path:
    """Set the language to answer in (None: the question's again); returns the file written."""
    if lang is not None and lang not in LANGUAGES:
        raise ConfigError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    settings = _read()
    settings.pop(LANG, None)
    return _save(settings if lang is None else {LANG: lang, **settings})


def _read() -> dict[str, object]:
    """The settings: per game, and the language (LANG); empty when there is no config file."""
    from rulebot.corpus.files import read_corpus_file

    path = config_path()
    try:
        # A regular file of reasonable size only: a FIFO or a device named config.toml must not hang every command.
        content, refused = read_corpus_file(path)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    if content is None:
        raise ConfigError(f"cannot read {path}: {refused}")
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"cannot read {path}: not valid UTF-8 (byte {content[exc.start]:#04x} at line {line})") from None
    import tomllib  # only with a config file: most `ask`s run without one

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(f"cannot read {path}: arrays or tables nested too deeply") from None
    settings: dict[str, object] = {}
    for game, table in data.items():
        if game == LANG and table in LANGUAGES:
            settings[LANG] = table
            continue
        if game == LANG:
            raise ConfigError(f"{path}: {LANG} must be one of {', '.join(LANGUAGES)}")
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [{game}] must be a table")
        for key, value in table.items():
            if key not in KEYS or not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: {game}.{key} is not a known setting (known: {', '.join(KEYS)}, a list of names)")
        settings[game] = {k: list(v) for k, v in table.items()}
    return settings


def expansions_in_play() -> dict[str, list[str]]:
    """The configured expansions per game."""
    return {game: table["with"] for game, table in load().items() if "with" in table}


def split_key(key: str) -> tuple[str, str]:
    """`GAME.SETTING` as (game, setting); ConfigError if malformed or unknown."""
    game, _, setting = key.rpartition(".")
    if not game or setting not in KEYS:
        raise ConfigError(f"unknown setting {key!r}: use GAME.with (e.g. res-arcana.with), or {LANG}")
    return game, setting


def set_value(key: str, values: list[str]) -> Path:
    """Set GAME.SETTING to a list of values (empty: remove it); returns the file written."""
    game, setting = split_key(key)
    settings: dict[str, Any] = _read()
    if values:
        settings.setdefault(game, {})[setting] = values
    else:
        settings.get(game, {}).pop(setting, None)
        if not settings.get(game):
            settings.pop(game, None)
    return _save(settings)


def _save(settings: dict[str, Any]) -> Path:
    path = config_path()
    lines = ["# rulebot settings: the language to answer in (rulebot config set lang fr), the expansions in play per game"
             " (rulebot config set GAME.with EXP...)"]
    if LANG in settings:
        lines.append(f"{LANG} = {json.dumps(settings[LANG])}")
    for game in sorted(g for g in settings if g != LANG):
        lines.append(f"\n[{json.dumps(game)}]")
        for key, values in sorted(settings[game].items()):
            lines.append(f"{key} = {json.dumps(values, ensure_ascii=False)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path
