"""What she learned about a user, what replaced what and when, what was taken back and what was forgotten: the
facts' history rows and the forgettings (keys and times only), as one list of events, newest first."""
from __future__ import annotations

import sqlite3

from . import facts as F
from .erase import forgettings
from .records import Event

def timeline(db: sqlite3.Connection, user: str) -> list[Event]:
    rows = F.history(db, user)
    # a row superseded at the moment another of its key began: that one replaced it (the user, by hand: corrected)
    ended = {(f.key, f.valid_to): f for f in rows if f.valid_to and f.ended_by == "superseded"}
    events = []
    for f in rows:
        by = f"model ({f.origin_model})" if f.origin == "model" else "you"
        old = ended.get((f.key, f.valid_from))
        what = "learned" if old is None else "corrected" if f.source == F.CORRECTED else "replaced"
        events.append(Event(f.asserted_at, what, f.key, f.value, old.value if old else None, by, f.source))
        if f.ended_by == "retracted" and f.valid_to:
            events.append(Event(f.valid_to, "retracted", f.key, f.value, by=by))
    events += [Event(at, "forgotten", key) for key, at in forgettings(db, user)]
    return sorted(events, key=lambda e: e.at, reverse=True)
