"""Plain text helpers that storage needs, without the regexes of understanding (fast to import)."""
from __future__ import annotations

import re   # the standard module

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MIN_PIECE_WORDS = 4  # a shorter sentence ("Thanks, Nate!") is read with the next one
MAX_PIECES = 8       # sentences given a vector of their own, from the start of a message


def clean(text: str) -> str:
    """Storable text: lone surrogates and NULs replaced, every other character kept."""
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text.replace("\x00", "\ufffd")


def titled(value: str) -> str:
    """Speech-to-text gives "new york"; keep typed capitals ("iPhone", "McDonald's") as they are."""
    return value.title() if value == value.lower() else value


def pieces(text: str) -> list[str]:
    """A message's sentences, each short one joined to the next ("Wow! I finally finished my
    screenplay." is one piece), at most MAX_PIECES from its start; one piece for a single sentence."""
    out: list[str] = []
    for sentence in SENTENCE_END.split(text[:4000].strip()):
        if out and len(out[-1].split()) < MIN_PIECE_WORDS:
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    if len(out) > 1 and len(out[-1].split()) < MIN_PIECE_WORDS:    # a short last one joins the one before
        out[-2:] = [f"{out[-2]} {out[-1]}"]
    return out[:MAX_PIECES]
