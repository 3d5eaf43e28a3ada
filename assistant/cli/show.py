"""How the brain's events look in a terminal: one line each, with a style. The chat and the voice loop
both print them."""
from __future__ import annotations

import json
from datetime import datetime

from ..turn.consolidation import Consolidation
from ..turn.events import BrainEvent, Consolidated, Degraded, RecalledNote, Remembered, ToolUsed


def event_line(event: BrainEvent) -> tuple[str, str] | None:
    """A brain event as (text, style) for the terminal; the chat and the voice loop both print these."""
    if isinstance(event, RecalledNote):
        return f"[recalled: {excerpt(event.text)} ({day(event.date)})]", "dim"
    if isinstance(event, ToolUsed):
        return f"[memory tool {event.name}({event.arguments})]", "dim"
    if isinstance(event, Remembered):
        return f"[remembered {event.change.key}: {event.change.value} ({event.change.kind})]", "dim"
    if isinstance(event, Degraded):
        return f"[{event.why}]", "yellow"
    if isinstance(event, Consolidated):
        return consolidation_line(event.result), "dim"
    return None


def excerpt(text: str, words: int = 8) -> str:
    """The first words of a message, quoted: '"I ran a charity race for mental health ..."'."""
    said = text.split()
    return json.dumps(" ".join(said[:words]) + (" ..." if len(said) > words else ""), ensure_ascii=False)


def day(date: str) -> str:
    """'2026-05-12' -> '12 May 2026'."""
    try:
        moment = datetime.strptime(date[:10], "%Y-%m-%d")
        return f"{moment.day} {moment:%b %Y}"
    except ValueError:
        return date


def consolidation_line(result: Consolidation) -> str:
    """"[the model read the session: kept job: nurse; rejected likes: skydiving (...)]"."""
    if result.error:
        return f"[the model's reading of the session was unusable ({result.error}); nothing from it stored]"
    kept = [f"{v.proposal.key}: {v.proposal.value}" for v in result.stored]
    dropped = [f"{v.proposal.key}: {v.proposal.value} ({v.reason})" for v in result.rejected]
    parts = [f"kept {'; '.join(kept)}" if kept else "kept nothing new"]
    if dropped:
        parts.append(f"rejected {'; '.join(dropped)}")
    return f"[the model read the session: {' | '.join(parts)}]"
