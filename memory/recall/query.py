"""The words of a query or a message: its content words, whether it asks, who asks it and whom it is about."""
from __future__ import annotations

from typing import Iterable

import re   # the standard module: reading memories must not load the rules' `regex`

from ..text import SENTENCE_END, pieces

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
# people of the user's, by kind; a word for a kind ("my siblings") asks of any of its kind, and a few words
# are the same person ("mom", "mother")
KINDS = {"sibling": "brother sister sibling", "parent": "mother father parent", "child": "son daughter child",
         "partner": "wife husband partner spouse boyfriend girlfriend fiance", "friend": "friend", "cousin": "cousin",
         "grandparent": "grandmother grandfather grandparent", "colleague": "boss colleague", "aunt or uncle": "aunt uncle",
         "neighbour": "neighbour", "roommate": "roommate flatmate"}
SAME = {"mom": "mother", "mum": "mother", "mama": "mother", "dad": "father", "papa": "father", "kid": "child",
        "children": "child", "grandma": "grandmother", "grandpa": "grandfather", "neighbor": "neighbour",
        "coworker": "colleague", "fiancee": "fiance"}
KIN = {w: kind for kind, words in KINDS.items() for w in words.split()}
GENERIC = frozenset("sibling parent child partner spouse grandparent colleague".split())
THEIR_PEOPLE = re.compile(r"(?i)\b(?:my|our)\s+(?:\w+\s+)?(" + "|".join([*KIN, *SAME]) + r")s?\b")
# a question about the user, alone or with others ("where are we travelling this spring?")
ASKER = re.compile(r"(?i)\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b")
TELLING = 6               # content words from which a question also tells something (see bare)
# a name the user greets at the start of a message ("Hey Nate!", "Thanks, Jo"): whom they talk to
GREETED = re.compile(r"^\W*(?i:hey|hi|hello|hiya|yo|thanks|thank you|bye|goodbye|good morning|good night|cheers|wow|"
                     r"congrats|congratulations|sorry)[ ,]+([A-Z][^\W\d_]+)\b(?!['’])")
GREETED_AT_LEAST = 3      # greetings that make a name hers (one or two is somebody the user met)


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


def as_asked_by(text: str, names: list[str], hers: Iterable[str] = ()) -> str:
    """The user's own name in a question means the user: "When did Melanie run a race?" asked by
    Melanie -> "When did I run a race?" ("Melanie's" -> "my"); so does "the user" ("the user's" -> "my").
    Her name (`hers`: whom the user talks to) means her: "What did GLaDOS say about peanuts?" -> "What did
    you say about peanuts?" (the user's "thanks GLaDOS" does not match it). Other names stay."""
    # "the user" is how a model calling a tool names them: "where does the user live" is "where do I live"
    text = re.sub(r"(?i)\bthe user\b", "I", re.sub(r"(?i)\b(?:the )?user['’]s\b", "my", text))
    said = {n.strip(): ("my", "I") for n in names if len(n.strip()) > 1}
    said |= {n.strip(): ("your", "you") for n in hers if len(n.strip()) > 1 and n.strip() not in said}
    for name in sorted(said, key=len, reverse=True):
        own, who = said[name]
        text = re.sub(rf"(?i)\b{re.escape(name)}['’]s\b", own, text)
        text = re.sub(rf"(?i)\b{re.escape(name)}\b", who, text)
    return text


def greeted(own: Iterable[str], hers: Iterable[str], mine: Iterable[str] = ()) -> list[str]:
    """Whom the user talks to, by the names they greet at the start of their messages (`own`): "Hey Nate!" in
    Joanna's messages. A name counts from GREETED_AT_LEAST greetings, when it is not the user's (`mine`), not a
    stopword ("Hi There") or a word for one of their people ("Thanks Mum": see person), and her messages
    (`hers`) say it, in any case, in fewer than a quarter as many: "Hey Mark, I'll be late" dictated three
    times, with her "I'll send that to Mark", is somebody else, and "Thanks Again" is a word she uses."""
    counts: dict[str, int] = {}
    for text in own:
        found = GREETED.match(text)
        if found:
            counts[found[1]] = counts.get(found[1], 0) + 1
    skip = {n.casefold() for n in mine}
    names = [n for n, count in counts.items() if count >= GREETED_AT_LEAST and n.casefold() not in skip
             and n.casefold() not in STOPWORDS and person(n) is None]
    if not names:
        return []
    said = {n: re.compile(rf"(?i)\b{n}\b") for n in names}     # "again", "everyone": she says them too
    by_her = dict.fromkeys(names, 0)
    for text in hers:
        for n in names:
            by_her[n] += bool(said[n].search(text))
    return [n for n in names if 4 * by_her[n] < counts[n]]


def stems(words: Iterable[str]) -> frozenset[str]:
    """Content words with a plural -s dropped, compared as one: "followers" and "follower"."""
    return frozenset(w.rstrip("s") for w in words)


def fts_query(words: list[str], joiner: str = " OR ") -> str:
    """['park', 'car'] -> '"park" OR "car"': quoted words only, so no FTS syntax gets through."""
    return joiner.join(f'"{w}"' for w in words)


def people_asked(text: str) -> frozenset[str]:
    """The people of the user's a text speaks of ("my brother lives in Oslo" -> {"brother"}, "my mum" ->
    {"mother"})."""
    return frozenset(person(m) for m in THEIR_PEOPLE.findall(text[:2000]))


def names_people(text: str, asked: frozenset[str]) -> bool:
    """Whether a text speaks of any of those people: by a word for the same person, or of the same kind when
    the word asked names the kind ("my siblings": a brother, a sister)."""
    kinds = {KIN[w] for w in asked if w in GENERIC}
    return any((p := person(w)) in asked or KIN.get(p) in kinds for w in WORDS.findall(text[:4000].casefold()))


def person(word: str) -> str | None:
    """A word for a person of the user's, as one form ("Mums" -> "mother"); None for any other word."""
    word = word.casefold()
    for form in (word, word[:-1] if word.endswith("s") else word):
        form = SAME.get(form, form)
        if form in KIN:
            return form
    return None
