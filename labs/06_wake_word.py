"""Lab 6: the wake word on a transcript. The recogniser mishears "hey glados" in many ways, so
we compare spellings and consonant skeletons ("heygeeletus" and "heyglados" both -> "klts"). A real
word that sounds alike ("Gladys", "glad") is someone else being addressed; the name may come last.

    .venv/bin/python labs/06_wake_word.py
"""
from assistant.wake import TranscriptWakeWord, skeleton, similarity

wake = TranscriptWakeWord()
for heard in ["Hey GLaDOS, what time is it?", "hey gee let us what time is it", "lights off, GLaDOS",
              "Hey Gladys, lights off", "Hey guys, what's up?", "My name is Bob."]:
    match = wake.match(heard, "hey glados")
    print(f"{heard!r:40} -> {'wake, request: ' + repr(match.request) if match else 'not for her'}")
print(f"skeletons: heygeeletus={skeleton('heygeeletus')!r} heyglados={skeleton('heyglados')!r} "
      f"similarity={similarity('heygeeletus', 'heyglados'):.2f}")
print('notice: a misheard name still wakes her, a real name that sounds alike (Gladys) does not, and the request is what follows.')
