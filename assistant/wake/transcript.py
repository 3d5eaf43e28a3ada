"""Wake word on the transcript: robust to how the recogniser mishears "hey glados"
("hey gee let us", "hey g lados", "a glados"), and what follows it is the request."""
from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from .base import WakeMatch, WakeWord, Wording

WORD = re.compile(r"[a-z0-9']+")
CASED_WORD = re.compile(WORD.pattern, re.IGNORECASE)
GREETINGS = {"hey", "hi", "hello", "ok", "okay", "a", "hay", "he", "yo", "oh"}
# Real words and names the recogniser writes for speech that sounds like "GLaDOS", and other
# assistants' names: a phrase heard with one of these is someone else being addressed.
NEAR_MISSES = {"glad", "glads", "gladly", "gladys", "gladis", "gladness", "gladstone", "gladiator", "gladiators",
               "gladioli", "gladiolus", "glade", "glades", "lad", "lads", "guys", "claude", "claudia", "clyde", "glenda",
               "google", "jarvis", "siri", "alexa", "cortana"}
NAME_TAILS = {"os", "us", "dos", "ose", "oss", "ous", "oes", "o's", "ohs"}     # "glad os": her name, split
# Other people and assistants: heard without the hotword where her name would be, the hotword's
# "glados" was whisper's guess, not what was said ("hey Gladys" -> "hey glados" with the hotword).
OTHER_NAMES = {"gladys", "gladis", "gladstone", "claude", "claudia", "clyde", "glenda", "google", "jarvis", "siri",
               "alexa", "cortana",
               "guys", "lad", "lads"}      # people addressed together: never written for a call on the wake sets
# Without the hotword, whisper writes espeak-ng's "GLaDOS" as "glad I'm", "glad don't", "glad those",
# and GLAD-oss as "glad us": replaced in the wordings only when the hotword's transcript of the same
# audio called her, and not before a word with Gladys's second vowel ("Glad this is coming round
# later", "Hey, glad this are you", "Glad it's going cold": there it is Gladys, see someone_else).
HER_NAME_AS_WORD = {"glad"}
GLADYS_TAILS = {"is", "this", "his", "it's"}
SPELLED_AS_HER = 0.85    # letters in common (difflib's ratio): "gladdos" 0.92 is her name, "gladys" 0.83 is not
# How the recogniser writes a name, for wordings scored against the audio (else: capitalised).
SPELLINGS = {"glados": ("GLaDOS", "Glados")}


def _spellings(name: list[str]) -> tuple[str, ...]:
    """How the recogniser writes her name (SPELLINGS), else each word capitalised."""
    return SPELLINGS.get(" ".join(name), (" ".join(w.capitalize() for w in name),))


def _split_gladys(words: Sequence[str], i: int) -> bool:
    """words[i] is "glad" before a word with Gladys's second vowel: "Glad it's going cold"."""
    return words[i] in HER_NAME_AS_WORD and i + 1 < len(words) and words[i + 1] in GLADYS_TAILS


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


def _someone_else(heard: list[str], vetoed: set[str]) -> bool:
    """A near-miss word in the span, unless the name was only split in two ("glad os")."""
    return any(w in vetoed and not (i + 1 < len(heard) and heard[i + 1] in NAME_TAILS)
               for i, w in enumerate(heard))


class TranscriptWakeWord(WakeWord):
    """Looks for the phrase within the first few words, comparing spellings and consonant
    skeletons; the name alone ("glados, ...") counts too."""

    def __init__(self, threshold: float = 0.78, search_words: int = 3):
        self.threshold, self.search_words = threshold, search_words

    def best(self, transcript: str, phrase: str) -> WakeMatch | None:
        """The closest the transcript comes to calling her, whatever the threshold (for benchmarks)."""
        spans = list(WORD.finditer(transcript.lower()))
        words = [m.group() for m in spans]
        wanted = WORD.findall(phrase.lower())
        if not words or not wanted:
            return None
        name = [w for w in wanted if w not in GREETINGS] or wanted
        vetoed = NEAR_MISSES - set(wanted)
        best: tuple[float, int] = (0.0, 0)
        begins = 0
        for start in range(min(self.search_words, len(words))):
            for length in range(1, min(len(wanted) + 3, len(words) - start) + 1):
                heard = words[start:start + length]
                for target in (wanted, name):
                    score = self._score(heard, target, wanted, name, vetoed)
                    if score > best[0]:
                        best, begins = (score, start + length), start
        # Called at the end ("what time is it, GLaDOS?"): the name alone, after the request.
        tail: tuple[float, int] = (0.0, 0)
        if len(words) > len(name):
            for length in range(1, len(name) + 2):
                score = self._score(words[-length:], name, wanted, name, vetoed)
                if score > tail[0]:
                    tail = (score, length)
        # The request keeps its own spelling and punctuation ("2.5 minutes"): cut at the matched words.
        if tail[0] > best[0] and len(words) > tail[1]:
            return WakeMatch(transcript[:spans[-tail[1]].start()].strip(" ,.!?"), tail[0])
        if best[0] <= 0:
            return None
        request = transcript[spans[best[1] - 1].end():].strip(" ,.!?")
        if not request and not all(w in GREETINGS for w in words[:begins]):
            # Her name last after a short request ("lights off, GLaDOS"): the words before it
            request = transcript[:spans[begins].start()].strip(" ,.!?")
        return WakeMatch(request, best[0])

    def someone_else(self, plain: str, phrase: str, anywhere: bool = False) -> bool:
        """A transcript made without the hotword names another person or assistant in the first
        three words or the last, where her name would be (anywhere: in any place), and does not call
        her itself. Without the hotword, whisper never wrote a longer word beginning like her name for
        a call to her (on the wake sets); it wrote "Gladys", "Gladly", "Gladdies", "Gladest" for people
        and words, and "glad" before Gladys's second vowel ("Glad it's going cold") for her too."""
        words = WORD.findall(plain.lower())
        if not words:
            return False
        wanted = WORD.findall(phrase.lower())
        others = OTHER_NAMES - set(wanted)
        name = "".join(w for w in wanted if w not in GREETINGS)
        # Her name's first four letters and more: "Gladdies", "Gladest", "Gladys" are someone else.
        kin = name[:4] if len(name) > 4 else None

        def other(i: int) -> bool:
            w = words[i]
            # ... unless spelled nearly as her name ("gladdos", "gladoss": whisper's spelling of it)
            return (w in others or (kin is not None and w.startswith(kin) and len(w) > len(kin)
                                    and SequenceMatcher(None, w, name).ratio() < SPELLED_AS_HER)
                    # "Glad it's going cold", "Hey, glad this are you coming": Gladys, split before her second
                    # vowel (on the wake sets never written for a call; GLAD-oss comes out "glad us")
                    or (name.startswith("glad") and _split_gladys(words, i)))
        near = range(len(words)) if anywhere else [*range(min(3, len(words))), len(words) - 1]   # first three, last
        if not any(other(i) for i in near):
            return False
        # Unless she is called besides: "hey GLaDOS, remind me to call Gladys" is hers.
        return self.match(" ".join(w for i, w in enumerate(words) if not other(i)), phrase) is None

    def near_miss(self, text: str, phrase: str) -> bool:
        return bool(((NEAR_MISSES | OTHER_NAMES) - set(WORD.findall(phrase.lower()))) & set(WORD.findall(text.lower())))

    def wordings(self, heard: str, phrase: str, quick: bool = False, called: bool = False) -> list[Wording]:
        """Her name in place of the first one or two words (after a greeting, or with one), or of
        the last one or two: "Waddles, I live in Bristol" -> "GLaDOS, I live in Bristol". Words
        that name someone else ("Gladys", "glad", "hey guys") are never replaced; "glad" only when
        called ("Hey, glad I'm good morning" -> "Hey GLaDOS, good morning"; not "Glad this is ...")."""
        spans = list(CASED_WORD.finditer(heard))
        words = [m.group().lower() for m in spans]
        wanted = WORD.findall(phrase.lower())
        name = [w for w in wanted if w not in GREETINGS] or wanted
        if not words or not wanted:
            return []
        spellings = _spellings(name)[: 1 if quick else None]
        greeting = next((w for w in wanted if w in GREETINGS), "hey").capitalize()
        gladys = any(_split_gladys(words, i) for i in range(len(words)))
        vetoed = (NEAR_MISSES | OTHER_NAMES) - set(wanted) - (HER_NAME_AS_WORD if called and not gladys else set())

        def rest(after: int) -> str:      # the words after a replaced opening, with the closing mark
            return heard[spans[after].end():].lstrip(" ,.!?;:")

        out: list[Wording] = []
        end = "?" if heard.rstrip().endswith("?") else "."
        for k in (1, 2):
            opening = words[:k]
            if len(words) > k and not vetoed & set(opening) and not all(w in GREETINGS for w in opening):
                tail = rest(k - 1)      # a word at least is kept: a text of her name alone explains no audio
                for spelled in spellings:
                    out += [Wording(f"{spelled}, {tail}", tail.strip(" ,.!?;:")),
                            Wording(f"{greeting} {spelled}, {tail}", tail.strip(" ,.!?;:"))]
            if words[0] in GREETINGS and len(words) > k and not vetoed & set(words[1:k + 1]):   # after a greeting
                tail = rest(k)
                for spelled in spellings:
                    said = f"{spans[0].group().capitalize()} {spelled},"
                    out.append(Wording(f"{said} {tail}" if tail else f"{said[:-1]}{end}", tail.strip(" ,.!?;:")))
            if not quick and len(words) > k and not vetoed & set(words[-k:]):      # at the end
                head = heard[:spans[-k].start()].strip(" ,.!?;:")
                if head:
                    out += [Wording(f"{head}, {spelled}{end}", head) for spelled in spellings]
        return out

    def placed(self, words: Sequence[str], start: int, stop: int, phrase: str) -> list[Wording]:
        """Her name in place of words[start:stop] or put in before words[start], anywhere in the
        transcript ("Right then Guado, let's begin" -> "Right then GLaDOS, let's begin"; "I'm learning
        Spanish" -> "GLaDOS, I'm learning Spanish"). Never in place of words naming someone else,
        "glad", or greetings alone; a word at least is kept."""
        wanted = WORD.findall(phrase.lower())
        name = [w for w in wanted if w not in GREETINGS] or wanted
        replaced = [w for word in words[start:stop] for w in WORD.findall(word.lower())]
        vetoed = (NEAR_MISSES | OTHER_NAMES | HER_NAME_AS_WORD) - set(wanted)
        if (vetoed & set(replaced) or (replaced and all(w in GREETINGS for w in replaced))
                or len(words) - (stop - start) < 1):
            return []
        before, after = " ".join(words[:start]), " ".join(words[stop:])
        out = []
        for spelled in _spellings(name):
            if after.strip(" ,.!?;:"):
                out.append(Wording(f"{before} {spelled}, {after}".strip(), after.strip(" ,.!?;:")))
            else:
                head = before.strip(" ,.!?;:")
                out.append(Wording(f"{head}, {spelled}{'?' if words[-1].endswith('?') else '.'}", head))
        return out

    @staticmethod
    def _score(heard: list[str], target: list[str], wanted: list[str], name: list[str], vetoed: set[str]) -> float:
        if all(w in GREETINGS for w in heard) or _someone_else(heard, vetoed):
            return 0.0      # a lone greeting is never enough; "glad", "Gladys", "hey guys" are someone else
        score = similarity(_letters(heard), _letters(target))
        # The name alone must be heard well.
        return score - 0.05 if target is name and len(name) < len(wanted) else score
