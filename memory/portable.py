"""A user's memories as one JSON document, and back: every fact row with its history, every message, the
summaries and the voice. Importing is idempotent: what is already there (same origin: text and times) is
not added again."""
from __future__ import annotations

import sqlite3

from . import facts as F, messages as M, summaries as S, voiceprints as V
from .records import Voiceprint
from .store import MemoryStoreError, transaction
from .text import clean

FORMAT = "glados-memory/1"


class BadImport(MemoryStoreError):
    """An import file that is not a memory export."""


def export(db: sqlite3.Connection, user: str, now: str) -> dict:
    return {
        "format": FORMAT, "user": user, "exported_at": now,
        "facts": [f.to_json() for f in F.history(db, user)],
        "messages": [dict(r) for r in M.all_of(db, user)],
        "summaries": [{"session": r["session"], "text": r["text"], "created_at": r["created_at"]}
                      for r in S.all_for(db, user)],
        "voiceprint": _voiceprint_json(V.one(db, user)),
    }


def import_(db: sqlite3.Connection, user: str, data: dict, now: str) -> dict[str, int]:
    """Add an export's rows to `user`, whoever it was made for (see Memory.import_)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadImport(f"not a memory export (expected format {FORMAT!r})")
    counts = {"facts": 0, "messages": 0, "summaries": 0, "voiceprint": 0}
    try:
        with transaction(db):
            id_map: dict[int, int] = {}
            for m in data.get("messages", []):
                text, session, created = clean(str(m["text"])), str(m["session"]), str(m["created_at"])
                same = M.same_message(db, user, session, m["role"], created, text)
                if same is not None:
                    id_map[int(m["id"])] = same
                    continue
                id_map[int(m["id"])] = M.log(db, user, session, m["role"], text, created,
                                             int(m.get("tokens") or 0) or None, bool(m.get("interrupted")),
                                             _kind(m.get("kind")))
                counts["messages"] += 1
            for f in data.get("facts", []):
                counts["facts"] += _import_fact(db, user, f, id_map)
            for s in data.get("summaries", []):
                counts["summaries"] += S.add(db, user, str(s["session"]), clean(str(s["text"])), str(s["created_at"]))
            voice = data.get("voiceprint")
            if voice and V.one(db, user) is None:
                V.save(db, user, [float(x) for x in voice["vector"]], int(voice["utterances"]), str(voice["model"]), now)
                counts["voiceprint"] = 1
    except (KeyError, TypeError, ValueError, sqlite3.IntegrityError) as exc:
        raise BadImport(f"import file is malformed ({type(exc).__name__}: {exc}); nothing was imported") from exc
    return counts


def _import_fact(db: sqlite3.Connection, user: str, f: dict, id_map: dict[int, int]) -> int:
    key, value = F.check_key(str(f["key"])), clean(str(f["value"]))
    if F.imported_before(db, user, key, value, f["asserted_at"], f["valid_from"]):
        return 0
    F.insert(db, user, key, value, clean(str(f.get("source") or "")),
             id_map.get(f.get("source_message_id") or -1), asserted_at=f["asserted_at"],
             valid_from=f["valid_from"], valid_to=f.get("valid_to"), ended_by=f.get("ended_by"),
             confirmations=int(f.get("confirmations") or 1), fact_id=None if F.id_taken(db, str(f["id"])) else str(f["id"]),
             origin="model" if f.get("origin") == "model" else "user", origin_model=f.get("origin_model"),
             user_pinned=bool(f.get("user_pinned")),
             importance=float(f["importance"]) if f.get("importance") is not None else None,
             client_source=str(f["client_source"]) if f.get("client_source") else None)
    return 1


def _voiceprint_json(print_: Voiceprint | None) -> dict | None:
    if print_ is None:
        return None
    return {"vector": list(print_.vector), "utterances": print_.utterances, "model": print_.model,
            "created_at": print_.created_at, "updated_at": print_.updated_at}


def _kind(value: object) -> str | None:
    """A message kind from an export (older exports have none: the default applies)."""
    from .kinds import KINDS
    return value if value in KINDS else None
