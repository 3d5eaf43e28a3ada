"""What is measured of each candidate (Features), its relevance as a function of those and the weights, and the
gates: is it evidence at all, has it expired; decay by kind and age."""
from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta

from ..dates import Window, resolve
from ..settings import RecallSettings
from .items import Candidate, Features, parse_time
from .query import TELLING, asks, names_people, terms


def measure(c: Candidate, named: Window | None, subject: frozenset[str] | None, dated: bool) -> Features:
    """`subject`: the people of the user's the question speaks of (see query.people_asked); None for a question
    about the world, empty for one about the user."""
    said = date.fromisoformat(c.created_at[:10]) if named or dated else None
    told = resolve(c.text, said) if said else []
    asking = asks(c.text)
    return Features(
        cosine=c.cosine, crowding=c.crowding, words=c.words, context=c.context, asks=asking, bare=bare(c, asking),
        off_subject=subject is None or (bool(subject) and not names_people(c.text, subject)),
        said_on=named.weight(said) if named else 0.0,
        told_of=max((named.weight(r.day) for r in told), default=0.0) if named else 0.0,
        dates_it=dated and bool(told))


def matched(f: Features, settings: RecallSettings) -> float:
    """Its word match: its own, or her message's it answers (context_weight of that), whichever is more."""
    return max(f.words, settings.context_weight * f.context)


def relevance(f: Features, settings: RecallSettings, meaning: bool = True) -> float:
    """How well it answers: its cosine less crowding_weight x its crowding (0 with no vector yet), plus
    word_weight x its word match; x question_weight per asking sentence (an earlier question is a poor answer
    to a new one); + date_weight in the days asked about (said then, or telling of then); x (1 + tells_when),
    asked when with no day named, when it says when. Words alone (no sentence model): its word match.
    The weights are fitted on real conversations (bench/recall_fit.py); docs/recall.md has the fit."""
    words = matched(f, settings)
    if not meaning:
        base = words
    else:
        base = f.cosine - settings.crowding_weight * f.crowding if f.cosine is not None else 0.0
        base += settings.word_weight * words
    base *= settings.question_weight ** f.asks
    base += settings.date_weight * max(f.said_on, f.told_of)
    return base * (1 + settings.tells_when) if f.dates_it else base


def relevant(f: Features, settings: RecallSettings, meaning: bool = True) -> bool:
    """Evidence for the query: not a bare question of the user's ("where do I live?" answers nothing), and
    said in the days the question names, near it in meaning (off_subject_cosine nearer when it is not about
    the question's subject: "what is the capital of France?" and "I live in Paris"), or matching enough of its
    words (one common word of several is not enough). Recall by words alone (no sentence model) has nothing
    else to judge by: any shared word counts there."""
    if f.bare:
        return False
    if f.on_day:         # the question asks about the day it was said
        return True
    words = matched(f, settings)
    near = f.cosine is not None and f.cosine >= settings.min_cosine + settings.off_subject_cosine * f.off_subject
    if not meaning or settings.min_words <= 0:
        return words > 0 or near
    return words >= settings.min_words or near


def decay(c: Candidate, now: datetime | None, half_lives: dict[str, float | None]) -> float:
    half_life = half_lives.get(c.about, half_lives.get("other"))
    if now is None or not half_life:
        return 1.0
    age_days = max(0.0, (now - parse_time(c.created_at)).total_seconds() / 86400)
    return 0.5 ** (age_days / half_life)


NEVER_EXPIRE = ("health", "identity", "note")


def expires_at(kind: str, created_at: str, expire_days: dict[str, float | None]) -> datetime | None:
    """When an item of its kind leaves recall (a passing state after a day, by default); None for
    never (health, identity and notes, or a kind with no expiry)."""
    days = None if kind in NEVER_EXPIRE else expire_days.get(kind)
    return parse_time(created_at) + timedelta(days=days) if days else None


def expired(kind: str, created_at: str, now: datetime, expire_days: dict[str, float | None]) -> bool:
    """Past its kind's expiry (see expires_at)."""
    end = expires_at(kind, created_at, expire_days)
    return end is not None and now > end


def pinned_sources(db: sqlite3.Connection, user: str) -> set[int]:
    """The messages that current pinned facts came from: they never expire."""
    return {r[0] for r in db.execute("SELECT source_message_id FROM facts WHERE user = ? AND pinned = 1 "
                                     "AND valid_to IS NULL AND source_message_id IS NOT NULL", (user,))}


def bare(c: Candidate, asking: float) -> bool:
    """A message of the user's that only asks, in few words ("where do I live?"): evidence of nothing,
    however well it matches. A question that tells something on the way ("how do I keep my living
    room dust-free with a cat that sheds?": TELLING content words or more) is evidence of what it tells.
    `asking`: the share of its sentences that ask (query.asks)."""
    return c.kind == "message" and c.role == "user" and asking >= 1 and len(terms(c.text)) < TELLING
