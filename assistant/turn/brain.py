"""One turn: text in, memory updated, prompt assembled, reply streamed out. Reused by chat and voice.

The brain keeps the session and orchestrates a turn; its parts do the work: the memory path every front end
shares (memory_path: where secrets are hidden), the history window and running note (window), and the model's
reply over rounds of tool calls (generate)."""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta
from typing import Callable, Sequence

from memory import Fact, FactChange, Memory, MemoryStoreError, Recalled, iso, new_session_id, utc_now

from . import commands, compaction, consolidation, prompt, summary, tools
from ..config import Config
from ..llm import LLM, LLMError, LLMUnavailable, ModelMissing
from .events import Consolidated, Degraded, EventSink, RecalledNote, SessionStarted, Summarised
from .generate import Generator, ModelFailed, NoReply
from .memory_path import MemoryPath, Noted
from .replies import Interrupted, Reply, ReplySource, Stats, TextSink
from .window import Window

__all__ = ["Brain", "Interrupted", "NoReply", "Noted", "Reply", "ReplySource", "Stats", "TextSink"]

log = logging.getLogger("glados.brain")
INDEX_PER_TURN = 8       # messages given vectors after each reply (about 12 ms each, one core)


class Brain:
    """Owns the session; answers each turn from memory or from the model."""

    def __init__(self, memory: Memory, llm: LLM | None, config: Config, user: str,
                 clock: Callable[[], datetime] = utc_now, on_event: EventSink | None = None):
        self.memory, self.config, self.user = memory, config, user
        self.clock = clock
        self.on_event = on_event or (lambda event: None)
        self.online = False
        self.session: str | None = None
        self.last_activity: datetime | None = None
        self.stats = Stats()
        self.path = MemoryPath(memory, config, user, lambda event: self.on_event(event), self._touch)
        self.window = Window(self.path, config)
        self.generator = Generator(llm, config, self.path, self.stats, lambda event: self.on_event(event))
        self._last_line: str | None = None      # the offline line said last, so the next differs

    @property
    def llm(self) -> LLM | None:
        return self.generator.llm

    @llm.setter
    def llm(self, llm: LLM | None) -> None:
        self.generator.llm = llm

    # -- model availability ---------------------------------------------------------------------
    def connect(self) -> LLMError | None:
        """Check the model; None when it is ready, else the error (the brain then runs degraded)."""
        if self.llm is None:
            self.online = False
            return LLMUnavailable("no language model configured")
        try:
            self.llm.check()
        except LLMError as exc:
            self.online = False
            return exc
        self.online = True
        threading.Thread(target=self._preload, daemon=True, name="ollama-preload").start()
        return None

    def _preload(self) -> None:
        """Load the model now, with the num_ctx every request will carry, while the user is still speaking."""
        assert self.llm is not None
        try:
            self.llm.preload()
        except LLMError as exc:
            log.warning("could not preload the model: %s", exc)

    # -- sessions -------------------------------------------------------------------------------
    def touch(self) -> str:
        """The session a message now belongs to (a new one after the idle timeout), marked active."""
        return self._touch()

    def _touch(self) -> str:
        now = self.clock()
        idle = timedelta(minutes=self.config.session.idle_timeout_min)
        if self.session and self.last_activity and now - self.last_activity > idle:
            self.end_session()
        if self.session is None:
            self._left_behind(now - idle)
            self.session = new_session_id()
            self.on_event(SessionStarted(self.session))
        self.last_activity = now
        return self.session

    def _left_behind(self, before: datetime) -> None:
        """The last conversation ended without its summary (the process was killed, the power cut): written now,
        the short way (no model call before the first reply), when it has been idle past the timeout, so no other
        process still holds it. A conversation is a session with her replies in it; `memory observe` makes none."""
        sessions = self.memory.sessions(self.user, newest_only=True)
        if not sessions or sessions[-1].ended > iso(before):
            return
        last = sessions[-1].session
        if any(s.session == last for s in self.memory.summaries(self.user)):
            return
        rows = self.path.messages(last)
        if not any(r.role == "assistant" for r in rows) or not any(r.role == "user" for r in rows):
            return
        text = summary.extractive(self.memory, self.user, rows, self.config.session.summary_max_words)
        if text and self.memory.add_summary(self.user, last, text):
            self.on_event(Summarised(last, text))

    def end_session(self) -> str | None:
        """Append one summary for the session (model-written when reachable and grounded); None when nothing
        was said or learned."""
        session, self.session = self.session, None
        if session is None:
            return None
        self.window.end(session)               # the summary supersedes the running note
        rows = self.path.messages(session)
        if not any(r.role == "user" for r in rows):
            return None
        model_ok = self.online and self.llm is not None
        if model_ok and self.config.session.consolidate:
            model_ok = self._consolidate(session, rows)
            rows = self.path.messages(session)
        text, why = None, None
        words = self.config.session.summary_max_words
        if model_ok:
            try:
                text = summary.by_model(self.llm, rows, self.config)
            except LLMError as exc:
                self.on_event(Degraded(str(exc)))
            except KeyboardInterrupt:     # Ctrl-C while the model writes: keep the short summary instead
                why = "summary interrupted"
            if text and not summary.grounded(text, rows, words):
                why, text = "the model's summary was not about this session", None
        if not text:
            text = summary.extractive(self.memory, self.user, rows, words)
            if why:         # what happened, as it happened: a short summary saved, or none
                self.on_event(Degraded(f"{why}; the short one is saved instead" if text else f"{why}; none is saved"))
        if not text:
            return None      # nothing said worth a line: no summary
        self.memory.add_summary(self.user, session, text)
        self.on_event(Summarised(session, text))
        return text

    def _consolidate(self, session: str, rows: list) -> bool:
        """The model's second reading of the session; False when the model failed (skip the rest)."""
        assert self.llm is not None
        try:
            done = consolidation.consolidate(self.llm, self.memory, self.user, session, rows,
                                             max_tokens=self.config.budget.reply * 2,
                                             temperature=self.config.llm.session_end_temperature)
        except LLMError as exc:
            self.on_event(Degraded(f"skipped reading the session with the model: {exc}"))
            return False
        except KeyboardInterrupt:
            self.on_event(Degraded("reading the session with the model was interrupted; nothing from it stored"))
            return False
        self.on_event(Consolidated(done))
        return True

    # -- one turn -------------------------------------------------------------------------------
    def turn(self, text: str, on_text: TextSink = lambda s: None, on_end: Callable[[], None] = lambda: None) -> Reply:
        """Answer one message. on_text gets the reply as it streams; on_end runs when it is complete
        (the voice loop speaks the last sentence there). Either may raise Interrupted."""
        reply = self._turn(text, on_text, on_end)
        self.index_new()
        self._rewrite_note()
        return reply

    def _rewrite_note(self) -> None:
        """After the reply, the model rewrites the session's running note now and then (Window.rewrite_note)."""
        if self.online and self.llm is not None:
            self.window.rewrite_note(self.session, self.llm, self.generator.last)

    def index_new(self) -> None:
        """After the reply: give the newest messages their vectors for recall by meaning (the one
        just recalled with is already computed). A few per turn, so a backlog never stalls a turn."""
        try:
            self.memory.index_pending(self.user, limit=INDEX_PER_TURN)
        except MemoryStoreError as exc:       # a read-only or full database: recall still works by words
            log.warning("could not index messages for recall: %s", exc)

    # -- the memory path every front end shares (the chat, the voice loop, the MCP server, the proxy): see
    # memory_path, the one place a secret the user noted is hidden from what a model reads
    def note(self, text: str, tool: bool = False) -> Noted:
        """Take in one user message (MemoryPath.note): stored, mined, a memory command answered from memory."""
        return self.path.note(text, tool)

    def from_memory(self, noted: Noted, text: str) -> commands.CommandReply | None:
        """What memory answers with the model up; None: the model answers (MemoryPath.from_memory)."""
        return self.path.from_memory(noted, text)

    def answer_offline(self, noted: Noted, text: str) -> commands.CommandReply | None:
        """A question about the user answered from memory while the model is down (MemoryPath.answer_offline)."""
        return self.path.answer_offline(noted, text)

    def recall_for(self, text: str, session: str, carried: int) -> tuple[str, list[Recalled], list[Fact]]:
        """The block, the recalled messages and the facts bearing on `text` (MemoryPath.recall_for)."""
        return self.path.recall_for(text, session, carried)

    def log_reply(self, session: str, text: str, interrupted: bool = False) -> None:
        """Her reply, as said (or as far as it got), into the session's log."""
        self.path.log_reply(session, text, interrupted)

    def record_answer(self, session: str, answer: commands.CommandReply, spoken: str | None = None,
                      interrupted: bool = False) -> None:
        """Her answer from memory into the log (MemoryPath.record_answer)."""
        self.path.record_answer(session, answer, spoken, interrupted)

    def _turn(self, text: str, on_text: TextSink, on_end: Callable[[], None]) -> Reply:
        self.stats.turns += 1
        self.stats.timings = {}
        started = time.perf_counter()
        noted = self.note(text)
        session, observation = noted.session, noted.observation
        answer = self.from_memory(noted, text)
        if answer is not None:
            return self._answered(session, answer, started, on_text, on_end)
        problem = None if self.online else self.connect()
        if problem is not None:
            answer = self.answer_offline(noted, text)
            if answer is not None:   # a question about the user, model down: her facts or notes answer it
                return self._answered(session, answer, started, on_text, on_end)
            return self._offline(session, on_text, on_end, observation.changes, problem)
        recent, earlier, budget = self.window.turns(session, observation.message_id, text,
                                                    self.generator.scaled(self.config.budget))
        history = prompt.fit_history(recent, budget, text)
        block, recalled, related = self.recall_for(text, session, carried=len(history))
        recalled = [r for r in recalled if not compaction.quotes(earlier, r.text)]     # each thing once
        mem = self.config.memory
        messages, used, dropped = prompt.assemble(self.config.persona, budget, block, recalled, history, text, earlier,
                                                  mem.recall_chars, mem.reply_chars, related)
        self.stats.timings["memory_s"] = time.perf_counter() - started
        if dropped:
            self.on_event(Degraded(f"your message is too long for the model: it gets the start and the end, "
                                   f"{dropped:,} of {len(text):,} characters from the middle left out (all of it "
                                   f"is stored; budget.history sets the room)"))
        for r in used:
            self.on_event(RecalledNote(r.session, r.created_at[:10], r.text))
        assert self.llm is not None
        offered = tools.TOOLS if self.config.llm.tools and tools.wanted(text) and self.llm.supports_tools() else None
        try:
            return self.generator.reply(session, messages, offered, tuple(used), on_text, on_end, observation.message_id)
        except ModelFailed as failed:
            self.online = not isinstance(failed.error, (LLMUnavailable, ModelMissing))
            if failed.said.strip():
                return Reply(failed.said, "model", interrupted=True, recalled=tuple(used), error=str(failed.error))
            reply = self._offline(session, on_text, on_end, observation.changes, problem=failed.error)
            return Reply(reply.text, "offline", recalled=tuple(used), error=str(failed.error))

    def _answered(self, session: str, command: commands.CommandReply, started: float, on_text: TextSink,
                  on_end: Callable[[], None]) -> Reply:
        """A turn memory answered (a command, or a question a note answers): said and logged."""
        self.stats.timings["memory_s"] = time.perf_counter() - started
        return self._say_command(session, command, on_text, on_end)

    def _say_command(self, session: str, command: commands.CommandReply, on_text: TextSink,
                     on_end: Callable[[], None]) -> Reply:
        spoken, interrupted = command.text, False
        try:
            on_text(command.text)
            on_end()
        except Interrupted as exc:
            spoken, interrupted = exc.spoken, True
        self.record_answer(session, command, spoken, interrupted)
        return Reply(spoken, "memory", interrupted=interrupted)

    def _offline(self, session: str, on_text: TextSink, on_end: Callable[[], None] = lambda: None,
                 changes: Sequence[FactChange] = (), problem: LLMError | None = None) -> Reply:
        """Her line when the model is down (or its model is not pulled), logged like any reply of hers."""
        self.stats.degraded_turns += 1
        missing = problem.model if isinstance(problem, ModelMissing) else None
        down = problem is None or isinstance(problem, (LLMUnavailable, ModelMissing))
        self._last_line, line = commands.offline(changes, self.config.persona.lines, self._last_line, missing,
                                                 busy=not down)
        try:
            on_text(line)
            on_end()
        except Interrupted as exc:
            self.log_reply(session, exc.spoken, interrupted=True)
            return Reply(exc.spoken, "offline", interrupted=True)
        self.log_reply(session, line)
        return Reply(line, "offline")
