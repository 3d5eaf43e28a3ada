"""What recall looks at: the user's messages and notes it may see, found by meaning, by the days a question
names and by what follows a match, each with its cosine (the best sentence's when that is nearer)."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from ..dates import Window
from ..messages import END_OF_TIME
from ..text import pieces
from .items import Candidate

if TYPE_CHECKING:
    import numpy as np

    from ..vectors import VectorIndex


DATED = 2000              # messages of the days a question names that are compared by meaning, newest first


@dataclass(frozen=True)
class Seen:
    """Which of the user's messages recall may look at: not the current session's newest (from id
    `cutoff` on: already in the prompt), none said after `until`."""
    session: str | None
    cutoff: int
    until: str = END_OF_TIME

    @property
    def params(self) -> tuple:
        """For "NOT (m.session IS ? AND m.id >= ?) AND {STILL_TRUE}"."""
        return self.session, self.cutoff, self.until, self.until, self.until


# Said by then, and not a message whose facts had all been superseded or retracted by then (three
# parameters, each the time: see Seen.params)
STILL_TRUE = """m.created_at <= ? AND NOT (
    EXISTS (SELECT 1 FROM facts f WHERE f.source_message_id = m.id AND f.valid_to <= ?)
    AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.source_message_id = m.id AND (f.valid_to IS NULL OR f.valid_to > ?)))"""


def meanings(db: sqlite3.Connection, user: str, index: "VectorIndex", query: "np.ndarray",
              candidates: list[Candidate], vectors: dict, focus: dict) -> None:
    """Each candidate's cosine with the query: its message's, or its best sentence's when that is
    higher (a question one sentence of a long message answers), and its crowding.
    The vectors read are added to `vectors`, and the one that gave the cosine (message or sentence) to `focus`."""
    import numpy as np     # noqa: F811 - only with the model: words-only recall never loads numpy
    ids = [c.message_id for c in candidates if c.message_id]
    found, crowding = index.vectors(db, user, ids)
    if not found:
        return
    vectors.update(found)
    cosines = dict(zip(found, (np.stack(list(found.values())) @ query).tolist()))
    focus.update(found)
    readings: dict = {}
    parts_of: dict = {}
    for m, best in index.best_parts(db, list(found), query, readings).items():
        if best > cosines[m]:
            cosines[m], focus[m] = best, readings[m][1]
            parts_of[m] = readings[m][0]
    for c in candidates:
        if c.message_id in cosines:
            c.cosine = cosines[c.message_id]
            if c.message_id in parts_of:
                said = pieces(c.text)
                c.focus_text = said[parts_of[c.message_id]] if parts_of[c.message_id] < len(said) else said[0]
            c.crowding = crowding[c.message_id]


def said_between(db: sqlite3.Connection, user: str, index: "VectorIndex", query: "np.ndarray",
                  days: Window, limit: int, seen: Seen) -> list[int]:
    """The user's messages from the days a question names, nearest in meaning first (at most
    `limit`; the newest DATED of those days are looked at)."""
    import numpy as np     # noqa: F811
    end = min((days.end + timedelta(days=1)).isoformat(), seen.until)
    ids = [r[0] for r in db.execute(
        "SELECT id FROM messages WHERE user = ? AND role = 'user' AND created_at >= ? AND created_at <= ? "
        "ORDER BY id DESC LIMIT ?", (user, days.start.isoformat(), end, DATED))]
    found, _ = index.vectors(db, user, ids)
    if not found:
        return []
    held = list(found)
    cosines = np.stack(list(found.values())) @ query
    return [held[i] for i in np.argsort(-cosines)[:limit]]


def add_messages(db: sqlite3.Connection, user: str, ids: list[int], seen: Seen,
                  found: dict[str, Candidate]) -> None:
    """Messages found by meaning alone (no word in common with the query)."""
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    rows = db.execute(
        f"""SELECT m.id, m.session, m.role, m.text, m.created_at, m.kind FROM messages m
            WHERE m.id IN ({marks}) AND +m.user = ? AND m.role = 'user' AND NOT (m.session IS ? AND m.id >= ?)
            AND {STILL_TRUE}""",
        (*ids, user, *seen.params)).fetchall()
    for r in rows:
        found[str(r["id"])] = Candidate("message", str(r["id"]), r["session"], r["role"], r["text"],
                                         r["created_at"], r["kind"], 0.0, message_id=r["id"])


def window_start(db: sqlite3.Connection, user: str, session: str | None, window: int) -> int:
    """The id of the oldest message in the current session's recent window (or beyond every id)."""
    if session is None or window <= 0:
        return 2**62
    row = db.execute("SELECT id FROM messages WHERE user = ? AND session = ? ORDER BY id DESC "
                     "LIMIT 1 OFFSET ?", (user, session, window - 1)).fetchone()
    if row is None:
        return 0   # the whole session fits in the window
    return int(row[0])
