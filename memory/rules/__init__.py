"""The fact rules: one clause the user said about themself -> the `Change`s it states.

Facts are about the speaker, stated by the speaker, in the first person. So every pattern is
anchored at the start of a clause ("my brother lives in Oslo" never reaches "i live in"), and
questions, hypotheticals, hedges and reported speech are dropped before any pattern runs. The
rules live by subject (health, people, tastes, pets, languages, habits); this module runs them over a text.

The vocabulary (keys and their examples) is in tests/mining_corpus.py, one labelled line each.
"""
from __future__ import annotations

import regex as re

from ..dates import time_words
from ..intent import Change
from ..values import kinds, takes
from ..lexicon import (
    F, FAMILY, HYPOTHETICAL, IF_ANYWHERE, IVE, LAUGHTER, MAX_CHARS, NOW, PETS, QUESTION, SENTENCE_SPLIT, TIMEOUT_FROM_CHARS, TIMEOUT_S, clauses,
    match_start, search_in, strip_lead,
)
# Importing a rule module registers its rules; they are tried in this order.
from . import health, people, tastes, pets, languages, habits  # noqa: I001
from .health import PESCATARIAN_BUT
from .people import FIELDS, NOT_A_NAME_STATE, PARTNER
from .pets import singular
from .registry import RAW_RULES, RULES, Rule
from .tastes import FAV, OWN_CLAUSE_VERBS, fav_key

RULE_MODULES = (health, people, tastes, pets, languages, habits)

__all__ = ["FAV", "FIELDS", "HEDGE", "JOKE", "NOT_A_NAME_STATE", "PARTNER", "RAW_RULES", "RULES", "SARCASM",
           "fav_key", "last_animal", "mine_statements"]


# Rules that can match a clause starting with a given first word, found once per word with the
# regex module's partial matching: most clauses then try a handful of rules instead of ninety.
FIRST_WORD = re.compile(r"\S+\s?")
_CANDIDATES: dict[tuple[int, str], list[Rule]] = {}
MAX_CANDIDATE_KEYS = 20_000


def _candidates(rules: list[Rule], text: str) -> list[Rule]:
    first = FIRST_WORD.match(text)
    if not first or len(first.group(0)) > 40:
        return rules
    key = (id(rules), first.group(0))
    found = _CANDIDATES.get(key)
    if found is None:
        found = [r for r in rules if r[0].match(first.group(0), partial=True)]
        if len(_CANDIDATES) < MAX_CANDIDATE_KEYS:
            _CANDIDATES[key] = found
    return found


def _first(rules: list[Rule], text: str) -> list[Change]:
    """The changes of the first rule that matches and finds something. The hot loop of mining."""
    timeout = TIMEOUT_S if len(text) > TIMEOUT_FROM_CHARS else None
    folded = text.casefold()
    for pattern, handler, needs in _candidates(rules, text):
        if needs and not any(word in folded for word in needs):
            continue
        try:
            m = pattern.match(text, timeout=timeout)
        except TimeoutError:
            continue
        if m:
            changes = handler(m)
            if changes:
                return changes
    return []


# A hedge or a joke is not a fact: "i'm kind of allergic to mornings haha", "oh great, i just love mondays".
HEDGE = re.compile(r"(?<!\b(?:favou?rite|a|the|this|that|what|any|every|some|one|other|same|which|no|all|"
                   r"different|new|my|your|his|her|our|their)\s)\b(?:kind of|sort of)\b|\b(?:kinda|sorta)\b", F)
JOKE = re.compile(r"\b(?:jk|j/k|just kidding|just joking|kidding)\b|/s$|;\)|:p\b", F)
SARCASM = re.compile(r"^(?:oh|ah)[\s,]+(?:great|joy|wonderful|fantastic|brilliant|perfect|goody|sure|yay)\b|"
                     r"^(?:yeah|ya) right\b|^great,? just great\b|^(?:wow|gee),? thanks\b", F)


# Said with a duration ("for ten years", "since 2019"), the perfect is still true: "i've lived in bristol
# for ten years" lives there now. Without one it may be any time before ("i've lived in paris").
STILL_TRUE = [(re.compile(rf"^(?:{IVE}|we've) (?:(?:always|{NOW}) )*{past}\b", F), present) for past, present in (
    ("been in(?= (?-i:\\p{Lu}))", "i live in"), ("lived", "i live"), ("worked", "i work"), ("been", "i'm"), ("had", "i have"), ("owned", "i own"),
    ("taught", "i teach"), ("studied", "i study"), ("spoken", "i speak"), ("run", "i run"))]


def _still_true(body: str) -> str:
    for pattern, present in STILL_TRUE:
        if match_start(pattern, body):
            return pattern.sub(present, body, count=1)
    return body


def _mine_clause(clause: str, before: frozenset = frozenset()) -> list[Change]:
    """The changes one clause states; `before`: when a clause of time words alone just said ("since 2019,")."""
    body = strip_lead(clause)
    if match_start(QUESTION, body) or match_start(HYPOTHETICAL, body) or search_in(IF_ANYWHERE, body):
        return []
    if search_in(HEDGE, body):
        return []
    body = DISCOURSE_END.sub("", body)
    timed = time_words(body)          # the time words say when, never what (memory.dates)
    when = timed.when | before
    if "future" in when:              # "i'm moving to lisbon next year": a plan, not a fact yet
        return []
    body = strip_lead(timed.rest)
    if "ongoing" in when:
        body = _still_true(body)
    return _first(RAW_RULES, clause) or _first(RULES, body)


# Said after a statement, not part of it: "i'm vegan btw", "i live in leeds, by the way".
DISCOURSE_END = re.compile(r"(?:[,\s]+(?:btw|by the way|fyi|tbh|to be honest|honestly|just so you know|you know|"
                           r"as you do|i suppose))+[\s.!]*$", F)


def _fits(change: Change) -> bool:
    """Said laughing, a value must be of its key's kind: "i'm allergic to mornings lol" is a joke, "i'm a
    software engineer, lol" is not (memory.values; a key with no kinds, like a medical note, keeps it)."""
    wanted = takes(change.key or "")
    return change.op != "assert" or not wanted or bool(wanted & kinds(change.value or ""))


# "i love cats! i have one myself": a count with no noun takes the animal just mentioned.
FOLLOW_UP_PET = re.compile(r"^(?:and |actually |in fact )?(?:i (?:have|own|got)|i've got|ive got) (?P<c>one|two|three|four|five|"
                           r"a couple|a few|\d{1,2})(?: of (?:them|those|my own))?(?: myself| too| as well| at home| of my own)?"
                           r"\s*[.!]*$", F)


def _follow_up(sentence: str, mentioned: str | None) -> list[Change]:
    m = match_start(FOLLOW_UP_PET, strip_lead(sentence))
    if not m or not mentioned:
        return []
    kind = singular(mentioned)
    count = m["c"].lower()
    return [Change("assert", "pet", kind if count == "one" else f"{count} {kind}s" if not kind.endswith("s") else f"{count} {kind}")]


ANIMAL = re.compile(rf"\b(?P<a>{PETS})\b", F)


def last_animal(text: str) -> str | None:
    """The last animal named in text, for a follow-up like "i have one too"."""
    found = [m["a"] for m in ANIMAL.finditer(text, timeout=TIMEOUT_S)] if len(text) < MAX_CHARS else []
    return found[-1] if found else None


def mine_statements(text: str, mentioned: str | None = None) -> list[Change]:
    """The facts in statements (not commands); `mentioned`: an animal named earlier in the turn."""
    changes: list[Change] = []
    sentences = SENTENCE_SPLIT.split(text)
    for i, sentence in enumerate(sentences):
        follow = _follow_up(sentence.strip(), mentioned) if mentioned else []
        if follow:
            changes += follow
            continue
        sentence = _statement(_together(sentence.strip()))     # "me and my wife live in Oslo, do you know ...?"
        body = strip_lead(sentence)
        if not sentence or sentence.endswith("?") or match_start(HYPOTHETICAL, body) or match_start(QUESTION, body):
            continue
        if search_in(JOKE, sentence) or match_start(SARCASM, sentence):
            continue
        # A rule that reads the whole sentence ("i don't eat meat but i eat fish") wins over its parts.
        if match_start(PESCATARIAN_BUT, body.rstrip(".!")):
            changes.append(Change("assert", "diet", "pescatarian"))
            continue
        light = search_in(LAUGHTER, sentence)
        if light:
            sentence = LAUGHTER.sub("", sentence).strip()
        said: list[Change] = []
        before: frozenset = frozenset()
        for clause in clauses(sentence):
            timed = time_words(strip_lead(clause))
            if not timed.rest.strip(" ,.!"):       # "since 2019, ..." / "last year, ...": for the next clause
                before = timed.when
                continue
            for part in _coordinated(clause):
                said += _mine_clause(part.rstrip(".!"), before)
            before = frozenset()
        changes += [c for c in said if _fits(c)] if light else said
        if i + 1 < len(sentences):
            mentioned = last_animal(sentence) or mentioned
    return changes


# A question or a request run on after a statement with a comma: "I'm a big fan of Japanese culture, do you know
# a program?", "I'm really into true crime, so if you have any suggestions, let me know". The statement before it
# is said all the same; what follows asks (the parse still sees the whole sentence asking her).
ASKING_TAIL = re.compile(r",\s+(?:(?:so|and|but|any|now)[\s,]+)?(?=(?:what|which|where|how|who|why|do|does|did|can|"
                         r"could|would|will|is|are|should|any|if you|have you|let me know|please|tell me)\b)|"
                         r"\s+(?:so|and|but)\s+(?=(?:if you|can you|could you|would you|do you|any)\b)", F)


# "My wife and I are vegetarian", "me and my girlfriend live in Oslo": a home, a pet or a diet shared is the user's
# too (a taste said together is left as it is: "my mom and I like to sit outside" is about that outing).
HOUSEHOLD = rf"(?:{PARTNER}|{FAMILY}|roommates?|flatmates?|housemates?)"
# at the start of a sentence, or of a clause joined to it: "I'm a nurse, and my wife and I are vegetarian"
TOGETHER = re.compile(rf"(?:^|(?<=[,;]\s*(?:and|but)?\s))(?:me and (?:my|our) (?:[\w'-]+ )?{HOUSEHOLD}|(?:my|our) "
                      rf"(?:[\w'-]+ )?{HOUSEHOLD} and (?:i|me))"
                      r"\s+(?:(?:both|all) )?(?P<verb>are|were|have|live|moved|own|eat|just|recently|currently|now|still)\b"
                      r"(?: (?:both|all)\b)?", F)
AGREE = {"are": "am", "were": "was"}


def _together(sentence: str) -> str:
    """"my wife and I are vegan" -> "i am vegan": what the user shares with someone, said as the user's."""
    if len(sentence) > MAX_CHARS:
        return sentence
    return TOGETHER.sub(lambda m: f"i {AGREE.get(m['verb'].lower(), m['verb'])}", sentence, timeout=TIMEOUT_S)


def _statement(sentence: str) -> str:
    """The statement a sentence opens with, before a question or a request joined to it by a comma."""
    if not match_start(I_SUBJECT, strip_lead(sentence)):
        return sentence
    cut = ASKING_TAIL.search(sentence, timeout=TIMEOUT_S) if len(sentence) < MAX_CHARS else None
    return sentence[:cut.start()] if cut else sentence


I_SUBJECT = re.compile(r"^(?:i|i'm|im|i am|i've|ive|i have)\b", F)
COORDINATED = re.compile(rf"(?:,\s*|\s+)(?:and|but|and also|but also|and i also|yet)\s+(?=(?:(?:really|also|absolutely|"
                         rf"totally|just|still|do) )*{OWN_CLAUSE_VERBS}\b)", F)
VERB_LIST = re.compile(r"\b(?:like|love|enjoy|prefer|hate)s? to\b", F)
# Someone else becomes the subject inside the clause: a verb joined after it is theirs.
OTHER_SUBJECT = re.compile(r"\s(?:she|he|they|we|you|it)(?:'ll|'d|'s|'re|'ve| will| would| is| are| was| were| has| have"
                           r"| had| can| could| might| may)?\s+\w+", F)


def _coordinated(clause: str) -> list[str]:
    """"i love hiking but hate running" -> ["i love hiking", "i hate running"]: a verb joined without
    its own "i" still has the speaker as subject. Not inside a verb list ("i like to read and swim")."""
    body = strip_lead(clause)
    if not match_start(I_SUBJECT, body):
        return [clause]
    parts, start = [], 0
    for m in COORDINATED.finditer(clause):
        if search_in(VERB_LIST, clause[start:m.start()]) or search_in(OTHER_SUBJECT, clause[start:m.start()]):
            break       # "i hope she'll like the thought and love behind it": the verb is hers
        parts.append(clause[start:m.start()])
        start = m.end()
    parts.append(clause[start:])
    return [parts[0]] + [f"i {p}" for p in parts[1:]]
