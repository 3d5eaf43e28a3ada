"""The one place that reads config.yaml and the environment, and validates both.

Order: built-in defaults < config file < environment (GLADOS_DB, GLADOS_USER, OLLAMA_HOST,
OLLAMA_MODEL, MEMORY_WINDOW) < command line. The config file is --config, else GLADOS_CONFIG,
else the user's own (~/.config/glados/config.yaml on Linux) when it exists, else the commented
defaults shipped inside the package (assistant/config.yaml; the project's config.yaml links to it).
An invalid value is reported with its key and what is allowed.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Mapping

from platformdirs import user_cache_dir, user_config_dir, user_data_dir

if TYPE_CHECKING:
    from pydantic import Field      # named in the annotations; _validate imports it where they are resolved

SHIPPED_CONFIG = Path(__file__).resolve().with_name("config.yaml")   # package data: every key, commented


class ConfigError(Exception):
    """The config file or an environment override is invalid; the message names the key."""


# The sections are plain frozen dataclasses: building them costs nothing at start-up. pydantic checks
# them (the Field(...) constraints in the annotations, unknown keys refused) only when a file or an
# override is read, in _validate; a start with unchanged inputs skips even that (the snapshot).
STRICT = {"extra": "forbid"}


@dataclass(frozen=True)
class MemoryConfig:
    __pydantic_config__ = STRICT
    max_facts: Annotated[int, Field(ge=0, le=1000)] = 10
    max_summaries: Annotated[int, Field(ge=0, le=100)] = 3
    context_tokens: Annotated[int, Field(ge=0, le=100_000)] = 400
    max_value_chars: Annotated[int, Field(ge=10, le=10_000)] = 200
    recall_k: Annotated[int, Field(ge=0, le=50)] = 3
    recall_candidates: Annotated[int, Field(ge=1, le=10_000)] = 30
    recent_window: Annotated[int, Field(ge=0, le=10_000)] = 12
    busy_timeout_ms: Annotated[int, Field(ge=0, le=600_000)] = 5000


HALF_LIVES: dict[str, float | None] = {
    "health": None, "identity": None, "note": None, "likes": 90.0, "project": 90.0, "state": 7.0,
    "other": None, "reply": None}


@dataclass(frozen=True)
class RecallConfig:
    __pydantic_config__ = STRICT
    meaning: bool = True              # rank by meaning too, when the sentence model is installed
    word_weight: Annotated[float, Field(ge=0, le=10)] = 0.5
    min_cosine: Annotated[float, Field(ge=-1, le=1)] = 0.15
    duplicate_cosine: Annotated[float, Field(ge=0, le=1.01)] = 0.77
    question_weight: Annotated[float, Field(ge=0, le=1)] = 0.7
    context_weight: Annotated[float, Field(ge=0, le=1)] = 0.6
    date_weight: Annotated[float, Field(ge=0, le=5)] = 0.3
    crowding_weight: Annotated[float, Field(ge=0, le=5)] = 0.5
    half_life_days: dict[str, float | None] = field(default_factory=lambda: dict(HALF_LIVES))

    def __post_init__(self) -> None:
        from memory import KINDS
        value = self.half_life_days
        unknown = set(value) - set(KINDS) - {"note"}
        if unknown:
            raise ValueError(f"half_life_days: unknown kind(s) {', '.join(sorted(unknown))}; use {', '.join(KINDS)}, note")
        if any(v is not None and v <= 0 for v in value.values()):
            raise ValueError("half_life_days: a half-life is a number of days above 0, or null for never")
        object.__setattr__(self, "half_life_days", {**HALF_LIVES, **value})   # a kind left out keeps its default


@dataclass(frozen=True)
class LLMConfig:
    __pydantic_config__ = STRICT
    host: str = "http://127.0.0.1:11434"
    model: Annotated[str, Field(min_length=1)] = "llama3.2"
    connect_timeout_s: Annotated[float, Field(gt=0, le=600)] = 3.0
    first_token_timeout_s: Annotated[float, Field(gt=0, le=3600)] = 120.0
    between_tokens_timeout_s: Annotated[float, Field(gt=0, le=3600)] = 30.0
    temperature: Annotated[float, Field(ge=0, le=2)] = 0.8
    session_end_temperature: Annotated[float, Field(ge=0, le=2)] = 0.2
    tools: bool = True


@dataclass(frozen=True)
class Example:
    __pydantic_config__ = STRICT
    user: str
    assistant: str


@dataclass(frozen=True)
class Lines:
    __pydantic_config__ = STRICT
    """What she says when the answer comes from memory, not the model. {what}, {date}, {source} are filled in."""
    offline: str | list[str] = "My language core is offline. Start Ollama and try again."   # one, or several said in turn
    noted_offline: str | list[str] = "Noted. {what}."     # the model is down but she stored something: {what}
    remembered: str = "Noted: {what}."
    forgot: str = "Deleted: {what}."
    forgot_nothing: str = "I had nothing stored about {what}."
    forget_which: str = "Which one: {what}? Say the one to forget."   # a forget that names several notes
    facts: str = "Here is what I know about you: {what}."
    no_facts: str = "I know nothing about you yet."
    why: str = "Because you told me on {date}: \"{source}\"."
    why_model: str = "Because {model} read it in what you told me on {date}: \"{source}\"."
    why_unknown: str = "I have nothing stored about {what}."
    wake_word: str = "From now on, say {what} to wake me."
    called: str = "Yes?"
    answer: str = "{what}."                              # a question about you, model down: {what} = the facts
    answer_unknown: str = "You never told me {what}."    # ... and nothing is known: {what} = the question's words


@dataclass(frozen=True)
class PersonaConfig:
    __pydantic_config__ = STRICT
    system_prompt: str = "You are GLaDOS, the sardonic AI from Aperture Science. Answer briefly."
    examples: list[Example] = field(default_factory=list)
    lines: Lines = field(default_factory=Lines)


@dataclass(frozen=True)
class BudgetConfig:
    __pydantic_config__ = STRICT
    system: Annotated[int, Field(ge=50)] = 600
    memory: Annotated[int, Field(ge=0)] = 400
    recall: Annotated[int, Field(ge=0)] = 200
    history: Annotated[int, Field(ge=0)] = 1500
    reply: Annotated[int, Field(ge=16)] = 400


@dataclass(frozen=True)
class SessionConfig:
    __pydantic_config__ = STRICT
    idle_timeout_min: Annotated[float, Field(gt=0)] = 30.0
    summary_max_words: Annotated[int, Field(ge=10, le=1000)] = 80
    consolidate: bool = True       # at a session's end, the model proposes facts; only grounded ones are kept


@dataclass(frozen=True)
class WakeConfig:
    __pydantic_config__ = STRICT
    engine: str = "transcript"          # the wake matcher (assistant/wake/)
    phrase: Annotated[str, Field(min_length=2)] = "hey glados"
    threshold: Annotated[float, Field(gt=0, le=1)] = 0.78
    second_look_s: Annotated[float, Field(ge=0, le=10)] = 2.0     # re-transcribe this much of an utterance's opening; 0: off
    acoustic_threshold: Annotated[float, Field(gt=0, le=1)] = 0.5  # engine openwakeword: its classifier's score
    plain_check: bool = True            # also transcribe without the hotword; a call that then names someone else is not hers
    name_check: Annotated[float, Field(ge=0, le=100)] = 14.0   # her name in place of the words heard: at most this much
                                                                # less likely (nats) counts as a call; 0: off
    pause_look_s: Annotated[float, Field(ge=0, le=5)] = 0.2    # speech after a pause this long inside an utterance is
                                                                # looked at for a call of its own; 0: off
    name_model: Annotated[float, Field(ge=0, lt=1)] = 0.3      # a call whose audio the name model scores below this
                                                                # is not hers ("Gladys" heard "glados"); 0: off
    name_model_sure: Annotated[float, Field(gt=0, le=1)] = 0.93  # the model this sure: a call the words found whose
                                                                  # plain transcript wrote "Gladys" stands, and with no
                                                                  # call in the words her name is tried where it was heard
                                                                  # and the beam look is taken
    name_place: Annotated[float, Field(ge=0, le=100)] = 18.0   # her name where the model heard it: at most this much
                                                                # less likely (nats) than what was heard is a call; 0: off
    beam_look: Annotated[int, Field(ge=0, le=10)] = 5           # the model sure of her name and no call found: heard
                                                                # again searching this many readings at once; 0 or 1: off
    name_alone: Annotated[float, Field(gt=0, le=1)] = 0.9995    # the model this sure of her name in the opening, whisper
                                                                # unsure of what it wrote there: a call; 1: never
    name_alone_unsure: Annotated[float, Field(ge=0, le=10)] = 0.5   # whisper unsure: the mean log-probability of the
                                                                    # words it wrote where the model heard her name
                                                                    # below minus this (nats)


@dataclass(frozen=True)
class STTConfig:
    __pydantic_config__ = STRICT
    engine: str = "whisper"             # the recogniser (assistant/stt/)
    model: str = "bundled"              # 'bundled' (tiny.en in the wheel), a path, or a model name
    device: str = "cpu"
    compute_type: str = "int8"
    beam_size: Annotated[int, Field(ge=1, le=10)] = 1


@dataclass(frozen=True)
class TTSConfig:
    __pydantic_config__ = STRICT
    engine: str = "piper"               # the voice (assistant/tts/)
    model: str = "bundled"              # 'bundled' (Piper joe) or a Piper .onnx path
    config: str | None = None           # the voice's .onnx.json, when not beside the model
    length_scale: Annotated[float, Field(gt=0, le=5)] | None = None


# Flat keys of earlier config files, still read: (old key) -> (block, new key).
_OLD_VOICE_KEYS = {
    "wake_word": ("wake", "phrase"), "wake_threshold": ("wake", "threshold"),
    "wake_second_look_s": ("wake", "second_look_s"),
    "stt_model": ("stt", "model"), "stt_device": ("stt", "device"), "stt_compute_type": ("stt", "compute_type"),
    "stt_beam_size": ("stt", "beam_size"),
    "tts_model": ("tts", "model"), "tts_config": ("tts", "config"), "tts_length_scale": ("tts", "length_scale"),
}


@dataclass(frozen=True)
class VoiceConfig:
    __pydantic_config__ = STRICT
    wake: WakeConfig = field(default_factory=WakeConfig)
    stt: STTConfig = field(default_factory=STTConfig)
    tts: TTSConfig = field(default_factory=TTSConfig)
    follow_up_s: Annotated[float, Field(ge=0, le=600)] = 8.0
    wake_pause_s: Annotated[float, Field(ge=0, le=30)] = 2.0
    barge_in: bool = False
    stream_sentences: bool = True       # speak each sentence as soon as it is written
    vad_threshold: Annotated[float, Field(gt=0, lt=1)] = 0.5
    end_silence_s: Annotated[float, Field(gt=0, le=10)] = 0.6
    early_stt_s: Annotated[float, Field(ge=0, le=10)] = 0.2    # start transcribing after this much of that silence; 0: off
    pre_roll_s: Annotated[float, Field(ge=0, le=5)] = 0.3
    min_speech_s: Annotated[float, Field(ge=0, le=10)] = 0.1
    max_utterance_s: Annotated[float, Field(gt=1, le=300)] = 20.0
    input_device: str | None = None     # sounddevice name or index; null: the system default
    output_device: str | None = None


@dataclass(frozen=True)
class Config:
    __pydantic_config__ = STRICT
    user: Annotated[str, Field(min_length=1, max_length=100)] = "default"
    database: Path | None = None
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    llm: LLMConfig = field(default_factory=LLMConfig)
    persona: PersonaConfig = field(default_factory=PersonaConfig)
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    session: SessionConfig = field(default_factory=SessionConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)
    _source: Path | None = field(default=None, init=False, repr=False, compare=False)   # the file these came from

    @property
    def source(self) -> str:
        """Which file is in use, for people: its path, or that only built-in defaults are."""
        return str(self._source) if self._source else "built-in defaults (no config file found)"

    def database_path(self) -> Path:
        """The database file: configured, else the platform's user data folder."""
        if self.database is not None:
            return self.database.expanduser()
        return Path(user_data_dir("glados", appauthor=False)) / "memory.db"


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
    path, named = config_file(path, env)
    raw: bytes | None = None
    if path is not None and path.exists():
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read {path} ({exc.strerror}); fix its permissions or unset GLADOS_CONFIG") from exc
    elif named:
        raise ConfigError(f"config file {path} does not exist; fix GLADOS_CONFIG or --config")
    else:
        path = None
    overrides = {name: env[name] for name in ENV_OVERRIDES if env.get(name)}
    key = _snapshot_key(path, raw, overrides)
    config = _from_snapshot(key)
    if config is None:
        config = _validate(path, raw, overrides)
        _save_snapshot(key, config)
    object.__setattr__(config, "_source", path)
    return config


def _validate(path: Path | None, raw: bytes | None, overrides: Mapping[str, str]) -> Config:
    data: dict = {}
    if raw is not None:
        import yaml
        # libyaml's safe loader when PyYAML has it (ten times faster on the commented config)
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            data = yaml.load(raw.decode("utf-8"), Loader=loader) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path} is not valid YAML ({_one_line(exc)}); fix the file or unset GLADOS_CONFIG") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a mapping of keys, not {type(data).__name__}")
    if isinstance(data.get("voice"), dict):
        data["voice"] = _old_voice_keys(data["voice"])
    for name, value in overrides.items():
        keys = ENV_OVERRIDES[name]
        target = data
        for key in keys[:-1]:
            target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else {}
        target[keys[-1]] = value
    from pydantic import Field, TypeAdapter, ValidationError
    globals()["Field"] = Field         # the annotations name it; pydantic resolves them in this module
    try:
        return TypeAdapter(Config).validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        env_name = next((n for n in overrides if ".".join(ENV_OVERRIDES[n]) == where), None)
        origin = f" (from {env_name})" if env_name else f" in {path}"
        if first["type"] in ("unexpected_keyword_argument", "extra_forbidden"):
            raise ConfigError(f"unknown config key '{where}'{origin}; see the shipped {SHIPPED_CONFIG.name} for the keys") from exc
        what = first["msg"].removeprefix("Value error, ")
        raise ConfigError(f"config key '{where}'{origin}: {what} (got {first.get('input')!r})") from exc


def _old_voice_keys(voice: dict) -> dict:
    """voice.stt_model and the like (earlier files) go to voice.stt.model."""
    voice = dict(voice)
    for old, (block, key) in _OLD_VOICE_KEYS.items():
        if old in voice:
            section = voice.get(block)
            section = dict(section) if isinstance(section, dict) else {}
            section.setdefault(key, voice.pop(old))
            voice[block] = section
    return voice


# --- the snapshot: a validated config, rebuilt without validation when nothing it came from changed

def snapshot_file() -> Path:
    return Path(user_cache_dir("glados", appauthor=False)) / "config-snapshot.pickle"


def _snapshot_key(path: Path | None, raw: bytes | None, overrides: Mapping[str, str]) -> bytes:
    code = Path(__file__).stat()
    digest = hashlib.sha256(f"{code.st_mtime_ns}:{code.st_size}:{path}:{sorted(overrides.items())}".encode())
    digest.update(raw or b"")
    return digest.digest()


class _SnapshotReader(pickle.Unpickler):
    """Loads this module's sections and paths, nothing else: a snapshot cannot name other code."""

    def find_class(self, module: str, name: str) -> type:
        if (module == __name__ and isinstance(globals().get(name), type)) or \
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
