"""Words for the replies made from memory alone: remember, forget, list, why, wake word, and
questions about the user when the model is down. What a sentence means is decided once, by
`memory.parse` inside `Memory.observe`; this module only turns that into her lines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from memory import (FORGOTTEN, Command, Fact, FactChange, Memory, Observation, content_words, from_third_person, is_secret,
                    to_them, to_you)

from ..config import Lines

# How a question's subject is said back when nothing is known: "You never told me where you live."
ASKED_ABOUT = {
    "name": "your name", "location": "where you live", "hometown": "where you are from",
    "job": "what you do", "employer": "where you work", "allergy": "about any allergies",
    "diet": "about your diet", "pet": "about any pets", "likes": "what you like",
    "dislikes": "what you dislike", "age": "your age", "birthday": "your birthday",
    "partner": "about a partner", "language": "which languages you speak",
    "medical": "about any medical conditions",
}


# How facts are said back: "You live in Leeds", "You are allergic to peanuts and cashews".
SAID_AS = {
    "name": "Your name is {v}", "location": "You live in {v}", "hometown": "You are from {v}",
    "job": "You work as {v}", "employer": "You work at {v}", "allergy": "You are allergic to {v}",
    "diet": "You are {v}", "pet": "You have {v}", "likes": "You like {v}", "dislikes": "You dislike {v}",
    "age": "You are {v}", "birthday": "Your birthday is {v}", "partner": "Your partner is {v}",
    "language": "You speak {v}", "medical": "You told me about {v}", "note": "{v}", "message": "You said: {v}",
    "wake_word": "You wake me with {v}", "partner_kind": "You have {v}",
}
# A partner known only by who they are to the user: "You have a wife", not "Your partner is wife".
PARTNER_KINDS = frozenset("wife husband partner boyfriend girlfriend fiancé fiancée fiance fiancee spouse".split())
# Said with "a"/"an" when the value is one thing: "a dog named Rex", "a nurse", "a wife".
COUNTED = ("pet", "job", "partner_kind")
DETERMINED = re.compile(r"^(?:a|an|the|some|two|three|four|five|several|many|no|my|our|\d+)\b", re.IGNORECASE)


def with_article(value: str) -> str:
    """"dog named Rex" -> "a dog named Rex", "engineer" -> "an engineer"; "two cats", "cats" unchanged."""
    head = value.split(" named ")[0].split(" called ")[0].strip()
    if not head or DETERMINED.match(head) or (head.endswith("s") and not head.endswith("ss")):
        return value
    vowel = head[0].lower() in "aeiou" and not re.match(r"(?:uni|use|eu|one)", head, re.IGNORECASE)  # "a unicorn"
    return f"{'an' if vowel else 'a'} {value}"


def joined(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def say(pairs: list[tuple[str, str]], them: bool = False) -> str:
    """(key, value) pairs grouped by key, in the order first seen, as sentences without the last
    full stop: "You live in Leeds. You are allergic to peanuts and cashews"; `them`: about the user,
    to someone else ("They live in Leeds", "Their locker code is 4512")."""
    person = to_them if them else to_you
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        if key == "partner" and value.casefold() in PARTNER_KINDS:
            key = "partner_kind"
        said = person(value) if key in ("note", "message") else with_article(value) if key in COUNTED else value
        values.setdefault(key, []).append(said)
    sentences = []
    for key, vs in values.items():
        if key in ("note", "message"):     # each its own sentence: they are whole statements
            sentences += [SAID_AS[key].format(v=v) for v in vs]
        else:
            sentences.append((SAID_AS.get(key) or f"Your {label(key)} is {{v}}").format(v=joined(vs)))
    if them:     # "they" takes the same verbs as "you": "You live in" -> "They live in"
        sentences = [THEM.sub(lambda m: THIRD_START[m[0]], s, count=1) for s in sentences]
    return ". ".join(s[:1].upper() + s[1:] for s in sentences)


THEM = re.compile(r"^(?:Your|You)\b")
THIRD_START = {"Your": "Their", "You": "They"}


def say_facts(facts: list[Fact]) -> str:
    return say([(f.key, f.value) for f in facts])


@dataclass(frozen=True)
class CommandReply:
    """A reply made from memory. `stored` goes in the log: for a forget, the reply with the
    forgotten values redacted, so the log never regains them."""
    kind: str
    text: str
    changes: tuple[FactChange, ...] = ()
    stored: str = ""


def label(key: str) -> str:
    return key.replace("_", " ")


def reply(memory: Memory, user: str, observed: Observation, lines: Lines) -> CommandReply:
    """Her reply to the memory command in `observed` (which must have one)."""
    command = observed.parsed.command
    assert command is not None
    changes = tuple(observed.changes)
    if command.kind == "list":
        facts = memory.facts(user)
        return CommandReply("list", lines.facts.format(what=say_facts(facts)) if facts else lines.no_facts)
    if command.kind == "wake_word":
        return CommandReply("wake_word", lines.wake_word.format(what=command.about))
    if command.kind == "why":
        return CommandReply("why", _why(memory, user, command, lines))
    if command.kind == "ask":
        return CommandReply("ask", answer_from_facts(memory, user, command, lines))
    pinned = [(c.key, c.value) for c in changes if c.kind == "pinned"]
    if command.kind == "pin" or (command.kind == "remember" and pinned):    # "pin that", "always remember that"
        text = lines.pinned.format(what=say(pinned)) if pinned else lines.pin_nothing
        return CommandReply(command.kind, text, changes, text)
    if command.kind == "remember":
        stored = [c for c in changes if c.kind in ("added", "superseded", "reconfirmed")]
        text = (lines.remembered.format(what=say([(c.key, c.value) for c in stored])) if stored
                else lines.forgot_nothing.format(what=command.about))
        return CommandReply("remember", text, changes, text)
    text = _forgot(changes, command, lines)
    redacted = tuple(FactChange(c.kind, c.key, FORGOTTEN) for c in changes)
    return CommandReply("forget", text, changes, _forgot(redacted, command, lines))


def _forgot(changes: tuple[FactChange, ...], command: Command, lines: Lines) -> str:
    gone = [c for c in changes if c.kind == "forgotten"]
    choices = [c for c in changes if c.kind == "ambiguous"]
    if choices:
        return lines.forget_which.format(what=" or ".join(f'"{to_you(c.value)}"' for c in choices))
    if not gone:
        return lines.forgot_nothing.format(what=command.about.strip(" ?.!") or "that")
    return lines.forgot.format(what=joined([f'"{to_you(c.value)}"' if c.key in ("note", "message") else c.value
                                            for c in gone]))


def vary(options: str | list[str], last: str | None) -> str:
    """The first of her lines that is not the one she said last (the next in turn after it)."""
    options = [options] if isinstance(options, str) else options
    if last in options:
        return options[(options.index(last) + 1) % len(options)]
    return options[0]


def offline(changes: Sequence[FactChange], lines: Lines, last: str | None, missing: str | None = None,
            busy: bool = False) -> tuple[str, str]:
    """Her line when the model is down (`missing`: the model Ollama lacks; `busy`: it runs but gave no answer:
    loading, busy, timed out, said nothing), saying what she stored or took back from the message if anything;
    with the line it was made from (pass that back as `last` so the next one differs)."""
    stored = [c for c in changes if c.kind in ("added", "superseded", "reconfirmed")]
    dropped = [c for c in changes if c.kind == "retracted"]
    if not stored and not dropped:
        line = (lines.model_missing.format(model=missing) if missing else vary(lines.busy, last) if busy
                else vary(lines.offline, last))
        return line, line
    said = [say([(c.key, c.value) for c in stored])] if stored else []
    if dropped:
        taken = say([(c.key, c.value) for c in dropped])
        said.append(f"Struck from the record: {taken[:1].lower()}{taken[1:]}")
    template = vary(lines.noted_offline, last)
    return template, template.format(what=". ".join(said))


def answer_from_notes(memory: Memory, user: str, text: str, lines: Lines, secrets_only: bool = False) -> str | None:
    """"what's my locker code?" with the model down (or, `secrets_only`, up: a secret never goes to it): the
    note that answers it, when one clearly does (recall's own cut decides; only notes, the user's words kept
    on purpose, found as themselves or as the message they were said in)."""
    notes = [f for f in memory.facts(user) if f.key == "note" and (not secrets_only or is_secret(f.key, f.value))]
    # a secret is said only when asked for: "what's my locker code?", not "can you help me with my locker?"
    notes = [f for f in notes if not is_secret(f.key, f.value) or ASKS_SECRET.search(text)]
    if not notes:
        return None
    by_id = {f.id: f.value for f in notes}
    by_message = {str(f.source_message_id): f.value for f in notes if f.source_message_id is not None}
    asked = set(content_words(text))
    named = max(((len(asked & set(content_words(f.value))), f.value) for f in notes if is_secret(f.key, f.value)),
                default=(0, ""))
    if named[0] >= 2:       # "what's my wifi password?" names the secret note ("wifi", "password"): that one
        return lines.answer.format(what=say([("note", from_third_person(named[1]))]))
    for r in memory.recall(user, text, k=3):
        said = by_id.get(r.id) if r.kind == "note" else by_message.get(r.id)
        if said:
            # a model's note is about "the user": said in her words ("User's wifi password is X" -> "your ...")
            return lines.answer.format(what=say([("note", from_third_person(said))]))
    return None


# What a question names when it asks for a secret itself.
ASKS_SECRET = re.compile(r"\b(?:codes?|pins?|passcodes?|combination|combo|password|passphrase|passwd|wi-?fi key|"
                         r"(?:account|card|door|gate|alarm) number)\b", re.IGNORECASE)


def answer_from_facts(memory: Memory, user: str, command: Command, lines: Lines) -> str:
    """"what's my name?" with the model down: the facts under the keys it asks about."""
    keys = [t.key for t in command.targets if t.key]
    known = memory.facts(user)
    facts = [f for key in keys for f in known if f.key == key]
    if facts:
        return lines.answer.format(what=say_facts(facts))
    first = keys[0] if keys else ""
    what = ASKED_ABOUT.get(first) or (f"your {label(first)}" if first else "that")
    return lines.answer_unknown.format(what=what)


def _why(memory: Memory, user: str, command: Command, lines: Lines) -> str:
    """"why do you think i'm vegetarian" -> when and in what words the user said it."""
    current = memory.facts(user)
    for want in command.targets:
        for fact in current:
            key_ok = want.key is None or fact.key == want.key
            value_ok = want.value is None or want.value.casefold() in fact.value.casefold() \
                or fact.value.casefold() in want.value.casefold()
            if key_ok and value_ok:
                source = fact.source or f"{label(fact.key)}: {fact.value}"
                line = lines.why_model if fact.origin == "model" else lines.why
                said = line.format(date=fact.asserted_at[:10], source=source, what=fact.value,
                                   model=fact.origin_model or "the model")
                return ENDS_TWICE.sub(r'\1"', said)      # '..."shellfish.".' -> '..."shellfish."'
    return lines.why_unknown.format(what=command.about.strip(" ?.!"))


ENDS_TWICE = re.compile(r'([.!?])"\.')

