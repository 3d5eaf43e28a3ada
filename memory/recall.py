"""The message log (append-only) and recall over earlier messages and notes: words (FTS5 BM25)
and, when a sentence model is installed, meaning (message vectors), with decay and diversity."""
from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Iterable

import re   # the standard module: reading memories must not load the rules' `regex`

from .dates import Window, asked_about, asks_past, asks_when, resolve
from .settings import RecallSettings
from .text import SENTENCE_END, pieces

if TYPE_CHECKING:
    import numpy as np

    from .since import Since
    from .vectors import VectorIndex

STOPWORDS = set("""a an the and or but if then so to of in on at by for with about from as is are
was were be been am i me my mine you your we our it its this that these those what which who whom
do does did have has had not no yes can could would should will shall may might must just
really very please tell know remember say said there here when where why how all any some
im ive dont didnt cant wont isnt m s t d ll re ve forgotten""".split())
MAX_TERMS = 12
WORDS = re.compile(r"[^\W_]+")   # runs of letters and digits, in any script
ASKING = r"\W*(?:what|when|where|which|who|whose|why|how|is|are|do|does|did|can|could|will|would|should|have|has)\b"
QUESTION = re.compile(rf"(?i)^{ASKING}|.*\?\W*$")
# no match: no sentence of it asks (a question mark, or a question word where pieces() starts a sentence)
MAY_ASK = re.compile(rf"(?i)\?|(?:^|{SENTENCE_END.pattern}){ASKING}")
CONTEXT_HITS = 10         # her best-matching messages whose answers are looked up (see _by_context)
CONTINUED = 10            # the best matches whose next message is looked at (see _continued)
DATED = 2000              # messages of the days a question names that are compared by meaning, newest first
EXACT_BELOW = 10_000      # messages: below this, full_match counts them exactly
MAX_SCORED = 500          # messages BM25 scores per recall at most (see scored_words)
NEWEST_SCORED = 150       # messages scored when even the rarest query word is in more than MAX_SCORED: its newest
UNINDEXED_MEANING = 0.5   # the cosine assumed for the best word match that has no vector
SAME_FRAME = 0.5          # answering sentences that both hold this share of the question's words (two or more)
                          # tell of one thing: "I've got 1250 followers on Instagram now" / "close to 1300 now"
TELLS_WHEN = 0.15         # asked when (or which came first), with no day named: a message that dates what it tells
                          # ("I took the train to see them today") has its relevance x (1 + this)
TELLS_DAY = 0.5           # a message that tells of a day asked about ("I sowed carrots this morning") counts this
                          # much more than one only said then
ALIKE = 0.9               # two tellings of one thing are put in time order when the lower score is this share of the higher
SELF = re.compile(r"(?i)\b(?:i|me|my|mine|myself)\b")   # the user speaking of themselves (see _score)
TELLING = 6               # content words from which a question also tells something (see _bare)
REPEAT = 0.9              # this close, with the same numbers, an item is the same thing said again
# numbers, in digits or words, as one: "twice a week" and "four times a week" are not the same thing said
# again; "five engineers" and "5 engineers" say the same number
NUMBER_WORDS = {"once": "1", "single": "1", "one": "1", "twice": "2", "two": "2", "thrice": "3", "three": "3",
                "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
                "eleven": "11", "twelve": "12", "dozen": "12", "twenty": "20", "thirty": "30", "forty": "40",
                "fifty": "50", "hundred": "100", "thousand": "1000", "half": "0.5"}
NUMBER = re.compile(r"\d+(?:[.:,]\d+)*|" + "|".join(NUMBER_WORDS))
TOKEN = re.compile(r"[^\W_]+(?:[.:,]\d+)*")     # a word, or a number as written: "8:30", "2,000", "4.5"
SLOT = 3                  # words either side of a number that say what it counts ("a team of 4 engineers")
MAX_VALUES = 20           # numbers of one item compared with another's (a pasted table is not, number by number)
# words that qualify a number rather than say what it counts: "around 28 miles per gallon", "over 30"
QUALIFIERS = frozenset("per around over under than more less almost nearly only least most exactly".split())


@dataclass(frozen=True)
class Recalled:
    """An earlier message or note that matches a query; higher score is better."""
    kind: str          # "message" | "note"
    id: str
    session: str | None
    role: str
    text: str
    created_at: str
    score: float
    reply: str | None = None   # her answer to it (the exchange's other half), as context, never ranked alone
    since: tuple["Since", ...] = ()   # values it (or her reply) states that are no longer believed (see since)
    focus: str | None = None   # the sentence of it that answers the query best, when one did (see _meanings)

    def excerpt(self, max_chars: int) -> str:
        """Its text on one line, at most max_chars: the start, and when the sentence that answers the query
        lies beyond that, the sentence after an ellipsis ("That's a great list! I think I'll go with the
        hike … I now lead a team of five engineers"), so a value said in passing reaches whoever reads it."""
        text = " ".join(self.text.split())
        if len(text) <= max_chars:
            return text
        focus = " ".join(self.focus.split()) if self.focus else ""
        at = text.find(focus)
        if not focus or (0 <= at and at + len(focus) <= max_chars):
            return text[:max_chars]
        focus = focus[:max_chars * 2 // 3]
        return f"{text[:max_chars - len(focus) - 3].rstrip()} … {focus}"


def estimate_tokens(text: str) -> int:
    """An upper estimate for any language: about four characters a token for ASCII text (the usual BPE rule
    of thumb), a token for each kana, kanji or hangul character and each emoji, one per two characters of
    other scripts (accented Latin, Cyrillic, Greek, ...), rounded up."""
    if text.isascii():
        return (len(text) + 3) // 4 + 1
    wide = len(_WIDE.findall(text))
    other = sum(1 for c in text if not c.isascii()) - wide
    return (len(text) - wide - other + 3) // 4 + wide + (other + 1) // 2 + 1


# kana, CJK ideographs, hangul, and the emoji and symbol planes: about a token each (or more) in BPE vocabularies
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff\U0001F000-\U0001FAFF]")


def log(db: sqlite3.Connection, user: str, session: str, role: str, text: str, now: str,
        tokens: int | None = None, interrupted: bool = False, kind: str | None = None) -> int:
    """Append one message; its token count is stored so trimming never re-counts history."""
    kind = kind or ("reply" if role == "assistant" else "other")
    cur = db.execute(
        "INSERT INTO messages (user, session, role, text, tokens, created_at, interrupted, kind) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (user, session, role, text, estimate_tokens(text) if tokens is None else tokens, now, int(interrupted), kind))
    return int(cur.lastrowid)


def terms(text: str) -> list[str]:
    """Content words of a query, lowercased, without stopwords, at most MAX_TERMS."""
    out: list[str] = []
    for word in WORDS.findall(text[:2000].casefold()):
        if word not in STOPWORDS and len(word) > 1 and word not in out:
            out.append(word)
    return out[:MAX_TERMS]


def asks(text: str) -> float:
    """The share of its sentences that ask: 1 for a question ("How was the trip? Did you see the
    falls?"), which answers nothing; 0.5 for "I love sci-fi movies! What about you?"."""
    if not MAY_ASK.search(text, 0, 4000):
        return 0.0
    found = pieces(text)
    return sum(1 for piece in found if QUESTION.match(piece)) / max(1, len(found))


def as_asked_by(text: str, names: list[str]) -> str:
    """The user's own name in a question means the user: "When did Melanie run a race?" asked by
    Melanie -> "When did I run a race?" ("Melanie's" -> "my"); so does "the user" ("the user's" -> "my").
    Other names stay."""
    # "the user" is how a model calling a tool names them: "where does the user live" is "where do I live"
    text = re.sub(r"(?i)\bthe user\b", "I", re.sub(r"(?i)\b(?:the )?user['’]s\b", "my", text))
    for name in sorted({n.strip() for n in names if len(n.strip()) > 1}, key=len, reverse=True):
        text = re.sub(rf"(?i)\b{re.escape(name)}['’]s\b", "my", text)
        text = re.sub(rf"(?i)\b{re.escape(name)}\b", "I", text)
    return text


def stems(words: Iterable[str]) -> frozenset[str]:
    """Content words with a plural -s dropped, compared as one: "followers" and "follower"."""
    return frozenset(w.rstrip("s") for w in words)


def fts_query(words: list[str], joiner: str = " OR ") -> str:
    """['park', 'car'] -> '"park" OR "car"': quoted words only, so no FTS syntax gets through."""
    return joiner.join(f'"{w}"' for w in words)


END_OF_TIME = "9999"    # compares after every iso() stamp


@dataclass(frozen=True)
class _Seen:
    """Which of the user's messages recall may look at: not the current session's newest (from id
    `cutoff` on: already in the prompt), none said after `until`."""
    session: str | None
    cutoff: int
    until: str = END_OF_TIME

    @property
    def params(self) -> tuple:
        """For "NOT (m.session IS ? AND m.id >= ?) AND {_STILL_TRUE}"."""
        return self.session, self.cutoff, self.until, self.until, self.until


@dataclass
class _Candidate:
    kind: str
    id: str
    session: str | None
    role: str
    text: str
    created_at: str
    about: str                    # the decay kind
    words: float = 0.0            # BM25 as a share of a match of every query word (see full_match), at most 1
    meaning: float | None = None  # cosine with the query less crowding; None when there is no vector
    cosine: float | None = None   # the plain cosine
    message_id: int | None = None
    relevance: float = 0.0        # how well it matches, before decay
    continues: bool = False       # its relevance is that of the match it carries on from (see _continued)
    focus_text: str | None = None  # the sentence that gave its cosine, when one did
    on_day: bool = False          # said in the days the question names ("what did I do on 14 March 2023?")
    score: float = 0.0            # relevance x decay: the order
    _stems: frozenset[str] | None = None

    def stems(self) -> frozenset[str]:
        """Its content words, plural -s dropped (worked out once)."""
        if self._stems is None:
            self._stems = stems(terms(self.text))
        return self._stems


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
    A message's cosine is its best sentence's when that is higher (see _meanings). An item's
    relevance is its meaning + word_weight x its BM25 share (full_match); the user's next message
    after one of the best (her reply between) gets continuation_weight x its relevance when that is
    more (see _continued). What decides "nothing relevant" is per item, not a score floor: a bare question
    of the user's never is; otherwise its word match reaches min_words, its cosine reaches min_cosine, or
    it continues a relevant match. They are
    ordered by relevance x decay (by kind and age; of two alike, the newer first). Only the user's
    own words are ranked (messages and notes); her reply to a recalled message comes with it as `reply`.
    An item within duplicate_cosine of one already chosen may restate it: it comes only after every
    other relevant item, one per chosen item, so a fact said four times never fills the list; one
    said again nearly word for word (REPEAT, the same numbers) not at all. One whose answering sentence
    tells a number the other's does not ("hoping to beat my personal best of 25:50") restates nothing.
    `counted`: word counts kept between recalls (see WordCounts); without it, counted afresh.
    Two tellings of the same thing in different conversations are in time order (see _in_time_order).
    `until`: recall as of that time (an iso() stamp): later messages and notes do not exist for it, and
    what was still believed then counts as true. Never returned: another user's items, the current
    session's newest `recent_window` messages (already in the prompt), and messages whose facts have all
    been superseded or retracted."""
    words = terms(text)
    if k <= 0 or not (words or query is not None):
        return []
    cutoff = _window_start(db, user, session, recent_window)
    seen = _Seen(session, cutoff, until or END_OF_TIME)
    found: dict[str, _Candidate] = {}
    meaning = index is not None and query is not None
    if meaning:     # the vector scan runs beside the words' ranking (at 100,000 messages, 1 ms each)
        scan = index.search_aside(db, user, query, settings.candidates, settings.crowding_weight)
    if words:
        _by_words(db, user, words, seen, settings.candidates, found, settings.context_weight, counted)
    moment = _parse_time(now) if now else None
    about_user = bool(SELF.search(text))
    past = asks_past(text)        # "what was my previous personal best?": the older of two tellings first
    # "what did I do on 12 July 2022?", "two weeks ago" (read against when it is asked)
    named = asked_about(text, moment.date() if moment else None) if settings.date_weight else None
    # "when did I...?" with no day named: the telling that dates it answers (off with the date weight)
    dated = bool(settings.date_weight) and not named and asks_when(text)
    vectors: dict = {}
    focus: dict = {}        # message id -> the reading of it nearest the query (see _meanings)
    if meaning:
        near = dict(scan.result())
        if named:
            near.update(dict.fromkeys(_said_between(db, user, index, query, named, settings.candidates, seen)))
        _add_messages(db, user, [m for m in near if str(m) not in found], seen, found)
        _meanings(db, user, index, query, list(found.values()), settings, vectors, focus)
    for c in found.values():
        _score(c, query, named, moment, settings, about_user, dated)
    if settings.continuation_weight:     # the user's next message after a match may carry on its subject
        pairs, added = _continued(db, user, found, seen)
        if added and meaning:
            _meanings(db, user, index, query, added, settings, vectors, focus)
        for c in added:
            _score(c, query, named, moment, settings, about_user, dated)
        for source, answer in pairs:
            passed = settings.continuation_weight * source.relevance
            passed *= settings.question_weight ** asks(answer.text)
            if _relevant(source, settings, meaning) and passed > answer.relevance:
                answer.relevance, answer.continues = passed, True
                answer.score = passed * _decay(answer, moment, settings.half_life_days)
    if moment is not None and any(settings.expire_days.values()):
        kept = pinned_sources(db, user)
        found = {i: c for i, c in found.items()
                 if c.message_id in kept or not expired(c.about, c.created_at, moment, settings.expire_days)}
    chosen: list[_Candidate] = []
    later: dict[int, _Candidate] = {}    # one restatement per chosen item, used only if room is left
    # best first; of two scoring alike (within 0.01), the newer first
    newest_first = sorted(found.values(), key=lambda c: c.created_at, reverse=True)
    for c in sorted(newest_first, key=lambda c: -round(c.score, 2)):
        if len(chosen) == k:
            break
        if _bare(c) or not (c.continues or _relevant(c, settings, meaning)):
            continue     # no word of the query and far from it in meaning: not relevant, however recent
        near = [(_closeness(c, o, vectors), i) for i, o in enumerate(chosen)]
        closest, anchor = max(near, default=(0.0, -1))
        if closest >= settings.duplicate_cosine and _first_in_time(c, chosen[anchor], past):
            chosen[anchor], c = c, chosen[anchor]    # told again later: the newer takes the place (see _in_time_order)
        if closest >= REPEAT and _numbers(c) == _numbers(chosen[anchor]):
            continue     # said again in nearly the same words: one is enough
        if closest >= settings.duplicate_cosine and not _tells_more(c, chosen[anchor]):
            later.setdefault(anchor, c)    # alike but perhaps not the same ("my sister/brother lives in Leeds")
        else:
            chosen.append(c)
    chosen = _in_time_order(chosen, focus, settings.same_thing_cosine, past, words)
    chosen += sorted(later.values(), key=lambda c: -c.score)[:k - len(chosen)]
    answers = replies(db, user, [c.message_id for c in chosen if c.kind == "message" and c.message_id], seen.until)
    return [Recalled(c.kind, c.id, c.session, c.role, c.text, c.created_at, round(c.score, 4),
                     answers[c.message_id][1] if c.kind == "message" and c.message_id in answers else None,
                     focus=c.focus_text or None)
            for c in chosen]


def _relevant(c: _Candidate, settings: RecallSettings, meaning: bool = True) -> bool:
    """Evidence for the query: not a bare question of the user's ("where do I live?" answers nothing), and
    said in the days the question names, near it in meaning, or matching enough of its words (one common
    word of several is not enough). Recall
    by words alone (no sentence model) has nothing else to judge by: any shared word counts there."""
    if _bare(c):
        return False
    if c.on_day:         # the question asks about the day it was said
        return True
    if not meaning or settings.min_words <= 0:
        return c.words > 0 or (c.cosine is not None and c.cosine >= settings.min_cosine)
    return c.words >= settings.min_words or (c.cosine is not None and c.cosine >= settings.min_cosine)


def _bare(c: _Candidate) -> bool:
    """A message of the user's that only asks, in few words ("where do I live?"): evidence of nothing,
    however well it matches. A question that tells something on the way ("how do I keep my living
    room dust-free with a cat that sheds?": TELLING content words or more) is evidence of what it tells."""
    return c.kind == "message" and c.role == "user" and asks(c.text) >= 1 and len(terms(c.text)) < TELLING


def _meanings(db: sqlite3.Connection, user: str, index: "VectorIndex", query: "np.ndarray",
              candidates: list[_Candidate], settings: RecallSettings, vectors: dict, focus: dict) -> None:
    """Each candidate's cosine with the query: its message's, or its best sentence's when that is
    higher (a question one sentence of a long message answers); its meaning is that less crowding.
    The vectors read are added to `vectors`, and the one that gave the cosine (message or sentence) to `focus`."""
    import numpy as np     # noqa: F811 - only with the model: words-only recall never loads numpy
    ids = [c.message_id for c in candidates if c.message_id]
    found, crowding = index.vectors(db, user, ids)
    if not found:
        return
    vectors.update(found)
    cosines = dict(zip(found, (np.stack(list(found.values())) @ query).tolist()))
    focus.update(found)
    readings: dict = {}
    parts_of: dict = {}
    for m, best in index.best_parts(db, list(found), query, readings).items():
        if best > cosines[m]:
            cosines[m], focus[m] = best, readings[m][1]
            parts_of[m] = readings[m][0]
    for c in candidates:
        if c.message_id in cosines:
            c.cosine = cosines[c.message_id]
            if c.message_id in parts_of:
                said = pieces(c.text)
                c.focus_text = said[parts_of[c.message_id]] if parts_of[c.message_id] < len(said) else said[0]
            c.meaning = c.cosine - settings.crowding_weight * crowding[c.message_id]


def _score(c: _Candidate, query: "np.ndarray | None", named: Window | None,
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
    when = _when(c, named) if named else 0.0
    c.on_day = when > 0
    base += settings.date_weight * when       # said in the days the question names, or telling of them
    if dated and resolve(c.text, date.fromisoformat(c.created_at[:10])):
        base *= 1 + TELLS_WHEN     # asked when, and it says when ("...I took the train to see them today")
    c.relevance, c.score = base, base * _decay(c, moment, settings.half_life_days)


def _continued(db: sqlite3.Connection, user: str, found: dict[str, _Candidate], seen: _Seen
               ) -> tuple[list[tuple[_Candidate, _Candidate]], list[_Candidate]]:
    """The user's next message after each of the CONTINUED best matches, her reply between: "I
    finished my first screenplay" - "what's it about?" - "a mix of drama and romance". Returns
    (match, next message) pairs and the next messages that were not candidates yet (now added)."""
    best = sorted((c for c in found.values() if c.kind == "message" and c.message_id), key=lambda c: -c.relevance)
    hers = {m: r["id"] for m, r in following(db, user, [c.message_id for c in best[:CONTINUED]], "assistant",
                                             seen.until).items()}
    answers = following(db, user, hers.values(), "user", seen.until)
    nexts = {m: answers[h]["id"] for m, h in hers.items() if h in answers}
    before = set(found)
    _add_messages(db, user, [n for n in nexts.values() if str(n) not in found], seen, found)
    pairs = [(found[str(m)], found[str(n)]) for m, n in nexts.items() if str(n) in found]
    return pairs, [c for i, c in found.items() if i not in before]


def replies(db: sqlite3.Connection, user: str, ids: Iterable[int], until: str = END_OF_TIME
            ) -> dict[int, tuple[int, str]]:
    """Her reply to each message, as (id, text): the next message of its session, when it is hers."""
    return {i: (r["id"], r["text"]) for i, r in following(db, user, ids, "assistant", until).items()}


def following(db: sqlite3.Connection, user: str, ids: Iterable[int], role: str, until: str = END_OF_TIME
              ) -> dict[int, sqlite3.Row]:
    """The next message of each one's session, when it has `role` (and was said by `until`)."""
    ids = list(ids)
    if not ids:
        return {}
    # one statement: each given id by its key (+user: not a scan of the user's index, 10 ms for three
    # at 100,000 messages), then the next of its session by messages_user_session
    rows = db.execute(
        f"""SELECT m.id AS after, n.* FROM messages m JOIN messages n ON n.id = (SELECT min(p.id) FROM messages p
            WHERE p.user = m.user AND p.session = m.session AND p.id > m.id)
            WHERE m.id IN ({','.join('?' * len(ids))}) AND +m.user = ?""", (*ids, user)).fetchall()
    return {r["after"]: r for r in rows if r["role"] == role and r["created_at"] <= until}


# Said by then, and not a message whose facts had all been superseded or retracted by then (three
# parameters, each the time: see _Seen.params)
_STILL_TRUE = """m.created_at <= ? AND NOT (
    EXISTS (SELECT 1 FROM facts f WHERE f.source_message_id = m.id AND f.valid_to <= ?)
    AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.source_message_id = m.id AND (f.valid_to IS NULL OR f.valid_to > ?)))"""


class WordCounts:
    """How many messages hold each word (FTS5), for BM25's budget and idf. Counting a common word
    costs 0.1-0.2 ms at 100,000 messages, so a count is kept until the log has grown by RECOUNT of
    its size since (1%: idf moves by less than that). Memory starts afresh after its own erasures; another
    process's leave it high until then (full_match takes it as N at most; _by_words reads fewer newest
    matches than it says). Holds words and numbers only, never text."""
    RECOUNT = 0.01
    SIZE = 4096

    def __init__(self) -> None:
        self._counts: dict[str, tuple[int, int]] = {}    # word -> (messages holding it, newest id then)

    def __call__(self, db: sqlite3.Connection, words: list[str], newest: int) -> dict[str, int]:
        if len(self._counts) > self.SIZE:
            self._counts.clear()
        for w in words:
            count, then = self._counts.get(w, (0, -1))
            if then < 0 or newest - then > newest * self.RECOUNT or newest < then:
                self._counts[w] = (_count(db, w), newest)
        return {w: self._counts[w][0] for w in words}


def _count(db: sqlite3.Connection, word: str) -> int:
    return db.execute("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?", (fts_query([word]),)).fetchone()[0]


def scored_words(db: sqlite3.Connection, words: list[str], budget: int = MAX_SCORED, newest: int = 0,
                 counted: WordCounts | None = None) -> tuple[list[str], int, dict[str, int]]:
    """The query words BM25 ranks by: rarest first, while the messages holding them stay within
    `budget` (always at least the rarest); and how many messages hold them, at most (counted afresh,
    or by `counted` as of the newest message id `newest`). Common words add little to BM25 and cost
    the most; what they would have found is left to the meaning side."""
    counts = counted(db, words, newest) if counted else {w: _count(db, w) for w in words}
    kept, total = [], 0
    for w in sorted(words, key=counts.__getitem__):
        if kept and total + counts[w] > budget:
            break
        kept.append(w)
        total += counts[w]
    return kept, total, counts


def newest_id(db: sqlite3.Connection) -> int:
    return db.execute("SELECT coalesce(max(id), 0) FROM messages").fetchone()[0]


def full_match(db: sqlite3.Connection, words: list[str], counts: dict[str, int], newest: int) -> float:
    """What BM25 gives a message of average length holding each query word once: the sum of the
    words' idf (FTS5's formula). A match's share of it says how much of the question it covers,
    whatever the question: one common word shared is a weak match even when it is the best one."""
    # FTS5's N is its row count: every message. Counting costs about 1 ms at 100,000; past EXACT_BELOW
    # the newest id stands in (deleted messages make it a little high: idf moves by as little)
    n = newest
    if n < EXACT_BELOW:
        n = db.execute("SELECT count(*) FROM messages").fetchone()[0]
    held = {w: min(counts[w], n) for w in words}    # a count kept from before another process's deletion
    return sum(max(1e-6, math.log((n - held[w] + 0.5) / (held[w] + 0.5))) for w in words) or 1.0


def _by_words(db: sqlite3.Connection, user: str, words: list[str], seen: _Seen, limit: int,
              found: dict[str, _Candidate], context_weight: float = 0.0, counted: WordCounts | None = None) -> None:
    newest = newest_id(db)
    kept, matches, counts = scored_words(db, words, MAX_SCORED, newest, counted)
    full = full_match(db, words, counts, newest)
    query = fts_query(kept)
    oldest = 0
    if matches > MAX_SCORED:   # even the rarest word is in more messages than that: its newest NEWEST_SCORED
        row = db.execute("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC "
                         "LIMIT 1 OFFSET ?", (query, NEWEST_SCORED - 1)).fetchone()
        oldest = row[0] if row else 0    # fewer now than counted (a deletion since): all of them
    # BM25 over the index alone first (a join per match costs as much again), then the user's rows;
    # in the rare case other users' messages fill the first cut, the whole join runs.
    sql = """SELECT m.id, m.session, m.role, m.text, m.created_at, m.kind, f.bm25
              FROM (SELECT rowid, bm25(messages_fts) AS bm25 FROM messages_fts
                    WHERE messages_fts MATCH ? AND rowid >= ? ORDER BY bm25 LIMIT ?) f
              JOIN messages m ON m.id = f.rowid
              WHERE +m.user = ? AND m.role IN ({roles}) AND NOT (m.session IS ? AND m.id >= ?) AND {still}
              ORDER BY f.bm25 LIMIT ?"""
    # her messages too when they lead to the user's answers (see _by_context): one BM25 pass for both
    sql = sql.format(roles="'user', 'assistant'" if context_weight > 0 else "'user'", still=_STILL_TRUE)
    take = limit * 2 if context_weight > 0 else limit
    cut = take * 4
    rows = db.execute(sql, (query, oldest, cut, user, *seen.params, take)).fetchall()
    if len(rows) < take and (NEWEST_SCORED if oldest else matches) > cut:
        rows = db.execute(sql, (query, oldest, -1, user, *seen.params, take)).fetchall()
    for r in [r for r in rows if r["role"] == "user"][:limit]:
        found[str(r["id"])] = _Candidate("message", str(r["id"]), r["session"], r["role"], r["text"],
                                         r["created_at"], r["kind"], min(1.0, -r["bm25"] / full),
                                         message_id=r["id"])
    hers = {r["id"]: min(1.0, -r["bm25"] / full) * context_weight
            for r in [r for r in rows if r["role"] == "assistant"][:CONTEXT_HITS]}
    if hers:
        _by_context(db, user, hers, seen, found)
    notes = db.execute(
        """SELECT f.id, f.value, f.asserted_at, f.source_message_id, bm25(facts_fts) AS bm25
           FROM facts_fts JOIN facts f ON f.seq = facts_fts.rowid
           WHERE facts_fts MATCH ? AND f.user = ? AND f.key = 'note' AND f.asserted_at <= ?
           AND (f.valid_to IS NULL OR f.valid_to > ?)
           ORDER BY bm25 LIMIT ?""", (query, user, seen.until, seen.until, limit)).fetchall()
    for r in notes:
        found[r["id"]] = _Candidate("note", r["id"], None, "user", r["value"], r["asserted_at"], "note",
                                    min(1.0, -r["bm25"] / full), message_id=r["source_message_id"])


def _said_between(db: sqlite3.Connection, user: str, index: "VectorIndex", query: "np.ndarray",
                  days: Window, limit: int, seen: _Seen) -> list[int]:
    """The user's messages from the days a question names, nearest in meaning first (at most
    `limit`; the newest DATED of those days are looked at)."""
    import numpy as np     # noqa: F811
    end = min((days.end + timedelta(days=1)).isoformat(), seen.until)
    ids = [r[0] for r in db.execute(
        "SELECT id FROM messages WHERE user = ? AND role = 'user' AND created_at >= ? AND created_at <= ? "
        "ORDER BY id DESC LIMIT ?", (user, days.start.isoformat(), end, DATED))]
    found, _ = index.vectors(db, user, ids)
    if not found:
        return []
    held = list(found)
    cosines = np.stack(list(found.values())) @ query
    return [held[i] for i in np.argsort(-cosines)[:limit]]


def _by_context(db: sqlite3.Connection, user: str, hers: dict[int, float], seen: _Seen,
                found: dict[str, _Candidate]) -> None:
    """Her messages that match the words (id -> their weighted match) lead to the user's answer to
    each, the next message: "which film did I want to watch on Friday?" -> her "which film do you
    want to watch on Friday?" -> the user's "the one with the submarine"."""
    answers = following(db, user, hers, "user", seen.until)
    _add_messages(db, user, [a["id"] for a in answers.values() if str(a["id"]) not in found], seen, found)
    for asked, answer in answers.items():
        c = found.get(str(answer["id"]))
        if c is not None:
            c.words = max(c.words, hers[asked])


def _add_messages(db: sqlite3.Connection, user: str, ids: list[int], seen: _Seen,
                  found: dict[str, _Candidate]) -> None:
    """Messages found by meaning alone (no word in common with the query)."""
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    rows = db.execute(
        f"""SELECT m.id, m.session, m.role, m.text, m.created_at, m.kind FROM messages m
            WHERE m.id IN ({marks}) AND +m.user = ? AND m.role = 'user' AND NOT (m.session IS ? AND m.id >= ?)
            AND {_STILL_TRUE}""",
        (*ids, user, *seen.params)).fetchall()
    for r in rows:
        found[str(r["id"])] = _Candidate("message", str(r["id"]), r["session"], r["role"], r["text"],
                                         r["created_at"], r["kind"], 0.0, message_id=r["id"])


NEVER_EXPIRE = ("health", "identity", "note")


def expires_at(kind: str, created_at: str, expire_days: dict[str, float | None]) -> datetime | None:
    """When an item of its kind leaves recall (a passing state after a day, by default); None for
    never (health, identity and notes, or a kind with no expiry)."""
    days = None if kind in NEVER_EXPIRE else expire_days.get(kind)
    return _parse_time(created_at) + timedelta(days=days) if days else None


def expired(kind: str, created_at: str, now: datetime, expire_days: dict[str, float | None]) -> bool:
    """Past its kind's expiry (see expires_at)."""
    end = expires_at(kind, created_at, expire_days)
    return end is not None and now > end


def pinned_sources(db: sqlite3.Connection, user: str) -> set[int]:
    """The messages that current pinned facts came from: they never expire."""
    return {r[0] for r in db.execute("SELECT source_message_id FROM facts WHERE user = ? AND pinned = 1 "
                                     "AND valid_to IS NULL AND source_message_id IS NOT NULL", (user,))}


def _decay(c: _Candidate, now: datetime | None, half_lives: dict[str, float | None]) -> float:
    half_life = half_lives.get(c.about, half_lives.get("other"))
    if now is None or not half_life:
        return 1.0
    age_days = max(0.0, (now - _parse_time(c.created_at)).total_seconds() / 86400)
    return 0.5 ** (age_days / half_life)


def _first_in_time(a: _Candidate, b: _Candidate, past: bool, alike: float = ALIKE) -> bool:
    """Whether a comes before b as two tellings of the same thing, when they are from different
    conversations (one conversation is one telling) and score alike (the lower at least `alike` of the
    higher): the newer, or when the question asks about the past, the older."""
    if a.session == b.session or a.session is None or b.session is None \
            or min(a.score, b.score) < alike * max(a.score, b.score):
        return False
    return a.created_at < b.created_at if past else a.created_at > b.created_at


def _in_time_order(chosen: list[_Candidate], focus: dict, same: float, past: bool,
                   asked: Iterable[str] = ()) -> list[_Candidate]:
    """Items that tell of the same thing (the parts of them that answer the question within `same` of
    each other, directly or through another; see _meanings) in
    time order, in the places they hold: "I go to the gym twice a week" (March) and "I've started going
    four times a week" (May) -> May's first, as what is true now; asked about the past ("how often did
    I go before?"), March's. Other items keep their places. A number told again different (see _changed)
    orders the two that tell it however far apart they score."""
    group = list(range(len(chosen)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i
    # Of the pairs that may be put in time order (from two conversations, scoring alike), those whose
    # answering sentences hold most of the question's words: an old value and a new one. An item in three or
    # more such pairs is one of several events of a kind ("what engineering projects have I worked on?"),
    # not an update: it is left where it is.
    question = stems(asked)
    framed = [question & (stems(terms(c.focus_text)) if c.focus_text else c.stems()) for c in chosen]
    pairs = [(i, j) for i in range(len(chosen)) for j in range(i + 1, len(chosen))]
    orderable = {(i, j) for i, j in pairs
                 if _first_in_time(chosen[i], chosen[j], past) or _first_in_time(chosen[j], chosen[i], past)}
    framing = max(2, SAME_FRAME * len(question))
    frame = {(i, j) for i, j in orderable if len(framed[i] & framed[j]) >= framing}
    partners = [sum(i in pair for pair in frame) for i in range(len(chosen))]
    for i, j in sorted(orderable):
        if ((i, j) in frame and partners[i] == partners[j] == 1) or _closeness(chosen[i], chosen[j], focus) >= same:
            group[root(j)] = root(i)
    out = list(chosen)
    members: dict[int, list[int]] = {}
    for i in range(len(chosen)):
        members.setdefault(root(i), []).append(i)
    for places in members.values():
        told = sorted((chosen[i] for i in places), key=lambda c: c.created_at, reverse=not past)
        for place, c in zip(places, told):
            out[place] = c
    # A number told again different, of the same thing ("a team of 4 engineers" / "I now lead a team of five
    # engineers"), is an update however far apart the two score: the two alone change places if out of order.
    values = [_values(c) for c in chosen]
    for i, j in pairs:
        a, b = chosen[i], chosen[j]
        if (i, j) in orderable or not _changed(values[i], values[j]) \
                or not (len(framed[i] & framed[j]) >= framing or _closeness(a, b, focus) >= same):
            continue
        for first, then in ((a, b), (b, a)):
            here, there = out.index(first), out.index(then)
            if here > there and _first_in_time(first, then, past, alike=0.0):
                out[here], out[there] = then, first
    return out


def _when(c: _Candidate, named: Window) -> float:
    """How much it is of the days asked about (see Window.weight): said then, or telling of then ("I did
    the charity walk last Saturday", said on a Monday, tells of that Saturday). Telling counts TELLS_DAY
    more: of two things said on the day, the one that says it happened then is about it."""
    said = date.fromisoformat(c.created_at[:10])
    told = max((named.weight(r.day) for r in resolve(c.text, said)), default=0.0)
    return max(named.weight(said), told) + TELLS_DAY * told


def _closeness(a: _Candidate, b: _Candidate, vectors: dict) -> float:
    """How nearly a restates b: their cosine, or without vectors the share of the smaller set of
    content words found in the larger (1.0 for a note and the message it came from)."""
    if a.message_id is not None and a.message_id == b.message_id:
        return 1.0
    va, vb = vectors.get(a.message_id), vectors.get(b.message_id)
    if va is not None and vb is not None:
        return float(va @ vb)
    ta, tb = a.stems(), b.stems()
    return len(ta & tb) / min(len(ta), len(tb)) if min(len(ta), len(tb)) >= 2 else 0.0


Values = list[tuple[str, frozenset[str]]]     # each number an item says, with the words about it (_values)


def _numbers(c: _Candidate, focused: bool = False) -> frozenset[str]:
    """The numbers it says (of the sentence that answers the question, when `focused` and one does)."""
    words = TOKEN.findall(((focused and c.focus_text) or c.text).casefold())
    return frozenset(n for n in map(_as_number, words) if n)


def _tells_more(c: _Candidate, other: _Candidate) -> bool:
    """Its answering sentence says a number the other's does not ("hoping to beat my personal best of
    25:50" beside "I'm getting ready for the 5K"): not a restatement of it."""
    return bool(_numbers(c, focused=True) - _numbers(other, focused=True))


def _as_number(word: str) -> str | None:
    """A token as a number, digits and words alike ("five" -> "5", "8:30" as written); None for a word."""
    return NUMBER_WORDS.get(word, word) if NUMBER.fullmatch(word) else None


def _values(c: _Candidate) -> Values:
    """Each number its answering sentence says (its text when none did), with the content words within
    SLOT words of it (what it counts): "I lead a team of 4 engineers" -> ("4", {lead, team, engineer})."""
    words = TOKEN.findall((c.focus_text or c.text)[:2000].casefold())
    out = []
    for n, word in enumerate(words):
        value = _as_number(word)
        if value:
            near = words[max(0, n - SLOT):n] + words[n + 1:n + 1 + SLOT]
            out.append((value, stems(w for w in near if len(w) > 1 and w not in STOPWORDS
                                     and w not in QUALIFIERS and not _as_number(w))))
            if len(out) == MAX_VALUES:
                break
    return out


def _changed(va: Values, vb: Values) -> bool:
    """A number told again different, of two items' _values: a number of one and one of the other that
    are each other's nearest counterpart (the most words about them in common, one or more) and differ.
    "I lead a team of 4 engineers" / "I now lead a team of five engineers", "waking up around 8:30 am on
    Saturdays" / "wake up at 7:30 am on Saturdays"; not "a 30-minute walk, and up 15 minutes earlier" /
    "my 30-minute walk" (15's nearest is 30, but 30's is the other 30)."""
    shared = [[len(around & about) for _, about in vb] for _, around in va]
    for i, (x, _) in enumerate(va):
        for j, (y, _) in enumerate(vb):
            n = shared[i][j]
            if not n or x == y or n < max(shared[i]) or n < max(row[j] for row in shared):
                continue      # not each other's nearest
            if all(vb[m][0] != x for m, count in enumerate(shared[i]) if count == n) \
                    and all(va[m][0] != y for m, row in enumerate(shared) if row[j] == n):
                return True   # and neither is said again as near in the other
    return False


def _parse_time(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _window_start(db: sqlite3.Connection, user: str, session: str | None, window: int) -> int:
    """The id of the oldest message in the current session's recent window (or beyond every id)."""
    if session is None or window <= 0:
        return 2**62
    row = db.execute("SELECT id FROM messages WHERE user = ? AND session = ? ORDER BY id DESC "
                     "LIMIT 1 OFFSET ?", (user, session, window - 1)).fetchone()
    if row is None:
        return 0   # the whole session fits in the window
    return int(row[0])


def session_messages(db: sqlite3.Connection, user: str, session: str, limit: int = 1000) -> list[sqlite3.Row]:
    rows = db.execute("SELECT * FROM messages WHERE user = ? AND session = ? ORDER BY id DESC LIMIT ?",
                      (user, session, limit)).fetchall()
    return rows[::-1]


def sessions(db: sqlite3.Connection, user: str) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT session, MIN(created_at) AS started, MAX(created_at) AS ended, COUNT(*) AS messages "
        "FROM messages WHERE user = ? GROUP BY session ORDER BY MIN(id)", (user,)).fetchall()
