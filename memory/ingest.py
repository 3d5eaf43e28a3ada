"""Learning from what is said: a user's message logged and every fact it states applied, in one transaction
(`observe`), and what a model proposes, stored only when the user's words ground it (`consolidate`,
`remember_for_model`). Functions over the connection; the caller holds the clock and purges after an erasure."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from . import facts as F, messages as M
from .moments import new_session_id
from .store import transaction
from .text import clean

if TYPE_CHECKING:
    from .intent import Change, Parsed
    from .proposals import Proposal, Verdict


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


def observe(db: sqlite3.Connection, user: str, text: str, now: str, session: str | None = None,
            tool: bool = False) -> Observation:
    """Log one user utterance and apply every fact it states, in one transaction (see Memory.observe)."""
    from .parsing import from_third_person, parse      # the rules load on first use (see memory.__getattr__)
    from .kinds import kind_of
    if tool:
        parsed = replace(parse(from_third_person(text)).storing_only(), text=clean(text))
    else:
        parsed = parse(text)
    text = parsed.text
    with transaction(db):
        kind = kind_of(text, [c.key for c in parsed.changes if c.op in ("assert", "correct", "mention") and c.key])
        message_id = M.log(db, user, session or new_session_id(), "user", text, now, kind=kind)
        done: list[F.FactChange] = []
        for change in parsed.changes:
            done += apply(db, user, change, text, message_id, now, session)
        command = parsed.command
        if command is not None and command.kind == "remember" and command.pin:
            done += _pin_changes(db, user, done)
        elif command is not None and command.kind == "pin":
            done += _pin_said_before(db, user, session, message_id)
    return Observation(message_id, done, parsed)


def _pin_changes(db: sqlite3.Connection, user: str, changes: list[F.FactChange]) -> list[F.FactChange]:
    ids = {c.fact_id for c in changes if c.kind in ("added", "superseded", "reconfirmed") and c.fact_id}
    pinned = F.set_pin(db, [f for f in F.current(db, user) if f.id in ids], True)
    return [F.FactChange("pinned", f.key, f.value, fact_id=f.id) for f in pinned]


def _pin_said_before(db: sqlite3.Connection, user: str, session: str | None, message_id: int) -> list[F.FactChange]:
    """"pin that": the current facts of the user's newest earlier message in this session that has any."""
    current = [f for f in F.current(db, user) if f.source_message_id is not None]
    earlier = {r["id"] for r in M.session_messages(db, user, session, 50) if r["role"] == "user" and r["id"] < message_id} \
        if session else set()
    sources = sorted({f.source_message_id for f in current} & earlier)
    if not sources:
        return []
    chosen = [f for f in current if f.source_message_id == sources[-1]]
    F.set_pin(db, chosen, True)          # all of them pinned now, whether newly or already
    return [F.FactChange("pinned", f.key, f.value, fact_id=f.id) for f in chosen]


def apply(db: sqlite3.Connection, user: str, change: Change, source: str, message_id: int, now: str,
          session: str | None = None) -> list[F.FactChange]:
    """One change a message states, applied to the user's facts."""
    from . import erase as E
    if change.op == "assert" and change.key and change.value:
        return F.assert_fact(db, user, change.key, change.value, now, source, message_id)
    if change.op == "mention" and change.key and change.value:
        return F.mention(db, user, change.key, change.value, now, source, message_id)
    if change.op == "retract" and change.key:
        return F.retract(db, user, change.key, change.value, now)
    if change.op == "forget":
        rows = F.find_for_forget(db, user, change.key, change.value)
        if rows or change.key not in (None, "note") or not change.value:
            return E.erase_facts(db, user, rows, now)
        topic = E.about(db, user, change.value, spare=message_id)
        if len(topic.notes) > 1:      # "forget my code": the locker's or the door's? Ask.
            return [F.FactChange("ambiguous", n.key, n.value, fact_id=n.id) for n in topic.notes]
        return E.erase_topic(db, user, topic, now)
    if change.op == "correct" and change.value:
        return _correct(db, user, change, source, message_id, now, session)
    return []


def _correct(db: sqlite3.Connection, user: str, change: Change, source: str, message_id: int, now: str,
             session: str | None) -> list[F.FactChange]:
    """"no wait, I meant Bristol": the newest fact of this conversation that the value fits (memory.values:
    its key takes a name, and its value was one), or the one holding `old` ("Bristol, not Bath"), takes the
    new value; history keeps the old one. Nothing changes when nothing fits: the words stay a message."""
    from . import values as V
    if change.old is not None:
        held = [f for f in F.current(db, user, change.key) if F.matches(f, change.old)]
        wrong = held[-1] if held else None
    else:
        said = F.stated_in(db, user, M.earlier_user_ids(db, user, session, message_id))
        if change.key:
            wrong = next((f for f in said if f.key == change.key), None)
        else:
            wrong = V.target(said, change.value, V.uses_case(source))
    if wrong is None:
        return F.assert_fact(db, user, change.key, change.value, now, source, message_id) if change.key else []
    value = change.value if change.key else F.shape_like(wrong.key, change.value)
    if wrong.key in F.MULTI_VALUED:
        return F.retract(db, user, wrong.key, wrong.value, now) + \
            F.assert_fact(db, user, wrong.key, value, now, source, message_id)
    return F.assert_fact(db, user, wrong.key, value, now, source, message_id)


def consolidate(db: sqlite3.Connection, user: str, session: str, proposals: list[Proposal], model: str,
                now: str) -> list[Verdict]:
    """Store the proposals of a model that pass every grounding check (see memory.consolidate); each comes
    back with its verdict and reason. One transaction; nothing else is changed."""
    from .consolidate import judge
    from .proposals import Verdict
    from .records import Message
    messages = {r["id"]: Message.of(r) for r in M.session_messages(db, user, session, None)}
    verdicts = []
    with transaction(db):
        for proposal in proposals:
            message = messages.get(proposal.message_id)
            outcome, reason = judge(proposal, message, F.current(db, user))
            changes: list[F.FactChange] = []
            if outcome == "stored" and message is not None:
                changes = F.assert_fact(db, user, proposal.key, proposal.value, now, message.text,
                                        proposal.message_id, origin="model", origin_model=model)
            verdicts.append(Verdict(proposal, outcome, reason, tuple(changes)))
    return verdicts


def remember_for_model(db: sqlite3.Connection, user: str, session: str, key: str, value: str, model: str,
                       now: str, message_id: int | None = None) -> Verdict:
    """A fact a model wants stored through a tool (see Memory.remember_for_model)."""
    from .consolidate import judge, judge_note
    from .proposals import Proposal, Verdict
    from .records import Message
    key, value = (key or "note").strip().lower(), clean(value).strip()
    said = sorted((Message.of(r) for r in M.session_messages(db, user, session, None) if r["role"] == "user"),
                  key=lambda m: (m.id != message_id, -m.id))
    verdict = Verdict(Proposal(key, value, message_id or 0), "rejected", "the user said nothing in this session")
    with transaction(db):
        current = F.current(db, user)
        for message in said:
            proposal = Proposal(key, value, message.id)
            outcome, reason = judge_note(value, message) if key == "note" else judge(proposal, message, current)
            verdict = Verdict(proposal, outcome, reason)
            if outcome == "stored":
                changes = F.assert_fact(db, user, key, value[:1000], now, message.text, message.id,
                                        origin="model", origin_model=model, pin=False)
                return Verdict(proposal, outcome, reason, tuple(changes))
            if outcome == "known":
                return verdict
    return verdict
