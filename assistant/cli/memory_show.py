"""The words and tables the memory commands and the chat's /memory share: a fact change, a recalled message, a
fact table, the questions before a deletion and what is said after it."""
from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from memory import Fact, FactChange, Memory, printable

if TYPE_CHECKING:
    from memory import Recalled

LEGEND = "* pinned: always in her memory, whatever the cap (allergies, diet, health)"
SYMBOLS = {"added": "+", "superseded": "~", "reconfirmed": "=", "retracted": "-", "forgotten": "x", "pinned": "*"}


def describe(change: FactChange) -> str:
    symbol = SYMBOLS.get(change.kind, "?")
    if change.kind == "superseded":
        return f"{symbol} {change.key}: {change.old_value} -> {change.value}"
    return f"{symbol} {change.key}: {change.value} ({change.kind})"


RECALL_SHOWN = 300      # characters of each recalled item printed (--json gives them whole)


def recall_line(r: Recalled) -> str:
    """One recalled item, its text cut to RECALL_SHOWN characters (keeping the sentence that answered: see
    Recalled.excerpt), with her reply to it on the next line."""
    where = f"session {r.session}" if r.session else "note"
    from memory import describe_changes     # what changed since: loaded by the commands that show it
    changed = f" {describe_changes(r.since)}" if r.since else ""
    line = f"[{when(r.created_at)} {where}] {r.role}: {_shown(r.text, r.excerpt(RECALL_SHOWN))}{changed}"
    return line + (f"\n    her reply: {_shown(r.reply)}" if r.reply else "")


def _shown(text: str, excerpt: str | None = None) -> str:
    text = " ".join(printable(text).split())
    if len(text) <= RECALL_SHOWN:
        return text
    shown = printable(excerpt) if excerpt else text[:RECALL_SHOWN]
    return f"{shown} … ({len(text):,} characters in all; --json for all)"


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 summary", "2 summaries", "no voiceprint"."""
    return f"no {word}" if n == 0 else f"1 {word}" if n == 1 else f"{n} {many or word + 's'}"


def imported(counts: dict[str, int]) -> str:
    """"3 facts, 12 messages, 1 summary and no voiceprint"."""
    parts = [plural(counts["facts"], "fact"), plural(counts["messages"], "message"),
             plural(counts["summaries"], "summary", "summaries"), plural(counts["voiceprint"], "voiceprint")]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def when(stamp: str | None) -> str:
    """A stored UTC time as local time with its offset, to the second: what --at accepts back."""
    if not stamp:
        return ""
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return moment.astimezone().isoformat(sep=" ", timespec="seconds")


def fact_rows(facts: list[Fact], history: bool = False,
              expired: set[str] = frozenset()) -> tuple[tuple[str, ...], list[list[str]]]:
    """Facts as a table's columns and rows (pinned keys starred); with history, when and why each ended (or
    that it expired: still believed, but out of recall and the memory block)."""
    columns = ("id", "key", "value", "since", "from") + (("until", "why") if history else ())
    rows = []
    for f in facts:
        row = [f.id[:8], f.key + (" *" if f.pinned else ""), printable(f.value), when(f.valid_from), origin_label(f)]
        if history:
            row += [when(f.valid_to), f.ended_by or ("expired" if f.id in expired else "")]
        rows.append(row)
    return columns, rows


def origin_label(fact: Fact) -> str:
    """'you' for facts the rules read from the user's words; 'model (llama3.2)' for the model's."""
    return f"model ({fact.origin_model})" if fact.origin == "model" else "you"


CLEAR_QUESTION = "Delete everything remembered about {user!r}? Type YES to confirm: "


def cleared(counts: dict[str, int], user: str) -> str:
    return (f"deleted {counts['facts']} facts, {counts['messages']} messages and "
            f"{counts['summaries']} summaries for {user!r}")


PINNED_QUESTION = "Delete {n} pinned facts ({what})? They keep you safe. Type YES to confirm: "


def confirmed(answer: str | None) -> bool:
    """A typed YES, in any case ("yes" means yes too); anything else deletes nothing."""
    return (answer or "").strip().casefold() == "yes"


def not_confirmed(answer: str | None) -> str:
    """What is said when a deletion was not confirmed, and why."""
    return "nothing deleted" if not (answer or "").strip() else f"nothing deleted: {answer.strip()!r} is not YES"


def pin_lines(memory: Memory, user: str, target: str, on: bool) -> list[str]:
    """`pin`/`unpin` (the CLI and the chat's /memory pin): what changed, one line each."""
    changed = memory.pin(user, target) if on else memory.unpin(user, target)
    word = "pinned" if on else "unpinned"
    return [f"{word} {f.key}: {f.value}" for f in changed] or [f"nothing to change: already {word}"]
