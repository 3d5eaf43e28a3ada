"""One turn: text in, memory updated, prompt assembled, reply streamed out. Reused by chat and voice."""
from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Callable, Literal, Sequence

from memory import (Fact, FactChange, Memory, MemoryStoreError, Message, Observation, Recalled, asks, bearing,
                    estimate_tokens, hide, iso, new_session_id, utc_now)

from . import commands, compaction, consolidation, prompt, summary, tools
from ..config import BudgetConfig, Config
from ..llm import LLM, Chunk, LLMError, LLMUnavailable, ModelMissing, ToolCall
from .events import (Consolidated, Degraded, EventSink, RecalledNote, Remembered, SessionStarted,
                     Summarised, ToolUsed)

log = logging.getLogger("glados.brain")
TextSink = Callable[[str], None]
ReplySource = Literal["memory", "model", "offline"]
MAX_TOOL_ROUNDS = 3
INDEX_PER_TURN = 8       # messages given vectors after each reply (about 12 ms each, one core)


class NoReply(LLMError):
    """The model's reply ended with no words (a thinking model spent num_predict on its trace)."""


@dataclass(frozen=True)
class Round:
    """One request of a turn: the words said (spoken as they came), the tool calls, and how it ended."""
    text: str
    calls: tuple[ToolCall, ...]
    done_reason: str | None


@dataclass(frozen=True)
class Sent:
    """The last request answered in full, with her reply: the prompt the server's cache now holds, which a
    background request continues rather than evicts."""
    session: str
    messages: list[dict]
    tools: list[dict] | None


class Interrupted(Exception):
    """Raised by a text sink when the user talks over her; `spoken` is what was actually said."""

    def __init__(self, spoken: str):
        super().__init__("interrupted")
        self.spoken = spoken


@dataclass(frozen=True)
class Reply:
    """What she said, and who wrote it: a memory command, the model, or a line for when the model is down.
    interrupted: cut short (Ctrl-C, barge-in)."""
    text: str
    source: ReplySource
    interrupted: bool = False
    recalled: tuple[Recalled, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Noted:
    """A user message taken in: stored in its session, mined, and, for a memory command, answered from
    memory (`answer`; None: the message is for the model)."""
    session: str
    observation: Observation
    answer: commands.CommandReply | None


@dataclass
class Stats:
    turns: int = 0
    degraded_turns: int = 0
    tool_calls: int = 0
    last_prompt: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)   # the last turn's: memory_s, first_token_s


class Brain:
    """Owns the session; answers each turn from memory or from the model."""

    def __init__(self, memory: Memory, llm: LLM | None, config: Config, user: str,
                 clock: Callable[[], datetime] = utc_now, on_event: EventSink | None = None):
        self.memory, self.llm, self.config, self.user = memory, llm, config, user
        self.clock = clock
        self.on_event = on_event or (lambda event: None)
        self.online = False
        self.session: str | None = None
        self.last_activity: datetime | None = None
        self.stats = Stats()
        self._message_id: int | None = None     # the user message of the turn in progress
        self._notes: dict[str, compaction.ModelNote] = {}   # the model's running note of each session
        self._last: Sent | None = None          # the last answered request, which the server holds in its cache
        self._last_line: str | None = None      # the offline line said last, so the next differs
        self._starts: dict[str, int] = {}       # the first message of each session's history window
        self._shown: dict[str, tuple[int, int, str]] = {}   # the running note carried with that window and facts
        self.scale = 1.0                        # the server's token count over our estimate, as last seen (>= 1)

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
        rows = self._messages(last)
        if not any(r.role == "assistant" for r in rows) or not any(r.role == "user" for r in rows):
            return
        text = summary.extractive(self.memory, self.user, rows, self.config.session.summary_max_words)
        if text and self.memory.add_summary(self.user, last, text):
            self.on_event(Summarised(last, text))

    def _messages(self, session: str, limit: int | None = None) -> list[Message]:
        """The session's messages as a model may read them: a secret the user noted ("my locker code is 4512")
        said as "(private)" (Memory.private); she answers it from memory, and no model reads it unasked."""
        rows = self.memory.messages(self.user, session, **({"limit": limit} if limit else {}))
        private = self.memory.private(self.user)
        return [replace(r, text=hide(r.text, private)) for r in rows] if private else rows

    def end_session(self) -> str | None:
        """Append one summary for the session (model-written when reachable and grounded); None when nothing
        was said or learned."""
        session, self.session = self.session, None
        if session is None:
            return None
        self._notes.pop(session, None)         # the summary supersedes the running note
        self._shown.pop(session, None)
        self._starts.pop(session, None)
        rows = self._messages(session)
        if not any(r.role == "user" for r in rows):
            return None
        model_ok = self.online and self.llm is not None
        if model_ok and self.config.session.consolidate:
            model_ok = self._consolidate(session, rows)
            rows = self._messages(session)
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
        """After the reply, every few messages that left the window: the model rewrites the session's running
        note in its own words (grounded line by line); on any failure the user's own words take their place."""
        session, s = self.session, self.config.session
        note_tokens = min(s.compact_tokens, self.config.budget.history // 2)
        window = self.config.memory.recent_window
        if not (session and s.compact_by_model and note_tokens and window and self.online and self.llm is not None):
            return
        start = self._starts.get(session, 0)
        folded = [r for r in self._messages(session, limit=100_000) if r.id < start]
        previous = self._notes.get(session)
        if not compaction.due(previous, folded):
            return
        last = self._last if self._last is not None and self._last.session == session else None
        note = compaction.rewrite(self.llm, previous, folded, note_tokens, self.config.llm.session_end_temperature,
                                  last.messages if last else None, last.tools if last else None)
        if note is not None:
            self._notes[session] = note

    def index_new(self) -> None:
        """After the reply: give the newest messages their vectors for recall by meaning (the one
        just recalled with is already computed). A few per turn, so a backlog never stalls a turn."""
        try:
            self.memory.index_pending(self.user, limit=INDEX_PER_TURN)
        except MemoryStoreError as exc:       # a read-only or full database: recall still works by words
            log.warning("could not index messages for recall: %s", exc)

    # -- the memory path every front end shares (the chat, the voice loop, the MCP server, the proxy)
    def note(self, text: str, tool: bool = False) -> Noted:
        """Take in one user message: store it in the session, mine it, and answer a memory command
        ("forget ...", "what do you remember about me") from memory. A question about the user is left
        for the model (`answer` None); `answer_offline` answers it when the model is down. `tool`: a
        model's words through a storing tool (Memory.observe): stored, never a command."""
        session = self._touch()
        log.debug("message in session %s: %r", session, text)
        observation = self.memory.observe(self.user, text, session=session, tool=tool)
        command = observation.parsed.command
        shown = observation.changes if command is None or command.kind in ("ask", "remember") else ()
        for change in shown:        # what a forget deleted or a pin pinned is said in her answer instead
            self.on_event(Remembered(change))
        if command is not None and command.kind != "ask":
            return Noted(session, observation, commands.reply(self.memory, self.user, observation,
                                                              self.config.persona.lines))
        return Noted(session, observation, None)

    def from_memory(self, noted: Noted, text: str) -> commands.CommandReply | None:
        """What memory answers with the model up: a memory command, or a question a secret note answers ("what's
        my locker code?": the model never holds the code); None: the model answers."""
        return noted.answer or self._answer_from_notes(noted, text, secrets_only=True)

    def answer_offline(self, noted: Noted, text: str) -> commands.CommandReply | None:
        """A question about the user answered from memory, for when the model is down: from the facts ("where
        do I live?") or from a note ("what's my locker code?"); None when memory cannot answer it."""
        command = noted.observation.parsed.command
        if command is not None:
            return commands.reply(self.memory, self.user, noted.observation, self.config.persona.lines)
        return self._answer_from_notes(noted, text)

    def recall_for(self, text: str, session: str, carried: int) -> tuple[str, list[Recalled], list[Fact]]:
        """The memory block, the earlier messages recalled for `text`, and the facts the block left out that bear
        on it (memory.bearing). Recall skips the session's `carried` newest messages before this one (the request
        already holds them), so a message that has left the window can still be recalled."""
        mem = self.config.memory
        recalled = self.memory.recall(self.user, text, k=mem.recall_k, session=session,
                                      recent_window=carried + 1, candidates=mem.recall_candidates)
        block = self.memory.load_context(self.user, mem.max_facts, mem.max_summaries,
                                         min(mem.context_tokens, self.config.budget.memory))
        private = self.memory.private(self.user)      # a secret the user noted is never handed to the model
        recalled = [replace(r, text=hide(r.text, private), reply=hide(r.reply, private) if r.reply else r.reply)
                    for r in recalled] if private else recalled
        facts = self.memory.facts(self.user)          # read once: for what is told twice, and for what bears on it
        return block, self._not_in_block(recalled, block, facts), bearing(facts, text, block)

    def _not_in_block(self, recalled: list[Recalled], block: str, facts: list[Fact]) -> list[Recalled]:
        """Each fact once per request: a recalled message that told a fact the block already holds (or the
        note itself) is left out, unless what it says has changed since."""
        if not recalled or not block:
            return recalled
        shown = [f for f in facts if f.value.casefold() in block.casefold()]
        told = {f.id for f in shown} | {str(f.source_message_id) for f in shown if f.source_message_id is not None}
        return [r for r in recalled if r.since or str(r.id) not in told]

    def log_reply(self, session: str, text: str, interrupted: bool = False) -> None:
        """Her reply, as said (or as far as it got), into the session's log."""
        if text.strip():
            self.memory.log(self.user, session, "assistant", text.strip(), interrupted=interrupted)

    def _turn(self, text: str, on_text: TextSink, on_end: Callable[[], None]) -> Reply:
        self.stats.turns += 1
        self.stats.timings = {}
        started = time.perf_counter()
        noted = self.note(text)
        session, observation = noted.session, noted.observation
        answer = self.from_memory(noted, text)
        if answer is not None:
            return self._from_memory(session, answer, started, on_text, on_end)
        problem = None if self.online else self.connect()
        if problem is not None:
            answer = self.answer_offline(noted, text)
            if answer is not None:   # a question about the user, model down: her facts or notes answer it
                return self._from_memory(session, answer, started, on_text, on_end)
            return self._offline(session, on_text, on_end, observation.changes, problem)
        recent, earlier, budget = self._session_turns(session, observation.message_id, text)
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
        self._message_id = observation.message_id
        assert self.llm is not None
        offered = tools.TOOLS if self.config.llm.tools and tools.wanted(text) and self.llm.supports_tools() else None
        return self._generate(session, messages, offered, tuple(used), on_text, on_end, observation.changes)

    def _from_memory(self, session: str, command: commands.CommandReply, started: float, on_text: TextSink,
                     on_end: Callable[[], None]) -> Reply:
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

    def record_answer(self, session: str, answer: commands.CommandReply, spoken: str | None = None,
                      interrupted: bool = False) -> None:
        """Her answer from memory into the log (`spoken`: as far as it was said). A forget's confirmation is
        stored redacted, whatever part of it was heard."""
        self.log_reply(session, answer.stored if answer.kind == "forget" else answer.text if spoken is None else spoken,
                       interrupted)

    def _session_turns(self, session: str, before: int, text: str) -> tuple[list[prompt.Turn], str, BudgetConfig]:
        """The session's messages before message `before` (the one being answered), read once: the history
        window (prompt.window_start: it moves on by half at once, so the prompt's start stays the same for
        several turns), and the user's words before it folded into a running note, paid for out of the
        history budget (the budget left for the history comes back with them). Budgets are scaled down by
        how much the server counted over our estimate."""
        budget, window = self._scaled(self.config.budget), self.config.memory.recent_window
        if not window:
            return [], "", budget
        note_tokens = min(self.config.session.compact_tokens, budget.history // 2)
        rows = [r for r in self._messages(session, limit=100_000) if r.id < before]
        turns = [prompt.Turn(r.role, r.text, estimate_tokens(r.text), r.id) for r in rows]
        room = (budget.history - note_tokens - estimate_tokens(prompt.cut(text, budget.history))
                - prompt.PER_MESSAGE)
        start = prompt.window_start(turns, self._starts.get(session, turns[0].id if turns else 0), window, room)
        self._starts[session] = start
        history = [t for t in turns if t.id >= start]
        shown, version = self._shown.get(session), self.memory.version(self.user)
        if shown is not None and shown[:2] == (start, version):
            note = shown[2]     # the note changes only when the window moves (or a fact its marks name changed)
        else:
            folded = [r for r in rows if r.id < start]
            note = compaction.combine(self._notes.get(session), folded, note_tokens, self._changed) \
                if note_tokens and folded else ""
            self._shown[session] = (start, version, note)
        if note:
            budget = replace(budget, history=max(0, budget.history - estimate_tokens(note)))
        return history, note, budget

    def _changed(self, text: str, message_id: int | None) -> str:
        """The mark for a quoted text that states a value no longer believed (memory.changed_since)."""
        return self.memory.changed_since(self.user, text, message_id)

    def _scaled(self, budget: BudgetConfig) -> BudgetConfig:
        """The history and recall budgets shrunk by how far the server's count ran over our estimate."""
        if self.scale <= 1.0:
            return budget
        return replace(budget, history=int(budget.history / self.scale), recall=int(budget.recall / self.scale))

    def _counted(self, messages: list[dict], offered: list[dict] | None, chunk: Chunk) -> None:
        """Ollama's prompt_eval_count, read back: it corrects the estimate for the next turn, and a prompt that
        filled the context is said to have been cut (Ollama cuts silently, with HTTP 200)."""
        assert self.llm is not None and chunk.prompt_tokens is not None
        estimate = prompt.request_tokens(messages, offered)
        self.scale = min(3.0, max(1.0, chunk.prompt_tokens / max(1, estimate), self.scale * 0.9))
        if chunk.prompt_tokens + self.config.budget.reply > self.llm.num_ctx:
            self.on_event(Degraded(f"the request filled the model's context ({chunk.prompt_tokens} of "
                                   f"{self.llm.num_ctx} tokens), so Ollama may have cut its start; shorter "
                                   "messages or a smaller budget in config.yaml keep it whole"))

    def _answer_from_notes(self, noted: Noted, text: str, secrets_only: bool = False) -> commands.CommandReply | None:
        """A question about the user that a note answers ("what's my locker code?"), for when the model is down;
        `secrets_only`: with the model up, a question a secret answers (the model never holds the secret)."""
        if noted.observation.changes or asks(text) < 1:      # only a question, and one that told her nothing
            return None
        said = commands.answer_from_notes(self.memory, self.user, text, self.config.persona.lines, secrets_only)
        return commands.CommandReply("ask", said) if said else None

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

    def _generate(self, session: str, messages: list[dict], offered: list[dict] | None, recalled: tuple[Recalled, ...],
                  on_text: TextSink, on_end: Callable[[], None], changes: Sequence[FactChange] = ()) -> Reply:
        """The model's reply, over rounds of tool calls. The last round offers no tools, so a turn always ends in
        words; each call runs once a turn (an eager model's repeats are told so). `changes`: what the user's
        message stored, said in her line when the model fails ("busy", down)."""
        assert self.llm is not None
        self._last = None
        parts: list[str] = []
        done: set[str] = set()
        asked = time.perf_counter()
        try:
            for round_ in range(MAX_TOOL_ROUNDS + 1):
                self.stats.last_prompt = messages
                knew = self.llm.thinks()
                said = self._round(messages, offered if round_ < MAX_TOOL_ROUNDS else None, parts, on_text, asked)
                if not knew and self.llm.thinks() and not "".join(parts).strip() and said.done_reason == "length":
                    # its first trace (in the text, an old template) used the reply's room: asked again, with its own
                    said = self._round(messages, offered if round_ < MAX_TOOL_ROUNDS else None, parts, on_text, asked)
                if not said.calls:
                    self._last = Sent(session, messages + [{"role": "assistant", "content": said.text}],
                                      offered if round_ < MAX_TOOL_ROUNDS else None)
                    break
                messages = messages + self._run_tools(said.calls, said.text, session, done)
            if not "".join(parts).strip():
                raise NoReply(f"{self.llm.model} used all its reply tokens without saying anything (thinking "
                              "first); raise budget.think in config.yaml"
                              if said.done_reason == "length" else f"{self.llm.model} gave an empty reply; try again")
            on_end()
        except Interrupted as exc:
            self._store(session, [exc.spoken], interrupted=True)
            return Reply(exc.spoken, "model", interrupted=True, recalled=recalled)
        except KeyboardInterrupt:
            self._store(session, parts, interrupted=True)
            raise
        except LLMError as exc:
            self.online = not isinstance(exc, (LLMUnavailable, ModelMissing))
            log.warning("model failed: %s", exc)
            self.on_event(Degraded(str(exc)))
            self._store(session, parts, interrupted=bool(parts))
            if "".join(parts).strip():
                return Reply("".join(parts), "model", interrupted=True, recalled=recalled, error=str(exc))
            reply = self._offline(session, on_text, on_end, changes, problem=exc)
            return Reply(reply.text, "offline", recalled=recalled, error=str(exc))
        self._store(session, parts, interrupted=False)
        return Reply("".join(parts), "model", recalled=recalled)

    def _round(self, messages: list[dict], offered: list[dict] | None, parts: list[str], on_text: TextSink,
               asked: float) -> Round:
        """One request, streamed to on_text. A reply that may be a tool call written as text ('{"name": ...')
        is held back until it ends: a call is run, never spoken or stored; anything else is said then."""
        assert self.llm is not None
        text, held, calls, reason = [], "", [], None
        for chunk in self.llm.chat(messages, tools=offered, max_tokens=self.config.budget.reply):
            self.stats.timings.setdefault("first_token_s", time.perf_counter() - asked)
            calls += chunk.tool_calls
            if chunk.done:
                reason = chunk.done_reason
                if chunk.prompt_tokens is not None:
                    self._counted(messages, offered, chunk)
            if not chunk.text:
                continue
            spoke = "".join(text).strip()
            at = tools.call_start(chunk.text) if spoke and not held else None
            if at:      # "Fine. {"name": "memory_remember", ...}": the words are said, the call is held like a bare one
                before, chunk = chunk.text[:at], replace(chunk, text=chunk.text[at:])
                text.append(before)
                parts.append(before)
                on_text(before)
            if held or (tools.might_be_call(chunk.text) and (not spoke or at is not None)):
                held += chunk.text
                if tools.might_be_call(held):
                    continue
                chunk, held = replace(chunk, text=held), ""
            text.append(chunk.text)
            parts.append(chunk.text)
            on_text(chunk.text)
        if held:
            written = tools.calls_in_text(held)
            if written is not None:
                calls += written
            else:
                text.append(held)
                parts.append(held)
                on_text(held)
        return Round("".join(text), tuple(calls), reason)

    def _run_tools(self, calls: tuple[ToolCall, ...], said: str, session: str, done: set[str]) -> list[dict]:
        out = [{"role": "assistant", "content": said,
                "tool_calls": [{"function": {"name": c.name, "arguments": c.arguments}} for c in calls]}]
        room = prompt.TOOL_ROOM * 3 // (MAX_TOOL_ROUNDS * len(calls))    # characters: JSON runs ~3 a token
        for call in calls:
            key = json.dumps([call.name, call.arguments], sort_keys=True, default=str)
            if key in done:
                result = json.dumps({"error": "already done in this turn; answer the user now"})
            else:
                done.add(key)
                self.stats.tool_calls += 1
                result = tools.run(self.memory, self.user, call, self.config.memory.recall_k, self._message_id,
                                   session, self.llm.model if self.llm else "model", room)
                self.on_event(ToolUsed(call.name, call.arguments, result))
            out.append({"role": "tool", "content": result if len(result) <= room else result[:room - 1] + "…",
                        "tool_name": call.name})
        return out

    def _store(self, session: str, parts: list[str], interrupted: bool) -> None:
        self.log_reply(session, "".join(parts), interrupted)
