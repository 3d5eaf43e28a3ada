"""Recall as a service over one memory file: it keeps what it learns between recalls (how many messages hold
each word, for BM25; the names each user greets her by) and hands back earlier messages and notes (memory.recall:
gather, rank, choose), each marked with what it states that is no longer believed."""
from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Callable, Sequence

from .moments import iso
from .settings import RecallSettings

if TYPE_CHECKING:
    from . import recall as R
    from .meaning import Meaning
    from .records import Recalled
    from .views import Views

# Placeholder user ids: never taken as the user's name.
GENERIC_USERS = {"default", "user", "me", "guest", "test", "main", "local", "admin", "root", "unknown", "anonymous"}
GREETINGS_READ = 2000     # the user's newest messages (and hers) read for whom they greet


class Retriever:
    """`now` gives the time as stored ("2026-12-07T...Z"); `her_names`: what the users call the one they talk to."""

    def __init__(self, db: sqlite3.Connection, views: "Views", meaning: "Meaning", settings: RecallSettings,
                 now: Callable[[], str], her_names: Sequence[str] = ()):
        self.db, self.views, self.meaning, self.settings, self.now = db, views, meaning, settings, now
        self.her_names = tuple(her_names)
        self._word_counts: R.WordCounts | None = None       # how many messages hold a word (first recall)
        self._greeted: dict[str, tuple[int, list[str]]] = {}   # user -> (newest message id then, names they greet)

    def recall(self, user: str, text: str, k: int = 5, session: str | None = None, recent_window: int = 0,
               candidates: int | None = None, at: datetime | None = None) -> list[Recalled]:
        from . import recall as R
        settings = self.settings
        if candidates is not None and candidates != settings.candidates:
            settings = replace(settings, candidates=candidates)
        found = self.gather(user, text, session, recent_window, at, settings) if k > 0 else None
        if found is None:
            return []
        R.rank(found, settings)
        chosen = R.choose(self.db, found, k, settings)
        changes = self.views.changes(user) if chosen else None
        return [replace(r, since=changes.of(f"{r.text}\n{r.reply or ''}", _message_id(r))) if changes else r
                for r in chosen]

    def gather(self, user: str, text: str, session: str | None = None, recent_window: int = 0,
               at: datetime | None = None, settings: RecallSettings | None = None) -> R.Gathered | None:
        from . import recall as R
        if self._word_counts is None:
            self._word_counts = R.WordCounts()
        mine = self.names(user)
        text = R.as_asked_by(text, mine, self.hers(user, mine))
        query = self.meaning.vector(text) if text.strip() else None
        now = iso(at) if at is not None else self.now()
        return R.gather(self.db, user, text, session, recent_window, settings or self.settings, now,
                        self.meaning.index if query is not None else None, query, self._word_counts,
                        until=now if at is not None else None)

    def erased(self, user: str) -> None:
        """After an erasure: the word counts and whom the user greets are read again (what was erased no longer
        counts)."""
        self._word_counts = None
        self._greeted.pop(user, None)

    def names(self, user: str) -> list[str]:
        """What the user is called: their name facts (and each one's first word), and the user id itself when it
        is a name (letters only, not a placeholder like "default")."""
        from .facts import current
        names = [v for f in current(self.db, user, "name") for v in (f.value, f.value.split()[0])]
        if user.isalpha() and user.casefold() not in GENERIC_USERS:
            names.append(user)
        return names

    def hers(self, user: str, mine: list[str]) -> list[str]:
        """Her names for this user: `her_names`, and the names the user greets her by ("Hey Nate!": see
        recall.greeted), read again once the log has grown by a tenth since."""
        from . import messages as M
        newest = M.newest_id(self.db)
        held = self._greeted.get(user)
        from .recall import greeted
        if held is None or newest > held[0] * 1.1 + 100 or newest < held[0]:
            said = {role: M.newest_texts(self.db, user, role, GREETINGS_READ) for role in ("user", "assistant")}
            held = self._greeted[user] = (newest, greeted(said["user"], said["assistant"], mine))
        return [*self.her_names, *held[1]]


def _message_id(r: Recalled) -> int | None:
    return int(r.id) if r.kind == "message" and r.id.isdigit() else None
