"""The chat APIs the proxy speaks, as plain functions: Ollama's /api/chat and /api/generate (the one-shot
`ollama run MODEL "prompt"`), and OpenAI's /v1/chat/completions. Read a request once into a `ChatRequest`, add the memory to
it (the block to its system message, the recalled messages before the newest user message),
read the reply's text out of what upstream sent, and write an answer made from memory in either format."""
from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass
from typing import Literal

from ..turn.prompt import ASKED

Api = Literal["ollama", "generate", "openai"]
# A client's own background request, not the user's words: Open WebUI's title, tag, follow-up and query
# prompts begin "### Task:"; they pass through without the memory and are not remembered.
BACKGROUND = re.compile(r"^\s*###\s*Task\s*:", re.IGNORECASE)
PATHS: dict[str, Api] = {"/api/chat": "ollama", "/api/generate": "generate", "/v1/chat/completions": "openai"}


class BadRequest(ValueError):
    """The body is not a chat request this proxy can read; the message says what is wrong."""


@dataclass(frozen=True)
class ChatRequest:
    api: Api
    body: dict
    model: str
    stream: bool
    user_text: str | None     # the newest user message (None: there is none, or the client's own task: nothing to remember)
    carried: int              # messages before it the client sent (its own history): recall skips as many
    follow_up: bool = False   # messages come after it (a tool's result, her half-answer): it was taken in already


def read_request(api: Api, raw: bytes) -> ChatRequest:
    try:
        body = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the body is not JSON ({exc})") from exc
    if api == "generate":
        if not isinstance(body, dict):
            raise BadRequest("a generate request is a JSON object")
        prompt = body.get("prompt")
        text = prompt if isinstance(prompt, str) and not body.get("raw") and not BACKGROUND.match(prompt) else None
        return ChatRequest(api, body, str(body.get("model", "")), bool(body.get("stream", True)), text or None, 0)
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise BadRequest("a chat request needs a list of messages")
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
    text = _text(messages[last_user].get("content")) if last_user is not None else None
    carried = sum(1 for m in messages[:last_user or 0] if m.get("role") in ("user", "assistant"))
    stream = bool(body.get("stream", api == "ollama"))      # Ollama streams unless told not to; OpenAI the opposite
    if text and BACKGROUND.match(text):
        text = None
    follow_up = last_user is not None and any(m.get("role") != "user" for m in messages[last_user + 1:])
    return ChatRequest(api, body, str(body.get("model", "")), stream, text or None, carried, follow_up)


def _text(content) -> str:
    """A message's words: a string, or OpenAI's list of parts (its text parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def with_memory(request: ChatRequest, memory_text: str, num_ctx: int | None = None, recalled: str = "") -> bytes:
    """The request's body with `memory_text` (the memory block, the same turn after turn) added to its system
    message (or a system message added first), `recalled` (the messages recalled for this turn) put before
    the newest user message, and `num_ctx` where the client set none (the proxy's own requests use it: one
    value, no reloads). What changes every turn goes late, so the server's prompt cache keeps the rest."""
    body = dict(request.body)
    if num_ctx and request.api != "openai":
        options = body.get("options") if isinstance(body.get("options"), dict) else {}
        body["options"] = {"num_ctx": num_ctx, **options}
    if request.api == "generate":
        if memory_text:
            system = body.get("system") if isinstance(body.get("system"), str) else ""
            body["system"] = f"{system.rstrip()}\n\n{memory_text}".strip()
        if recalled and isinstance(body.get("prompt"), str):
            body["prompt"] = f"{recalled}\n\n{ASKED}\n{body['prompt']}"
        return json.dumps(body).encode()
    if not memory_text and not recalled:
        return json.dumps(body).encode()
    messages = [dict(m) for m in request.body["messages"]]
    if memory_text:
        system = next((m for m in messages if m.get("role") == "system" and isinstance(m.get("content"), str)), None)
        if system is None:
            messages.insert(0, {"role": "system", "content": memory_text})
        else:
            system["content"] = f"{system['content'].rstrip()}\n\n{memory_text}"
    last = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=None)
    if recalled and last is not None:
        content = messages[last].get("content")
        if isinstance(content, str):
            messages[last]["content"] = f"{recalled}\n\n{ASKED}\n{content}"
        elif isinstance(content, list):      # OpenAI's parts: the recalled messages as a text part first
            messages[last]["content"] = [{"type": "text", "text": f"{recalled}\n\n{ASKED}"}, *content]
    return json.dumps({**body, "messages": messages}).encode()


class ReplyReader:
    """Follows the reply's bytes as they pass and keeps its text: Ollama's NDJSON lines or OpenAI's server-
    sent events, streamed, or one JSON body. `done`: the reply said it was complete."""

    def __init__(self, api: Api, stream: bool):
        self.api, self.stream = api, stream
        self.parts: list[str] = []
        self.done = False
        self._pending = b""

    def feed(self, data: bytes) -> None:
        self._pending += data
        if not self.stream:
            return
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def close(self) -> None:
        if not self.stream:
            try:
                body = json.loads(self._pending or b"{}")
            except (json.JSONDecodeError, UnicodeDecodeError):
                return
            self._chunk(body, whole=True)
        elif self._pending.strip():
            self._line(self._pending.strip())

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def _line(self, line: bytes) -> None:
        if self.api == "openai":
            if not line.startswith(b"data:"):
                return
            line = line[5:].strip()
            if line == b"[DONE]":
                self.done = True
                return
        try:
            chunk = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return
        self._chunk(chunk, whole=False)

    def _chunk(self, chunk, whole: bool) -> None:
        if not isinstance(chunk, dict):
            return
        if self.api in ("ollama", "generate"):
            said = chunk.get("response") if self.api == "generate" else (chunk.get("message") or {}).get("content")
            self.parts.append(str(said or ""))
            self.done = self.done or bool(chunk.get("done"))
            return
        for choice in chunk.get("choices") or []:
            part = choice.get("message" if whole else "delta") or {}
            self.parts.append(str(part.get("content") or ""))
            self.done = self.done or (whole and bool(choice.get("finish_reason")))


def answer(request: ChatRequest, text: str) -> tuple[bytes, str]:
    """A reply made from memory (a memory command), in the request's format: (body, content type)."""
    if request.api == "generate":
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        lines = [{"model": request.model, "created_at": now, "response": text, "done": False},
                 {"model": request.model, "created_at": now, "response": "", "done": True, "done_reason": "stop"}]
        if not request.stream:
            return json.dumps({**lines[1], "response": text}).encode() + b"\n", "application/json"
        return b"".join(json.dumps(x).encode() + b"\n" for x in lines), "application/x-ndjson"
    if request.api == "ollama":
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        done = {"model": request.model, "created_at": now, "message": {"role": "assistant", "content": "" if request.stream else text},
                "done": True, "done_reason": "stop"}
        if not request.stream:
            return json.dumps(done).encode() + b"\n", "application/json"
        said = {"model": request.model, "created_at": now, "message": {"role": "assistant", "content": text}, "done": False}
        return json.dumps(said).encode() + b"\n" + json.dumps(done).encode() + b"\n", "application/x-ndjson"
    base = {"id": f"chatcmpl-glados-{uuid.uuid4().hex[:12]}", "created": int(time.time()), "model": request.model}
    if not request.stream:
        body = {**base, "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": text}}]}
        return json.dumps(body).encode(), "application/json"
    chunks = [{**base, "object": "chat.completion.chunk", "choices": [{"index": 0, "finish_reason": None,
               "delta": {"role": "assistant", "content": text}}]},
              {**base, "object": "chat.completion.chunk", "choices": [{"index": 0, "finish_reason": "stop", "delta": {}}]}]
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n", "text/event-stream"


def error(api: Api, status: int, message: str) -> bytes:
    """An error body as each API writes one."""
    if api == "openai":
        return json.dumps({"error": {"message": message, "type": "api_error", "code": status}}).encode()
    return json.dumps({"error": message}).encode()
