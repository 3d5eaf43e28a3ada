"""What a turn gives back, and how a front end stops her mid-sentence: shared by the brain and its parts."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Literal

from memory import Recalled

TextSink = Callable[[str], None]
ReplySource = Literal["memory", "model", "offline"]


class Interrupted(Exception):
    """Raised by a text sink when the user talks over her; `spoken` is what was actually said."""

    def __init__(self, spoken: str):
        super().__init__("interrupted")
        self.spoken = spoken


@dataclass(frozen=True)
class Reply:
    """What she said, and who wrote it: a memory command, the model, or a line for when the model is down.
    interrupted: cut short (Ctrl-C, barge-in)."""
    text: str
    source: ReplySource
    interrupted: bool = False
    recalled: tuple[Recalled, ...] = ()
    error: str | None = None


@dataclass
class Stats:
    turns: int = 0
    degraded_turns: int = 0
    tool_calls: int = 0
    last_prompt: list[dict] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)   # the last turn's: memory_s, first_token_s
