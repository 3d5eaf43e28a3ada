"""One parse per utterance: everything a sentence means, for `Memory.observe` and the assistant.

Each sentence is read once, in this order: a forget command, a "remember that ..." note, a
correction of what was just said, a question about the user, and otherwise the fact rules.
"""
from __future__ import annotations

import re   # the standard module, as in text.py

from . import grammar
from .intent import Change, Command, Parsed
from .lexicon import HAS_LETTER, SENTENCE_SPLIT, normalise
from .text import clean
from .rules import last_animal, mine_statements
from .rules.passing import mentions
from .rules.stance import answers_her, asks_her, lasting, pasted


def _sentence(sentence: str, mentioned: str | None) -> tuple[Command | None, list[Change]]:
    for read in (grammar.forget, grammar.note):
        found = read(sentence)
        if found is not None:
            return found
    pinned = grammar.pin(sentence)
    if pinned is not None:
        return pinned, []
    corrected = grammar.correction(sentence)
    if corrected is not None:
        return None, corrected
    asked = grammar.question(sentence)
    if asked is not None:
        return asked, []
    changes = mine_statements(sentence, mentioned)
    wake = next((c for c in changes if c.key == "wake_word" and c.op == "assert"), None)
    return (Command("wake_word", wake.value or "") if wake else None), changes


# A model calling a tool writes about the user in the third person ("User's name is David", "The user lives
# in York"); read as the user's own words, the same rules and supersession apply.
SUBJECT = r"(?:the\s+)?user"
IRREGULAR = {"is": "am", "was": "was", "has": "have", "does": "do", "doesn't": "don't", "isn't": "am not",
             "wasn't": "wasn't", "hasn't": "haven't", "says": "say", "goes": "go"}
THIRD_PERSON = re.compile(rf"(?i)\b{SUBJECT}['’]s\b|\b{SUBJECT}\s+(?:(?P<adverb>also|now|really|still|no longer|never|"
                          rf"recently|currently|just|actually)\s+)?(?P<verb>[a-z]+n['’]t|[a-z]+)\b")


# "User is allergic to peanuts and lives in Leeds": a verb joined to the user's clause has the user as subject too.
JOINED = re.compile(r"(?i)\b(?P<join>and|but|and also|but also)\s+(?P<verb>lives|works|likes|loves|hates|enjoys|owns|"
                    r"speaks|studies|teaches|plays|prefers|dislikes|eats|has|keeps|follows|drives|uses|takes|needs)\b")


def from_third_person(text: str) -> str:
    """"User's name is David" -> "my name is David"; "The user lives in York" -> "I live in York"; "User is
    allergic to peanuts" -> "I am allergic to peanuts"; "... and lives in Leeds" -> "... and live in Leeds". Only
    "user" as the subject, and a verb joined to it, change; other words stay."""
    def first(m: re.Match) -> str:
        if m["verb"] is None:
            return "my"
        return " ".join(w for w in ("I", m["adverb"], _base(m["verb"])) if w)
    said = THIRD_PERSON.sub(first, text)
    if said == text:
        return text
    return JOINED.sub(lambda m: f"{m['join']} {_base(m['verb'])}", said)


def _base(verb: str) -> str:
    """The verb after "I": "lives" -> "live", "studies" -> "study", "watches" -> "watch"; others unchanged."""
    low = verb.lower().replace("’", "'")
    if low in IRREGULAR:
        return IRREGULAR[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes", "zzes", "oes")):
        return verb[:-2]
    if low.endswith("s") and not low.endswith("ss") and len(low) > 2:
        return verb[:-1]
    return verb


def parse(text: str) -> Parsed:
    """What `text` means: its storable form, the fact changes in order (no duplicates), and the
    first memory command in it, if any. Pasted text (an email to edit, her answer quoted back) means
    nothing about the user; a taste is kept only as a lasting one (rules.stance)."""
    stored = clean(text)
    text = normalise(stored)
    if not text or not HAS_LETTER.search(text) or pasted(text):
        return Parsed(stored)
    command: Command | None = None
    changes: list[Change] = []
    mentioned: str | None = None      # "i love cats! i have one myself": the animal of the sentence before
    sentences = [s.strip() for s in SENTENCE_SPLIT.split(text) if s.strip()]
    for i, sentence in enumerate(sentences):
        found, said = _sentence(sentence, mentioned)
        if found is not None and found.kind == "remember" and not grammar.FIRST_PERSON.search(found.about) and (
                len(sentences) > 2 or any(asks_her(s) for j, s in enumerate(sentences) if j != i)):
            found, said = None, []    # "please note that the audience is managers" inside a task: a constraint on it
        command = command or found
        answering = any(answers_her(s) for s in sentences[i:])   # what follows a taste tells a request from a taste
        changes += [c for c in said if c not in changes and (c.said is None or lasting(c.said, answering))]
        if i + 1 < len(sentences):
            mentioned = last_animal(sentence) or mentioned
    changes += mentions(sentences, changes)
    return Parsed(stored, tuple(changes), command)


def mine(text: str) -> list[Change]:
    """Only the fact changes of `text` (the labelled corpus and the benchmarks score these)."""
    return list(parse(text).changes)
