"""A memory plugin for assistants: facts with history, a message log with recall, summaries.

SQLite only: no audio, no network, no imports from `assistant`. Usage:

    from memory import Memory, build_system_prompt
    mem = Memory("memory.db")
    mem.observe("ada", "I'm vegetarian and I'm allergic to peanuts")
    prompt = build_system_prompt("You are GLaDOS.", mem.load_context("ada"))
"""
from typing import TYPE_CHECKING

# Each name loads its module on first use (PEP 562): `glados memory list` reads facts without loading
# recall, the rules or the memory block's writer. "name": "module" or "module:name in it".
_WHERE = {
    **dict.fromkeys(("Ambiguous", "BadImport", "Block", "Memory", "NotFound", "Observation", "TooLong"), "api"),
    **dict.fromkeys(("iso", "new_session_id", "utc_now"), "moments"),
    "bearing": "context", "build_system_prompt": "context", "hide": "context", "says_more": "context", "Erased": "erase",
    "resolve_dates": "dates:resolve", "say_day": "dates",
    **dict.fromkeys(("FORGOTTEN", "MULTI_VALUED", "SINGLE_VALUED", "Fact", "FactChange", "StaysPinned",
                     "UnknownKey"), "facts"),
    "KINDS": "kinds",
    **dict.fromkeys(("Change", "Command", "Parsed"), "intent"),
    "PROPOSAL_SCHEMA": "proposals:SCHEMA",
    **dict.fromkeys(("BadProposals", "Proposal", "Verdict", "parse_proposals"), "proposals"),
    "asks": "recall", "estimate_tokens": "messages",
    "content_words": "recall:terms",
    "RecallSettings": "settings",
    **dict.fromkeys(("Message", "Recalled", "Session", "Summary", "Voiceprint"), "records"),
    "Since": "records", "describe_changes": "since:describe", "is_secret": "since",
    **dict.fromkeys(("clean", "printable", "to_them", "to_you"), "text"),
    **dict.fromkeys(("CorruptDatabase", "MemoryStoreError", "NoMemoryYet", "ReadOnlyDatabase", "UnusablePath"),
                    "store"),
    # the rules (a few hundred regexes) and consolidation's grounding
    "parse": "parsing", "mine": "parsing", "from_third_person": "parsing", "ungrounded": "consolidate",
}

if TYPE_CHECKING:
    from .api import Ambiguous, BadImport, Block, Memory, NotFound, Observation, TooLong
    from .moments import iso, new_session_id, utc_now
    from .context import bearing, build_system_prompt, hide, says_more
    from .erase import Erased
    from .dates import resolve as resolve_dates, say_day
    from .facts import FORGOTTEN, MULTI_VALUED, SINGLE_VALUED, Fact, FactChange, StaysPinned, UnknownKey
    from .kinds import KINDS
    from .intent import Change, Command, Parsed
    from .proposals import SCHEMA as PROPOSAL_SCHEMA, BadProposals, Proposal, Verdict, parse_proposals
    from .messages import estimate_tokens
    from .recall import asks, terms as content_words
    from .settings import RecallSettings
    from .records import Message, Recalled, Session, Since, Summary, Voiceprint
    from .since import describe as describe_changes, is_secret
    from .text import clean, printable, to_them, to_you
    from .store import CorruptDatabase, MemoryStoreError, NoMemoryYet, ReadOnlyDatabase, UnusablePath
    from .parsing import from_third_person, mine, parse
    from .consolidate import ungrounded


def embedder_missing() -> str | None:
    """Why recall by meaning cannot be used (one line), or None when the sentence model is installed.
    Loads nothing (the model's module is imported only now)."""
    from .embed import missing
    return missing()


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'memory' has no attribute {name!r}")
    module, _, attr = where.partition(":")
    from importlib import import_module
    value = getattr(import_module(f".{module}", __name__), attr or name)
    globals()[name] = value          # found once; later uses are plain lookups
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Ambiguous", "asks", "BadImport", "BadProposals", "Block", "Change", "Command", "CorruptDatabase", "Erased", "FORGOTTEN", "Fact",
    "FactChange", "KINDS", "MULTI_VALUED", "Memory", "MemoryStoreError", "Message", "NoMemoryYet", "NotFound",
    "Observation", "PROPOSAL_SCHEMA", "Parsed", "Proposal", "ReadOnlyDatabase", "RecallSettings", "Recalled",
    "SINGLE_VALUED", "Session", "Since", "StaysPinned", "Summary", "TooLong", "UnknownKey", "UnusablePath", "Verdict", "Voiceprint",
    "bearing", "build_system_prompt", "clean", "hide", "content_words", "describe_changes", "embedder_missing", "estimate_tokens", "is_secret", "iso", "mine", "new_session_id",
    "from_third_person", "parse", "parse_proposals", "printable", "resolve_dates", "say_day", "says_more", "to_them", "to_you", "ungrounded", "utc_now",
]
