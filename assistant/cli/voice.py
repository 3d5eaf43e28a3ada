"""`glados` / `glados voice`: wire the voice stages from config; a missing device is one line."""
from __future__ import annotations

import argparse
from dataclasses import replace

from rich.console import Console

from memory import printable

from ..app import build_brain, build_loop
from ..audio import (AudioError, AudioFileError, AudioSink, SilentSink, WavSink, WavSource, open_microphone,
                     open_speaker)
from ..config import Config
from ..stt import STTError
from ..tts import TTSError
from ..turn.events import BrainEvent
from ..voice import Shown, State
from ..wake import WakeError
from .chat import run as run_chat
from .memory_commands import index_backlog
from .out import Out
from .show import event_line

STYLES = {State.LISTENING: "dim", State.HEARD: "cyan", State.FOLLOW_UP: "cyan", State.IGNORED: "dim", State.THINKING: "dim",
          State.SPEAKING: "magenta", State.INTERRUPTED: "yellow", State.TIMINGS: "dim", State.UNHEARD: "dim",
          State.VOICE: "green", State.UNKNOWN_VOICE: "yellow"}


def show_states(console: Console):
    """The loop's states as terminal lines: "[heard] what time is it"."""
    def show(shown: Shown) -> None:
        label = f"{shown.state.value}: {shown.why}" if shown.why else shown.state.value
        console.print(printable(f"[{label}] {shown.detail}".rstrip()), style=STYLES[shown.state], markup=False,
                      highlight=False, soft_wrap=True)
    return show


def show_voices(loop, memory, config: Config, console: Console) -> None:
    """Whose voices she knows, once at start; a line when voices are enrolled but cannot be told apart."""
    if loop.who is not None:
        names = ", ".join(p.user for p in loop.who.household.enrolled())
        console.print(f"[voices: {names}; anyone else is answered and nothing they say is remembered]",
                      style="dim", markup=False)
    elif config.voice.speakers.enabled and memory.voiceprints():
        from ..speakers.model import missing
        if (why := missing(config.voice.speakers.model)) is not None:
            console.print(f"glados: {why}; every voice is taken for the configured user", style="yellow", markup=False)


def run(args: argparse.Namespace, config: Config, user: str, out: Out, memory_factory) -> int:
    console = out.rich
    if getattr(args, "barge_in", None) is not None:
        config = replace(config, voice=replace(config.voice, barge_in=True))
    source = sink = None
    try:
        source = (WavSource(args.input, realtime=getattr(args, "realtime", False)) if getattr(args, "input", None)
                  else open_microphone(config.voice.input_device))
        sink = WavSink(args.output) if getattr(args, "output", None) else _speaker(args, config)
    except AudioError as exc:
        if source is not None:
            source.close()
        if isinstance(exc, AudioFileError):
            raise                       # a bad file is not a missing device: one line, no chat
        return no_audio(str(exc), args, config, user, out, memory_factory)
    try:
        with memory_factory() as memory:
            index_backlog(memory, user, out)
            if config.recall.meaning:
                memory.prepare()  # the sentence model loads before the first turn, not inside it
            brain = build_brain(memory, config, user, on_event=print_event(console))
            problem = brain.connect()
            if problem is not None:
                console.print(f"glados: {problem}. Listening anyway: memory commands still work.",
                              style="yellow", markup=False)
            loop = build_loop(config, brain, source, sink, show_states(console),
                              notice=lambda line: console.print(f"glados: {line}", style="yellow", markup=False))
            show_voices(loop, memory, config, console)
            try:
                stats = loop.run()
            except KeyboardInterrupt:
                console.print("[stopped]", style="dim")
                loop.end_sessions()       # Ctrl-C still leaves each session's summary behind
                return 130
            if brain.stats.degraded_turns:
                console.print(f"[{brain.stats.degraded_turns} turn(s) answered without the model]", style="yellow")
            if not stats.heard and stats.ignored:
                console.print(f"[heard {len(stats.ignored)} utterance(s), none with the wake word "
                              f"{loop.wake_phrase()!r}]", style="yellow", markup=False)
    except (STTError, TTSError, WakeError) as exc:
        Out("stderr").line(f"glados: {exc}")
        return 1
    finally:
        sink.close()
        source.close()
    return 0


def _speaker(args: argparse.Namespace, config: Config) -> AudioSink:
    """The speaker; with a WAV file as the microphone and no speaker, her replies are printed instead (the file is
    still heard, and nothing is written where nobody asked)."""
    try:
        return open_speaker(config.voice.output_device)
    except AudioError as exc:
        if not getattr(args, "input", None) or isinstance(exc, AudioFileError):
            raise
        Out("stderr").line(f"glados: {exc}; her replies are printed, not played (add --output FILE.wav to keep them)",
                           "yellow")
        return SilentSink()


def print_event(console: Console):
    """What was remembered, recalled or degraded, shown as in the chat."""
    def show(event: BrainEvent) -> None:
        line = event_line(event)
        if line is not None:
            console.print(printable(line[0]), style=line[1], markup=False, highlight=False, soft_wrap=True)
    return show


def no_audio(why: str, args, config: Config, user: str, out: Out, memory_factory) -> int:
    """No microphone or speaker: say so in one line and start the typed chat (on a terminal or on piped
    lines alike); --input or --output WAV files are the other way round it."""
    Out("stderr").line(f"glados: {why}; starting the typed chat instead (glados chat; or --input/--output WAV files)",
                       "yellow")
    return run_chat(args, config, user, out, memory_factory)
