"""What recall's parts pass between them: a candidate and what was measured of it (the leaf both candidates.py
and features.py read)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .query import stems, terms


@dataclass(frozen=True)
class Features:
    """What was measured of one candidate against one question: its relevance is a function of these and
    the weights alone (see relevance), so a fit can score the same candidates under other weights."""
    cosine: float | None      # its nearest reading's cosine with the question; None: no vector (yet)
    crowding: float           # how much it sounds like many of the user's messages (see vectors)
    words: float              # its BM25 as a share of a match of every question word, at most 1
    context: float            # the same share of her message it answers, when that matched (see by_context)
    asks: float               # the share of its sentences that ask (see query.asks)
    bare: bool                # a short question of the user's: evidence of nothing (see bare)
    off_subject: bool         # the question is about the world ("what is the capital of France?") or about a person
    #                           of the user's that it does not speak of ("my brother lives in Oslo", "I live in Paris")
    said_on: float            # how much it was said in the days the question names (0: none named)
    told_of: float            # how much it tells of those days ("I did the charity walk last Saturday")
    dates_it: bool            # asked when with no day named, and it says when what it tells happened

    @property
    def on_day(self) -> bool:
        """Said in the days the question names, or telling of them: evidence whatever its words."""
        return self.said_on > 0 or self.told_of > 0


@dataclass
class Candidate:
    kind: str
    id: str
    session: str | None
    role: str
    text: str
    created_at: str
    about: str                    # the decay kind
    words: float = 0.0            # BM25 as a share of a match of every query word (see full_match), at most 1
    context: float = 0.0          # the same of her message it answers, when that matched (see by_context)
    cosine: float | None = None   # its nearest reading's cosine with the query; None when there is no vector
    crowding: float = 0.0         # how much it sounds like many of the user's messages (see vectors)
    message_id: int | None = None
    relevance: float = 0.0        # how well it matches, before decay
    focus_text: str | None = None  # the sentence that gave its cosine, when one did
    features: "Features | None" = None   # what was measured of it (see features.measure)
    score: float = 0.0            # relevance x decay: the order
    _stems: frozenset[str] | None = None

    def stems(self) -> frozenset[str]:
        """Its content words, plural -s dropped (worked out once)."""
        if self._stems is None:
            self._stems = stems(terms(self.text))
        return self._stems


def parse_time(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
