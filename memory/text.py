"""Plain text helpers that storage needs, without the regexes of understanding (fast to import)."""
from __future__ import annotations


def clean(text: str) -> str:
    """Storable text: lone surrogates and NULs replaced, every other character kept."""
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text.replace("\x00", "\ufffd")


def titled(value: str) -> str:
    """Speech-to-text gives "new york"; keep typed capitals ("iPhone", "McDonald's") as they are."""
    return value.title() if value == value.lower() else value
