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


def for_log(event: BrainEvent, words: bool = False) -> str:
    """An event as the log file holds it: by kind and id, no user text, fact value, summary or reply, unless
    `words` (--verbose) says so."""
    if words:
        return repr(event)
    if isinstance(event, SessionStarted):
        return f"session {event.session} started"
    if isinstance(event, Remembered):
        c = event.change
        return f"{c.kind} {c.key}" + (f" (fact {c.fact_id[:8]})" if c.fact_id else "")
    if isinstance(event, RecalledNote):
        return f"recalled a message of session {event.session} from {event.date}"
    if isinstance(event, ToolUsed):
        return f"tool {event.name} called with {', '.join(sorted(event.arguments)) or 'no arguments'}"
    if isinstance(event, Degraded):
        return event.why      # the program's own words
    if isinstance(event, Summarised):
        return f"session {event.session} summarised ({len(event.text)} characters)"
    result = event.result
    return (f"session read by the model: {len(result.stored)} stored, {len(result.rejected)} rejected"
            + (f" ({result.error})" if result.error else ""))
