"""A scripted model implementing the project's LLM interface (no network), for unit tests."""
from __future__ import annotations

from collections import deque
from typing import Iterator

from assistant.llm import LLM, Chunk, LLMUnavailable, ToolCall


class ScriptedLLM(LLM):
    """Replays enqueued replies word by word; an enqueued exception is raised mid-stream."""

    def __init__(self, model: str = "scripted", tools: bool = False, up: bool = True):
        self.model, self.tools, self.up = model, tools, up
        self.script: deque = deque()
        self.requests: list[list[dict]] = []
        self.formats: list[dict | None] = []
        self.notes: deque = deque()                 # replies to the running note's rewrite (enqueue_note)
        self.note_requests: list[list[dict]] = []   # kept apart, so a script of turn replies stays in step

    def enqueue(self, text: str = "", tool_calls: list[ToolCall] | None = None,
                fail_after: int | None = None, error: BaseException | None = None) -> "ScriptedLLM":
        self.script.append((text, tool_calls or [], fail_after, error))
        return self

    def enqueue_note(self, text: str) -> "ScriptedLLM":
        self.notes.append(text)
        return self

    def check(self) -> None:
        if not self.up:
            raise LLMUnavailable("scripted model is down")

    def supports_tools(self) -> bool:
        return self.tools

    def chat(self, messages, tools=None, max_tokens=None, format=None,
             temperature=None) -> Iterator[Chunk]:
        if not self.up:
            raise LLMUnavailable("scripted model is down")
        if isinstance(format, dict) and "lines" in format.get("properties", {}):
            self.note_requests.append([dict(m) for m in messages])
            yield Chunk(text=self.notes.popleft() if self.notes else '{"lines": []}', done=True)
            return
        self.requests.append([dict(m) for m in messages])
        self.formats.append(format)
        text, calls, fail_after, error = self.script.popleft() if self.script else ("Scripted reply.", [], None, None)
        words = text.split(" ") if text else []
        for i, word in enumerate(words):
            if fail_after is not None and i >= fail_after:
                raise error or KeyboardInterrupt()
            yield Chunk(text=word + (" " if i < len(words) - 1 else ""))
        if calls:
            yield Chunk(tool_calls=tuple(calls))
        yield Chunk(done=True)
