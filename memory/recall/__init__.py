"""Recall over the user's earlier messages and notes, in steps you can see:

- gather: candidates by words (FTS5's BM25 over the whole history, see words), by meaning (the nearest message
  vectors, see candidates), by the days a question names, and by her messages that match (the user's answer
  to each); each measured (features.Features: cosine, crowding, word match, asking, who it is about, date fit).
- rank: one score, a function of those features and the weights (features.relevance), times decay by kind and
  age. The weights are fitted on real conversations by cross-validation (bench/recall_fit.py, docs/recall.md).
- choose: the relevance cut (features.relevant), nearly verbatim restatements dropped, tellings of one thing
  in time order (order), her reply beside each.

The message log itself (writing, sessions) is memory.messages; the records handed out are in memory.records.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..dates import asked_about, asks_past, asks_when
from ..messages import END_OF_TIME, estimate_tokens, log, replies, session_messages, sessions
from ..records import Recalled
from ..settings import RecallSettings
from .candidates import Candidate, Seen, add_messages, meanings, said_between, window_start
from .items import parse_time
from .features import decay, expired, expires_at, measure, pinned_sources, relevance, relevant
from .order import REPEAT, closeness, first_in_time, in_time_order, numbers_of
from .query import ASKER, STOPWORDS, as_asked_by, asks, fts_query, greeted, people_asked, terms
from .words import WordCounts, by_words

__all__ = ["Recalled", "RecallSettings", "WordCounts", "Gathered", "gather", "rank", "choose", "STOPWORDS", "as_asked_by", "asks", "estimate_tokens", "greeted",
           "expires_at", "fts_query", "log", "session_messages", "sessions", "terms"]

if TYPE_CHECKING:
    import numpy as np

    from ..vectors import VectorIndex


@dataclass
class Gathered:
    """One question's candidates with what was measured of each, before any weight is applied but the
    gathering's own (see gather): rank scores them, choose picks and orders."""
    user: str
    words: list[str]                    # the question's content words
    candidates: list[Candidate]         # each with its features; none expired
    meaning: bool                       # ranked by meaning as well as words
    moment: datetime | None             # when it is asked (decay reads ages from it)
    past: bool                          # it asks about the past: of two tellings, the older first
    vectors: dict                       # message id -> its vector, as read
    focus: dict                         # message id -> the reading of it nearest the question
    seen: Seen


def gather(db: sqlite3.Connection, user: str, text: str, session: str | None = None, recent_window: int = 0,
           settings: RecallSettings = RecallSettings(), now: str | None = None, index: "VectorIndex | None" = None,
           query: "np.ndarray | None" = None, counted: WordCounts | None = None, until: str | None = None
           ) -> Gathered | None:
    """The candidates for `text` (by words, by meaning, by the days it names, by her messages that match), each
    measured (features.measure); None when there is nothing to look for. Of the weights only these shape what
    is gathered: `candidates`, crowding_weight (the nearest by meaning), a context_weight or date_weight of 0
    (her messages, the days named: not looked at).

    Only the user's own words are candidates (messages and notes). `counted`: word counts kept between
    recalls (see WordCounts); without it, counted afresh. `until`: as of that time (an iso() stamp): later
    messages and notes do not exist for it, and what was still believed then counts as true. Never gathered:
    another user's items, the current session's newest `recent_window` messages (already in the prompt), and
    messages whose facts have all been superseded or retracted."""
    words = terms(text)
    if not (words or query is not None):
        return None
    cutoff = window_start(db, user, session, recent_window)
    seen = Seen(session, cutoff, until or END_OF_TIME)
    found: dict[str, Candidate] = {}
    meaning = index is not None and query is not None
    if meaning:     # the vector scan runs beside the words' ranking (at 100,000 messages, 1 ms each)
        scan = index.search_aside(db, user, query, settings.candidates, settings.crowding_weight)
    if words:
        by_words(db, user, words, seen, settings.candidates, found, settings.context_weight, counted)
    moment = parse_time(now) if now else None
    # whom it is about: people of the user's it names; else the user, unless it is a question that speaks of
    # neither them ("we", "our" too) nor anything they said (a search, "museum trip", or a statement is theirs)
    told = any(c.words > 0 or c.context > 0 for c in found.values())
    subject = people_asked(text) or (None if asks(text) > 0 and not told and not ASKER.search(text) else frozenset())
    # "what did I do on 12 July 2022?", "two weeks ago" (read against when it is asked)
    named = asked_about(text, moment.date() if moment else None) if settings.date_weight else None
    # "when did I...?" with no day named: the telling that dates it answers (off with the date weight)
    dated = bool(settings.date_weight) and not named and asks_when(text)
    vectors: dict = {}
    focus: dict = {}
    if meaning:
        near = dict(scan.result())
        if named:
            near.update(dict.fromkeys(said_between(db, user, index, query, named, settings.candidates, seen)))
        add_messages(db, user, [m for m in near if str(m) not in found], seen, found)
        meanings(db, user, index, query, list(found.values()), vectors, focus)
    for c in found.values():
        c.features = measure(c, named, subject, dated)
    if moment is not None and any(settings.expire_days.values()):
        kept = pinned_sources(db, user)
        found = {i: c for i, c in found.items()
                 if c.message_id in kept or not expired(c.about, c.created_at, moment, settings.expire_days)}
    return Gathered(user, words, list(found.values()), meaning, moment, asks_past(text), vectors, focus, seen)


def rank(found: Gathered, settings: RecallSettings) -> None:
    """Each candidate's relevance and score (relevance x decay) under `settings`' weights: a pure function of
    the features, so the same candidates can be ranked again under other weights (bench/recall_fit.py)."""
    for c in found.candidates:
        c.relevance = relevance(c.features, settings, found.meaning)
        c.score = c.relevance * decay(c, found.moment, settings.half_life_days)


def choose(db: sqlite3.Connection, found: Gathered, k: int, settings: RecallSettings) -> list[Recalled]:
    """The k best relevant candidates (of two scoring alike, within 0.01, the newer first), one of two said in
    nearly the same words (REPEAT, the same numbers; the newer when first_in_time says so), tellings of one thing in time order, each
    with her reply."""
    past, vectors, focus = found.past, found.vectors, found.focus
    chosen: list[Candidate] = []
    # best first; of two scoring alike (within 0.01), the newer first
    newest_first = sorted(found.candidates, key=lambda c: c.created_at, reverse=True)
    for c in sorted(newest_first, key=lambda c: -round(c.score, 2)):
        if len(chosen) == k:
            break
        if not relevant(c.features, settings, found.meaning):
            continue     # no word of the query and far from it in meaning: not relevant, however recent
        near = [(closeness(c, o, vectors), i) for i, o in enumerate(chosen)]
        closest, anchor = max(near, default=(0.0, -1))
        if closest >= REPEAT and numbers_of(c) == numbers_of(chosen[anchor]):
            if first_in_time(c, chosen[anchor], past):
                chosen[anchor] = c      # said again later in nearly the same words: the newer takes the place
            continue                    # one is enough
        chosen.append(c)
    chosen = in_time_order(chosen, focus, settings.same_thing_cosine, past, found.words)
    answers = replies(db, found.user, [c.message_id for c in chosen if c.kind == "message" and c.message_id],
                      found.seen.until)
    return [Recalled(c.kind, c.id, c.session, c.role, c.text, c.created_at, round(c.score, 4),
                     answers[c.message_id][1] if c.kind == "message" and c.message_id in answers else None,
                     focus=c.focus_text or None)
            for c in chosen]
