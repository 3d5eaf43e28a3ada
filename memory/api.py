"""`Memory`: the one object another assistant needs. SQLite only; the clock is passed in."""
from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Literal, Sequence

from . import facts as F, summaries as S
from .settings import RecallSettings
from .store import MemoryStoreError, connect, exposure, purge_leftovers, transaction
from .text import clean, pieces

# Recall, erasure, the memory block and the readers of text load where a method first needs them: a
# command that only lists or pins facts (`glados memory list`) starts without them.
if TYPE_CHECKING:
    from . import recall as R
    from .records import Message, Recalled, Session, Summary, Voiceprint
    from .embed import Embedder
    from .intent import Change, Parsed
    from .proposals import Proposal, Verdict
    from .since import Changes
    from .erase import Sink

EXPORT_FORMAT = "glados-memory/1"
INDEX_BATCH = 256     # messages read, embedded and stored at a time (the model sorts them by length)
GENERIC_USERS = {"default", "user", "me", "guest", "test", "main", "local", "admin", "root", "unknown", "anonymous"}


class NotFound(MemoryStoreError):
    """No fact matches the id prefix or key given."""


class Ambiguous(MemoryStoreError):
    """An id prefix matches more than one fact."""


class BadImport(MemoryStoreError):
    """An import file that is not a memory export."""


class TooLong(MemoryStoreError):
    """A message longer than the memory keeps (`max_message_chars`); nothing of it was stored."""


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """One fixed-width UTC format, so stored times compare correctly as strings."""
    if moment.tzinfo is None:
        moment = moment.astimezone()   # a naive time is the user's local time
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _no_command() -> Parsed:
    from .intent import Parsed
    return Parsed("")


@dataclass(frozen=True)
class Observation:
    """What observe did: the logged message, every fact change it caused, and what the text means
    (its command, if any), parsed once."""
    message_id: int
    changes: list[F.FactChange] = field(default_factory=list)
    parsed: Parsed = field(default_factory=_no_command)


@dataclass(frozen=True)
class _Block:
    """A memory block as built: it holds while the user's facts and summaries are unchanged (`version`,
    block_changes' seq) and until the first of its facts expires."""
    version: int
    built: datetime
    until: datetime | None
    text: str
    notice: str | None

    def fresh(self, version: int, now: datetime) -> bool:
        return version == self.version and self.built <= now and (self.until is None or now <= self.until)


class Memory:
    """Facts, messages, recall, summaries and context for any number of users in one SQLite file."""

    def __init__(self, path: str | Path, clock: Callable[[], datetime] = utc_now,
                 max_value_chars: int = 200, busy_timeout_ms: int = 5000, max_message_chars: int = 20_000,
                 embedder: "Embedder | None | Literal['auto']" = "auto",
                 recall_settings: RecallSettings = RecallSettings(), create: bool = True,
                 her_names: Sequence[str] = ()):
        """embedder: the sentence model for recall by meaning; "auto" loads the installed one on first
        recall, None recalls by words alone. create=False: a missing file raises NoMemoryYet. her_names: what
        the users call the one they talk to ("GLaDOS"); in a question her name means "you" (recall.as_asked_by),
        as do the names a user greets at the start of their messages ("Hey Nate!": recall.greeted)."""
        self.path = Path(path)
        self.db: sqlite3.Connection = connect(self.path, busy_timeout_ms, create)
        self.read_only: bool = self.db.read_only
        # One line for the user when others can read these memories (None when private).
        self.warning: str | None = None if str(path) == ":memory:" else exposure(self.path)
        self.clock = clock
        self.max_value_chars = max_value_chars
        self.max_message_chars = max_message_chars
        self.recall_settings = recall_settings
        self.her_names = tuple(her_names)
        # Why recall matches words only (no model installed), once known; None while meaning works.
        self.recall_notice: str | None = None
        self.context_notice: str | None = None      # set by load_context when pins did not fit
        self._embedder_choice = embedder
        self._model: "Embedder | None" = None
        self._model_lock = threading.Lock()
        self._index = None
        self._vectors: OrderedDict[str, object] = OrderedDict()   # text -> vector, the newest few
        self._word_counts: R.WordCounts | None = None    # how many messages hold a word, for BM25 (first recall)
        self._blocks: dict[tuple, _Block] = {}          # the memory block last built, per user and limits
        self._changes: dict[str, tuple[int, Changes]] = {}   # per user: what changed since, as of a block version
        self._private: dict[str, tuple[int, tuple[str, ...]]] = {}   # per user: Memory.private, as of a block version
        self._indexed: dict[str, tuple[int, int]] = {}   # user -> (every message up to this id has a vector, rows then)
        self._greeted: dict[str, tuple[int, list[str]]] = {}   # user -> (newest message id then, names they greet)
        # Told what each erasure took, after it is done (the assistant scrubs its log file with it).
        self.on_erase: "Sink | None" = None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def now(self) -> str:
        return iso(self.clock())

    # -- writing -------------------------------------------------------------------------
    def observe(self, user: str, text: str, session: str | None = None, tool: bool = False) -> Observation:
        """Log one user utterance and apply every fact it states, in one transaction. A message over
        max_message_chars raises TooLong, and nothing is stored. `tool`: written by a model calling a
        storing tool: read in the third person too ("User lives in York"), and only stored, never a
        command that deletes or answers (Parsed.storing_only)."""
        from .parsing import from_third_person, parse      # the rules load on first use (see memory.__getattr__)
        from . import messages as M
        from .kinds import kind_of
        if len(text) > self.max_message_chars:
            raise TooLong(f"a message is at most {self.max_message_chars:,} characters and this one has {len(text):,}; "
                          "nothing was stored (shorten it, or raise memory.max_message_chars)")
        if tool:
            parsed = replace(parse(from_third_person(text)).storing_only(), text=clean(text))
        else:
            parsed = parse(text)
        text = parsed.text
        with transaction(self.db):
            now = self.now()
            kind = kind_of(text, [c.key for c in parsed.changes if c.op in ("assert", "correct", "mention") and c.key])
            message_id = M.log(self.db, user, session or new_session_id(), "user", text, now, kind=kind)
            done: list[F.FactChange] = []
            for change in parsed.changes:
                done += self._apply(user, change, text, message_id, now, session)
            command = parsed.command
            if command is not None and command.kind == "remember" and command.pin:
                done += self._pin_changes(user, done)
            elif command is not None and command.kind == "pin":
                done += self._pin_said_before(user, session, message_id)
        if any(c.kind == "forgotten" for c in done):
            self._purge(user, done)
        return Observation(message_id, done, parsed)

    def _pin_changes(self, user: str, changes: list[F.FactChange]) -> list[F.FactChange]:
        ids = {c.fact_id for c in changes if c.kind in ("added", "superseded", "reconfirmed") and c.fact_id}
        pinned = F.set_pin(self.db, [f for f in F.current(self.db, user) if f.id in ids], True)
        return [F.FactChange("pinned", f.key, f.value, fact_id=f.id) for f in pinned]

    def _pin_said_before(self, user: str, session: str | None, message_id: int) -> list[F.FactChange]:
        """"pin that": the current facts of the user's newest earlier message in this session that has any."""
        current = [f for f in F.current(self.db, user) if f.source_message_id is not None]
        earlier = {r.id for r in self.messages(user, session, limit=50) if r.role == "user" and r.id < message_id} \
            if session else set()
        sources = sorted({f.source_message_id for f in current} & earlier)
        if not sources:
            return []
        chosen = [f for f in current if f.source_message_id == sources[-1]]
        F.set_pin(self.db, chosen, True)          # all of them pinned now, whether newly or already
        return [F.FactChange("pinned", f.key, f.value, fact_id=f.id) for f in chosen]

    def _apply(self, user: str, change: Change, source: str, message_id: int, now: str,
               session: str | None = None) -> list[F.FactChange]:
        from . import erase as E
        if change.op == "assert" and change.key and change.value:
            return F.assert_fact(self.db, user, change.key, change.value, now, source, message_id)
        if change.op == "mention" and change.key and change.value:
            return F.mention(self.db, user, change.key, change.value, now, source, message_id)
        if change.op == "retract" and change.key:
            return F.retract(self.db, user, change.key, change.value, now)
        if change.op == "forget":
            rows = F.find_for_forget(self.db, user, change.key, change.value)
            if rows or change.key not in (None, "note") or not change.value:
                return E.erase_facts(self.db, user, rows)
            topic = E.about(self.db, user, change.value, spare=message_id)
            if len(topic.notes) > 1:      # "forget my code": the locker's or the door's? Ask.
                return [F.FactChange("ambiguous", n.key, n.value, fact_id=n.id) for n in topic.notes]
            return E.erase_topic(self.db, user, topic)
        if change.op == "correct" and change.value:
            return self._correct(user, change, source, message_id, now, session)
        return []

    def _correct(self, user: str, change: Change, source: str, message_id: int, now: str,
                 session: str | None) -> list[F.FactChange]:
        """"no wait, I meant Bristol": the newest fact of this conversation that the value fits (memory.values:
        its key takes a name, and its value was one), or the one holding `old` ("Bristol, not Bath"), takes the
        new value; history keeps the old one. Nothing changes when nothing fits: the words stay a message."""
        from . import values as V
        if change.old is not None:
            held = [f for f in F.current(self.db, user, change.key) if F.matches(f, change.old)]
            wrong = held[-1] if held else None
        else:
            said = F.stated_in(self.db, user, self._said_before(user, session, message_id))
            if change.key:
                wrong = next((f for f in said if f.key == change.key), None)
            else:
                wrong = V.target(said, change.value, V.uses_case(source))
        if wrong is None:
            return F.assert_fact(self.db, user, change.key, change.value, now, source, message_id) \
                if change.key else []
        value = change.value if change.key else F.shape_like(wrong.key, change.value)
        if wrong.key in F.MULTI_VALUED:
            return F.retract(self.db, user, wrong.key, wrong.value, now) + \
                F.assert_fact(self.db, user, wrong.key, value, now, source, message_id)
        return F.assert_fact(self.db, user, wrong.key, value, now, source, message_id)

    def _said_before(self, user: str, session: str | None, message_id: int) -> list[int]:
        """The user's earlier messages of this conversation (without a session: her last ten)."""
        if session is None:
            rows = self.db.execute("SELECT id FROM messages WHERE user = ? AND role = 'user' AND id < ? "
                                   "ORDER BY id DESC LIMIT 10", (user, message_id))
        else:
            rows = self.db.execute("SELECT id FROM messages WHERE user = ? AND session = ? AND role = 'user' "
                                   "AND id < ? ORDER BY id DESC LIMIT 200", (user, session, message_id))
        return [r[0] for r in rows]

    def consolidate(self, user: str, session: str, proposals: list[Proposal], model: str) -> list[Verdict]:
        """Store the proposals of a model that pass every grounding check (see memory.consolidate);
        each comes back with its verdict and reason. One transaction; nothing else is changed."""
        from .consolidate import judge
        from .proposals import Verdict
        messages = {m.id: m for m in self.messages(user, session, limit=100_000)}
        verdicts = []
        with transaction(self.db):
            now = self.now()
            for proposal in proposals:
                message = messages.get(proposal.message_id)
                outcome, reason = judge(proposal, message, F.current(self.db, user))
                changes: list[F.FactChange] = []
                if outcome == "stored" and message is not None:
                    changes = F.assert_fact(self.db, user, proposal.key, proposal.value, now, message.text,
                                            proposal.message_id, origin="model", origin_model=model)
                verdicts.append(Verdict(proposal, outcome, reason, tuple(changes)))
        return verdicts

    def remember_for_model(self, user: str, session: str, key: str, value: str, model: str,
                           message_id: int | None = None) -> Verdict:
        """A fact a model wants stored through a tool: stored only when one of the user's messages of this
        session grounds it (consolidation's checks, `message_id` tried first; a note only from a message
        that asked for something to be remembered), marked as the model's and never pinned as a safety fact."""
        from .consolidate import judge, judge_note
        from .proposals import Proposal, Verdict
        key, value = (key or "note").strip().lower(), clean(value).strip()
        said = sorted((m for m in self.messages(user, session, limit=100_000) if m.role == "user"),
                      key=lambda m: (m.id != message_id, -m.id))
        verdict = Verdict(Proposal(key, value, message_id or 0), "rejected", "the user said nothing in this session")
        with transaction(self.db):
            current = F.current(self.db, user)
            for message in said:
                proposal = Proposal(key, value, message.id)
                outcome, reason = judge_note(value, message) if key == "note" else judge(proposal, message, current)
                verdict = Verdict(proposal, outcome, reason)
                if outcome == "stored":
                    changes = F.assert_fact(self.db, user, key, value[:1000], self.now(), message.text, message.id,
                                            origin="model", origin_model=model, pin=False)
                    return Verdict(proposal, outcome, reason, tuple(changes))
                if outcome == "known":
                    return verdict
        return verdict

    def log(self, user: str, session: str, role: str, text: str, tokens: int | None = None,
            interrupted: bool = False) -> int:
        """Append a message without mining it (the assistant's replies, for example); cut to
        max_message_chars (a reply that long is marked interrupted: it was not kept whole)."""
        from . import messages as M
        text = clean(text)
        if len(text) > self.max_message_chars:
            text, interrupted = text[: self.max_message_chars], True
        with transaction(self.db):
            return M.log(self.db, user, session, role, text, self.now(), tokens, interrupted)

    def set_importance(self, user: str, fact_ids: Sequence[str], importance: float,
                       source: str | None = None) -> None:
        """How much these facts matter and where they came from, as a client said (dnhkng/GLaDOS's store_fact
        `importance`, 0-1, and `source`)."""
        if not 0.0 <= importance <= 1.0:
            raise ValueError(f"importance is a number from 0 to 1 (got {importance})")
        with transaction(self.db):
            self.db.executemany("UPDATE facts SET importance = ?, client_source = coalesce(?, client_source) "
                                "WHERE id = ? AND user = ?", [(importance, source, i, user) for i in fact_ids])

    def withdraw(self, user: str, message_id: int) -> bool:
        """Take back a message that was never answered (a proxy's request failed upstream; the client sends it
        again): it leaves the log, its index entries and vector; the facts read from it stay. False when it
        was not there."""
        with transaction(self.db):
            return self.db.execute("DELETE FROM messages WHERE id = ? AND user = ?", (message_id, user)).rowcount == 1

    def remember(self, user: str, key: str, value: str, source: str = "",
                 message_id: int | None = None) -> list[F.FactChange]:
        """Store one fact directly (a tool call: pass the message that prompted it)."""
        value = clean(value).strip()
        if not value:
            raise ValueError("a fact needs a non-empty value")
        if message_id is not None:
            row = self.db.execute("SELECT text FROM messages WHERE id = ? AND user = ?", (message_id, user)).fetchone()
            source = row["text"] if row else source
            message_id = message_id if row else None
        with transaction(self.db):
            return F.assert_fact(self.db, user, key, value[:1000], self.now(), source, message_id)

    def retract(self, user: str, key: str, value: str | None = None) -> list[F.FactChange]:
        with transaction(self.db):
            return F.retract(self.db, user, F.check_key(key), value, self.now())

    def would_forget(self, user: str, target: str) -> list[F.Fact]:
        """Every row `forget(user, target)` would delete (to confirm first); raises like forget."""
        return self._forget_targets(user, target.strip())

    def pin(self, user: str, target: str) -> list[F.Fact]:
        """Keep facts in the memory block whatever the cap, by the user's choice: by id prefix or key
        ("location"); the pin stays as the fact changes. Returns those newly pinned."""
        with transaction(self.db):
            return F.set_pin(self.db, self._current_targets(user, target), True)

    def unpin(self, user: str, target: str) -> list[F.Fact]:
        """Undo `pin`; allergies, diet and medical facts stay pinned (StaysPinned)."""
        with transaction(self.db):
            return F.set_pin(self.db, self._current_targets(user, target), False)

    def _current_targets(self, user: str, target: str) -> list[F.Fact]:
        target = target.strip()
        current = F.current(self.db, user)
        if F.is_known_key(target):
            rows = [f for f in current if f.key == target]
        else:
            if len(target) < 4:
                raise NotFound(f"{target!r} is neither a fact key (location, diet, ...) nor 4 or more characters "
                               "of a fact id; see 'glados memory list'")
            rows = [f for f in current if f.id.startswith(target.lower())]
            if len(rows) > 1:
                raise Ambiguous(f"{target!r} matches {len(rows)} facts; give more of the id")
        if not rows:
            raise NotFound(f"no current fact {target!r} for this user; see 'glados memory list'")
        return rows

    def forget(self, user: str, target: str) -> list[F.FactChange]:
        """Forget by fact id prefix, by key ("location"), or by "key=value"; gone everywhere."""
        from . import erase as E
        target = target.strip()
        with transaction(self.db):
            rows = self._forget_targets(user, target)
            done = E.erase_facts(self.db, user, rows)
        self._purge(user, done)
        return done

    def _forget_targets(self, user: str, target: str) -> list[F.Fact]:
        key, _, value = target.partition("=")
        if value and F.KEY_SHAPE.match(key.strip()):
            rows = F.find_for_forget(self.db, user, key.strip(), value.strip())
        elif F.is_known_key(target):
            rows = F.find_for_forget(self.db, user, target, None)
        else:
            hits = [f for f in F.history(self.db, user) if f.id.startswith(target.lower())] if len(target) >= 4 else []
            if len({(f.key, F.norm(f.value)) for f in hits}) > 1:
                raise Ambiguous(f"{target!r} matches {len(hits)} facts; give more of the id")
            rows = F.find_for_forget(self.db, user, hits[0].key, hits[0].value) if hits else []
        if not rows:
            rows = self._said_targets(user, target)
        if not rows:
            rows = self._notes_about(user, target)
        if not rows:
            raise NotFound(f"nothing to forget for {target!r}: give a key (location), what a note is about "
                           "('locker code') or 4 or more characters of a fact id; see 'glados memory list'")
        return rows

    def _said_targets(self, user: str, target: str) -> list[F.Fact]:
        """What a phrase names, as in "forget my allergy" (a model's tool call passes the user's words):
        "my allergy", "where I live", "my peanut allergy"."""
        from .grammar import targets
        return [f for t in targets(target) if t.key for f in F.find_for_forget(self.db, user, t.key, t.value)]

    def _notes_about(self, user: str, target: str) -> list[F.Fact]:
        from . import erase as E
        notes = E.about(self.db, user, target).notes
        if len(notes) > 1:
            listed = "; ".join(f"{n.id[:8]} {n.value!r}" for n in notes)
            raise Ambiguous(f"{target!r} matches {len(notes)} notes ({listed}); forget one by its id")
        return [f for n in notes for f in F.find_for_forget(self.db, user, "note", n.value)]

    def forget_change(self, user: str, key: str | None, value: str | None) -> list[F.FactChange]:
        """Forget what a mined forget change names (no error when nothing matches)."""
        from . import erase as E
        with transaction(self.db):
            done = E.erase_facts(self.db, user, F.find_for_forget(self.db, user, key, value))
        if done:
            self._purge(user, done)
        return done

    def clear(self, user: str) -> dict[str, int]:
        """Delete everything about one user: facts, history, messages, index entries, vectors, summaries."""
        from . import erase as E
        values = [(f.key, f.value) for f in F.history(self.db, user)] if self.on_erase else []
        sessions = tuple(r[0] for r in self.db.execute("SELECT DISTINCT session FROM messages WHERE user = ?",
                                                        (user,)) if r[0]) if self.on_erase else ()
        with transaction(self.db):
            counts = E.erase_user(self.db, user)
        self._purge(user, [F.FactChange("forgotten", k, v) for k, v in values], sessions, whole=True)
        return counts

    def _purge(self, user: str, done: list[F.FactChange], sessions: tuple[str, ...] = (), whole: bool = False) -> None:
        """After an erasure: no old copy left in the word indexes or the write-ahead log (purge_leftovers),
        the word counts kept between recalls and whom the user greets read again (what was erased no longer
        counts), and `on_erase` told what went."""
        purge_leftovers(self.db)
        self._word_counts = None
        self._greeted.pop(user, None)
        if self.on_erase is not None:
            from . import erase as E
            gone = [(c.key, c.value) for c in done if c.kind == "forgotten"]
            self.on_erase(E.erased(user, gone, sessions, whole))

    def add_summary(self, user: str, session: str, text: str) -> bool:
        with transaction(self.db):
            return S.add(self.db, user, session, clean(text), self.now())

    # -- reading -------------------------------------------------------------------------
    def facts(self, user: str, at: datetime | str | None = None, history: bool = False) -> list[F.Fact]:
        """Current facts; `at`: what was believed then; `history`: every row ever."""
        if history:
            return F.history(self.db, user)
        if at is not None:
            return F.believed_at(self.db, user, at if isinstance(at, str) else iso(at))
        return F.current(self.db, user)

    def load_context(self, user: str, max_facts: int = 10, max_summaries: int = 3,
                     max_tokens: int = 400) -> str:
        """The block for the system prompt; "" when nothing is known. Built again only when the user's
        facts or summaries changed (block_changes, whichever process wrote) or a fact in it expired."""
        now = self.clock()
        version = self.version(user)
        key = (user, max_facts, max_summaries, max_tokens, tuple(self.recall_settings.expire_days.items()))
        block = self._blocks.get(key)
        if block is None or not block.fresh(version, now):
            block = self._blocks[key] = self._build_context(user, max_facts, max_summaries, max_tokens, version, now)
        self.context_notice = block.notice
        return block.text

    def _build_context(self, user: str, max_facts: int, max_summaries: int, max_tokens: int,
                       version: int, now: datetime) -> "_Block":
        from . import context as ctx
        changes = self._changes_of(user, version)
        summaries = [(r["created_at"], r["text"], changes.of(r["text"])) for r in S.newest(self.db, user, max_summaries)]
        newest = max_facts      # the newest facts, and more only while expired ones leave too few
        while True:
            found = F.for_context(self.db, user, newest, ctx.IDENTITY)
            live = [(f, end) for f in found if (end := self._expires_at(f)) is None or now <= end]
            facts = [f for f, _ in live]
            if sum(not f.pinned for f in facts) >= max_facts or sum(not f.pinned for f in found) < newest:
                break
            newest *= 4
        text, dropped = ctx.render(facts, summaries, max_facts, max_summaries, max_tokens, self.max_value_chars,
                                   self.private(user))
        # One line for the user when their pins alone outgrow the block (None when all fit).
        notice = (f"{dropped} pinned fact(s) did not fit the memory block ({max_tokens} tokens); "
                  "unpin some or raise memory.context_tokens") if dropped else None
        until = min((end for _, end in live if end is not None), default=None)
        return _Block(version, now, until, text, notice)

    def private(self, user: str) -> tuple[str, ...]:
        """What the user's secret notes hold (their numbers; a password's next word): every reader that hands
        stored words to a model takes these out (the memory block does; so does the assistant's prompt)."""
        from .since import PASSWORD, is_secret, secrets
        version = self.version(user)          # read a few times a turn: again only after the facts changed
        held = self._private.get(user)
        if held is not None and held[0] == version:
            return held[1]
        out: list[str] = []
        for f in F.current(self.db, user, "note"):
            if is_secret(f.key, f.value):
                out += secrets(f.key, f.value)
                out += [m.group(1) for m in re.finditer(rf"{PASSWORD.pattern}\s+(?:is\s+)?(\S+)", f.value, re.I)]
        found = tuple(s.strip(".,!?;:'\"") for s in out if len(s.strip(".,!?;:'\"")) >= 3)
        self._private[user] = (version, found)
        return found

    def is_expired(self, fact: F.Fact) -> bool:
        """Past its kind's expiry (recall_settings.expire_days): out of recall and the block, kept in history."""
        end = self._expires_at(fact)
        return end is not None and self.clock() > end

    def _expires_at(self, fact: F.Fact) -> datetime | None:
        """When it leaves recall and the block; None for never (pinned, or a kind that never expires)."""
        from .kinds import key_kind
        from . import recall as R
        return None if fact.pinned else R.expires_at(key_kind(fact.key), fact.asserted_at,
                                                     self.recall_settings.expire_days)

    def recall(self, user: str, text: str, k: int = 5, session: str | None = None,
               recent_window: int = 0, candidates: int | None = None, at: datetime | None = None
               ) -> list[Recalled]:
        """Earlier messages and notes matching text by words and meaning, best first (memory.recall: gather, rank,
        choose).
        `at`: what would have been recalled then (later messages do not exist for it, and "two weeks
        ago" is read from then). Without the sentence model it matches words alone; `recall_notice`
        then says why."""
        from . import recall as R
        settings = self.recall_settings
        if candidates is not None and candidates != settings.candidates:
            settings = replace(settings, candidates=candidates)
        found = self.gather(user, text, session, recent_window, at, settings) if k > 0 else None
        if found is None:
            return []
        R.rank(found, settings)
        chosen = R.choose(self.db, found, k, settings)
        changes = self._changes_of(user) if chosen else None
        return [replace(r, since=changes.of(f"{r.text}\n{r.reply or ''}", _message_id(r))) if changes else r
                for r in chosen]

    def gather(self, user: str, text: str, session: str | None = None, recent_window: int = 0,
               at: datetime | None = None, settings: RecallSettings | None = None) -> "R.Gathered | None":
        """Recall's candidates for `text`, each with what was measured of it, before they are scored (see
        recall.gather): what recall ranks, for a bench that ranks them again under other weights."""
        from . import recall as R
        if self._word_counts is None:
            self._word_counts = R.WordCounts()
        mine = self._names(user)
        text = R.as_asked_by(text, mine, self._hers(user, mine))
        query = self._vector(text) if text.strip() else None
        now = iso(at) if at is not None else self.now()
        return R.gather(self.db, user, text, session, recent_window, settings or self.recall_settings, now,
                        self._index if query is not None else None, query, self._word_counts,
                        until=now if at is not None else None)

    def version(self, user: str) -> int:
        """A number that moves whenever the user's facts or summaries change, in any process: a reader that
        keeps what it built from them keys it by this."""
        row = self.db.execute("SELECT seq FROM block_changes WHERE user = ?", (user,)).fetchone()
        return row[0] if row else 0

    def changed_since(self, user: str, text: str, message_id: int | None = None) -> str:
        """What a stored text (message `message_id`, when it is one) states that is no longer believed, as the
        mark put beside it for a model: '(changed since 6 December 2026: location "Bristol", not "Bath")', or
        "" when nothing has changed. Every reader that hands stored words to a model marks them so (see since)."""
        from .since import describe
        return describe(self._changes_of(user).of(text, message_id))

    def _changes_of(self, user: str, version: int | None = None) -> Changes:
        """The user's values no longer believed (see since), read again only after their facts changed
        (block_changes, whichever process wrote; `version`: its seq, when the caller has read it)."""
        from .since import Changes
        if version is None:
            version = self.version(user)
        held = self._changes.get(user)
        if held is None or held[0] != version:
            held = self._changes[user] = (version, Changes(F.history(self.db, user)))
        return held[1]

    def _names(self, user: str) -> list[str]:
        """What the user is called: their name facts (and each one's first word), and the user id
        itself when it is a name (letters only, not a placeholder like "default")."""
        names = [v for (value,) in self.db.execute(
            "SELECT value FROM facts WHERE user = ? AND valid_to IS NULL AND key = 'name'", (user,))
            for v in (value, value.split()[0])]
        if user.isalpha() and user.casefold() not in GENERIC_USERS:
            names.append(user)
        return names

    GREETINGS_READ = 2000     # the user's newest messages (and hers) read for whom they greet

    def _hers(self, user: str, mine: list[str]) -> list[str]:
        """Her names for this user: `her_names`, and the names the user greets her by ("Hey Nate!": see
        recall.greeted), read again once the log has grown by a tenth since."""
        from .messages import newest_id
        newest = newest_id(self.db)
        held = self._greeted.get(user)
        if held is None or newest > held[0] * 1.1 + 100 or newest < held[0]:
            def said(role: str) -> list[str]:     # newest first by rowid (the user index would sort them all)
                return [r[0] for r in self.db.execute(
                    "SELECT text FROM messages WHERE +user = ? AND role = ? ORDER BY id DESC LIMIT ?",
                    (user, role, self.GREETINGS_READ))]
            from .recall import greeted
            held = self._greeted[user] = (newest, greeted(said("user"), said("assistant"), mine))
        return [*self.her_names, *held[1]]

    def prepare(self) -> str:
        """Load the sentence model now, so the first turn that recalls does not wait for it (another thread
        may call it while this one goes on: a recall meanwhile waits for the one load); returns the recall
        mode ("words+meaning" or "words")."""
        return self.recall_mode

    @property
    def recall_mode(self) -> Literal["words+meaning", "words"]:
        return "words+meaning" if self._load_model() is not None else "words"

    def index_pending(self, user: str, limit: int | None = None,
                      progress: Callable[[int, int], None] | None = None) -> int:
        """Give vectors to the user's messages that have none (newest first, at most `limit`), and
        read again those indexed before their further readings were made (sentences, an answer read
        after her question: see embed.encode_messages); the vector of a message just recalled with is
        reused when it is all there is to it. Returns how many."""
        model = self._load_model()
        if model is None or self.read_only:
            return 0
        import numpy as np

        from . import messages as M
        from .embed import answered, encode_messages
        total = self.pending(user) if progress else 0
        # Messages up to the watermark all have vectors, unless some were deleted since (a forget
        # redacts messages and drops their vectors): then everything is looked at again.
        rows = self.db.execute("SELECT rows FROM vector_counts WHERE user = ?", (user,)).fetchone()
        rows = rows[0] if rows else 0
        after = self._indexed.get(user, (0, 0))
        after = after[0] if rows >= after[1] else 0
        newest = M.newest_id(self.db)
        done = 0
        while limit is None or done < limit:
            batch = self._index.missing(self.db, user, INDEX_BATCH if limit is None else min(INDEX_BATCH, limit - done), after)
            if not batch:
                held = self.db.execute("SELECT rows FROM vector_counts WHERE user = ?", (user,)).fetchone()
                self._indexed[user] = (newest, held[0] if held else 0)
                break
            # one sentence, answering no question of hers: its vector is all there is to it
            single = {r["id"] for r in batch if len(pieces(r["text"])) == 1 and answered(r["asked"]) is None}
            # a vector from before its further readings were made stays when that is all there is
            kept = [r["id"] for r in batch if r["had"] and r["id"] in single]
            batch = [r for r in batch if not (r["had"] and r["id"] in single)]
            texts = [r["text"] for r in batch]
            # such a message just recalled with has its vector already
            known = [self._vectors.get(r["text"].strip()) if r["id"] in single else None for r in batch]
            todo = [i for i, v in enumerate(known) if v is None]
            fresh, fresh_parts = encode_messages(model, [texts[i] for i in todo], [batch[i]["asked"] for i in todo])
            vectors = np.zeros((len(texts), model.dim), np.float32)
            parts: list = [None] * len(texts)
            for i, v in enumerate(known):
                if v is not None:
                    vectors[i] = v
            for j, i in enumerate(todo):
                vectors[i], parts[i] = fresh[j], fresh_parts[j]
            with transaction(self.db):
                marks = ",".join("?" * len(kept))
                self.db.execute(f"UPDATE message_vectors SET parts = x'' WHERE message_id IN ({marks})", kept)
                older = [r["id"] for r in batch if r["had"]]
                self.db.execute(f"DELETE FROM message_vectors WHERE message_id IN ({','.join('?' * len(older))})", older)
                for again in (False, True):     # new messages folded into the others' lists, not ones read again
                    which = [i for i, r in enumerate(batch) if bool(r["had"]) == again]
                    if which:
                        self._index.add(self.db, user, [batch[i]["id"] for i in which], vectors[which],
                                        [parts[i] for i in which], fold=not again)
            done += len(kept) + len(batch)
            if progress:
                progress(done, max(total, done))
        self.fill_crowding(user)          # what a database from before crowding lacks, a bounded share per call
        return done

    def fill_crowding(self, user: str, everything: bool = False,
                      progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """Neighbour lists (crowding, see vectors) for vectors stored without one: about a quarter
        second's worth, or `everything`. Returns (done, still missing)."""
        if self._load_model() is None or self.read_only or not self._index.unfilled(self.db, user):
            return 0, 0
        with transaction(self.db):
            return self._index.fill_neighbours(self.db, user, everything, progress)

    def _load_model(self) -> "Embedder | None":
        with self._model_lock:        # `prepare` may be loading it in another thread: one load, then shared
            return self._load_model_once()

    def _load_model_once(self) -> "Embedder | None":
        if self._model is None and self._embedder_choice is not None:
            from .vectors import VectorIndex
            if self._embedder_choice == "auto":
                from .embed import EmbedderMissing, load
                try:
                    self._embedder_choice = load()
                except EmbedderMissing as exc:
                    self._embedder_choice, self.recall_notice = None, str(exc)
                    return None
            self._model = self._embedder_choice
            self._index = VectorIndex(self._model.name)
        return self._model

    def embed(self, text: str):
        """Compute (and keep, for the recall and indexing that follow) the text's vector; None
        without a model. Lets a caller pay for it early, while it waits for something else."""
        return self._vector(text) if text.strip() else None

    def pending(self, user: str) -> int:
        """How many of the user's messages have no vector yet, or one from before sentences were read
        (0 when recall by meaning is off).
        Plain SQL: the model is not loaded to answer."""
        if self._embedder_choice is None and self._model is None:
            return 0
        from .vectors import UNREAD
        return self.db.execute(f"SELECT count(*) FROM messages m WHERE m.user = ? AND m.role = 'user' AND {UNREAD}",
                               (user,)).fetchone()[0]

    def _vector(self, text: str):
        """The text's vector (cached for the few newest texts), or None without a model."""
        model = self._load_model()
        if model is None:
            return None
        key = text.strip()
        if key not in self._vectors:
            self._vectors[key] = model.encode([key])[0]
            while len(self._vectors) > 64:
                self._vectors.popitem(last=False)
        return self._vectors[key]

    def summaries(self, user: str) -> list[Summary]:
        """The user's session summaries, oldest first, each with what it states that has changed since."""
        from .records import Summary
        rows = S.all_for(self.db, user)
        changes = self._changes_of(user) if rows else None
        return [Summary(r["session"], r["text"], r["created_at"], changes.of(r["text"]) if changes else ())
                for r in rows]

    def sessions(self, user: str, newest_only: bool = False) -> list[Session]:
        """The user's sessions, oldest first (`newest_only`: the one they spoke in last, read cheaply)."""
        from . import messages as M
        from .records import Session
        return [Session(r["session"], r["started"], r["ended"], r["messages"])
                for r in M.sessions(self.db, user, newest_only)]

    def messages(self, user: str, session: str, limit: int = 1000) -> list[Message]:
        """The last `limit` messages of a session, oldest first."""
        from . import messages as M
        from .records import Message
        return [Message.of(r) for r in M.session_messages(self.db, user, session, limit)]

    # -- export / import -----------------------------------------------------------------
    # -- voiceprints (the speaker model lives in the assistant; the memory keeps the vectors) ---------
    def voiceprints(self) -> list[Voiceprint]:
        """Every enrolled voice in this file, by user."""
        from . import voiceprints as V
        return V.all_of(self.db)

    def voiceprint(self, user: str) -> Voiceprint | None:
        from . import voiceprints as V
        return V.one(self.db, user)

    def save_voiceprint(self, user: str, vector: "Sequence[float]", utterances: int, model: str) -> Voiceprint:
        """Store (or replace) `user`'s voice: the mean embedding of `utterances` utterances from `model`."""
        from . import voiceprints as V
        with transaction(self.db):
            return V.save(self.db, user, [float(x) for x in vector], utterances, model, self.now())

    def forget_voiceprint(self, user: str) -> bool:
        """Delete `user`'s voice (their memories stay); False when none was kept."""
        from . import voiceprints as V
        with transaction(self.db):
            gone = V.delete(self.db, user)
        purge_leftovers(self.db)
        return gone

    def export(self, user: str) -> dict:
        from . import voiceprints as V
        msgs = self.db.execute("SELECT id, session, role, text, tokens, created_at, interrupted, kind FROM messages "
                               "WHERE user = ? ORDER BY id", (user,)).fetchall()
        return {
            "format": EXPORT_FORMAT, "user": user, "exported_at": self.now(),
            "facts": [f.to_json() for f in F.history(self.db, user)],
            "messages": [dict(r) for r in msgs],
            "summaries": [{"session": r["session"], "text": r["text"], "created_at": r["created_at"]}
                          for r in S.all_for(self.db, user)],
            "voiceprint": _voiceprint_json(V.one(self.db, user)),
        }

    def import_(self, user: str, data: dict) -> dict[str, int]:
        """Add an export's rows to `user`, whoever it was made for. Idempotent: a message, fact or
        summary already there (same origin: text and times) is not added again. Facts keep their
        ids unless another row has them (an import into a second user), then get new ones. A voiceprint
        comes along only when `user` has none (a voice enrolled here is not replaced by an old one)."""
        from . import messages as M
        from . import voiceprints as V
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise BadImport(f"not a memory export (expected format {EXPORT_FORMAT!r})")
        counts = {"facts": 0, "messages": 0, "summaries": 0, "voiceprint": 0}
        try:
            with transaction(self.db):
                id_map: dict[int, int] = {}
                for m in data.get("messages", []):
                    text, session, created = clean(str(m["text"])), str(m["session"]), str(m["created_at"])
                    same = self.db.execute(
                        "SELECT id FROM messages WHERE user = ? AND session = ? AND role = ? AND created_at = ? "
                        "AND text = ?", (user, session, m["role"], created, text)).fetchone()
                    if same:
                        id_map[int(m["id"])] = same[0]
                        continue
                    id_map[int(m["id"])] = M.log(self.db, user, session, m["role"], text, created,
                                                 int(m.get("tokens") or 0) or None, bool(m.get("interrupted")),
                                                 _kind(m.get("kind")))
                    counts["messages"] += 1
                for f in data.get("facts", []):
                    counts["facts"] += self._import_fact(user, f, id_map)
                for s in data.get("summaries", []):
                    counts["summaries"] += S.add(self.db, user, str(s["session"]), clean(str(s["text"])),
                                                 str(s["created_at"]))
                voice = data.get("voiceprint")
                if voice and V.one(self.db, user) is None:
                    V.save(self.db, user, [float(x) for x in voice["vector"]], int(voice["utterances"]),
                           str(voice["model"]), self.now())
                    counts["voiceprint"] = 1
        except (KeyError, TypeError, ValueError, sqlite3.IntegrityError) as exc:
            raise BadImport(f"import file is malformed ({type(exc).__name__}: {exc}); nothing was imported") from exc
        return counts

    def _import_fact(self, user: str, f: dict, id_map: dict[int, int]) -> int:
        key, value = F.check_key(str(f["key"])), clean(str(f["value"]))
        if self.db.execute("SELECT 1 FROM facts WHERE user = ? AND key = ? AND value_norm = ? AND asserted_at = ? "
                           "AND valid_from = ?", (user, key, F.norm(value), f["asserted_at"], f["valid_from"])).fetchone():
            return 0     # this row was imported before
        taken = self.db.execute("SELECT 1 FROM facts WHERE id = ?", (str(f["id"]),)).fetchone()
        F.insert(self.db, user, key, value, clean(str(f.get("source") or "")),
                 id_map.get(f.get("source_message_id") or -1), asserted_at=f["asserted_at"],
                 valid_from=f["valid_from"], valid_to=f.get("valid_to"), ended_by=f.get("ended_by"),
                 confirmations=int(f.get("confirmations") or 1), fact_id=None if taken else str(f["id"]),
                 origin="model" if f.get("origin") == "model" else "user", origin_model=f.get("origin_model"),
                 user_pinned=bool(f.get("user_pinned")),
                 importance=float(f["importance"]) if f.get("importance") is not None else None,
                 client_source=str(f["client_source"]) if f.get("client_source") else None)
        return 1


def _message_id(r: Recalled) -> int | None:
    return int(r.id) if r.kind == "message" and r.id.isdigit() else None


def _voiceprint_json(print_: Voiceprint | None) -> dict | None:
    if print_ is None:
        return None
    return {"vector": list(print_.vector), "utterances": print_.utterances, "model": print_.model,
            "created_at": print_.created_at, "updated_at": print_.updated_at}


def _kind(value: object) -> str | None:
    """A message kind from an export (older exports have none: the default applies)."""
    from .kinds import KINDS
    return value if value in KINDS else None


def new_session_id() -> str:
    import uuid
    return uuid.uuid4().hex[:12]
