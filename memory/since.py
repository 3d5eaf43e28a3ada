"""What changed since a stored text was written. Messages, her replies and summaries stay as written
(the log is append-only); a reader that hands one to the model asks which values it states that are
no longer believed, and says so beside it: "(since 5 December 2026: diet "pescatarian")".

A text states a fact when it is the fact's source message, or when it holds the value in one of the
ways it is said back (`sayings`: "my locker code is 4512" is "your locker code is 4512" in her reply
and "their locker code is 4512" in a summary). Forgetting finds copies the same way (erase.redact).
"""
from __future__ import annotations

import functools
import re

from .records import Since
from .text import norm, to_them, to_you

WHOLE_STATEMENTS = ("note", "message")     # values that are the user's own sentence, said back in person
SECRET = re.compile(r"(?<!\w)\d[\d-]{2,}\d(?!\w)|(?<!\w)\d{3}(?!\w)")   # 3+ digits: a code, a number


def sayings(key: str, value: str) -> list[str]:
    """The ways a stored value is written back: as stored, and a sentence of the user's in the second
    and third person."""
    value = " ".join(value.split())
    out = [value]
    if key in WHOLE_STATEMENTS:
        out += [v for v in (to_you(value), to_them(value)) if v not in out]
    return out


# Stored as proper nouns ("Bath", "Ada"): a text states one only as written ("a bath" is not Bath); what
# states it in lowercase speech is its source message, linked by id.
NAMES = {"name", "location", "hometown", "employer", "partner"}


@functools.lru_cache(maxsize=512)
def pattern(key: str, value: str) -> re.Pattern | None:
    """Any saying of the value as whole words, in any case, a plural -s or -es allowed (what forgetting
    takes out); None for a value too short to find safely."""
    return _alternation([s for s in sayings(key, value) if len(s.strip()) >= 2], re.IGNORECASE)


# What names a secret: a remembered sentence with one of these and a number (or any password) is one.
SECRET_WORDS = re.compile(r"\b(?:codes?|pins?|passcodes?|combination|combo|lock|locker|safe|alarm|access|door|gate|"
                          r"login|account number|card number|security)\b", re.IGNORECASE)
PASSWORD = re.compile(r"\b(?:password|passphrase|passwd|wi-?fi key)\b", re.IGNORECASE)


def is_secret(key: str, value: str) -> bool:
    """A remembered sentence that holds a secret ("my locker code is 4512", "the wifi password is
    hunter2"): kept, and answered from memory when asked, but never handed to a model unasked."""
    return key in WHOLE_STATEMENTS and (bool(PASSWORD.search(value))
                                        or bool(SECRET.search(value) and SECRET_WORDS.search(value)))


def found_by(key: str, value: str) -> list[re.Pattern]:
    """What finds a stored value wherever it was copied: each of its sayings, and a remembered sentence's
    numbers on their own (forgetting redacts by these, in the database and outside it)."""
    return [p for p in (pattern(key, value),) if p is not None] + numbers_in(key, value)


def numbers_in(key: str, value: str) -> list[re.Pattern]:
    """A remembered sentence's numbers (`secrets`), each as a whole word."""
    return [re.compile(rf"(?<!\w){re.escape(s)}(?!\w)") for s in secrets(key, value)]


def secrets(key: str, value: str) -> list[str]:
    """The numbers of a remembered sentence (a locker code, a PIN): said back in words nobody can
    predict ("the code is 4512"), forgetting takes them out wherever they are."""
    return SECRET.findall(value) if key in WHOLE_STATEMENTS else []


def describe(changes: tuple[Since, ...]) -> str:
    """The note put beside a stored text for the model; "" when nothing it states has changed."""
    return f"(changed {'; '.join(c.say() for c in changes)})" if changes else ""


class Changes:
    """The user's values that are no longer believed, read once from their fact history (oldest first),
    to mark any number of stored texts."""

    def __init__(self, history: list) -> None:
        current: dict[str, list[str]] = {}
        for f in history:
            if f.valid_to is None:
                current.setdefault(f.key, []).append(f.value)
        held = {(k, norm(v)) for k, vs in current.items() for v in vs}
        ended: dict[tuple[str, str], Since] = {}
        self._sources: dict[int, list[Since]] = {}
        for f in history:
            if f.valid_to is None or (f.key, norm(f.value)) in held:
                continue
            now = current[f.key][-1] if f.key in current and f.ended_by == "superseded" else None
            since = Since(f.key, f.value, now, f.valid_to)
            ended[(f.key, norm(f.value))] = since     # the newest ending of a value wins
        for f in history:
            found = ended.get((f.key, norm(f.value)))
            if found is not None and f.source_message_id is not None:
                self._sources.setdefault(f.source_message_id, []).append(found)
        self._ended = list(ended.values())
        # every saying of every ended value in one pattern (a name or place as written, the rest in any case),
        # so a text is read once, however many values changed; each pattern's sayings, to look a match up
        groups: dict[int, tuple[list[str], dict[str, list[Since]]]] = {0: ([], {}), re.IGNORECASE: ([], {})}
        for since in self._ended:
            written, said = groups[0 if since.key in NAMES and since.old[:1].isupper() else re.IGNORECASE]
            for saying in sayings(since.key, since.old):
                if len(saying.strip()) >= 2:
                    written.append(saying)
                    said.setdefault(_spoken(saying), []).append(since)
        self._readers = [(_alternation(written, flags), said) for flags, (written, said) in groups.items() if written]

    def __bool__(self) -> bool:
        return bool(self._ended)

    def of(self, text: str, message_id: int | None = None) -> tuple[Since, ...]:
        """What `text` (message `message_id`, when it is one) states that has changed since."""
        out = {(s.key, norm(s.old)): s for s in self._sources.get(message_id, ())} if message_id is not None else {}
        for found, said in self._readers:
            for m in found.finditer(text):
                for since in said.get(_spoken(m.group("v")), ()):
                    out.setdefault((since.key, norm(since.old)), since)
        return tuple(out.values())


def _spoken(saying: str) -> str:
    return " ".join(saying.casefold().split())


def _alternation(said: list[str], flags: int) -> re.Pattern | None:
    """One pattern for all of them as whole words (a plural -s or -es allowed), the longest first."""
    if not said:
        return None
    alternatives = "|".join(r"\s+".join(map(re.escape, s.split())) for s in sorted(set(said), key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?P<v>{alternatives})(?:e?s)?(?!\w)", flags)     # v: the saying, for the lookup


