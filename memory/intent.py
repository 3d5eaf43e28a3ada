"""What a sentence means, as typed values: the result of `memory.parse`, one per turn."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Op = Literal["assert", "retract", "forget", "correct", "mention"]
CommandKind = Literal["remember", "forget", "list", "why", "wake_word", "ask", "pin"]


Verb = Literal["tells", "asks", "chooses"]
Object = Literal["thing", "definite", "hers", "particular", "wish", "fragment"]


@dataclass(frozen=True)
class Said:
    """How a taste was said (memory.rules.stance reads it): `verb` tells ("I love", "I'm a fan of"), asks
    ("I'm interested in") or chooses ("I prefer X" with nothing it is preferred to: for the matter at hand); `object`
    is a thing, a definite thing ("the beach": general, or the one in view), something of hers (her suggestion, a
    thing pointed at), a particular (a quality of what is in view, "the convenience", "the feeling of
    accomplishment"; one thing of the user's, "the armchair in my living room"), a wish (an activity to start:
    "trying", "learning more about") or a fragment of a clause."""
    verb: Verb
    object: Object


@dataclass(frozen=True)
class Change:
    """One thing a sentence says about its speaker's facts.

    assert / retract: key and value (value None: every value of key). forget: key None means any
    key holding value. correct: the value replaces the one stated a moment ago (or `old`, when the
    user named it: "Bristol, not Bath"); key is set when the correction says which fact. mention: told in
    passing ("toys for my dog, Max"): stored only where nothing known already says it."""
    op: Op
    key: str | None
    value: str | None = None
    old: str | None = None
    said: Said | None = field(default=None, compare=False)    # how a taste was said, for stance.lasting


@dataclass(frozen=True)
class Target:
    """What a phrase points at ("where i live" -> location); value None: every value of key,
    key None: any key holding value."""
    key: str | None
    value: str | None = None


@dataclass(frozen=True)
class Command:
    """A memory command about the user. `about`: the words after the verb ("where i live");
    `targets`: what they point at (forget, why) or the keys asked about (ask)."""
    kind: CommandKind
    about: str = ""
    targets: tuple[Target, ...] = ()
    pin: bool = False          # "always remember that ...": what it stores is pinned


@dataclass(frozen=True)
class Parsed:
    """Everything one utterance means: its storable text, fact changes, and the command if any."""
    text: str
    changes: tuple[Change, ...] = ()
    command: Command | None = None
    refused: Command | None = None      # a command a storing tool may not run (see storing_only)

    def storing_only(self) -> "Parsed":
        """What a storing tool may do with it: store and update facts ("remember that ...", "pin that",
        corrections, "not anymore"), never delete or answer ("forget where I live" stores nothing)."""
        keep = self.command is None or self.command.kind in STORING
        return Parsed(self.text, tuple(c for c in self.changes if c.op != "forget"),
                      self.command if keep else None, None if keep else self.command)


STORING: frozenset[CommandKind] = frozenset({"remember", "pin"})
