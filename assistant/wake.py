"""Wake word on the transcript: robust to how the recogniser mishears "hey glados"
("hey gee let us", "hey g lados", "a glados"), and what follows it is the request."""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from difflib import SequenceMatcher

WORD = re.compile(r"[a-z0-9']+")
GREETINGS = {"hey", "hi", "hello", "ok", "okay", "a", "hay", "he", "yo", "oh"}


@dataclass(frozen=True)
class WakeMatch:
    request: str        # the words after the wake word ("" when she was only called)
    score: float


class WakeWord(ABC):
    @abstractmethod
    def match(self, transcript: str, phrase: str) -> WakeMatch | None:
        ...


def _letters(words: list[str]) -> str:
    return "".join(words).replace("'", "")


VOICING = str.maketrans("dzbgvq", "tspkfk")


def skeleton(text: str) -> str:
    """Consonants only, voiced and unvoiced merged, doubles merged: 'geeletus' ~ 'glados'."""
    text = re.sub(r"[aeiouyhw]", "", text).translate(VOICING)
    return re.sub(r"(.)\1+", r"\1", text)


def similarity(heard: str, wanted: str) -> float:
    letters = SequenceMatcher(None, heard, wanted).ratio()
    bones = SequenceMatcher(None, skeleton(heard), skeleton(wanted)).ratio()
    return max(letters, (letters + bones) / 2)


class TranscriptWakeWord(WakeWord):
    """Looks for the phrase within the first few words, comparing spellings and consonant
    skeletons; the name alone ("glados, ...") counts too."""

    def __init__(self, threshold: float = 0.78, search_words: int = 3):
        self.threshold, self.search_words = threshold, search_words

    def match(self, transcript: str, phrase: str) -> WakeMatch | None:
        found = self.best(transcript, phrase)
        return found if found is not None and found.score >= self.threshold else None

    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """The closest the transcript comes to calling her, whatever the threshold (for benchmarks)."""
        words = WORD.findall(transcript.lower())
        wanted = WORD.findall(phrase.lower())
        if not words or not wanted:
            return None
        name = [w for w in wanted if w not in GREETINGS] or wanted
        best: tuple[float, int] = (0.0, 0)
        for start in range(min(self.search_words, len(words))):
            for length in range(1, min(len(wanted) + 3, len(words) - start) + 1):
                heard = words[start:start + length]
                for target in (wanted, name):
                    score = similarity(_letters(heard), _letters(target))
                    # The name alone must be heard well; a lone greeting word is never enough.
                    if target is name and len(name) < len(wanted):
                        score -= 0.05
                    if all(w in GREETINGS for w in heard):
                        score = 0.0
                    if score > best[0]:
                        best = (score, start + length)
        if best[0] <= 0:
            return None
        rest = words[best[1]:]
        original = transcript.split()
        # Keep the request's own spelling and punctuation: drop as many words as were matched.
        request = " ".join(original[len(original) - len(rest):]) if rest else ""
        return WakeMatch(request.strip(" ,.!?"), best[0])
