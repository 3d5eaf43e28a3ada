"""Memory commands answered from memory alone, without the model: remember, forget, list, why.

The same function serves `glados chat` and the voice loop. Every command's utterance is logged
(and mined) through `Memory.observe`, so a "remember that ..." is stored exactly once.
"""
from __future__ import annotations

from dataclasses import dataclass

import regex as re

from memory import Fact, FactChange, Memory
from memory.facts import FORGOTTEN
from memory.mining import command_kind, mine, targets

from .config import Lines

F = re.IGNORECASE
LEAD = r"^(?:(?:hey |ok |okay |so |well |and |but |please |)(?:glados[\s,]+)?)"
LIST = re.compile(
    LEAD + r"(?:what (?:do|did) you (?:remember|know|recall|have) (?:about|on) me|what do you remember|"
    r"what have you (?:got|remembered|stored|learned) (?:on|about) me|tell me what you (?:know|remember) about me|"
    r"what do you know about me|(?:list|show(?: me)?) (?:my|your|the) (?:memories|facts|memory)|who am i)\b", F)
WHY = re.compile(LEAD + r"(?:why|how) do you (?:think|know|believe|remember)(?: that)? (?P<rest>.+?)[?.!]*$", F)


@dataclass(frozen=True)
class CommandReply:
    """A reply made from memory. kind: remember | forget | list | why | wake_word. `stored` goes in the
    log: for a forget, the reply with the forgotten values redacted, so the log never regains them."""
    kind: str
    text: str
    changes: tuple[FactChange, ...] = ()
    stored: str = ""


def label(key: str) -> str:
    return key.replace("_", " ")


def describe_facts(facts: list[Fact]) -> str:
    return "; ".join(f"{label(f.key)}: {f.value}" for f in facts)


def answer(memory: Memory, user: str, session: str, text: str, lines: Lines) -> CommandReply | None:
    """The reply to a memory command, or None when `text` is not one."""
    kind = command_kind(text)
    if kind is not None:
        changes = tuple(memory.observe(user, text, session=session).changes)
        reply = _changed(kind, changes, text, lines)
        stored = reply
        if kind == "forget":
            stored = _changed(kind, tuple(FactChange(c.kind, c.key, FORGOTTEN) for c in changes), text, lines)
        return CommandReply(kind, reply, changes, stored)
    if LIST.search(text):
        memory.observe(user, text, session=session)
        facts = memory.facts(user)
        return CommandReply("list", lines.facts.format(what=describe_facts(facts)) if facts else lines.no_facts)
    wake = [c for c in mine(text) if c.key == "wake_word" and c.op == "assert"]
    if wake:
        memory.observe(user, text, session=session)
        return CommandReply("wake_word", lines.wake_word.format(what=wake[0].value))
    why = WHY.search(text)
    if why:
        memory.observe(user, text, session=session)
        return CommandReply("why", _why(memory, user, why["rest"], lines))
    return None


def _changed(kind: str, changes: tuple[FactChange, ...], text: str, lines: Lines) -> str:
    if kind == "remember":
        stored = [c for c in changes if c.kind in ("added", "superseded", "reconfirmed")]
        what = "; ".join(f"{label(c.key)}: {c.value}" for c in stored)
        return lines.remembered.format(what=what) if stored else lines.forgot_nothing.format(what=text)
    gone = [c for c in changes if c.kind == "forgotten"]
    if not gone:
        subject = re.sub(r"^.*?\b(?:forget|delete|erase|remove)\s+(?:about\s+|that\s+)?", "", text, flags=F)
        return lines.forgot_nothing.format(what=subject.strip(" ?.!") or "that")
    return lines.forgot.format(what="; ".join(f"{label(c.key)}: {c.value}" for c in gone))


def _why(memory: Memory, user: str, rest: str, lines: Lines) -> str:
    """"why do you think i'm vegetarian" -> when and in what words the user said it."""
    current = memory.facts(user)
    for want in targets(rest):
        for fact in current:
            key_ok = want.key is None or fact.key == want.key
            value_ok = want.value is None or want.value.casefold() in fact.value.casefold() \
                or fact.value.casefold() in want.value.casefold()
            if key_ok and value_ok:
                source = fact.source or f"{label(fact.key)}: {fact.value}"
                return lines.why.format(date=fact.asserted_at[:10], source=source, what=fact.value)
    return lines.why_unknown.format(what=rest.strip(" ?.!"))
