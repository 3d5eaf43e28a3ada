"""A memory plugin for assistants: facts with history, a message log with recall, summaries.

SQLite only: no audio, no network, no imports from `assistant`. Usage:

    from memory import Memory, build_system_prompt
    mem = Memory("memory.db")
    mem.observe("ada", "I'm vegetarian and I'm allergic to peanuts")
    prompt = build_system_prompt("You are GLaDOS.", mem.load_context("ada"))
"""
from .api import Ambiguous, BadImport, Memory, NotFound, Observation, iso, new_session_id
from .context import build_system_prompt
from .dates import resolve as resolve_dates, say_day
from .facts import MULTI_VALUED, SINGLE_VALUED, Fact, FactChange, UnknownKey
from .intent import Change, Command, CommandKind, Op, Parsed, Target
from .proposals import SCHEMA as PROPOSAL_SCHEMA, BadProposals, Proposal, Verdict, parse_proposals
from .recall import Recalled, RecallSettings, estimate_tokens
from .store import CorruptDatabase, MemoryStoreError, NoMemoryYet, ReadOnlyDatabase, UnusablePath


def __getattr__(name: str):
    """`parse` and `mine` load the rules (a few hundred regexes) on first use, not on import:
    reading and deleting memories starts fast."""
    if name in ("parse", "mine"):
        from . import parsing
        return getattr(parsing, name)
    raise AttributeError(f"module 'memory' has no attribute {name!r}")

__all__ = [
    "Ambiguous", "BadImport", "BadProposals", "Change", "Command", "CommandKind", "CorruptDatabase", "Fact", "FactChange",
    "Memory", "MemoryStoreError", "MULTI_VALUED", "NoMemoryYet", "NotFound", "Observation", "Op", "Parsed", "PROPOSAL_SCHEMA", "Proposal", "ReadOnlyDatabase", "Recalled", "RecallSettings",
    "SINGLE_VALUED", "Target", "UnknownKey", "Verdict", "build_system_prompt", "estimate_tokens", "iso", "mine", "parse", "parse_proposals",
    "new_session_id", "UnusablePath", "resolve_dates", "say_day",
]
