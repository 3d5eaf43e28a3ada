"""The order of what was chosen: restatements wait or go, two tellings of one thing in time order."""
from __future__ import annotations

from typing import Iterable

import re   # the standard module: reading memories must not load the rules' `regex`

from .candidates import Candidate
from .query import STOPWORDS, stems, terms

SAME_FRAME = 0.5          # answering sentences that both hold this share of the question's words (two or more)
                          # tell of one thing: "I've got 1250 followers on Instagram now" / "close to 1300 now"
ALIKE = 0.9               # two tellings of one thing are put in time order when the lower score is this share of the higher
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
Values = list[tuple[str, frozenset[str]]]     # each number an item says, with the words about it (values_of)


def first_in_time(a: Candidate, b: Candidate, past: bool, alike: float = ALIKE) -> bool:
    """Whether a comes before b as two tellings of the same thing, when they are from different
    conversations (one conversation is one telling) and score alike (the lower at least `alike` of the
    higher): the newer, or when the question asks about the past, the older."""
    if a.session == b.session or a.session is None or b.session is None \
            or min(a.score, b.score) < alike * max(a.score, b.score):
        return False
    return a.created_at < b.created_at if past else a.created_at > b.created_at


def in_time_order(chosen: list[Candidate], focus: dict, same: float, past: bool,
                   asked: Iterable[str] = ()) -> list[Candidate]:
    """Items that tell of the same thing (the parts of them that answer the question within `same` of
    each other, directly or through another; see meanings) in
    time order, in the places they hold: "I go to the gym twice a week" (March) and "I've started going
    four times a week" (May) -> May's first, as what is true now; asked about the past ("how often did
    I go before?"), March's. Other items keep their places. A number told again different (see changed)
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
                 if first_in_time(chosen[i], chosen[j], past) or first_in_time(chosen[j], chosen[i], past)}
    framing = max(2, SAME_FRAME * len(question))
    frame = {(i, j) for i, j in orderable if len(framed[i] & framed[j]) >= framing}
    partners = [sum(i in pair for pair in frame) for i in range(len(chosen))]
    for i, j in sorted(orderable):
        if ((i, j) in frame and partners[i] == partners[j] == 1) or closeness(chosen[i], chosen[j], focus) >= same:
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
    values = [values_of(c) for c in chosen]
    for i, j in pairs:
        a, b = chosen[i], chosen[j]
        if (i, j) in orderable or not changed(values[i], values[j]) \
                or not (len(framed[i] & framed[j]) >= framing or closeness(a, b, focus) >= same):
            continue
        for first, then in ((a, b), (b, a)):
            here, there = out.index(first), out.index(then)
            if here > there and first_in_time(first, then, past, alike=0.0):
                out[here], out[there] = then, first
    return out


def closeness(a: Candidate, b: Candidate, vectors: dict) -> float:
    """How nearly a restates b: their cosine, or without vectors the share of the smaller set of
    content words found in the larger (1.0 for a note and the message it came from)."""
    if a.message_id is not None and a.message_id == b.message_id:
        return 1.0
    va, vb = vectors.get(a.message_id), vectors.get(b.message_id)
    if va is not None and vb is not None:
        return float(va @ vb)
    ta, tb = a.stems(), b.stems()
    return len(ta & tb) / min(len(ta), len(tb)) if min(len(ta), len(tb)) >= 2 else 0.0


def numbers_of(c: Candidate) -> frozenset[str]:
    """The numbers it says, digits and words alike."""
    words = TOKEN.findall(c.text.casefold())
    return frozenset(n for n in map(as_number, words) if n)


def as_number(word: str) -> str | None:
    """A token as a number, digits and words alike ("five" -> "5", "8:30" as written); None for a word."""
    return NUMBER_WORDS.get(word, word) if NUMBER.fullmatch(word) else None


def values_of(c: Candidate) -> Values:
    """Each number its answering sentence says (its text when none did), with the content words within
    SLOT words of it (what it counts): "I lead a team of 4 engineers" -> ("4", {lead, team, engineer})."""
    words = TOKEN.findall((c.focus_text or c.text)[:2000].casefold())
    out = []
    for n, word in enumerate(words):
        value = as_number(word)
        if value:
            near = words[max(0, n - SLOT):n] + words[n + 1:n + 1 + SLOT]
            out.append((value, stems(w for w in near if len(w) > 1 and w not in STOPWORDS
                                     and w not in QUALIFIERS and not as_number(w))))
            if len(out) == MAX_VALUES:
                break
    return out


def changed(va: Values, vb: Values) -> bool:
    """A number told again different, of two items' values_of: a number of one and one of the other that
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
