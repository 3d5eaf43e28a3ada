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
        return tool_line(event), "dim"
    if isinstance(event, Remembered):
        return f"[remembered {event.change.key}: {event.change.value} ({event.change.kind})]", "dim"
    if isinstance(event, Degraded):
        return f"[{event.why}]", "yellow"
    if isinstance(event, Consolidated):
        return consolidation_line(event.result), "dim"
    return None


def tool_line(event: ToolUsed) -> str:
    """'[memory tool memory_remember note: "likes tea at 4pm": stored]', or what it did instead ("not stored: the user
    never said 'tea'"); the arguments as the model sent them, each cut short, and what came of the call."""
    args = ", ".join(f"{k}: {json.dumps(str(v)[:60] + ('…' if len(str(v)) > 60 else ''), ensure_ascii=False)}"
                     for k, v in event.arguments.items())
    try:
        result = json.loads(event.result)
    except ValueError:
        result = {}
    if not isinstance(result, dict):
        outcome = ""
    elif "error" in result:
        outcome = f": failed: {result['error']}"
    elif "stored" in result:
        outcome = ": stored" if result["stored"] else f": not stored: {result.get('why', 'refused')}"
    elif "results" in result:
        outcome = f": {len(result['results'])} found"
    elif "forgotten" in result:
        outcome = f": {len(result['forgotten'])} forgotten"
    elif "pinned" in result:
        outcome = f": {len(result['pinned'])} pinned"
    else:
        outcome = ""
    return f"[memory tool {event.name} {args}{outcome}]"


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
