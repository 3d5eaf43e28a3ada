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


FIRST_PERSON = re.compile(r"\b(?:i am|i'm|im|i've|i'll|i'd|i|me|my|mine|myself)\b", re.IGNORECASE)
SECOND = {"i am": "you are", "i'm": "you're", "im": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd",
          "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself"}
THIRD = {"i am": "they are", "i'm": "they're", "im": "they're", "i've": "they've", "i'll": "they'll", "i'd": "they'd",
         "i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves"}


def to_you(text: str) -> str:
    """The user's words said back to them: "my locker code is 4512" -> "your locker code is 4512"."""
    return FIRST_PERSON.sub(lambda m: SECOND[m[0].lower()], text)


def to_them(text: str) -> str:
    """The user's words told about them: "my locker code is 4512" -> "their locker code is 4512"."""
    return FIRST_PERSON.sub(lambda m: THIRD[m[0].lower()], text)


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
