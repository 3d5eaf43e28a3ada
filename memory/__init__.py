"""A memory plugin for assistants: facts with history, a message log with recall, summaries.

SQLite only: no audio, no network, no imports from `assistant`. Usage:

    from memory import Memory, build_system_prompt
    mem = Memory("memory.db")
    mem.observe("ada", "I'm vegetarian and I'm allergic to peanuts")
    prompt = build_system_prompt("You are GLaDOS.", mem.load_context("ada"))
"""
from .api import Ambiguous, BadImport, Memory, NotFound, Observation, TooLong, iso, new_session_id, utc_now
from .context import build_system_prompt
from .dates import resolve as resolve_dates, say_day
from .facts import FORGOTTEN, MULTI_VALUED, SINGLE_VALUED, Fact, FactChange, StaysPinned, UnknownKey
from .kinds import KINDS
from .intent import Change, Command, CommandKind, Op, Parsed, Target
from .proposals import SCHEMA as PROPOSAL_SCHEMA, BadProposals, Proposal, Verdict, parse_proposals
from .recall import STOPWORDS, Recalled, RecallSettings, asks, estimate_tokens, terms as content_words
from .records import Message, Session, Summary, Voiceprint
from .since import Changes, Since, describe as describe_changes
from .text import clean, printable, to_them, to_you
from .store import CorruptDatabase, MemoryStoreError, NoMemoryYet, ReadOnlyDatabase, UnusablePath


def embedder_missing() -> str | None:
    """Why recall by meaning cannot be used (one line), or None when the sentence model is installed.
    Loads nothing (the model's module is imported only now)."""
    from .embed import missing
    return missing()


def __getattr__(name: str):
    """`parse` and `mine` load the rules (a few hundred regexes) on first use, not on import:
    reading and deleting memories starts fast."""
    if name in ("parse", "mine"):
        from . import parsing
        return getattr(parsing, name)
    if name == "ungrounded":          # the words of a value the user did not say (consolidation's grounding)
        from .consolidate import ungrounded
        return ungrounded
    raise AttributeError(f"module 'memory' has no attribute {name!r}")

__all__ = [
    "Ambiguous", "asks", "BadImport", "BadProposals", "Change", "Changes", "Command", "CommandKind", "CorruptDatabase", "FORGOTTEN", "Fact",
    "FactChange", "KINDS", "MULTI_VALUED", "Memory", "MemoryStoreError", "Message", "NoMemoryYet", "NotFound",
    "Observation", "Op", "PROPOSAL_SCHEMA", "Parsed", "Proposal", "ReadOnlyDatabase", "RecallSettings", "Recalled",
    "SINGLE_VALUED", "STOPWORDS", "Session", "Since", "StaysPinned", "Summary", "Target", "TooLong", "UnknownKey", "UnusablePath", "Verdict", "Voiceprint",
    "build_system_prompt", "clean", "content_words", "describe_changes", "embedder_missing", "estimate_tokens", "iso", "mine", "new_session_id",
    "parse", "parse_proposals", "printable", "resolve_dates", "say_day", "to_them", "to_you", "ungrounded", "utc_now",
]
