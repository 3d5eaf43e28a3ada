"""The memory path every front end shares (the chat, the voice loop, the MCP server, the proxy): a message taken
in and mined, a memory command answered from memory, what a request carries from memory, her reply logged. The
one place a secret the user noted is hidden from what a model reads (Memory.private)."""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Callable

from memory import Fact, Memory, Message, Observation, Recalled, asks, bearing, hide, says_more

from . import commands
from ..config import Config
from .events import EventSink, Remembered

log = logging.getLogger("glados.brain")


@dataclass(frozen=True)
class Noted:
    """A user message taken in: stored in its session, mined, and, for a memory command, answered from
    memory (`answer`; None: the message is for the model)."""
    session: str
    observation: Observation
    answer: commands.CommandReply | None


class MemoryPath:
    """`touch` gives the session a message now belongs to (the brain keeps sessions)."""

    def __init__(self, memory: Memory, config: Config, user: str, on_event: EventSink, touch: Callable[[], str]):
        self.memory, self.config, self.user, self.on_event, self.touch = memory, config, user, on_event, touch

    def messages(self, session: str, limit: int | None = 1000) -> list[Message]:
        """The session's messages as a model may read them (`limit`: the newest; None: all): a secret the user
        noted ("my locker code is 4512") said as "(private)"; she answers it from memory, and no model reads it
        unasked."""
        rows = self.memory.messages(self.user, session, limit)
        private = self.memory.private(self.user)
        return [replace(r, text=hide(r.text, private)) for r in rows] if private else rows

    def note(self, text: str, tool: bool = False) -> Noted:
        """Take in one user message: store it in the session, mine it, and answer a memory command
        ("forget ...", "what do you remember about me") from memory. A question about the user is left
        for the model (`answer` None); `answer_offline` answers it when the model is down. `tool`: a
        model's words through a storing tool (Memory.observe): stored, never a command."""
        session = self.touch()
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
        return noted.answer or self._from_notes(noted, text, secrets_only=True)

    def answer_offline(self, noted: Noted, text: str) -> commands.CommandReply | None:
        """A question about the user answered from memory, for when the model is down: from the facts ("where
        do I live?") or from a note ("what's my locker code?"); None when memory cannot answer it."""
        command = noted.observation.parsed.command
        if command is not None:
            return commands.reply(self.memory, self.user, noted.observation, self.config.persona.lines)
        return self._from_notes(noted, text)

    def _from_notes(self, noted: Noted, text: str, secrets_only: bool = False) -> commands.CommandReply | None:
        """A question about the user that a note answers ("what's my locker code?"), for when the model is down;
        `secrets_only`: with the model up, a question a secret answers (the model never holds the secret)."""
        if noted.observation.changes or asks(text) < 1:      # only a question, and one that told her nothing
            return None
        said = commands.answer_from_notes(self.memory, self.user, text, self.config.persona.lines, secrets_only)
        return commands.CommandReply("ask", said) if said else None

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

    @staticmethod
    def _not_in_block(recalled: list[Recalled], block: str, facts: list[Fact]) -> list[Recalled]:
        """Each fact once per request: a recalled message that only told facts the block already holds (or the
        note itself) is left out, unless what it says has changed since. One that says more stays: "... I've been
        playing a lot of Apex lately and I want to reach level 100" is more than likes: "Apex"."""
        if not recalled or not block:
            return recalled
        shown = [f for f in facts if f.value.casefold() in block.casefold()]
        notes = {f.id for f in shown}
        told: dict[str, list[str]] = {}
        for f in shown:
            if f.source_message_id is not None:
                told.setdefault(str(f.source_message_id), []).append(f.value)
        return [r for r in recalled if r.since or str(r.id) not in notes
                and (str(r.id) not in told or says_more(r.text, told[str(r.id)]))]

    def changed(self, text: str, message_id: int | None) -> str:
        """The mark for a quoted text that states a value no longer believed (memory.changed_since)."""
        return self.memory.changed_since(self.user, text, message_id)

    def log_reply(self, session: str, text: str, interrupted: bool = False) -> None:
        """Her reply, as said (or as far as it got), into the session's log."""
        if text.strip():
            self.memory.log(self.user, session, "assistant", text.strip(), interrupted=interrupted)

    def record_answer(self, session: str, answer: commands.CommandReply, spoken: str | None = None,
                      interrupted: bool = False) -> None:
        """Her answer from memory into the log (`spoken`: as far as it was said). A forget's confirmation is
        stored redacted, whatever part of it was heard."""
        self.log_reply(session, answer.stored if answer.kind == "forget" else answer.text if spoken is None else spoken,
                       interrupted)
