"""The one place that reads config.yaml and the environment, and validates both.

Order: built-in defaults < config file < environment (GLADOS_DB, GLADOS_USER, OLLAMA_HOST,
OLLAMA_MODEL, MEMORY_WINDOW) < command line. The config file is --config, else GLADOS_CONFIG,
else the user's own (~/.config/glados/config.yaml on Linux) when it exists, else the commented
defaults shipped inside the package (assistant/config.yaml; the project's config.yaml links to it).
An invalid value is reported with its key and what is allowed.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

import yaml
from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator, model_validator

# libyaml's safe loader when PyYAML has it (ten times faster on the commented config), else Python's
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SHIPPED_CONFIG = Path(__file__).resolve().with_name("config.yaml")   # package data: every key, commented


class ConfigError(Exception):
    """The config file or an environment override is invalid; the message names the key."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MemoryConfig(Strict):
    max_facts: int = Field(10, ge=0, le=1000)
    max_summaries: int = Field(3, ge=0, le=100)
    context_tokens: int = Field(400, ge=0, le=100_000)
    max_value_chars: int = Field(200, ge=10, le=10_000)
    recall_k: int = Field(3, ge=0, le=50)
    recall_candidates: int = Field(30, ge=1, le=10_000)
    recent_window: int = Field(12, ge=0, le=10_000)
    busy_timeout_ms: int = Field(5000, ge=0, le=600_000)


HALF_LIVES: dict[str, float | None] = {
    "health": None, "identity": None, "note": None, "likes": 90.0, "project": 90.0, "state": 7.0,
    "other": None, "reply": None}


class RecallConfig(Strict):
    meaning: bool = True              # rank by meaning too, when the sentence model is installed
    word_weight: float = Field(0.1, ge=0, le=10)
    min_score: float = Field(0.3, ge=-1, le=10)
    duplicate_cosine: float = Field(0.77, ge=0, le=1.01)
    question_weight: float = Field(0.7, ge=0, le=1)
    half_life_days: dict[str, float | None] = HALF_LIVES

    @field_validator("half_life_days")
    @classmethod
    def _kinds(cls, value: dict[str, float | None]) -> dict[str, float | None]:
        from memory.kinds import KINDS
        unknown = set(value) - set(KINDS) - {"note"}
        if unknown:
            raise ValueError(f"unknown kind(s) {', '.join(sorted(unknown))}; use {', '.join(KINDS)}, note")
        if any(v is not None and v <= 0 for v in value.values()):
            raise ValueError("a half-life is a number of days above 0, or null for never")
        return {**HALF_LIVES, **value}     # a kind left out keeps its default


class LLMConfig(Strict):
    host: str = "http://127.0.0.1:11434"
    model: str = Field("llama3.2", min_length=1)
    connect_timeout_s: float = Field(3.0, gt=0, le=600)
    first_token_timeout_s: float = Field(120.0, gt=0, le=3600)
    between_tokens_timeout_s: float = Field(30.0, gt=0, le=3600)
    temperature: float = Field(0.8, ge=0, le=2)
    tools: bool = True


class Example(Strict):
    user: str
    assistant: str


class Lines(Strict):
    """What she says when the answer comes from memory, not the model. {what}, {date}, {source} are filled in."""
    offline: str = "My language core is offline. Start Ollama and try again."
    remembered: str = "Noted: {what}."
    forgot: str = "Deleted: {what}."
    forgot_nothing: str = "I had nothing stored about {what}."
    facts: str = "Here is what I know about you: {what}."
    no_facts: str = "I know nothing about you yet."
    why: str = "Because you told me on {date}: \"{source}\"."
    why_model: str = "Because {model} read it in what you told me on {date}: \"{source}\"."
    why_unknown: str = "I have nothing stored about {what}."
    wake_word: str = "From now on, say {what} to wake me."
    called: str = "Yes?"
    answer: str = "{what}."                              # a question about you, model down: {what} = the facts
    answer_unknown: str = "You never told me {what}."    # ... and nothing is known: {what} = the question's words


class PersonaConfig(Strict):
    system_prompt: str = "You are GLaDOS, the sardonic AI from Aperture Science. Answer briefly."
    examples: list[Example] = []
    lines: Lines = Lines()


class BudgetConfig(Strict):
    system: int = Field(600, ge=50)
    memory: int = Field(400, ge=0)
    recall: int = Field(200, ge=0)
    history: int = Field(1500, ge=0)
    reply: int = Field(400, ge=16)


class SessionConfig(Strict):
    idle_timeout_min: float = Field(30.0, gt=0)
    summary_max_words: int = Field(80, ge=10, le=1000)
    consolidate: bool = True       # at a session's end, the model proposes facts; only grounded ones are kept


class WakeConfig(Strict):
    engine: str = "transcript"          # the wake matcher (assistant/wake/)
    phrase: str = Field("hey glados", min_length=2)
    threshold: float = Field(0.78, gt=0, le=1)
    second_look_s: float = Field(2.0, ge=0, le=10)     # re-transcribe this much of an utterance's opening; 0: off


class STTConfig(Strict):
    engine: str = "whisper"             # the recogniser (assistant/stt/)
    model: str = "bundled"              # 'bundled' (tiny.en in the wheel), a path, or a model name
    device: str = "cpu"
    compute_type: str = "int8"
    beam_size: int = Field(1, ge=1, le=10)


class TTSConfig(Strict):
    engine: str = "piper"               # the voice (assistant/tts/)
    model: str = "bundled"              # 'bundled' (Piper joe) or a Piper .onnx path
    config: str | None = None           # the voice's .onnx.json, when not beside the model
    length_scale: float | None = Field(None, gt=0, le=5)


# Flat keys of earlier config files, still read: (old key) -> (block, new key).
_OLD_VOICE_KEYS = {
    "wake_word": ("wake", "phrase"), "wake_threshold": ("wake", "threshold"),
    "wake_second_look_s": ("wake", "second_look_s"),
    "stt_model": ("stt", "model"), "stt_device": ("stt", "device"), "stt_compute_type": ("stt", "compute_type"),
    "stt_beam_size": ("stt", "beam_size"),
    "tts_model": ("tts", "model"), "tts_config": ("tts", "config"), "tts_length_scale": ("tts", "length_scale"),
}


class VoiceConfig(Strict):
    wake: WakeConfig = WakeConfig()
    stt: STTConfig = STTConfig()
    tts: TTSConfig = TTSConfig()
    follow_up_s: float = Field(8.0, ge=0, le=600)
    wake_pause_s: float = Field(2.0, ge=0, le=30)
    barge_in: bool = False
    stream_sentences: bool = True       # speak each sentence as soon as it is written
    vad_threshold: float = Field(0.5, gt=0, lt=1)
    end_silence_s: float = Field(0.6, gt=0, le=10)
    pre_roll_s: float = Field(0.3, ge=0, le=5)
    min_speech_s: float = Field(0.1, ge=0, le=10)
    max_utterance_s: float = Field(20.0, gt=1, le=300)
    input_device: str | None = None     # sounddevice name or index; null: the system default
    output_device: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_keys(cls, data: object) -> object:
        """voice.stt_model and the like (earlier files) go to voice.stt.model."""
        if not isinstance(data, dict) or not set(data) & set(_OLD_VOICE_KEYS):
            return data
        data = dict(data)
        for old, (block, key) in _OLD_VOICE_KEYS.items():
            if old in data:
                section = data.get(block)
                section = dict(section) if isinstance(section, dict) else {}
                section.setdefault(key, data.pop(old))
                data[block] = section
        return data


class Config(Strict):
    _source: Path | None = PrivateAttr(None)     # the file these values came from
    user: str = Field("default", min_length=1, max_length=100)
    database: Path | None = None
    memory: MemoryConfig = MemoryConfig()
    recall: RecallConfig = RecallConfig()
    llm: LLMConfig = LLMConfig()
    persona: PersonaConfig = PersonaConfig()
    budget: BudgetConfig = BudgetConfig()
    session: SessionConfig = SessionConfig()
    voice: VoiceConfig = VoiceConfig()

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
    """Defaults, then the file, then the environment; raises ConfigError naming the bad key."""
    path, named = config_file(path, env)
    data: dict = {}
    if path is not None and path.exists():
        try:
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=SAFE_LOADER) or {}
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path} is not valid YAML ({_one_line(exc)}); fix the file or unset GLADOS_CONFIG") from exc
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must hold a mapping of keys, not {type(data).__name__}")
    elif named:
        raise ConfigError(f"config file {path} does not exist; fix GLADOS_CONFIG or --config")
    else:
        path = None
    for name, keys in ENV_OVERRIDES.items():
        if env.get(name):
            target = data
            for key in keys[:-1]:
                target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else {}
            target[keys[-1]] = env[name]
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        env_name = next((n for n, k in ENV_OVERRIDES.items() if ".".join(k) == where and env.get(n)), None)
        origin = f" (from {env_name})" if env_name else f" in {path}"
        raise ConfigError(f"config key '{where}'{origin}: {first['msg']} (got {first.get('input')!r})") from exc
    config._source = path
    return config
