"""Forgetting as one part: what a target names, deleted everywhere in one transaction, then every copy left
behind cleared (the word indexes and the write-ahead log, recall's word counts and greetings) and whoever
keeps copies outside the file told what went (Memory.on_erase: the assistant scrubs its log file with it)."""
from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Callable

from . import facts as F, messages as M
from .store import purge_leftovers, transaction

if TYPE_CHECKING:
    from .erase import Sink
    from .retriever import Retriever


class Forgetting:
    def __init__(self, db: sqlite3.Connection, retriever: "Retriever", now: Callable[[], str],
                 sink: "Callable[[], Sink | None]" = lambda: None):
        """`sink`: who is told what each erasure took (read at the time: Memory.on_erase may be set later)."""
        self.db, self.retriever, self.now, self.sink = db, retriever, now, sink

    def would_forget(self, user: str, target: str) -> list[F.Fact]:
        from . import erase as E
        return E.targets(self.db, user, target)

    def forget(self, user: str, target: str) -> list[F.FactChange]:
        from . import erase as E
        with transaction(self.db):
            done = E.erase_facts(self.db, user, E.targets(self.db, user, target), self.now())
        self.purge(user, done)
        return done

    def forget_change(self, user: str, key: str | None, value: str | None) -> list[F.FactChange]:
        from . import erase as E
        with transaction(self.db):
            done = E.erase_facts(self.db, user, F.find_for_forget(self.db, user, key, value), self.now())
        if done:
            self.purge(user, done)
        return done

    def clear(self, user: str) -> dict[str, int]:
        from . import erase as E
        told = self.sink() is not None
        values = [(f.key, f.value) for f in F.history(self.db, user)] if told else []
        sessions = M.session_ids(self.db, user) if told else ()
        with transaction(self.db):
            counts = E.erase_user(self.db, user)
        self.purge(user, [F.FactChange("forgotten", k, v) for k, v in values], sessions, whole=True)
        return counts

    def purge(self, user: str, done: list[F.FactChange], sessions: tuple[str, ...] = (), whole: bool = False) -> None:
        """After an erasure: no old copy left in the word indexes or the write-ahead log (purge_leftovers),
        recall's word counts and greetings read again, and the sink told what went."""
        purge_leftovers(self.db)
        self.retriever.erased(user)
        sink = self.sink()
        if sink is not None:
            from . import erase as E
            gone = [(c.key, c.value) for c in done if c.kind == "forgotten"]
            sink(E.erased(user, gone, sessions, whole))
