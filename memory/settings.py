"""How recall ranks: its settings alone, so a Memory can be made without loading recall itself."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RecallSettings:
    """How recall ranks (the `recall:` block of config.yaml)."""
    candidates: int = 30           # per list: best by words (BM25, whole history) and nearest by meaning
    word_weight: float = 0.8       # a match of every query word adds this to the cosine (a paraphrase has none)
    min_cosine: float = 0.3        # an item is recalled this near in meaning, or when it matches words enough:
    min_words: float = 0.4         # its BM25 share of a match of every query word (0: any shared word) reaches this
    same_thing_cosine: float = 0.7  # items whose answering sentences are this close tell of one thing (_in_time_order)
    question_weight: float = 0.7    # an earlier question matches a new one well but answers nothing
    context_weight: float = 0.4     # her message's word match, passed on to the user's answer to it
    date_weight: float = 0.8        # added for an item said in the days a question names (see dates.asked_about)
    crowding_weight: float = 0.5    # a message that sounds like many others loses this x its crowding (see vectors)
    # Weights of the score that config.yaml does not name (see recall.features.relevance)
    tells_when: float = 0.4        # asked when with no day named: what says when it happened, x (1 + this)
    off_subject_cosine: float = 1.0   # how much nearer than min_cosine an item not about the question's subject must be
    # Days for an item's weight to halve, by kind; None: never fades.
    half_life_days: dict[str, float | None] = field(default_factory=lambda: {
        "health": None, "identity": None, "note": None, "likes": 90.0, "project": 90.0, "state": 7.0,
        "other": None, "reply": None})
    # Days after which an item of a kind leaves recall and the memory block (history and export keep it);
    # None: never. Health, identity, notes and anything pinned never expire.
    expire_days: dict[str, float | None] = field(default_factory=lambda: {"state": 1.0})
