"""Time as the memory stores it, and new session ids: a leaf every part may import."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """One fixed-width UTC format, so stored times compare correctly as strings."""
    if moment.tzinfo is None:
        moment = moment.astimezone()   # a naive time is the user's local time
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_session_id() -> str:
    return uuid.uuid4().hex[:12]
