"""Plain text helpers that storage needs, without the regexes of understanding (fast to import)."""
from __future__ import annotations

import re   # the standard module
from functools import cache

SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
MIN_PIECE_WORDS = 4  # a shorter sentence ("Thanks, Nate!") is read with the next one
MAX_PIECES = 8       # sentences given a vector of their own, from the start of a message


# What a terminal would obey rather than show: escape sequences whole (CSI "\x1b[31m", OSC "\x1b]0;title\x07",
# DCS and the like up to their terminator), every other C0 and C1 control but newline and tab, DEL, and the
# bidirectional overrides that reorder what is shown. Compiled on first use (most text has none: 0.6 ms saved
# at start-up).
@cache
def _control() -> re.Pattern:
    return re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|.)?|\x9b[0-?]*[ -/]*[@-~]?"
                      r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", re.DOTALL)


def clean(text: str) -> str:
    """Storable text: lone surrogates replaced, line ends made newlines, control characters and escape
    sequences taken out (newlines and tabs kept, but not around the text: `observe -` reads a line with its end):
    stored words never drive a terminal that shows them."""
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return printable(text.replace("\r\n", "\n").replace("\r", "\n")).strip()


def printable(text: str) -> str:
    """Text without escape sequences or control characters but newline and tab (for a terminal)."""
    return _control().sub("", text) if not text.isprintable() else text


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
    """Speech-to-text gives "new york"; keep typed capitals ("iPhone", "McDonald's") as they are. A word starts
    after a space or a hyphen, never after an apostrophe: "children's hospital" -> "Children's Hospital"."""
    return WORD_START.sub(lambda m: m[0].upper(), value) if value == value.lower() else value


WORD_START = re.compile(r"(?:^|(?<=[\s\-/(]))\w")


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


def norm(value: str) -> str:
    """Comparison form: case-folded, spaces collapsed, a plural 's' ignored ('peanut' = 'peanuts')."""
    value = " ".join(value.casefold().split())
    return value[:-1] if len(value) > 3 and value.endswith("s") and not value.endswith("ss") else value
