"""A language model as a second reader, checked: proposals of facts, and the grounding checks that
decide which ones may be stored.

The model reads the user's own messages of a session and proposes facts as JSON (SCHEMA). Nothing
it says is trusted: every proposal must cite one of this session's user messages, use a key from
the vocabulary, say nothing the user did not say (each content word of the value is in the cited
message, or is a listed normalisation of a word there), come from a first-person statement (not a
question, a wish, a joke or someone else), never take a pinned fact away, and replace a single
value only when the message itself says it changed. No model is called here: the caller passes
the reply text in, so this stays usable by any assistant.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import regex as re

from . import facts as F
from .lexicon import F as FLAGS, HYPOTHETICAL, IF_ANYWHERE, QUESTION, SENTENCE_SPLIT, as_number, clauses, strip_lead
from .rules import HEDGE, JOKE, SARCASM

MAX_VALUE_WORDS = 8
MAX_PROPOSALS = 40

SCHEMA: dict = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "key": {"type": "string", "description": "a key from the fact vocabulary"},
                    "value": {"type": "string", "description": "the value, in the user's own words"},
                    "message_id": {"type": "integer", "description": "the id of the user message it comes from"},
                    "replaces": {"type": "boolean", "description": "true only when the user says it changed"},
                },
                "required": ["key", "value", "message_id", "replaces"],
            },
        },
    },
    "required": ["facts"],
}


class BadProposals(ValueError):
    """The model's reply is not the JSON the schema asks for (malformed, truncated, wrong shape)."""


@dataclass(frozen=True)
class Proposal:
    key: str
    value: str
    message_id: int
    replaces: bool = False
    op: str = "add"          # a model may only add; anything else is rejected


Outcome = Literal["stored", "known", "rejected"]


@dataclass(frozen=True)
class Verdict:
    """What became of one proposal, and why."""
    proposal: Proposal
    outcome: Outcome
    reason: str
    changes: tuple[F.FactChange, ...] = ()


def parse_proposals(text: str) -> list[Proposal]:
    """The proposals in a model reply; raises BadProposals when it is not the schema's JSON."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise BadProposals(f"the model's reply is not JSON ({exc})") from exc
    items = data.get("facts") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise BadProposals("the model's reply has no 'facts' list")
    out = []
    for item in items[:MAX_PROPOSALS]:
        if not isinstance(item, dict):
            raise BadProposals(f"a proposal is not an object: {item!r}"[:200])
        try:
            message_id = item["message_id"]
            if isinstance(message_id, bool) or not isinstance(message_id, (int, str)):
                raise TypeError("message_id")
            out.append(Proposal(key=str(item["key"]).strip().lower(), value=str(item["value"]).strip(),
                                message_id=int(message_id), replaces=item.get("replaces") is True,
                                op=str(item.get("op") or item.get("action") or "add").strip().lower()))
        except (KeyError, TypeError, ValueError) as exc:
            raise BadProposals(f"a proposal lacks a usable {exc}: {item!r}"[:200]) from exc
    return out


# --------------------------------------------------------------------------------------------
# Grounding: the value's content words are the user's words
# --------------------------------------------------------------------------------------------
FUNCTION_WORDS = set("""a an the my our your his her their its of in at on to for with and or is are was
were be been am i me we us it this that named called as by from into about some any one""".split())
# A word the model may use for a word the user said: "nursing" -> "nurse", "greyhound" -> "dog".
NORMALISE = {
    **{breed: "dog" for breed in """greyhound labrador lab retriever poodle beagle terrier spaniel collie
       husky pug dachshund chihuahua corgi bulldog shepherd rottweiler boxer doberman puppy pup whippet
       lurcher schnauzer mutt""".split()},
    **{breed: "cat" for breed in "tabby siamese persian kitten kitty moggy".split()},
    "coeliac": "coeliac disease", "celiac": "coeliac disease", "diabetic": "diabetes", "asthmatic": "asthma",
    "epileptic": "epilepsy", "vegetarian": "vegetarian", "veggie": "vegetarian", "mum": "mother",
    "mom": "mother", "hubby": "husband", "missus": "wife", "uni": "university", "meds": "medication",
}
WORD = re.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)?", FLAGS)


def stem(word: str) -> str:
    """A crude stem, enough to match "nursing"/"nurse", "kayaker"/"kayaking", "dogs"/"dog"."""
    word = word.casefold().replace("’", "'")
    word = re.sub(r"'s$", "", word)
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ers", ""), ("er", ""), ("ors", ""), ("or", ""),
                         ("ists", ""), ("ist", ""), ("es", ""), ("s", ""), ("ed", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def content_words(text: str) -> list[str]:
    return [w for w in (m.group(0).casefold() for m in WORD.finditer(text)) if w not in FUNCTION_WORDS]


def _said(text: str) -> set[str]:
    """Every form of every word in text a value word may match: stems, normalisations, numbers."""
    words = [m.group(0).casefold() for m in WORD.finditer(text)]
    out = {stem(w) for w in words}
    for w in words:
        for target in NORMALISE.get(w, "").split():
            out.add(stem(target))
    for i in range(len(words)):           # "thirty four" -> "34"
        for n in (2, 1):
            number = as_number(" ".join(words[i:i + n]))
            if number is not None:
                out.add(str(number))
    return out


def ungrounded(value: str, text: str) -> list[str]:
    """The content words of value that the user did not say in text."""
    said = _said(text)
    return [w for w in content_words(value) if stem(w) not in said]


# --------------------------------------------------------------------------------------------
# Whose statement: the same guards as the rules, and no third party
# --------------------------------------------------------------------------------------------
FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|me|my|mine|myself|we|we're|we've|our|us)\b", FLAGS)
OTHER_SUBJECT = re.compile(r"^(?:he|she|they|his|her|their|you|your|it|its|this|that|these|those)\b", FLAGS)
PEOPLE = (r"(?:brother|sister|mom|mum|mother|dad|father|parents?|friend|friends|wife|husband|partner|boyfriend|"
          r"girlfriend|son|daughter|kids?|children|boss|neighbou?r|cousin|aunt|uncle|grandma|grandpa|grandmother|"
          r"grandfather|doctor|teacher|colleague|coworker|roommate|flatmate|family|dog|cat)")
THIRD_PARTY = re.compile(rf"^(?:my|our) (?:\w+ )?{PEOPLE}\b", FLAGS)
ABOUT_ME = re.compile(r"\b(?:me|myself|i|i'm|im|we)\b", FLAGS)
NEGATED = re.compile(r"\b(?:not|no longer|never|don'?t|doesn'?t|didn'?t|isn'?t|aren'?t|wasn'?t|can'?t|cannot|"
                     r"won'?t|no|nor|anymore|used to|wish|hope|want to|would like|someday|one day)\b", FLAGS)
CHANGED = re.compile(r"\b(?:now|moved|move|anymore|no longer|new|changed|switched|started|became|become|"
                     r"actually|these days|since|again|instead|turned|got a job|just got|quit|left)\b", FLAGS)


def _clause_for(value: str, text: str) -> tuple[str, str] | None:
    """The (sentence, clause) of text that holds every content word of value, if any."""
    for sentence in SENTENCE_SPLIT.split(text):
        for clause in clauses(sentence.strip()):
            if not ungrounded(value, clause):
                return sentence.strip(), clause
        if not ungrounded(value, sentence):
            return sentence.strip(), sentence.strip()
    return None


def statement_problem(value: str, text: str) -> str | None:
    """Why the words holding value are not a first-person statement of it, or None."""
    found = _clause_for(value, text)
    if found is None:
        return "its words are spread over several sentences"
    sentence, clause = found
    body = strip_lead(clause)
    if sentence.endswith("?") or QUESTION.match(strip_lead(sentence)) or QUESTION.match(body):
        return "the message asks, it does not state"
    if HYPOTHETICAL.match(body) or IF_ANYWHERE.search(body):
        return "the message is a wish or a hypothetical"
    if HEDGE.search(body) or JOKE.search(sentence) or SARCASM.match(sentence):
        return "the message is a hedge or a joke"
    if OTHER_SUBJECT.match(body) or not FIRST_PERSON.search(body):
        return "the message is about someone else"
    if THIRD_PARTY.match(body) and not ABOUT_ME.search(body[THIRD_PARTY.match(body).end():]):
        return "the message is about someone else"
    if NEGATED.search(body):
        return "the message negates it or speaks of the past or the future"
    return None


# --------------------------------------------------------------------------------------------
# The verdict on one proposal
# --------------------------------------------------------------------------------------------
def _known(current: list[F.Fact], key: str, value: str) -> F.Fact | None:
    """A current fact that already says this (the regex path may have stored it this session):
    "dog named Pip" is known when "greyhound named Pip" is."""
    want, want_forms = {stem(w) for w in content_words(value)}, _said(value)
    for fact in current:
        if fact.key != key:
            continue
        have, have_forms = {stem(w) for w in content_words(fact.value)}, _said(fact.value)
        if F.norm(fact.value) == F.norm(value) or (want and (want <= have_forms or have <= want_forms)):
            return fact
    return None


# Keys whose value alone proves little: "twelve" in "nursing for twelve years" is no age.
KEY_CUES = {
    "age": re.compile(r"\b(?:old|turned|turning|aged?|i'?m|i am|im)\b(?!.*\bfor \w+ years\b)", FLAGS),
    "birthday": re.compile(r"\b(?:birthday|bday|born)\b", FLAGS),
    "partner": re.compile(r"\b(?:wife|husband|partner|girlfriend|boyfriend|spouse|fianc\w*|married|dating)\b", FLAGS),
}


def judge(proposal: Proposal, message: dict | None, current: list[F.Fact]) -> tuple[Outcome, str]:
    """Check one proposal against the message it cites and the user's current facts."""
    key, value = proposal.key, proposal.value
    if proposal.op not in ("add", "assert", "set", "update"):
        return "rejected", f"a model may only add facts, not {proposal.op!r}"
    if not F.KEY_SHAPE.match(key) or not F.is_known_key(key) or key in ("note", "wake_word"):
        return "rejected", f"{key!r} is not a fact key"
    words = content_words(value)
    if not words or len(value.split()) > MAX_VALUE_WORDS or len(value) > 120:
        return "rejected", "the value is empty or too long to be one fact"
    if message is None:
        return "rejected", f"message {proposal.message_id} is not one of this session's messages"
    if message["role"] != "user":
        return "rejected", "it cites her own words, not the user's"
    missing = ungrounded(value, message["text"])
    if missing:
        return "rejected", f"the user never said {', '.join(repr(w) for w in missing)}"
    problem = statement_problem(value, message["text"])
    if problem:
        return "rejected", problem
    cue = KEY_CUES.get(key)
    if cue and not cue.search(message["text"]):
        return "rejected", f"the message does not speak of the user's {key}"
    if _known(current, key, value):
        return "known", "already known"
    held = [f for f in current if f.key == key]
    if key in F.PINNED_KEYS and (proposal.replaces or (held and key not in F.MULTI_VALUED)):
        return "rejected", f"{key} is pinned: a model may add to it, never replace it"
    if held and key not in F.MULTI_VALUED:
        if not proposal.replaces:
            return "rejected", f"it would replace {held[0].value!r}, and the model did not say it changed"
        if not CHANGED.search(message["text"]):
            return "rejected", f"it would replace {held[0].value!r}, and the message does not say it changed"
    return "stored", "grounded in the user's words"
