"""What is built from a user's facts and summaries and kept until they change: the memory block, what they
hold as secret, and the values no longer believed. One version rule for all three: `block_changes`' seq for
the user, moved by whichever process writes (store's triggers), read once per question."""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Callable

from . import facts as F, summaries as S
from .settings import RecallSettings

if TYPE_CHECKING:
    from .records import Summary
    from .since import Changes


@dataclass(frozen=True)
class Block:
    """A memory block as built: its text, and one line for the user when their pins alone outgrow it (None
    when all fit). It holds while the user's facts and summaries are unchanged (`version`) and until the
    first of its facts expires."""
    text: str
    notice: str | None
    version: int = 0
    built: datetime | None = None
    until: datetime | None = None

    def fresh(self, version: int, now: datetime) -> bool:
        return version == self.version and self.built is not None and self.built <= now and (
            self.until is None or now <= self.until)


def version(db: sqlite3.Connection, user: str) -> int:
    """A number that moves whenever the user's facts or summaries change, in any process."""
    row = db.execute("SELECT seq FROM block_changes WHERE user = ?", (user,)).fetchone()
    return row[0] if row else 0


class Views:
    """The per-user views of one memory file, each rebuilt only when `version` moved."""

    def __init__(self, db: sqlite3.Connection, clock: Callable[[], datetime], settings: RecallSettings,
                 max_value_chars: int):
        self.db, self.clock, self.settings, self.max_value_chars = db, clock, settings, max_value_chars
        self._blocks: dict[tuple, Block] = {}                       # per user and limits
        self._changes: dict[str, tuple[int, Changes]] = {}           # per user: what changed since
        self._private: dict[str, tuple[int, tuple[str, ...]]] = {}   # per user: their secrets

    def version(self, user: str) -> int:
        return version(self.db, user)

    def block(self, user: str, max_facts: int, max_summaries: int, max_tokens: int) -> Block:
        """The block for the system prompt, built again only when the user's facts or summaries changed or a
        fact in it expired."""
        now = self.clock()
        seq = self.version(user)
        key = (user, max_facts, max_summaries, max_tokens, tuple(self.settings.expire_days.items()))
        block = self._blocks.get(key)
        if block is None or not block.fresh(seq, now):
            block = self._blocks[key] = self._build(user, max_facts, max_summaries, max_tokens, seq, now)
        return block

    def _build(self, user: str, max_facts: int, max_summaries: int, max_tokens: int, seq: int,
               now: datetime) -> Block:
        from . import context as ctx
        changes = self.changes(user, seq)
        summaries = [(r["created_at"], r["text"], changes.of(r["text"])) for r in S.newest(self.db, user, max_summaries)]
        newest = max_facts      # the newest facts, and more only while expired ones leave too few
        while True:
            found = F.for_context(self.db, user, newest, ctx.IDENTITY)
            live = [(f, end) for f in found if (end := self.expires_at(f)) is None or now <= end]
            facts = [f for f, _ in live]
            if sum(not f.pinned for f in facts) >= max_facts or sum(not f.pinned for f in found) < newest:
                break
            newest *= 4
        text, dropped = ctx.render(facts, summaries, max_facts, max_summaries, max_tokens, self.max_value_chars,
                                   self.private(user))
        notice = (f"{dropped} pinned fact(s) did not fit the memory block ({max_tokens} tokens); "
                  "unpin some or raise memory.context_tokens") if dropped else None
        until = min((end for _, end in live if end is not None), default=None)
        return Block(text, notice, seq, now, until)

    def private(self, user: str) -> tuple[str, ...]:
        """What the user's secret notes hold (their numbers; a password's next word)."""
        from .since import PASSWORD, is_secret, secrets
        seq = self.version(user)          # read a few times a turn: again only after the facts changed
        held = self._private.get(user)
        if held is not None and held[0] == seq:
            return held[1]
        out: list[str] = []
        for f in F.current(self.db, user, "note"):
            if is_secret(f.key, f.value):
                out += secrets(f.key, f.value)
                out += [m.group(1) for m in re.finditer(rf"{PASSWORD.pattern}\s+(?:is\s+)?(\S+)", f.value, re.I)]
        found = tuple(s.strip(".,!?;:'\"") for s in out if len(s.strip(".,!?;:'\"")) >= 3)
        self._private[user] = (seq, found)
        return found

    def summaries(self, user: str) -> list[Summary]:
        """The user's session summaries, oldest first, each with what it states that has changed since."""
        from .records import Summary
        rows = S.all_for(self.db, user)
        changes = self.changes(user) if rows else None
        return [Summary(r["session"], r["text"], r["created_at"], changes.of(r["text"]) if changes else ())
                for r in rows]

    def changes(self, user: str, seq: int | None = None) -> Changes:
        """The user's values no longer believed (see since), read again only after their facts changed
        (`seq`: the version, when the caller has read it)."""
        from .since import Changes
        if seq is None:
            seq = self.version(user)
        held = self._changes.get(user)
        if held is None or held[0] != seq:
            held = self._changes[user] = (seq, Changes(F.history(self.db, user)))
        return held[1]

    def expires_at(self, fact: F.Fact) -> datetime | None:
        """When it leaves recall and the block; None for never (pinned, or a kind that never expires)."""
        from .kinds import key_kind
        from .recall import expires_at
        return None if fact.pinned else expires_at(key_kind(fact.key), fact.asserted_at, self.settings.expire_days)
