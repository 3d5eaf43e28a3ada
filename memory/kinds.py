"""What a message is about, for decay in recall: health and identity never fade, likes and projects
fade over months, a passing state ("I'm knackered today") over days."""
from __future__ import annotations

import re   # the standard module: logging a message must not load the rules
from typing import Iterable, Literal

Kind = Literal["health", "identity", "likes", "project", "state", "other", "reply"]
KINDS: tuple[Kind, ...] = ("health", "identity", "likes", "project", "state", "other", "reply")

_BY_KEY: dict[str, Kind] = {
    **dict.fromkeys(("allergy", "diet", "medical"), "health"),
    **dict.fromkeys(("name", "location", "hometown", "employer", "job", "birthday", "age", "partner",
                     "language"), "identity"),
    **dict.fromkeys(("likes", "dislikes", "pet", "favorite_language"), "likes"),
}
_ORDER = {kind: i for i, kind in enumerate(KINDS)}   # a message stating several: the longest-lived wins

_I = r"\b(?:i'm|i am|im|i've been|i have been|i feel|i'm feeling|feeling|i was|i got)\b"
STATE = re.compile(
    _I + r"\s+(?:(?:so|really|very|a bit|a little|kind of|pretty|quite|super|totally|completely)\s+)*"
    r"(?:tired|exhausted|knackered|shattered|sleepy|hungry|starving|thirsty|bored|stressed|anxious|nervous|"
    r"sick|ill|poorly|unwell|cold|hot|sad|down|happy|grumpy|cranky|annoyed|angry|upset|excited|hungover|"
    r"sore|achy|busy|swamped|late|running late|in a (?:bad|good|foul) mood|under the weather|fed up|"
    r"worn out|wiped out|jet ?lagged|full|stuffed|freezing|boiling|off today)\b"
    r"|\b(?:i have|i've got|i got|got) (?:a |an )?(?:headache|cold|migraine|hangover|sore throat|fever|"
    r"stomach ?ache|backache|toothache)\b"
    r"|\b(?:today|tonight|this morning|this afternoon|this evening|right now|at the moment)\b.*\b(?:i'm|i am|i feel)\b"
    r"|\b(?:i'm|i am|i feel)\b.*\b(?:today|tonight|this morning|this afternoon|this evening|right now)\b",
    re.IGNORECASE)
PROJECT = re.compile(
    r"\b(?:i'm|i am|im|i've been|i have been|we're|we are)\s+(?:currently\s+|still\s+)?"
    r"(?:working on|building|making|writing|learning|studying for|training for|renovating|redoing|"
    r"restoring|knitting|sewing|painting|planning|organi[sz]ing|fixing up|setting up|practi[sc]ing)\b"
    r"|\bmy (?:project|side project|novel|thesis|dissertation|renovation)\b",
    re.IGNORECASE)


def key_kind(key: str) -> Kind | Literal["note"]:
    """What a fact's key is about: health, identity, likes, note, or other."""
    if key == "note":
        return "note"
    return _BY_KEY.get(key, "likes" if key.startswith("favorite_") else "other")


def kind_of(text: str, keys: Iterable[str] = ()) -> Kind:
    """The kind of a user message, from the fact keys it stated, else from its wording."""
    by_keys = sorted({_BY_KEY.get(k, "likes" if k.startswith("favorite_") else "other") for k in keys},
                     key=_ORDER.__getitem__)
    if by_keys and by_keys[0] != "other":
        return by_keys[0]
    head = text[:500]
    if PROJECT.search(head):
        return "project"
    if _mostly_state(head):
        return "state"
    return "other"


SENTENCES = re.compile(r"[^.!?\n]+[.!?]*")


def _mostly_state(text: str) -> bool:
    """A passing state is what the message is about ("I'm knackered today."), not a feeling said in passing in a
    message that says more ("... I made a lemon cake for my niece's party. I was a bit nervous, but ..."), which
    would otherwise leave recall with the state after a day: at least half its sentences state one."""
    said = [s for s in SENTENCES.findall(text) if s.strip()]
    return bool(said) and 2 * sum(1 for s in said if STATE.search(s)) >= len(said)
