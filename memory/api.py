"""`Memory`: the one object another assistant needs. SQLite only; the clock is passed in.

The face of the memory's parts, each built here and called: learning from what is said (`ingest`), forgetting
(`forgetting`, `erase`), the views kept per user until their facts change (`views`), recall (`retriever`, with the
sentence model and the index in `meaning`), export and import (`portable`)."""
from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal, Sequence

from . import facts as F, ingest as I, messages as M, portable, summaries as S, voiceprints as V
from .facts import Ambiguous, NotFound
from .forgetting import Forgetting
from .ingest import Observation
from .meaning import Meaning
from .moments import iso, new_session_id, utc_now
from .portable import FORMAT as EXPORT_FORMAT, BadImport
from .retriever import Retriever
from .records import Message, Session
from .settings import RecallSettings
from .store import MemoryStoreError, connect, exposure, purge_leftovers, transaction
from .text import clean
from .views import Block, Views

if TYPE_CHECKING:
    from . import recall as R
    from .embed import Embedder
    from .erase import Sink
    from .proposals import Proposal, Verdict
    from .records import Event, Recalled, Summary, Voiceprint

class TooLong(MemoryStoreError):
    """A message longer than the memory keeps (`max_message_chars`); nothing of it was stored."""


__all__ = ["Ambiguous", "BadImport", "Block", "EXPORT_FORMAT", "Memory", "NotFound", "Observation", "TooLong", "iso",
           "new_session_id", "utc_now"]


class Memory:
    """Facts, messages, recall, summaries and context for any number of users in one SQLite file."""

    def __init__(self, path: str | Path, clock: Callable[[], datetime] = utc_now,
                 max_value_chars: int = 200, busy_timeout_ms: int = 5000, max_message_chars: int = 20_000,
                 embedder: "Embedder | None | Literal['auto']" = "auto",
                 recall_settings: RecallSettings = RecallSettings(), create: bool = True,
                 her_names: Sequence[str] = ()):
        """embedder: the sentence model for recall by meaning ("auto": the installed one, loaded on first recall;
        None: words alone). create=False: a missing file raises NoMemoryYet. her_names: what the users call the one
        they talk to ("GLaDOS"): in a question her name means "you" (recall.as_asked_by)."""
        self.path = Path(path)
        self.db: sqlite3.Connection = connect(self.path, busy_timeout_ms, create)
        self.read_only: bool = self.db.read_only
        # One line for the user when others can read these memories (None when private).
        self.warning: str | None = None if str(path) == ":memory:" else exposure(self.path)
        self.clock = clock
        self.max_value_chars = max_value_chars
        self.max_message_chars = max_message_chars
        self.recall_settings = recall_settings
        self.meaning = Meaning(embedder)
        self.views = Views(self.db, lambda: self.clock(), recall_settings, max_value_chars)
        self.retriever = Retriever(self.db, self.views, self.meaning, recall_settings, self.now, her_names)
        self.on_erase: "Sink | None" = None    # told what each erasure took (the assistant scrubs its log with it)
        self.forgetting = Forgetting(self.db, self.retriever, self.now, lambda: self.on_erase)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def now(self) -> str:
        return iso(self.clock())

    def observe(self, user: str, text: str, session: str | None = None, tool: bool = False) -> Observation:
        """Log one user utterance and apply every fact it states, in one transaction (TooLong: nothing stored).
        `tool`: a model's storing tool wrote it: read in the third person too, never a command (ingest.observe)."""
        if len(text) > self.max_message_chars:
            raise TooLong(f"a message is at most {self.max_message_chars:,} characters and this one has {len(text):,}; "
                          "nothing was stored (shorten it, or raise memory.max_message_chars)")
        seen = I.observe(self.db, user, text, self.now(), session, tool)
        if any(c.kind == "forgotten" for c in seen.changes):
            self.forgetting.purge(user, seen.changes)
        return seen

    def consolidate(self, user: str, session: str, proposals: list[Proposal], model: str) -> list[Verdict]:
        """Store a model's proposals that pass every grounding check (memory.consolidate), each with its verdict."""
        return I.consolidate(self.db, user, session, proposals, model, self.now())

    def remember_for_model(self, user: str, session: str, key: str, value: str, model: str,
                           message_id: int | None = None) -> Verdict:
        """A fact a model wants stored by a tool: stored only when the user's words ground it (ingest)."""
        return I.remember_for_model(self.db, user, session, key, value, model, self.now(), message_id)

    def log(self, user: str, session: str, role: str, text: str, tokens: int | None = None,
            interrupted: bool = False) -> int:
        """Append a message without mining it (her replies); one over max_message_chars is cut, marked interrupted."""
        text = clean(text)
        if len(text) > self.max_message_chars:
            text, interrupted = text[: self.max_message_chars], True
        with transaction(self.db):
            return M.log(self.db, user, session, role, text, self.now(), tokens, interrupted)

    def set_importance(self, user: str, fact_ids: Sequence[str], importance: float,
                       source: str | None = None) -> None:
        """How much these facts matter (0-1) and where they came from, as a client said (GLaDOS's store_fact)."""
        if not 0.0 <= importance <= 1.0:
            raise ValueError(f"importance is a number from 0 to 1 (got {importance})")
        with transaction(self.db):
            F.set_importance(self.db, user, fact_ids, importance, source)

    def withdraw(self, user: str, message_id: int) -> bool:
        """Take back a message never answered (a proxy's request failed upstream); its facts stay. False: not there."""
        with transaction(self.db):
            return M.withdraw(self.db, user, message_id)

    def remember(self, user: str, key: str, value: str, source: str = "",
                 message_id: int | None = None) -> list[F.FactChange]:
        """Store one fact directly (a tool call: pass the message that prompted it)."""
        value = clean(value).strip()
        if not value:
            raise ValueError("a fact needs a non-empty value")
        if message_id is not None:
            said = M.text_of(self.db, user, message_id)
            source, message_id = (said, message_id) if said is not None else (source, None)
        with transaction(self.db):
            return F.assert_fact(self.db, user, key, value[:1000], self.now(), source, message_id)

    def correct(self, user: str, target: str, value: str) -> list[F.FactChange]:
        """The user's correction of one current fact (id prefix, or a key holding one value); history keeps both."""
        value = clean(value).strip()
        if not value:
            raise ValueError("a fact needs a non-empty value")
        with transaction(self.db):
            rows = F.pick(self.db, user, target)
            if len(rows) > 1:
                raise Ambiguous(f"{target!r} holds {len(rows)} values; give the id of the one to correct")
            return F.correct(self.db, user, rows[0], value[:1000], self.now())

    def timeline(self, user: str) -> list[Event]:
        """What she learned, what replaced what and when, what was taken back or forgotten; newest first."""
        from .timeline import timeline
        return timeline(self.db, user)

    def add_summary(self, user: str, session: str, text: str) -> bool:
        with transaction(self.db):
            return S.add(self.db, user, session, clean(text), self.now())

    def pin(self, user: str, target: str) -> list[F.Fact]:
        """Keep facts in the memory block whatever the cap, by the user's choice: by id prefix or key
        ("location"); the pin stays as the fact changes. Returns those newly pinned."""
        with transaction(self.db):
            return F.set_pin(self.db, F.pick(self.db, user, target), True)

    def unpin(self, user: str, target: str) -> list[F.Fact]:
        """Undo `pin`; allergies, diet and medical facts stay pinned (StaysPinned)."""
        with transaction(self.db):
            return F.set_pin(self.db, F.pick(self.db, user, target), False)

    def would_forget(self, user: str, target: str) -> list[F.Fact]:
        """Every row `forget(user, target)` would delete (to confirm first); raises like forget."""
        return self.forgetting.would_forget(user, target)

    def forget(self, user: str, target: str) -> list[F.FactChange]:
        """Forget by fact id prefix, key, "key=value", a phrase or what a note is about; gone everywhere."""
        return self.forgetting.forget(user, target)

    def forget_change(self, user: str, key: str | None, value: str | None) -> list[F.FactChange]:
        """Forget what a mined forget change names (no error when nothing matches)."""
        return self.forgetting.forget_change(user, key, value)

    def clear(self, user: str) -> dict[str, int]:
        """Delete everything about one user: facts, history, messages, index entries, vectors, summaries."""
        return self.forgetting.clear(user)

    def facts(self, user: str, at: datetime | str | None = None, history: bool = False) -> list[F.Fact]:
        """Current facts; `at`: what was believed then; `history`: every row ever."""
        if history or at is None:
            return F.history(self.db, user) if history else F.current(self.db, user)
        return F.believed_at(self.db, user, at if isinstance(at, str) else iso(at))

    def block(self, user: str, max_facts: int = 10, max_summaries: int = 3, max_tokens: int = 400) -> Block:
        """The memory block, and a line when the user's pins alone outgrow it (Block.notice); kept until the
        user's facts or summaries change (whichever process wrote) or a fact in it expires."""
        return self.views.block(user, max_facts, max_summaries, max_tokens)

    def load_context(self, user: str, max_facts: int = 10, max_summaries: int = 3, max_tokens: int = 400) -> str:
        """The block for the system prompt; "" when nothing is known (see `block`)."""
        return self.block(user, max_facts, max_summaries, max_tokens).text

    def private(self, user: str) -> tuple[str, ...]:
        """What the user's secret notes hold: every reader that hands stored words to a model takes these out."""
        return self.views.private(user)

    def is_expired(self, fact: F.Fact) -> bool:
        """Past its kind's expiry (recall_settings.expire_days): out of recall and the block, kept in history."""
        end = self.views.expires_at(fact)
        return end is not None and self.clock() > end

    def version(self, user: str) -> int:
        """Moves whenever the user's facts or summaries change, in any process (a cache of them is keyed by it)."""
        return self.views.version(user)

    def changed_since(self, user: str, text: str, message_id: int | None = None) -> str:
        """The mark for a model beside a stored text of what it states that is no longer believed, or "" (since)."""
        from .since import describe
        return describe(self.views.changes(user).of(text, message_id))

    def summaries(self, user: str) -> list[Summary]:
        """The user's session summaries, oldest first, each with what it states that has changed since."""
        return self.views.summaries(user)

    def users(self) -> list[str]:
        """Everyone this file holds messages or facts of (a household's people)."""
        return M.users(self.db)

    def sessions(self, user: str, newest_only: bool = False) -> list[Session]:
        """The user's sessions, oldest first (`newest_only`: the one they spoke in last, read cheaply)."""
        return [Session(r["session"], r["started"], r["ended"], r["messages"])
                for r in M.sessions(self.db, user, newest_only)]

    def messages(self, user: str, session: str, limit: int | None = 1000) -> list[Message]:
        """The last `limit` messages of a session (None: all), oldest first."""
        return [Message.of(r) for r in M.session_messages(self.db, user, session, limit)]

    def recall(self, user: str, text: str, k: int = 5, session: str | None = None,
               recent_window: int = 0, candidates: int | None = None, at: datetime | None = None
               ) -> list[Recalled]:
        """Earlier messages and notes matching text by words and meaning, best first (memory.recall). `at`: what
        would have been recalled then. Without the sentence model, by words alone (`recall_notice` says why)."""
        return self.retriever.recall(user, text, k, session, recent_window, candidates, at)

    def gather(self, user: str, text: str, session: str | None = None, recent_window: int = 0,
               at: datetime | None = None, settings: RecallSettings | None = None) -> "R.Gathered | None":
        """Recall's candidates for `text`, measured but not scored (recall.gather), for a bench that reweighs them."""
        return self.retriever.gather(user, text, session, recent_window, at, settings)

    @property
    def recall_notice(self) -> str | None:
        """Why recall matches words only (no model installed), once known; None while meaning works."""
        return self.meaning.notice

    @property
    def recall_mode(self) -> Literal["words+meaning", "words"]:
        return self.meaning.mode

    def prepare(self) -> str:
        """Load the sentence model now (a recall meanwhile waits for the one load); returns recall_mode."""
        return self.meaning.mode

    def embed(self, text: str):
        """The text's vector, kept for the recall and indexing that follow (a caller pays for it early); None
        without a model."""
        return self.meaning.vector(text) if text.strip() else None

    def pending(self, user: str) -> int:
        """How many of the user's messages still need a vector (Meaning.pending; the model is not loaded)."""
        return self.meaning.pending(self.db, user)

    def index_pending(self, user: str, limit: int | None = None,
                      progress: Callable[[int, int], None] | None = None) -> int:
        """Vectors for the user's messages that need one, newest first, at most `limit`; returns how many."""
        return self.meaning.index_pending(self.db, user, limit, progress)

    def fill_crowding(self, user: str, everything: bool = False,
                      progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """Neighbour lists (crowding) for vectors stored without one, a bounded share or `everything`: (done, left)."""
        return self.meaning.fill_crowding(self.db, user, everything, progress)

    def voiceprints(self) -> list[Voiceprint]:
        """Every enrolled voice in this file, by user."""
        return V.all_of(self.db)

    def voiceprint(self, user: str) -> Voiceprint | None:
        return V.one(self.db, user)

    def save_voiceprint(self, user: str, vector: "Sequence[float]", utterances: int, model: str) -> Voiceprint:
        """Store (or replace) `user`'s voice: the mean embedding of `utterances` utterances from `model`."""
        with transaction(self.db):
            return V.save(self.db, user, [float(x) for x in vector], utterances, model, self.now())

    def forget_voiceprint(self, user: str) -> bool:
        """Delete `user`'s voice (their memories stay); False when none was kept."""
        with transaction(self.db):
            gone = V.delete(self.db, user)
        purge_leftovers(self.db)
        return gone

    def export(self, user: str) -> dict:
        return portable.export(self.db, user, self.now())

    def import_(self, user: str, data: dict) -> dict[str, int]:
        """Add an export's rows to `user`, whoever it was made for; idempotent (see portable.import_)."""
        return portable.import_(self.db, user, data, self.now())
