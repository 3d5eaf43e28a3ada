"""`glados` / `glados voice`: wire the voice stages from config; a missing device is one line."""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from rich.console import Console

from .audio import AudioError, AudioFileError, WavSink, WavSource, open_microphone, open_speaker
from .brain import Brain
from .chat import event_line, make_llm
from .memory_cli import index_backlog
from .chat import run as run_chat
from .config import Config
from .stt import STTError, Transcriber, make_transcriber
from .tts import Synthesizer, TTSError, make_synthesizer
from .vad import Segmenter, SileroVAD, VadOptions
from .voice import VoiceLoop
from .wake import WakeError, make_wake

STYLES = {"listening": "dim", "heard": "cyan", "heard (follow-up)": "cyan", "ignored": "dim", "thinking": "dim", "speaking": "magenta",
          "interrupted": "yellow", "timings": "dim", "ignored while speaking": "dim"}


def build_loop(config: Config, brain: Brain, source, sink, console: Console | None = None,
               stt: Transcriber | None = None, tts: Synthesizer | None = None) -> VoiceLoop:
    """The loop as config describes it; already loaded models can be passed in (tests, benchmarks)."""
    v = config.voice
    segmenter = Segmenter(SileroVAD(), VadOptions.configured(v))
    stt = stt or make_transcriber(v.stt)
    tts = tts or make_synthesizer(v.tts)

    def show(state: str, detail: str) -> None:
        if console is not None:
            console.print(f"[{state}] {detail}".rstrip(), style=STYLES.get(state.split(":")[0]), markup=False, highlight=False,
                          soft_wrap=True)
    def wake_phrase() -> str:
        """The user's own wake word when they set one by voice, else the configured one."""
        said = [f.value for f in brain.memory.facts(brain.user) if f.key == "wake_word"]
        return said[-1] if said else v.wake.phrase
    return VoiceLoop(source, sink, segmenter, stt, make_wake(v.wake), tts, brain, v, show, wake_phrase)


def run(args: argparse.Namespace, config: Config, user: str, console: Console, memory_factory) -> int:
    if getattr(args, "barge_in", None) is not None:
        config = replace(config, voice=replace(config.voice, barge_in=True))
    source = sink = None
    try:
        source = (WavSource(args.input, realtime=getattr(args, "realtime", False)) if getattr(args, "input", None)
                  else open_microphone(config.voice.input_device))
        sink = WavSink(args.output) if getattr(args, "output", None) else open_speaker(config.voice.output_device)
    except AudioError as exc:
        if source is not None:
            source.close()
        if isinstance(exc, AudioFileError):
            raise                       # a bad file is not a missing device: one line, no chat
        return no_audio(str(exc), args, config, user, console, memory_factory)
    try:
        with memory_factory() as memory:
            index_backlog(memory, user, console)
            if config.recall.meaning:
                memory.prepare()  # the sentence model loads before the first turn, not inside it
            brain = Brain(memory, make_llm(config), config, user, on_event=print_event(console))
            problem = brain.connect()
            if problem is not None:
                console.print(f"glados: {problem}. Listening anyway: memory commands still work.",
                              style="yellow", markup=False)
            loop = build_loop(config, brain, source, sink, console)
            try:
                stats = loop.run()
            except KeyboardInterrupt:
                console.print("[stopped]", style="dim")
                brain.end_session()       # Ctrl-C still leaves the session's summary behind
                return 130
            if brain.stats.degraded_turns:
                console.print(f"[{brain.stats.degraded_turns} turn(s) answered without the model]", style="yellow")
            if not stats.heard and stats.ignored:
                console.print(f"[heard {len(stats.ignored)} utterance(s), none with the wake word "
                              f"{loop.wake_phrase()!r}]", style="yellow", markup=False)
    except (STTError, TTSError, WakeError) as exc:
        Console(stderr=True, soft_wrap=True).print(f"glados: {exc}", markup=False)
        return 1
    finally:
        sink.close()
        source.close()
    return 0


def print_event(console: Console):
    """What was remembered, recalled or degraded, shown as in the chat."""
    def show(kind: str, data: dict) -> None:
        line = event_line(kind, data)
        if line is not None:
            console.print(line[0], style=line[1], markup=False, highlight=False, soft_wrap=True)
    return show


def no_audio(why: str, args, config: Config, user: str, console: Console, memory_factory) -> int:
    """No microphone or speaker: say so in one line, and offer the typed chat."""
    if sys.stdin.isatty():
        console.print(f"glados: {why}", style="yellow", markup=False)
        console.print("Starting the typed chat instead ('glados chat').", markup=False)
        return run_chat(args, config, user, console, memory_factory)
    Console(stderr=True, soft_wrap=True).print(f"glados: {why}. Type instead: glados chat", markup=False)
    return 1
