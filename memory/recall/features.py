"""Each candidate's score from what was measured of it, and the gates: relevance (is it evidence at all),
expiry and decay by kind and age."""
from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from ..dates import Window, resolve
from ..settings import RecallSettings
from .candidates import Candidate, parse_time
from .query import SELF, TELLING, asks, terms

if TYPE_CHECKING:
    import numpy as np


UNINDEXED_MEANING = 0.5   # the cosine assumed for the best word match that has no vector
TELLS_WHEN = 0.15         # asked when (or which came first), with no day named: a message that dates what it tells
                          # ("I took the train to see them today") has its relevance x (1 + this)
TELLS_DAY = 0.5           # a message that tells of a day asked about ("I sowed carrots this morning") counts this
                          # much more than one only said then


def score(c: Candidate, query: "np.ndarray | None", named: Window | None,
           moment: datetime | None, settings: RecallSettings, about_user: bool = False,
           dated: bool = False) -> None:
    """Its relevance (meaning and words, less for an earlier question, less when a question about the
    user is matched by one sentence of a longer text that says nothing of them: "how many doctors did I
    visit?" and a pasted "Our doctors are available Monday to Friday"; more in the days asked about: said then, or
    saying it happened then; more, asked when with no day named, when it dates what it tells) and its score
    (relevance x decay)."""
    if query is None:
        base = c.words
    else:   # no vector yet (a reply, or a message not indexed yet): its words stand in for meaning
        base = (c.meaning if c.meaning is not None else UNINDEXED_MEANING * c.words) + settings.word_weight * c.words
    base *= settings.question_weight ** asks(c.text)     # an earlier question is a poor answer to a new one
    if about_user and c.focus_text is not None and not SELF.search(c.focus_text):
        base *= settings.other_weight    # a question about the user, answered by one sentence of a longer text
        #                                  that says nothing of them (a short message of theirs needs no "I")
    when = day_fit(c, named) if named else 0.0
    c.on_day = when > 0
    base += settings.date_weight * when       # said in the days the question names, or telling of them
    if dated and resolve(c.text, date.fromisoformat(c.created_at[:10])):
        base *= 1 + TELLS_WHEN     # asked when, and it says when ("...I took the train to see them today")
    c.relevance, c.score = base, base * decay(c, moment, settings.half_life_days)


def relevant(c: Candidate, settings: RecallSettings, meaning: bool = True) -> bool:
    """Evidence for the query: not a bare question of the user's ("where do I live?" answers nothing), and
    said in the days the question names, near it in meaning, or matching enough of its words (one common
    word of several is not enough). Recall
    by words alone (no sentence model) has nothing else to judge by: any shared word counts there."""
    if bare(c):
        return False
    if c.on_day:         # the question asks about the day it was said
        return True
    if not meaning or settings.min_words <= 0:
        return c.words > 0 or (c.cosine is not None and c.cosine >= settings.min_cosine)
    return c.words >= settings.min_words or (c.cosine is not None and c.cosine >= settings.min_cosine)


def day_fit(c: Candidate, named: Window) -> float:
    """How much it is of the days asked about (see Window.weight): said then, or telling of then ("I did
    the charity walk last Saturday", said on a Monday, tells of that Saturday). Telling counts TELLS_DAY
    more: of two things said on the day, the one that says it happened then is about it."""
    said = date.fromisoformat(c.created_at[:10])
    told = max((named.weight(r.day) for r in resolve(c.text, said)), default=0.0)
    return max(named.weight(said), told) + TELLS_DAY * told


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


def bare(c: Candidate) -> bool:
    """A message of the user's that only asks, in few words ("where do I live?"): evidence of nothing,
    however well it matches. A question that tells something on the way ("how do I keep my living
    room dust-free with a cat that sheds?": TELLING content words or more) is evidence of what it tells."""
    return c.kind == "message" and c.role == "user" and asks(c.text) >= 1 and len(terms(c.text)) < TELLING
