"""The registry of fact rules: a pattern anchored at the start of a clause, and its handler."""
from __future__ import annotations

from typing import Callable, Iterable

import regex as re

from ..intent import Change, Op
from ..lexicon import F

# Clause rules: (pattern anchored after the lead words, handler(match) -> changes, needed words).
# Order matters: negations and retractions come before the positive forms they resemble; the
# package imports its rule modules in the order they are tried.
Handler = Callable[[re.Match], list[Change]]
Rule = tuple[re.Pattern, Handler, tuple[str, ...]]
RULES: list[Rule] = []
RAW_RULES: list[Rule] = []   # matched before the lead words are stripped


def rule(pattern: str, raw: bool = False, needs: tuple[str, ...] = ()):
    """Register a handler for a clause pattern; the clause's lead words ("well, actually") are
    already stripped unless raw. `needs`: words one of which the clause must hold, checked before
    the pattern runs (for the patterns that must scan the whole clause)."""
    compiled = re.compile(rf"^(?:{pattern})", F)

    def register(handler: Handler) -> Handler:
        (RAW_RULES if raw else RULES).append((compiled, handler, needs))
        return handler
    return register


def each(op: Op, key: str, values: Iterable[str | None]) -> list[Change]:
    """One change per value that is not empty."""
    return [Change(op, key, v) for v in values if v]
