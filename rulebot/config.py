"""User settings: the language to answer in, and which expansions are in play for each game, by default.

The file is `config.toml` in the user config directory ($RULEBOT_CONFIG_DIR
overrides it), for example:

    lang = "fr"

    [res-arcana]
    with = ["perlae-imperii"]
"""

from __future__ import annotations

from collections.abc import Callable
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
LIMITS = (1, 40)
"""How many matches an answer shows at least and at most: `ask --limit`, `Library.ask(limit=)`. At most as many as
a search keeps (rulebot.search.constants.CANDIDATES): a higher limit would promise what no answer can have."""


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
    """Set the language to answer in (None: the question's again; "FR" is fr); returns the file written."""
    lang = lang.lower() if lang is not None and lang.lower() in LANGUAGES else lang
    if lang is not None and lang not in LANGUAGES:
        raise ConfigError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")

    def change(document: Any) -> None:
        if lang is None:
            document.pop(LANG, None)
        else:
            document[LANG] = lang  # before the tables, where a top-level key must be

    return _change(change)


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
        return _settings(path, content)
    except ConfigError as error:
        # (every command reads the file, `config unset` too: the way out is said)
        raise ConfigError(f"{error}; fix the file, or delete it to go back to the defaults") from None


def _settings(path: Path, content: bytes) -> dict[str, object]:
    """The settings a config file's content holds; ConfigError for what is wrong in it."""
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
    """The configured expansions per game, as slugs are written: in lower case (a file edited by hand may say
    "Perlae-Imperii")."""
    return {game: [name.lower() for name in table["with"]] for game, table in load().items() if "with" in table}


def split_key(key: str) -> tuple[str, str]:
    """`GAME.SETTING` as (game, setting); ConfigError if malformed or unknown."""
    game, _, setting = key.rpartition(".")
    if not game or setting not in KEYS:
        raise ConfigError(f"unknown setting {key!r}: use GAME.with (e.g. res-arcana.with), or {LANG}")
    return game, setting


def set_value(key: str, values: list[str] | None) -> Path:
    """Set GAME.SETTING to a list of values (None: remove it; an empty list of `with`: no expansion, the base game
    alone); returns the file written."""
    game, setting = split_key(key)

    def change(document: Any) -> None:
        if values is not None:
            if game not in document:
                import tomlkit

                document[game] = tomlkit.table()
            document[game][setting] = values
        elif game in document:
            document[game].pop(setting, None)
            if not document[game]:
                del document[game]

    return _change(change)


NEW_FILE_HEADER = (
    "# rulebot settings: the language to answer in (rulebot config set lang fr), the expansions in play per game"
    " (rulebot config set GAME.with EXP...)\n"
)


def _change(change: Callable[[Any], None]) -> Path:
    """Change the config file as `change` changes its TOML document, keeping every other line of it (the
    user's comments, order and layout: tomlkit keeps them, where tomllib only reads); the file written.

    The file is read, checked and written under its lock, whole or not at
    all (rulebot.atomic): a failed write leaves it as it was. ConfigError for
    a file that is not valid settings.
    """
    import tomlkit  # only to write the settings: `ask` reads them with tomllib
    from tomlkit.exceptions import TOMLKitError

    from rulebot import atomic
    from rulebot.errors import WriteError

    path = config_path()

    def rewrite(existing: str | None) -> str:
        _read()  # refuses settings that are not valid (read again under the lock: what is changed is what was checked)
        try:
            document = tomlkit.parse(existing if existing is not None else NEW_FILE_HEADER)
            change(document)
        except (TOMLKitError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"cannot change {path}: {exc}") from None
        return tomlkit.dumps(document)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        atomic.update_file(path, rewrite)
    except WriteError as exc:
        raise ConfigError(str(exc)) from None
    return path
