"""Lab 6: the wake word on a transcript. The recogniser mishears "hey glados" in many ways, so
we compare spellings and consonant skeletons ("heygeeletus" and "heyglados" both -> "klts"). A real
word that sounds alike ("Gladys", "glad") is someone else being addressed; the name may come last.

    .venv/bin/python labs/06_wake_word.py
"""
import re
from difflib import SequenceMatcher

from assistant.wake import TranscriptWakeWord, skeleton, similarity

NEAR_MISSES = {"gladys", "glad", "gladly", "guys", "google"}    # real words: someone else is being addressed


def toy_match(heard: str, phrase: str = "hey glados", threshold: float = 0.78) -> str | None:
    """Slide the phrase's length of letters over the transcript; the closest spelling past the threshold is
    a call, and the words after it are the request. A near miss in the transcript is not her."""
    words = re.findall(r"[a-z']+", heard.lower())
    if NEAR_MISSES & set(words):
        return None
    target = phrase.replace(" ", "")
    best, at = 0.0, 0
    for start in range(len(words)):
        for stop in range(start + 1, min(len(words), start + 5) + 1):
            score = SequenceMatcher(None, "".join(words[start:stop]), target).ratio()
            if score > best:
                best, at = score, stop
    return " ".join(words[at:]) if best >= threshold else None


wake = TranscriptWakeWord()
print("the toy (spelling alone) and the project (spelling, consonant skeleton, near misses, name last):")
for heard in ["Hey GLaDOS, what time is it?", "hey gee let us what time is it", "lights off, GLaDOS",
              "Hey Gladys, lights off", "Hey guys, what's up?", "My name is Bob."]:
    match, toy = wake.match(heard, "hey glados"), toy_match(heard)
    print(f"{heard!r:34} toy: {'wake, ' + repr(toy) if toy is not None else 'not for her':28} "
          f"project: {'wake, ' + repr(match.request) if match else 'not for her'}")
print(f"skeletons: heygeeletus={skeleton('heygeeletus')!r} heyglados={skeleton('heyglados')!r} "
      f"similarity={similarity('heygeeletus', 'heyglados'):.2f}")
print("notice: spelling alone misses 'hey gee let us', whose consonant skeleton is her name's; a real name that")
print("        sounds alike (Gladys) is someone else; with her name last, the request is what came before it.")
