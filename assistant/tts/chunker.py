"""Sentence chunking for streaming speech: any synthesiser speaks whole sentences as they come."""
from __future__ import annotations

import re

SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+|\n+")


class SentenceChunker:
    """Collects streamed text; hands out whole sentences as soon as they are complete, so the
    first sentence is spoken while the model still writes the rest."""

    def __init__(self, max_chars: int = 240, streaming: bool = True):
        self.buffer = ""
        self.max_chars = max_chars
        self.streaming = streaming      # False: hold everything until flush (the whole-reply baseline)

    def feed(self, text: str) -> list[str]:
        self.buffer += text
        if not self.streaming:
            return []
        out = []
        while True:
            m = SENTENCE_END.search(self.buffer)
            if m and m.start() > 0:
                sentence, self.buffer = self.buffer[: m.start()].strip(), self.buffer[m.end():]
                if sentence:
                    out.append(sentence)
                continue
            if len(self.buffer) > self.max_chars:   # a run-on sentence: cut at the last comma or space
                cut = max(self.buffer.rfind(", ", 0, self.max_chars), self.buffer.rfind(" ", 0, self.max_chars))
                cut = cut if cut > 0 else self.max_chars
                out.append(self.buffer[:cut].strip(" ,"))
                self.buffer = self.buffer[cut:].lstrip(" ,")
                continue
            return out

    def flush(self) -> list[str]:
        rest, self.buffer = self.buffer.strip(), ""
        return [rest] if rest else []
