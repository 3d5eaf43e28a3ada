"""Wiring: every part built from the config, in one place. The front ends (`cli/`) and the benchmarks
call these; the stages themselves never read the config file.

The stages are imported where they are built: `glados memory list` opens the memory and nothing else."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from memory import Memory, RecallSettings

from .config import Config

log = logging.getLogger("glados")
# What users call her. In a question to recall her name means "you": "what did GLaDOS say about peanuts?"
# does not match the user's "thanks GLaDOS". (Not the wake phrase: a wake word may be a common noun.)
HER_NAMES = ("GLaDOS",)

if TYPE_CHECKING:
    from .audio import AudioSink, AudioSource
    from .llm import LLM
    from .stt import Transcriber
    from .tts import Synthesizer
    from .turn.brain import Brain
    from .turn.events import BrainEvent
    from .voice import VoiceLoop
    from .voice import Show
    from .voice.who import Who


def recall_settings(config: Config) -> RecallSettings:
    r = config.recall
    return RecallSettings(candidates=config.memory.recall_candidates, word_weight=r.word_weight,
                          min_cosine=r.min_cosine, min_words=r.min_words,
                          same_thing_cosine=r.same_thing_cosine, question_weight=r.question_weight,
                          context_weight=r.context_weight, date_weight=r.date_weight, crowding_weight=r.crowding_weight,
                          half_life_days=dict(r.half_life_days), expire_days=dict(r.expire_days))


def open_memory(config: Config, db: Path | None = None, create: bool = True) -> Memory:
    """The memory file the config (or `db`) names; create=False: a missing file raises NoMemoryYet. What is
    forgotten leaves the log file too (logs.scrub: words are there only after --verbose, but they were)."""
    from . import logs
    memory = Memory(db or config.database_path(), max_value_chars=config.memory.max_value_chars,
                    max_message_chars=config.memory.max_message_chars,
                    busy_timeout_ms=config.memory.busy_timeout_ms,
                    embedder="auto" if config.recall.meaning else None, recall_settings=recall_settings(config),
                    create=create, her_names=HER_NAMES)
    memory.on_erase = logs.scrub
    return memory


def build_brain(memory: Memory, config: Config, user: str, llm: LLM | None = None,
                on_event: Callable[[BrainEvent], None] | None = None) -> Brain:
    """The turn logic over this memory, with the configured model unless one is given."""
    from .llm import make_llm
    from .turn.brain import Brain
    return Brain(memory, llm or make_llm(config.llm, num_ctx(config), config.budget.think), config, user,
                 on_event=on_event)


def num_ctx(config: Config) -> int:
    """The one context size every request to the model asks for (the chat's, the proxy's, the background's)."""
    from .turn import prompt, tools
    return prompt.context_size(config.budget, tools.TOOLS)


def build_loop(config: Config, brain: Brain, source: AudioSource, sink: AudioSink, show: Show | None = None,
               stt: Transcriber | None = None, tts: Synthesizer | None = None,
               notice: Callable[[str], None] | None = None) -> VoiceLoop:
    """The voice loop as config describes it; already loaded models can be passed in (tests, benchmarks).
    notice: told (one line) when the configured voice is not installed and joe speaks instead."""
    from .stt import make_transcriber
    from .tts import make_synthesizer
    from .voice import Segmenter, SileroVAD, VadOptions, VoiceLoop
    from .wake import make_wake
    v = config.voice
    segmenter = Segmenter(SileroVAD(), VadOptions.configured(v))
    tts = tts or make_synthesizer(v.tts, notice or (lambda line: log.warning("%s", line)))

    def wake_phrase() -> str:
        """The user's own wake word when they set one by voice, else the configured one."""
        said = [f.value for f in brain.memory.facts(brain.user) if f.key == "wake_word"]
        return said[-1] if said else v.wake.phrase
    return VoiceLoop(source, sink, segmenter, stt or make_transcriber(v.stt), make_wake(v.wake),
                     tts, brain, v, show or (lambda shown: None), wake_phrase, build_who(config, brain, tts))


def build_who(config: Config, brain: Brain, tts: Synthesizer | None = None) -> Who | None:
    """The household's voices for the loop; None (every utterance is `brain`'s user's) when speakers are off,
    the speaker model is missing, or nobody is enrolled."""
    from .speakers import Household
    from .voice.who import Who
    household = Household(brain.memory, config.voice.speakers)
    if not config.voice.speakers.enabled or household.missing() is not None or not household.prints():
        return None
    household.prepare()          # the model loads now, not inside the first turn

    def make_brain(user: str, memory: Memory) -> Brain:
        from .turn.brain import Brain
        return Brain(memory, brain.llm, config, user, clock=brain.clock, on_event=brain.on_event)

    def her_voice():
        from .audio.base import resample
        speech = tts.synthesize(config.persona.lines.voice_ask.format(what="you"))
        return resample(speech.samples, speech.rate, 16000)
    return Who(household, config.voice.speakers, config.persona.lines, make_brain, her_voice if tts else None)
