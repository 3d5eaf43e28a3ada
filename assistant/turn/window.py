"""What the model is told of the conversation so far: a window of its newest messages, which moves on by half at
once (so the prompt's start stays the same for several turns, for the server's cache), and the user's words
before it folded into a running note (the model rewrites the note in its own words now and then)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from memory import estimate_tokens

from . import compaction, prompt
from ..config import BudgetConfig, Config
from ..llm import LLM
from .memory_path import MemoryPath


@dataclass(frozen=True)
class Sent:
    """The last request answered in full, with her reply: the prompt the server's cache now holds, which a
    background request continues rather than evicts."""
    session: str
    messages: list[dict]
    tools: list[dict] | None


class Window:
    """The history window and running note of each session."""

    def __init__(self, path: MemoryPath, config: Config):
        self.path, self.config = path, config
        self._notes: dict[str, compaction.ModelNote] = {}   # the model's running note of each session
        self._starts: dict[str, int] = {}       # the first message of each session's history window
        self._shown: dict[str, tuple[int, int, str]] = {}   # the running note carried with that window and facts

    def turns(self, session: str, before: int, text: str, budget: BudgetConfig
              ) -> tuple[list[prompt.Turn], str, BudgetConfig]:
        """The session's messages before message `before` (the one being answered), read once: the history
        window (prompt.window_start), and the user's words before it folded into a running note, paid for out of
        the history budget (the budget left for the history comes back with them)."""
        window = self.config.memory.recent_window
        if not window:
            return [], "", budget
        note_tokens = min(self.config.session.compact_tokens, budget.history // 2)
        rows = [r for r in self.path.messages(session, limit=None) if r.id < before]
        turns = [prompt.Turn(r.role, r.text, estimate_tokens(r.text), r.id) for r in rows]
        room = (budget.history - note_tokens - estimate_tokens(prompt.cut(text, budget.history))
                - prompt.PER_MESSAGE)
        start = prompt.window_start(turns, self._starts.get(session, turns[0].id if turns else 0), window, room)
        self._starts[session] = start
        history = [t for t in turns if t.id >= start]
        shown, version = self._shown.get(session), self.path.memory.version(self.path.user)
        if shown is not None and shown[:2] == (start, version):
            note = shown[2]     # the note changes only when the window moves (or a fact its marks name changed)
        else:
            folded = [r for r in rows if r.id < start]
            note = compaction.combine(self._notes.get(session), folded, note_tokens, self.path.changed) \
                if note_tokens and folded else ""
            self._shown[session] = (start, version, note)
        if note:
            budget = replace(budget, history=max(0, budget.history - estimate_tokens(note)))
        return history, note, budget

    def rewrite_note(self, session: str | None, llm: LLM, last: Sent | None) -> None:
        """After the reply, every few messages that left the window: the model rewrites the session's running
        note in its own words (grounded line by line); on any failure the user's own words take their place.
        `last`: the request the server holds in its cache, which the rewrite continues."""
        s = self.config.session
        note_tokens = min(s.compact_tokens, self.config.budget.history // 2)
        if not (session and s.compact_by_model and note_tokens and self.config.memory.recent_window):
            return
        start = self._starts.get(session, 0)
        folded = [r for r in self.path.messages(session, limit=None) if r.id < start]
        previous = self._notes.get(session)
        if not compaction.due(previous, folded):
            return
        last = last if last is not None and last.session == session else None
        note = compaction.rewrite(llm, previous, folded, note_tokens, self.config.llm.session_end_temperature,
                                  last.messages if last else None, last.tools if last else None)
        if note is not None:
            self._notes[session] = note

    def end(self, session: str) -> None:
        """The session ended: its summary supersedes the running note."""
        self._notes.pop(session, None)
        self._shown.pop(session, None)
        self._starts.pop(session, None)
