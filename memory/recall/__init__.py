"""The message log (append-only) and recall over earlier messages and notes: words (FTS5 BM25)
and, when a sentence model is installed, meaning (message vectors), with decay and diversity."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..dates import asked_about, asks_past, asks_when
from ..messages import END_OF_TIME, estimate_tokens, log, replies, session_messages, sessions
from ..records import Recalled
from ..settings import RecallSettings
from .candidates import Candidate, Seen, add_messages, meanings, parse_time, said_between, window_start
from .features import decay, expired, expires_at, measure, pinned_sources, relevance, relevant
from .order import REPEAT, closeness, first_in_time, in_time_order, numbers_of, tells_more
from .query import ASKER, STOPWORDS, as_asked_by, asks, fts_query, people_asked, terms
from .words import WordCounts, by_words

__all__ = ["Recalled", "RecallSettings", "WordCounts", "recall", "STOPWORDS", "as_asked_by", "asks", "estimate_tokens",
           "expires_at", "fts_query", "log", "session_messages", "sessions", "terms"]

if TYPE_CHECKING:
    import numpy as np

    from ..vectors import VectorIndex


def recall(db: sqlite3.Connection, user: str, text: str, k: int = 5, session: str | None = None,
           recent_window: int = 0, settings: RecallSettings = RecallSettings(), now: str | None = None,
           index: "VectorIndex | None" = None, query: "np.ndarray | None" = None,
           counted: WordCounts | None = None, until: str | None = None) -> list[Recalled]:
    """The k earlier messages and notes that best match `text`, best first.

    Words: FTS5 ranks the user's whole history by BM25 (porter stems), best `candidates` kept; at
    most MAX_SCORED messages are scored (see scored_words), and of a word in more than that (a common
    word: even the rarest of the query's), its newest NEWEST_SCORED.
    Meaning (when `index` and the query's vector are given): the nearest `candidates` messages by
    cosine less crowding_weight x crowding (how much a message sounds like many of the user's
    others; see vectors), and, when the question names days, the nearest of what was said in them.
    A message's cosine is its best sentence's when that is higher (see meanings). An item's
    relevance is its meaning + word_weight x its BM25 share (full_match); the user's next message
    after one of the best (her reply between) gets continuation_weight x its relevance when that is
    more (see continued). What decides "nothing relevant" is per item, not a score floor: a bare question
    of the user's never is; otherwise its word match reaches min_words, its cosine reaches min_cosine, or
    it continues a relevant match. They are
    ordered by relevance x decay (by kind and age; of two alike, the newer first). Only the user's
    own words are ranked (messages and notes); her reply to a recalled message comes with it as `reply`.
    An item within duplicate_cosine of one already chosen may restate it: it comes only after every
    other relevant item, one per chosen item, so a fact said four times never fills the list; one
    said again nearly word for word (REPEAT, the same numbers) not at all. One whose answering sentence
    tells a number the other's does not ("hoping to beat my personal best of 25:50") restates nothing.
    `counted`: word counts kept between recalls (see WordCounts); without it, counted afresh.
    Two tellings of the same thing in different conversations are in time order (see in_time_order).
    `until`: recall as of that time (an iso() stamp): later messages and notes do not exist for it, and
    what was still believed then counts as true. Never returned: another user's items, the current
    session's newest `recent_window` messages (already in the prompt), and messages whose facts have all
    been superseded or retracted."""
    if k <= 0:
        return []
    found = gather(db, user, text, session, recent_window, settings, now, index, query, counted, until)
    if found is None:
        return []
    rank(found, settings)
    return choose(db, found, k, settings)


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
    """The candidates for `text` (by words, by meaning, by the days it names, by her messages that match and
    by what follows the best matches), each measured (features.measure); None when there is nothing to
    look for. Which matches' next messages are looked at depends on the weights (the CONTINUED best)."""
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
    """The k best relevant candidates, restatements after everything else, tellings of one thing in time
    order, each with her reply."""
    past, vectors, focus = found.past, found.vectors, found.focus
    chosen: list[Candidate] = []
    later: dict[int, Candidate] = {}    # one restatement per chosen item, used only if room is left
    # best first; of two scoring alike (within 0.01), the newer first
    newest_first = sorted(found.candidates, key=lambda c: c.created_at, reverse=True)
    for c in sorted(newest_first, key=lambda c: -round(c.score, 2)):
        if len(chosen) == k:
            break
        if not relevant(c.features, settings, found.meaning):
            continue     # no word of the query and far from it in meaning: not relevant, however recent
        near = [(closeness(c, o, vectors), i) for i, o in enumerate(chosen)]
        closest, anchor = max(near, default=(0.0, -1))
        if closest >= settings.duplicate_cosine and first_in_time(c, chosen[anchor], past):
            chosen[anchor], c = c, chosen[anchor]    # told again later: the newer takes the place (see in_time_order)
        if closest >= REPEAT and numbers_of(c) == numbers_of(chosen[anchor]):
            continue     # said again in nearly the same words: one is enough
        if closest >= settings.duplicate_cosine and not tells_more(c, chosen[anchor]):
            later.setdefault(anchor, c)    # alike but perhaps not the same ("my sister/brother lives in Leeds")
        else:
            chosen.append(c)
    chosen = in_time_order(chosen, focus, settings.same_thing_cosine, past, found.words)
    chosen += sorted(later.values(), key=lambda c: -c.score)[:k - len(chosen)]
    answers = replies(db, found.user, [c.message_id for c in chosen if c.kind == "message" and c.message_id],
                      found.seen.until)
    return [Recalled(c.kind, c.id, c.session, c.role, c.text, c.created_at, round(c.score, 4),
                     answers[c.message_id][1] if c.kind == "message" and c.message_id in answers else None,
                     focus=c.focus_text or None)
            for c in chosen]
