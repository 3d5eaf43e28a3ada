"""A thinking trace that arrives in the reply's text (`<think>...</think>`, from an older Ollama or an old
model template) is taken out as it streams: never printed, spoken or stored."""
from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


class ThinkStripper:
    """Feed the content as it streams; get back only what is outside the trace. A text that starts with
    `<think>` is held until `</think>`; a bare `</think>` is never given out (before any visible text, what
    preceded it is the trace); a tag split across chunks is held until it is whole."""

    def __init__(self) -> None:
        self._held = ""
        self._inside = False
        self._started = False      # visible text has been given out: a later '<think>' is just text
        self.seen = False          # a trace was taken out: this model thinks in its text

    def feed(self, text: str) -> str:
        self._held += text
        out = []
        while self._held:
            if self._inside:
                end = self._held.find(CLOSE)
                if end < 0:
                    self._held = self._held[-(len(CLOSE) - 1):]     # keep a tag's possible start
                    break
                self._held, self._inside = self._held[end + len(CLOSE):].lstrip(), False
                continue
            if not self._started:
                lead = self._held.lstrip()
                if lead.startswith(OPEN):
                    self._held, self._inside, self.seen = lead[len(OPEN):], True, True
                    continue
                if OPEN.startswith(lead):          # '<thi' so far: wait for the rest
                    break
            # a bare '</think>' (a template that opened the block in the prompt): what came before it in this
            # stream, while nothing was given out, is the trace; after that, the tag alone goes
            end = self._held.find(CLOSE)
            if end >= 0:
                self.seen = True
                before = self._held[:end] if self._started else ""
                out.append(before)
                self._started = self._started or bool(before.strip())
                rest = self._held[end + len(CLOSE):]
                self._held = rest if before.strip() else rest.lstrip()
                continue
            keep = next((n for n in range(len(CLOSE) - 1, 0, -1) if self._held.endswith(CLOSE[:n])), 0)
            given, self._held = (self._held[:-keep], self._held[-keep:]) if keep else (self._held, "")
            out.append(given)
            self._started = self._started or bool(given.strip())
            if keep:
                break
        return "".join(out)

    def flush(self) -> str:
        """What is still held when the stream ends (an unfinished trace is dropped)."""
        rest, self._held = ("" if self._inside else self._held), ""
        return rest
