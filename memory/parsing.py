"""One parse per utterance: everything a sentence means, for `Memory.observe` and the assistant.

Each sentence is read once, in this order: a forget command, a "remember that ..." note, a
correction of what was just said, a question about the user, and otherwise the fact rules.
"""
from __future__ import annotations

from . import grammar
from .intent import Change, Command, Parsed
from .lexicon import HAS_LETTER, SENTENCE_SPLIT, normalise
from .text import clean
from .rules import last_animal, mine_statements


def _sentence(sentence: str, mentioned: str | None) -> tuple[Command | None, list[Change]]:
    for read in (grammar.forget, grammar.note):
        found = read(sentence)
        if found is not None:
            return found
    pinned = grammar.pin(sentence)
    if pinned is not None:
        return pinned, []
    corrected = grammar.correction(sentence)
    if corrected is not None:
        return None, corrected
    asked = grammar.question(sentence)
    if asked is not None:
        return asked, []
    changes = mine_statements(sentence, mentioned)
    wake = next((c for c in changes if c.key == "wake_word" and c.op == "assert"), None)
    return (Command("wake_word", wake.value or "") if wake else None), changes


def parse(text: str) -> Parsed:
    """What `text` means: its storable form, the fact changes in order (no duplicates), and the
    first memory command in it, if any."""
    stored = clean(text)
    text = normalise(stored)
    if not text or not HAS_LETTER.search(text):
        return Parsed(stored)
    command: Command | None = None
    changes: list[Change] = []
    mentioned: str | None = None      # "i love cats! i have one myself": the animal of the sentence before
    sentences = [s.strip() for s in SENTENCE_SPLIT.split(text) if s.strip()]
    for i, sentence in enumerate(sentences):
        found, said = _sentence(sentence, mentioned)
        command = command or found
        changes += [c for c in said if c not in changes]
        if i + 1 < len(sentences):
            mentioned = last_animal(sentence) or mentioned
    return Parsed(stored, tuple(changes), command)


def mine(text: str) -> list[Change]:
    """Only the fact changes of `text` (the labelled corpus and the benchmarks score these)."""
    return list(parse(text).changes)
