"""The one place that reads config.yaml and the environment, and validates both.

Order: built-in defaults < config file < environment (GLADOS_DB, GLADOS_USER, OLLAMA_HOST,
OLLAMA_MODEL, MEMORY_WINDOW) < command line. The config file is --config, else GLADOS_CONFIG,
else the user's own (~/.config/glados/config.yaml on Linux) when it exists, else the commented
defaults shipped inside the package (assistant/config.yaml; the project's config.yaml links to it).
An invalid value is reported with its key and what is allowed.
"""
from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any, Mapping

from platformdirs import user_cache_dir, user_config_dir

from . import sections
from .sections import Config

SHIPPED_CONFIG = Path(__file__).resolve().parent.parent / "config.yaml"   # package data: every key, documented


class ConfigError(Exception):
    """The config file or an environment override is invalid; the message names the key."""


# Flat keys of earlier config files, still read: (old key) -> (block, new key).
_OLD_VOICE_KEYS = {
    "wake_word": ("wake", "phrase"), "wake_threshold": ("wake", "threshold"),
    "wake_second_look_s": ("wake", "second_look_s"),
    "stt_model": ("stt", "model"), "stt_device": ("stt", "device"), "stt_compute_type": ("stt", "compute_type"),
    "stt_beam_size": ("stt", "beam_size"),
    "tts_model": ("tts", "model"), "tts_config": ("tts", "config"), "tts_length_scale": ("tts", "length_scale"),
}


# voice.wake keys of earlier files that the gate no longer reads (its checks are fixed: assistant/wake/decide.py
# SHIPPED, which config must not import), with the value it runs with (a test holds the two equal). One that
# says the same is dropped; one that says otherwise is an error, so a check someone turned off is not turned
# back on without a word.
_RETIRED_WAKE_KEYS = {
    "second_look_s": 2.0, "plain_check": True, "name_check": 14.0, "pause_look_s": 0.2, "name_model": 0.3,
    "name_model_sure": 0.93, "name_place": 18.0, "beam_look": 5, "name_alone": 0.9995, "name_alone_unsure": 0.5,
}

# recall keys of earlier files whose mechanisms the fit on real conversations did not need (docs/recall.md), with
# the value they shipped with: a file that still says that is read as before; one that says otherwise is an error
_RETIRED_RECALL_KEYS = {"other_weight": 0.75, "continuation_weight": 0.8, "duplicate_cosine": 0.77}

ENV_OVERRIDES = {
    "GLADOS_DB": ("database",),
    "GLADOS_USER": ("user",),
    "OLLAMA_HOST": ("llm", "host"),
    "OLLAMA_MODEL": ("llm", "model"),
    "MEMORY_WINDOW": ("memory", "recent_window"),
}


def _one_line(exc: Exception) -> str:
    """A YAML error as one line: what is wrong, and where."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"{problem} at line {mark.line + 1}, column {mark.column + 1}" if mark else " ".join(str(problem).split())


def user_config_file() -> Path:
    return Path(user_config_dir("glados", appauthor=False)) / "config.yaml"


def config_file(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> tuple[Path | None, bool]:
    """The config file to read, and whether the user named it (then it must exist)."""
    if path:
        return Path(path), True
    if env.get("GLADOS_CONFIG"):
        return Path(env["GLADOS_CONFIG"]), True
    mine = user_config_file()
    if mine.exists():
        return mine, False
    return (SHIPPED_CONFIG if SHIPPED_CONFIG.exists() else None), False


def load_config(path: str | Path | None = None, env: Mapping[str, str] = os.environ) -> Config:
    """Defaults, then the file, then the environment; raises ConfigError naming the bad key.

    A validated config is kept as a snapshot in the user's cache folder, keyed by the file's bytes,
    the overrides and this module; the next start with the same inputs rebuilds it without parsing
    YAML or building validators (a third of `glados memory list`'s start-up)."""
    given = path
    path, named = config_file(path, env)
    # what to do about a file that cannot be used, by where it came from
    fix = ("or pass another --config" if given else "or unset GLADOS_CONFIG" if named else
           "or move it aside to run on the defaults")
    raw: bytes | None = None
    if path is not None and path.exists():
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read {path} ({exc.strerror}); fix its permissions {fix}") from exc
    elif named:
        raise ConfigError(f"config file {path} does not exist; fix GLADOS_CONFIG or --config")
    else:
        path = None
    overrides = {name: env[name] for name in ENV_OVERRIDES if env.get(name)}
    key = _snapshot_key(path, raw, overrides)
    config = _from_snapshot(key)
    if config is None:
        config = _validate(path, raw, overrides, fix)
        _save_snapshot(key, config)
    object.__setattr__(config, "_source", path)
    return config


def _validate(path: Path | None, raw: bytes | None, overrides: Mapping[str, str], fix: str) -> Config:
    data: dict = {}
    if raw is not None:
        import yaml
        # libyaml's safe loader when PyYAML has it (ten times faster on the commented config)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            data = yaml.load(raw.decode("utf-8"), Loader=loader) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path} is not valid YAML ({_one_line(exc)}); fix the file {fix}") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a mapping of keys, not {type(data).__name__}")
    if isinstance(data.get("voice"), dict):
        data["voice"] = _retired_wake_keys(_old_voice_keys(data["voice"]), path)
    if isinstance(data.get("recall"), dict):
        data["recall"] = _retired_recall_keys(data["recall"], path)
    for name, value in overrides.items():
        keys = ENV_OVERRIDES[name]
        target = data
        for key in keys[:-1]:
            target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else {}
        target[keys[-1]] = value
    from pydantic import Field, TypeAdapter, ValidationError
    sections.Field = Field             # the annotations name it; pydantic resolves them in that module
    try:
        return TypeAdapter(Config).validate_python(data)
    except ValidationError as exc:
        problems = [_problem(error, path, overrides) for error in exc.errors()]
        if len(problems) == 1:
            raise ConfigError(problems[0]) from exc
        raise ConfigError(f"{len(problems)} problems in the config: " + "; ".join(problems)) from exc


def _problem(error: dict, path: Path | None, overrides: Mapping[str, str]) -> str:
    """One validation error as a line that names the key, where it came from, and the fix."""
    where = ".".join(str(p) for p in error["loc"])
    env_name = next((n for n in overrides if ".".join(ENV_OVERRIDES[n]) == where), None)
    origin = f" (from {env_name})" if env_name else f" in {path}"
    if error["type"] in ("unexpected_keyword_argument", "extra_forbidden"):
        near = _near(error["loc"])
        hint = f"did you mean '{near}'?" if near else f"see the shipped {SHIPPED_CONFIG.name} for the keys"
        return f"unknown config key '{where}'{origin}; {hint}"
    what = error["msg"].removeprefix("Value error, ")
    return f"config key '{where}'{origin}: {what} (got {error.get('input')!r})"


def _near(loc: tuple) -> str | None:
    """The known key nearest an unknown one ("llm.modle" -> "llm.model"), in the same section; None if none is near."""
    import dataclasses
    import difflib
    import typing
    section: Any = Config
    for part in loc[:-1]:
        hints = typing.get_type_hints(section, vars(sections), include_extras=False) \
            if dataclasses.is_dataclass(section) else {}
        section = hints.get(str(part))
        if section is None:
            return None
    if not dataclasses.is_dataclass(section):
        return None
    names = [f.name for f in dataclasses.fields(section)]
    found = difflib.get_close_matches(str(loc[-1]), names, n=1, cutoff=0.6)
    return ".".join([*(str(p) for p in loc[:-1]), found[0]]) if found else None


def _retired_wake_keys(voice: dict, path: Path | None) -> dict:
    wake = voice.get("wake")
    if not isinstance(wake, dict):
        return voice
    for key, value in _RETIRED_WAKE_KEYS.items():
        if key in wake and wake[key] != value:
            raise ConfigError(f"config key 'voice.wake.{key}' in {path} is no longer a setting: the wake gate's checks "
                              f"are fixed (docs/wake-gate.md) and it runs as if it were {value}; remove the key")
    return {**voice, "wake": {k: v for k, v in wake.items() if k not in _RETIRED_WAKE_KEYS}}


def _retired_recall_keys(recall: dict, path: Path | None) -> dict:
    for key, value in _RETIRED_RECALL_KEYS.items():
        if key in recall and recall[key] != value:
            raise ConfigError(f"config key 'recall.{key}' in {path} is no longer a setting: recall's score is fitted on "
                              f"real conversations and no longer has it (docs/recall.md); remove the key")
    return {k: v for k, v in recall.items() if k not in _RETIRED_RECALL_KEYS}


def _old_voice_keys(voice: dict) -> dict:
    """voice.stt_model and the like (earlier files) go to voice.stt.model. A file that sets Piper's keys and
    no engine was written when Piper was her only voice: it keeps Piper (a GLaDOS .onnx stays hers)."""
    voice = dict(voice)
    for old, (block, key) in _OLD_VOICE_KEYS.items():
        if old in voice:
            section = voice.get(block)
            section = dict(section) if isinstance(section, dict) else {}
            section.setdefault(key, voice.pop(old))
            voice[block] = section
    tts = voice.get("tts")
    if isinstance(tts, dict) and "engine" not in tts and (
            tts.get("model", "bundled") != "bundled" or tts.get("config") or tts.get("length_scale")):
        voice["tts"] = {**tts, "engine": "piper"}
    return voice


# --- the snapshot: a validated config, rebuilt without validation when nothing it came from changed

def snapshot_file() -> Path:
    return Path(user_cache_dir("glados", appauthor=False)) / "config-snapshot.pickle"


def _snapshot_key(path: Path | None, raw: bytes | None, overrides: Mapping[str, str]) -> bytes:
    """Everything the config came from, whole (a file of a few kB): compared byte for byte, never hashed."""
    code = [Path(f).stat() for f in (__file__, sections.__file__)]
    stamp = ":".join(f"{c.st_mtime_ns}:{c.st_size}" for c in code)
    key = f"{stamp}:{path}:{sorted(overrides.items())}".encode() + b"\0" + (raw or b"")
    return len(key).to_bytes(8, "big") + key


class _SnapshotReader(pickle.Unpickler):
    """Loads the config's sections and paths, nothing else: a snapshot cannot name other code."""

    def find_class(self, module: str, name: str) -> type:
        if (module == sections.__name__ and isinstance(vars(sections).get(name), type)) or \
                (module == "pathlib" and name in ("Path", "PosixPath", "WindowsPath")):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a config")


def _from_snapshot(key: bytes) -> Config | None:
    try:
        with open(snapshot_file(), "rb") as saved:
            if saved.read(len(key)) != key:
                return None
            config = _SnapshotReader(saved).load()
        return config if isinstance(config, Config) else None
    except Exception:  # noqa: BLE001 - a cache: missing, torn (pickle raises many kinds) or old, it is rebuilt
        return None


def _save_snapshot(key: bytes, config: Config) -> None:
    """Best effort and private (it may hold a host name); a read-only home only costs speed."""
    target = snapshot_file()
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = target.with_name(f".{target.name}.{os.getpid()}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
            pickle.dump(config, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, target)
    except (OSError, pickle.PicklingError):
        pass
