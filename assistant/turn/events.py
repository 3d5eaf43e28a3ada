"""What the brain tells the front end, as it happens: one frozen record per kind of event."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Union

from memory import FactChange

from .consolidation import Consolidation


@dataclass(frozen=True)
class SessionStarted:
    session: str


@dataclass(frozen=True)
class Remembered:
    """A fact mined from the user's message changed the memory."""
    change: FactChange


@dataclass(frozen=True)
class RecalledNote:
    """An earlier message went into this turn's prompt."""
    session: str
    date: str          # YYYY-MM-DD
    text: str


@dataclass(frozen=True)
class ToolUsed:
    name: str
    arguments: dict[str, Any]
    result: str


@dataclass(frozen=True)
class Degraded:
    """Something was done the lesser way (no model, interrupted summary); `why` says what and why."""
    why: str


@dataclass(frozen=True)
class Summarised:
    session: str
    text: str


@dataclass(frozen=True)
class Consolidated:
    result: Consolidation


BrainEvent = Union[SessionStarted, Remembered, RecalledNote, ToolUsed, Degraded, Summarised, Consolidated]
EventSink = Callable[[BrainEvent], None]
