"""Facts: upsert by key with history kept. State deduplicates; history appends.

A single-valued key's new value closes the current row (valid_to, ended_by='superseded') and
opens a new one; the same value again only reconfirms it. Multi-valued keys accumulate without
duplicates, and each value can be retracted alone. Forget deletes every row, every copy.
"""
from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from typing import Iterable, Literal

import re   # the standard module: storage loads fast; the rules use `regex`
from functools import cache

from .store import MemoryStoreError
from .text import norm, titled

MULTI_VALUED = {"allergy", "likes", "dislikes", "pet", "language", "medical", "note"}
SINGLE_VALUED = {"name", "location", "hometown", "employer", "job", "diet", "birthday", "age",
                 "partner", "favorite_language", "wake_word"}
PINNED_KEYS = {"allergy", "diet", "medical"}
PROPER_NOUN_KEYS = {"name", "location", "hometown", "employer", "partner"}
OPPOSITES = {"likes": "dislikes", "dislikes": "likes"}
MEDICAL = (  # compiled on first use (see _medical)
    r"\b(?:allerg\w*|anaphyla\w*|epi-?pens?|medications?|medicines?|meds|insulin|diabet\w*|asthma\w*|"
    r"inhalers?|blood (?:type|pressure|thinners?)|pregnan\w*|seizures?|epilep\w*|heart condition|"
    r"pacemaker|prescriptions?|dosage|celiac|coeliac|intoleran\w*|migraines?|surgery|medical|"
    r"doctor|cholesterol|kidney|liver|cancer|chemo\w*|disorder|syndrome|disease)\b")
KEY_SHAPE = re.compile(r"^[a-z][a-z0-9_]{0,40}$")
FORGOTTEN = "[forgotten]"


Origin = Literal["user", "model"]


@cache
def _medical() -> re.Pattern:
    return re.compile(MEDICAL, re.IGNORECASE)


class UnknownKey(ValueError):
    """A key outside the fact vocabulary."""


@dataclass(frozen=True)
class Fact:
    """One row of a fact's history; valid_to is None while it is believed."""
    id: str
    key: str
    value: str
    source: str
    asserted_at: str
    valid_from: str
    valid_to: str | None
    ended_by: str | None
    confirmations: int
    pinned: bool
    source_message_id: int | None = None
    origin: Origin = "user"            # "model": proposed by a language model at a session's end
    origin_model: str | None = None    # which model
    user_pinned: bool = False          # pinned by the user's choice (`pinned` is also set for allergy, diet, medical)
    importance: float | None = None    # how much it matters, as a client said (0-1); None: unsaid
    client_source: str | None = None   # where a client said it came from ("user", "conversation", "system")

    def to_json(self) -> dict:
        return asdict(self)


# "ambiguous": nothing changed; a forget named several notes, listed so the user can choose one.
ChangeKind = Literal["added", "reconfirmed", "superseded", "retracted", "forgotten", "ambiguous", "pinned"]


@dataclass(frozen=True)
class FactChange:
    """What one mined change did to the stored facts."""
    kind: ChangeKind
    key: str
    value: str
    old_value: str | None = None
    fact_id: str | None = None


def is_known_key(key: str) -> bool:
    """In the fact vocabulary: a named key or any favorite_<thing>."""
    return key in MULTI_VALUED or key in SINGLE_VALUED or key.startswith("favorite_")


def check_key(key: str) -> str:
    if not KEY_SHAPE.match(key or ""):
        raise UnknownKey(f"fact key {key!r} must be lowercase letters, digits and underscores")
    if is_known_key(key):
        return key
    raise UnknownKey(f"unknown fact key {key!r}; use one of {', '.join(sorted(SINGLE_VALUED | MULTI_VALUED))} or favorite_<thing>")


def is_pinned(key: str, value: str) -> bool:
    """Safety-relevant facts are always in context: allergies, diet and medical notes."""
    return key in PINNED_KEYS or (key == "note" and bool(_medical().search(value)))


def _row_to_fact(row: sqlite3.Row) -> Fact:
    return Fact(id=row["id"], key=row["key"], value=row["value"], source=row["source"],
                asserted_at=row["asserted_at"], valid_from=row["valid_from"], valid_to=row["valid_to"],
                ended_by=row["ended_by"], confirmations=row["confirmations"], pinned=bool(row["pinned"]),
                source_message_id=row["source_message_id"], origin=row["origin"], origin_model=row["origin_model"],
                user_pinned=bool(row["user_pinned"]), importance=row["importance"],
                client_source=row["client_source"])


def current(db: sqlite3.Connection, user: str, key: str | None = None) -> list[Fact]:
    sql = "SELECT * FROM facts WHERE user = ? AND valid_to IS NULL"
    args: list = [user]
    if key:
        sql += " AND key = ?"
        args.append(key)
    return [_row_to_fact(r) for r in db.execute(sql + " ORDER BY seq", args)]


def for_context(db: sqlite3.Connection, user: str, newest: int, first: Iterable[str] = ()) -> list[Fact]:
    """Every pinned current fact, every current one of the keys in `first`, plus the `newest` other current
    facts (newest first)."""
    pinned = db.execute("SELECT * FROM facts WHERE user = ? AND pinned = 1 AND valid_to IS NULL ORDER BY seq",
                        (user,)).fetchall()
    keys = sorted(set(first))
    marks = ",".join("?" * len(keys))
    chosen = db.execute(f"SELECT * FROM facts WHERE user = ? AND pinned = 0 AND valid_to IS NULL AND key IN ({marks}) "
                        "ORDER BY seq DESC", (user, *keys)).fetchall() if keys else []
    others = db.execute("SELECT * FROM facts WHERE user = ? AND pinned = 0 AND valid_to IS NULL "
                        "ORDER BY seq DESC LIMIT ?", (user, max(0, newest))).fetchall()
    seen = {r["id"] for r in chosen}
    return [_row_to_fact(r) for r in (*pinned, *chosen, *(r for r in others if r["id"] not in seen))]


def believed_at(db: sqlite3.Connection, user: str, at: str) -> list[Fact]:
    """What was believed at `at`: asserted by then, valid from then, not yet ended then."""
    rows = db.execute(
        "SELECT * FROM facts WHERE user = ? AND asserted_at <= ? AND valid_from <= ? "
        "AND (valid_to IS NULL OR valid_to > ?) ORDER BY seq", (user, at, at, at))
    return [_row_to_fact(r) for r in rows]


def history(db: sqlite3.Connection, user: str) -> list[Fact]:
    return [_row_to_fact(r) for r in db.execute("SELECT * FROM facts WHERE user = ? ORDER BY seq", (user,))]


def stated_in(db: sqlite3.Connection, user: str, message_ids: list[int]) -> list[Fact]:
    """The current facts stated in these messages: the newest message first, and in one message the
    last stated first ("My name is Alex and I live in Bath": the location, then the name)."""
    order = {m: i for i, m in enumerate(sorted(set(message_ids), reverse=True))}
    found = [f for f in current(db, user) if f.source_message_id in order]
    return sorted(reversed(found), key=lambda f: order[f.source_message_id])


def shape_like(key: str, value: str) -> str:
    """A bare corrected value in the form its key stores: "bristol" -> "Bristol" for a place, "a doctor"
    -> "doctor" for a job, "forty" -> "40" for an age, "veggie" -> "vegetarian"."""
    from .lexicon import DIETS, as_number
    from .values import bare
    value = bare(value)
    if key in PROPER_NOUN_KEYS or key == "language":
        return titled(value)
    if key == "age" and as_number(value) is not None:
        return str(as_number(value))
    if key == "diet":
        return DIETS.get(value.casefold(), value)
    return value


def assert_fact(db: sqlite3.Connection, user: str, key: str, value: str, now: str,
                source: str = "", message_id: int | None = None, origin: Origin = "user",
                origin_model: str | None = None, pin: bool = True) -> list[FactChange]:
    """Upsert one value; returns what changed (caller holds the transaction). pin=False: a safety key's
    value is stored unpinned (a model wrote it through a tool: not the user's safety fact)."""
    key = check_key(key)
    changes: list[FactChange] = []
    existing = current(db, user, key)
    same = [f for f in existing if norm(f.value) == norm(value)]
    if same:
        db.execute("UPDATE facts SET confirmed_at = ?, confirmations = confirmations + 1 WHERE id = ?",
                   (now, same[0].id))
        return [FactChange("reconfirmed", key, same[0].value, fact_id=same[0].id)]
    old_value, keep_pin = None, False
    if key not in MULTI_VALUED:
        for old in existing:
            _close(db, old.id, now, "superseded")
            old_value, keep_pin = old.value, keep_pin or old.user_pinned   # a pinned fact stays pinned as it changes
    elif key in OPPOSITES:
        changes += retract(db, user, OPPOSITES[key], value, now)
    fact_id = insert(db, user, key, value, source, message_id, asserted_at=now, valid_from=now,
                     origin=origin, origin_model=origin_model, user_pinned=keep_pin, pin=pin)
    kind = "superseded" if old_value is not None else "added"
    return changes + [FactChange(kind, key, value, old_value=old_value, fact_id=fact_id)]


def mention(db: sqlite3.Connection, user: str, key: str, value: str, now: str, source: str = "",
            message_id: int | None = None) -> list[FactChange]:
    """A fact told in passing ("toys for my dog, Max"): stored only where nothing known says it already. It
    never replaces a value told outright ("my husband" leaves partner: Tom); a pet's name fills in its bare kind
    ("dog" becomes "dog named Max")."""
    existing = current(db, user, key)
    if any(matches(f, value) for f in existing):
        return []
    if key not in MULTI_VALUED:
        return [] if existing else assert_fact(db, user, key, value, now, source, message_id)
    kind = value.split(" named ")[0]
    bare = next((f for f in existing if " named " in value and f.value.casefold() == kind.casefold()), None)
    if bare is None:
        return assert_fact(db, user, key, value, now, source, message_id)
    _close(db, bare.id, now, "superseded")
    fact_id = insert(db, user, key, value, source, message_id, asserted_at=now, valid_from=now,
                     user_pinned=bare.user_pinned)
    return [FactChange("superseded", key, value, old_value=bare.value, fact_id=fact_id)]


def insert(db: sqlite3.Connection, user: str, key: str, value: str, source: str, message_id: int | None, *,
           asserted_at: str, valid_from: str, valid_to: str | None = None, ended_by: str | None = None,
           confirmations: int = 1, fact_id: str | None = None, origin: Origin = "user",
           origin_model: str | None = None, user_pinned: bool = False, importance: float | None = None,
           client_source: str | None = None, pin: bool = True) -> str:
    """Write one history row as given (assert_fact decides what to close; import copies rows)."""
    import uuid
    fact_id = fact_id or uuid.uuid4().hex
    db.execute(
        "INSERT INTO facts (id, user, key, value, value_norm, source, source_message_id, asserted_at,"
        " valid_from, valid_to, ended_by, confirmed_at, confirmations, pinned, origin, origin_model, user_pinned,"
        " importance, client_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (fact_id, user, key, value, norm(value), source, message_id, asserted_at, valid_from, valid_to,
         ended_by, asserted_at, confirmations, (pin and is_pinned(key, value)) or user_pinned, origin, origin_model, user_pinned,
         importance, client_source))
    return fact_id


def imported_before(db: sqlite3.Connection, user: str, key: str, value: str, asserted_at: str, valid_from: str) -> bool:
    return db.execute("SELECT 1 FROM facts WHERE user = ? AND key = ? AND value_norm = ? AND asserted_at = ? "
                      "AND valid_from = ?", (user, key, norm(value), asserted_at, valid_from)).fetchone() is not None


def id_taken(db: sqlite3.Connection, fact_id: str) -> bool:
    return db.execute("SELECT 1 FROM facts WHERE id = ?", (fact_id,)).fetchone() is not None


def set_importance(db: sqlite3.Connection, user: str, fact_ids: Iterable[str], importance: float,
                   source: str | None) -> None:
    db.executemany("UPDATE facts SET importance = ?, client_source = coalesce(?, client_source) "
                   "WHERE id = ? AND user = ?", [(importance, source, i, user) for i in fact_ids])


class NotFound(MemoryStoreError):
    """No fact matches the id prefix or key given."""


class Ambiguous(MemoryStoreError):
    """An id prefix matches more than one fact."""


def pick(db: sqlite3.Connection, user: str, target: str) -> list[Fact]:
    """The current facts `target` names: a key ("location") or 4 or more characters of a fact id."""
    target = target.strip()
    facts = current(db, user)
    if is_known_key(target):
        rows = [f for f in facts if f.key == target]
    else:
        if len(target) < 4:
            raise NotFound(f"{target!r} is neither a fact key (location, diet, ...) nor 4 or more characters "
                           "of a fact id; see 'glados memory list'")
        rows = [f for f in facts if f.id.startswith(target.lower())]
        if len(rows) > 1:
            raise Ambiguous(f"{target!r} matches {len(rows)} facts; give more of the id")
    if not rows:
        raise NotFound(f"no current fact {target!r} for this user; see 'glados memory list'")
    return rows


class StaysPinned(MemoryStoreError):
    """Allergies, diet and medical facts are pinned for the user's safety: they cannot be unpinned."""


def set_pin(db: sqlite3.Connection, facts: list[Fact], on: bool) -> list[Fact]:
    """Pin (or unpin) these facts by the user's choice; returns those whose pin changed."""
    if not on:
        safe = [f for f in facts if is_pinned(f.key, f.value)]
        if safe:
            raise StaysPinned(f"{', '.join(f'{f.key}: {f.value}' for f in safe)} "
                              + ("stays pinned: it keeps you safe (forget it instead to delete it)" if len(safe) == 1
                                 else "stay pinned: they keep you safe (forget them instead to delete them)"))
    changed = [f for f in facts if f.user_pinned != on]
    db.executemany("UPDATE facts SET user_pinned = ?, pinned = ? WHERE id = ?",
                   [(on, on or is_pinned(f.key, f.value), f.id) for f in changed])
    return changed


def _close(db: sqlite3.Connection, fact_id: str, now: str, why: str) -> None:
    db.execute("UPDATE facts SET valid_to = ?, ended_by = ? WHERE id = ?", (now, why, fact_id))


def matches(fact: Fact, value: str | None) -> bool:
    """None matches every value; 'dog' matches 'dog named Rex'; 'peanut' matches 'peanuts'."""
    if value is None:
        return True
    if norm(fact.value) == norm(value):
        return True
    words = set(norm(w) for w in fact.value.split())
    return all(norm(w) in words for w in value.split())


def retract(db: sqlite3.Connection, user: str, key: str, value: str | None, now: str) -> list[FactChange]:
    """End the current value(s) of key that match value; history keeps them."""
    out = []
    for fact in current(db, user, key):
        if matches(fact, value):
            _close(db, fact.id, now, "retracted")
            out.append(FactChange("retracted", key, fact.value, fact_id=fact.id))
    return out


CORRECTED = "corrected by you"     # the source of a value the user set by hand (the memory page)


def correct(db: sqlite3.Connection, user: str, fact: Fact, value: str, now: str) -> list[FactChange]:
    """The user's own correction of one current fact (the memory page): the old row is superseded and the new
    value, its source CORRECTED, begins that moment, pinned as the old one was; history keeps both. A value the
    key holds already only ends the old row."""
    _close(db, fact.id, now, "superseded")
    if any(norm(f.value) == norm(value) for f in current(db, user, fact.key)):
        return [FactChange("retracted", fact.key, fact.value, fact_id=fact.id)]
    fact_id = insert(db, user, fact.key, value, CORRECTED, None, asserted_at=now, valid_from=now,
                     user_pinned=fact.user_pinned)
    return [FactChange("superseded", fact.key, value, old_value=fact.value, fact_id=fact_id)]


def find_for_forget(db: sqlite3.Connection, user: str, key: str | None, value: str | None) -> list[Fact]:
    """Every row, current or past, that a forget of (key, value) covers: all versions of a value.
    With no key only exact values are taken, so "forget red" spares "red wine"."""
    rows = history(db, user)
    if key is not None:
        chosen = [f for f in rows if f.key == key and matches(f, value)]
    elif value is not None:
        chosen = [f for f in rows if norm(f.value) == norm(value)]
    else:
        chosen = []
    pairs = {(f.key, norm(f.value)) for f in chosen}
    return [f for f in rows if (f.key, norm(f.value)) in pairs]
