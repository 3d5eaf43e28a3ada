"""`glados chat`: the brain and memory, typed. One line in, one reply out, streamed."""
from __future__ import annotations

import argparse
import re
import sys
import threading
from typing import Callable, TextIO

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

from memory import Memory, MemoryStoreError, TooLong, printable

from ..app import build_brain
from ..config import Config
from ..llm import LLMError, ModelMissing
from ..turn.brain import Brain
from ..turn.events import BrainEvent
from .lineedit import Reader, reader
from .show import event_line
from .memory_commands import index_backlog
from .memory_show import (CLEAR_QUESTION, LEGEND, cleared, confirmed, describe, fact_rows, not_confirmed, pin_lines,
                          recall_line, when)
from .out import Out, rich_table

HELP = """commands:
  /memory               what I remember about you
  /memory forget ID     forget one fact (id prefix from /memory, or a key like location)
  /memory clear         forget everything about you (asks for YES)
  /memory pin ID        keep a fact in mind always (unpin ID undoes it)
  /recall TEXT          search earlier conversations, without the model
  /sessions             your sessions
  /history              this session's messages
  /help                 this list
  /quit                 end the session (Ctrl-D works too)"""


NOT_TEXT = re.compile("[\udc80-\udcff]")     # what surrogateescape makes of bytes that are not UTF-8


class ChatUI:
    """Reads lines, prints replies and events; every memory action goes through the brain's Memory."""

    def __init__(self, brain: Brain, console: Console, reader: Reader, interactive: bool):
        self.brain, self.console, self.reader, self.interactive = brain, console, reader, interactive
        self.mid_reply = False

    def say(self, text: str, style: str = "") -> None:
        self.console.print(printable(text), style=style or None, markup=False, highlight=False)

    def event(self, event: BrainEvent) -> None:
        if self.mid_reply:              # an event in the middle of a streamed reply gets its own line
            self.console.print()
            self.mid_reply = False
        line = event_line(event)
        if line is not None:
            self.say(*line)

    def _streamer(self) -> Callable[[str], None]:
        """Prints 'GLaDOS: ' before the first piece of a reply, so events print above it."""
        started = False

        def show(text: str) -> None:
            nonlocal started
            if not started:
                self.console.print("GLaDOS: ", end="", style="bold magenta", markup=False)
                started = True
            self.console.print(printable(text), end="", markup=False, highlight=False, soft_wrap=True)
            self.mid_reply = True
        return show

    def start(self) -> None:
        problem = self.brain.connect()
        if isinstance(problem, ModelMissing) and self.interactive and self._ask(
                f"The model '{problem.model}' is not pulled. Pull it now with 'ollama pull {problem.model}'? [y/N] "):
            self._pull()
            problem = self.brain.connect()
        if problem is not None:
            self.say(f"glados: {problem}. Chatting without the model: memory commands still work.", "yellow")

    def _ask(self, question: str) -> bool:
        answer = self.reader.read(question, question=True) or ""
        return answer.strip().lower() in ("y", "yes")

    def _pull(self) -> None:
        llm = self.brain.llm
        with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), console=self.console) as bar:
            task = bar.add_task(f"pulling {llm.model}", total=None)

            def progress(status: str, completed: int | None, total: int | None) -> None:
                bar.update(task, description=f"{llm.model}: {status}", completed=completed or 0, total=total)
            try:
                llm.pull(progress)
            except LLMError as exc:
                self.say(f"glados: pull failed: {exc}", "red")

    def run(self) -> int:
        """The loop; returns the exit code. The session ends on /quit, end of input or Ctrl-C at the prompt;
        Ctrl-C during a reply stops the reply (what she said so far is kept) and the chat goes on, as in
        `ollama run`."""
        try:
            self.start()
            while (line := self.reader.read()) is not None:
                if self.handle(line.strip()) == "quit":
                    break
        except KeyboardInterrupt:
            self.console.print()
        self.finish()
        return 0

    def handle(self, line: str) -> str | None:
        """One line typed: a slash command or a turn; "quit" to end."""
        if not line:
            return None
        if NOT_TEXT.search(line):
            self.say("glados: that line is not UTF-8 text (binary noise?); nothing was stored", "red")
            return None
        if line.startswith("/"):
            return self.slash(line)
        try:
            reply = self.brain.turn(line, on_text=self._streamer())
        except TooLong as exc:      # nothing was stored: one line, and the chat goes on
            self.say(f"glados: {exc}", "red")
            return None
        except KeyboardInterrupt:   # Ctrl-C during her reply: stop it, back to the prompt
            if self.mid_reply:
                self.console.print()
                self.mid_reply = False
            self.say("[stopped; what she said so far is kept. Ctrl-C at the prompt ends the chat]", "yellow")
            return None
        if self.mid_reply:
            self.console.print()
            self.mid_reply = False
        if reply.error and reply.interrupted:
            self.say("[what she had said before it broke off is kept]", "yellow")
        return None

    def finish(self) -> None:
        if self.brain.session and self.brain.online:
            self.say("[saving the session: the model is reading it and writing its summary... "
                     "Ctrl-C saves a short one instead]", "dim")
        summary = self.brain.end_session()
        if summary:
            self.say(f"[session saved: {summary}]", "dim")
        if self.brain.stats.degraded_turns:
            self.say(f"[{self.brain.stats.degraded_turns} turn(s) answered without the model]", "yellow")

    # -- slash commands -------------------------------------------------------------------------
    def slash(self, line: str) -> str | None:
        memory, user = self.brain.memory, self.brain.user
        cmd, _, arg = line[1:].partition(" ")
        arg = arg.strip()
        if cmd in ("quit", "exit", "q"):
            return "quit"
        if cmd == "help":
            self.say(HELP)
            self.say(f"config: {self.brain.config.source}", "dim")
        elif cmd == "memory" and arg.startswith("forget"):
            target = arg[len("forget"):].strip()
            if not target:
                self.say("usage: /memory forget ID_OR_KEY")
            else:
                self._forget(target)
        elif cmd == "memory" and arg.split(" ")[0] in ("pin", "unpin"):
            verb, _, target = arg.partition(" ")
            if not target.strip():
                self.say(f"usage: /memory {verb} ID_OR_KEY")
            else:
                try:
                    for line in pin_lines(memory, user, target.strip(), verb == "pin"):
                        self.say(line)
                except MemoryStoreError as exc:
                    self.say(str(exc), "yellow")
        elif cmd == "memory" and arg == "clear":
            answer = self.reader.read(CLEAR_QUESTION.format(user=user), question=True)
            if confirmed(answer):
                self.say(cleared(memory.clear(user), user))
                self.brain.session = None
            else:
                self.say(not_confirmed(answer))
        elif cmd == "memory" and not arg:
            self._facts(memory, user)
        elif cmd == "recall" and not arg:
            self.say("usage: /recall TEXT (earlier conversations about TEXT, without the model)")
        elif cmd == "recall":
            found = memory.recall(user, arg, k=5)
            for r in found:
                self.say(recall_line(r))
            if not found:
                self.say("nothing in your memory relates to that")
        elif cmd == "sessions":
            rows = memory.sessions(user)
            for row in rows:
                mark = " (this one)" if row.session == self.brain.session else ""
                self.say(f"{row.session}  {when(row.started)}  {row.messages} messages{mark}")
            if not rows:
                self.say("no sessions yet: what you say starts one")
        elif cmd == "history":
            rows = memory.messages(user, self.brain.session) if self.brain.session else []
            for row in rows:
                self.say(f"{row.role}: {row.text}" + (" [interrupted]" if row.interrupted else ""))
            if not rows:
                self.say("nothing said in this session yet")
        else:
            self.say(f"unknown command {line!r}; /help lists them")
        return None

    def _forget(self, target: str) -> None:
        try:
            for change in self.brain.memory.forget(self.brain.user, target):
                self.say(describe(change))
        except MemoryStoreError as exc:   # not found, ambiguous: one line, and the chat goes on
            self.say(str(exc).replace("'glados memory list'", "/memory"), "yellow")

    def _facts(self, memory: Memory, user: str) -> None:
        facts = memory.facts(user)
        if not facts:
            self.say("nothing remembered yet")
            return
        self.console.print(rich_table(*fact_rows(facts)))
        self.say(LEGEND, "dim")


def run(args: argparse.Namespace, config: Config, user: str, out: Out,
        memory_factory: Callable[[], Memory], stdin: TextIO = sys.stdin) -> int:
    console = out.rich
    interactive = stdin.isatty()
    if hasattr(stdin, "reconfigure"):       # bytes that are not UTF-8 arrive as surrogates, refused per line
        stdin.reconfigure(errors="surrogateescape")
    # first: a terminal's line editor loads while the memory opens
    lines = reader(stdin, console, user, config.memory.max_message_chars)
    with memory_factory() as memory:
        index_backlog(memory, user, out)
        # The fact rules (about 0.3 s of compiling) and the sentence model load while the first line is typed,
        # not before the prompt and not inside the first turn (which waits for them only if typed faster).
        warm = threading.Thread(target=_warm, args=(memory, config.recall.meaning), name="warm-up", daemon=True)
        lines.then(warm.start)
        brain = build_brain(memory, config, user)
        ui = ChatUI(brain, console, lines, interactive)
        brain.on_event = ui.event
        try:
            return ui.run()
        finally:
            # A chat ended while the sentence model still loads (Ctrl-C at the first prompt) waits for the load:
            # a daemon thread cut off inside onnxruntime at the interpreter's exit aborts the process (SIGABRT).
            if warm.is_alive():
                warm.join()


def _warm(memory: Memory, meaning: bool) -> None:
    import importlib
    importlib.import_module("memory.parsing")
    if meaning:
        memory.prepare()
