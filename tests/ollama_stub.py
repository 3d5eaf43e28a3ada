"""A stand-in Ollama HTTP server (stdlib only) on 127.0.0.1 and a free port, for the real client.

Speaks /api/chat and OpenAI's /v1/chat/completions (streamed and not), /api/tags, /api/show,
/api/version, /api/pull and error replies. Replies
are scripted with `enqueue`; every request body is recorded in `requests` for assertions. The running
note's rewrite (a background request, after a reply, asking for the note's JSON) is answered from its own
queue (`enqueue_note`; by default no lines) so a script of turn replies stays in step; `chats()` leaves those
requests out and `notes()` lists them.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Scripted:
    text: str = ""
    tool_calls: list[dict] = field(default_factory=list)
    status: int = 200
    error: str = ""
    stall: bool = False            # accept the request and never answer
    break_after: int | None = None  # send this many words, then drop the connection
    error_after: int | None = None  # send this many words, then an {"error": ...} line
    delay: float = 0.0             # seconds between streamed words


def is_note(body: dict) -> bool:
    """The running note's rewrite: its reply is constrained to the note's schema (lines of text and ids)."""
    fmt = body.get("format")
    return isinstance(fmt, dict) and "lines" in fmt.get("properties", {})


class StubOllama:
    def __init__(self, models: tuple[str, ...] = ("llama3.2:latest",), capabilities: tuple[str, ...] = ("completion",)):
        self.models = list(models)
        self.capabilities = list(capabilities)
        self.replies: deque[Scripted] = deque()
        self.note_replies: deque[Scripted] = deque()
        self.requests: list[tuple[str, dict]] = []
        self.release = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def enqueue(self, text: str = "", **kwargs) -> "StubOllama":
        self.replies.append(Scripted(text=text, **kwargs))
        return self

    def enqueue_note(self, text: str) -> "StubOllama":
        self.note_replies.append(Scripted(text=text))
        return self

    def chats(self) -> list[dict]:
        return [body for path, body in self.requests if path in ("/api/chat", "/v1/chat/completions")
                and not is_note(body)]

    def notes(self) -> list[dict]:
        return [body for path, body in self.requests if path == "/api/chat" and is_note(body)]

    def __enter__(self) -> "StubOllama":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"   # the body ends when the connection closes

            def log_message(self, *args):
                pass

            def _json(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _line(self, body: dict) -> None:
                self.wfile.write(json.dumps(body).encode() + b"\n")
                self.wfile.flush()

            def do_GET(self):
                stub.requests.append((self.path, {}))
                if self.path == "/api/version":
                    self._json(200, {"version": "0.0.0-stand-in"})
                elif self.path == "/api/tags":
                    self._json(200, {"models": [{"name": m, "model": m, "size": 1, "digest": "0" * 12,
                                                 "modified_at": "2026-01-01T00:00:00Z", "details": {}}
                                                for m in stub.models]})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                stub.requests.append((self.path, body))
                model = body.get("model", "")
                known = model in stub.models or f"{model}:latest" in stub.models
                if self.path == "/api/show":
                    if not known:
                        return self._json(404, {"error": f"model '{model}' not found"})
                    return self._json(200, {"capabilities": stub.capabilities, "modelfile": "", "details": {},
                                            "model_info": {}, "parameters": "", "template": ""})
                if self.path == "/api/pull":
                    return self._pull(model)
                if self.path not in ("/api/chat", "/v1/chat/completions"):
                    return self._json(404, {"error": "not found"})
                if not known:
                    return self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
                if is_note(body):
                    reply = stub.note_replies.popleft() if stub.note_replies else Scripted(text='{"lines": []}')
                else:
                    reply = stub.replies.popleft() if stub.replies else Scripted(text="Stand-in reply.")
                if reply.stall:
                    stub.release.wait()
                    return
                if reply.status != 200:
                    return self._json(reply.status, {"error": reply.error or "internal error"})
                if self.path == "/v1/chat/completions":
                    return self._openai(model, reply, bool(body.get("stream", False)))
                if body.get("stream", True):
                    self._stream(model, reply)
                else:
                    self._json(200, self._message(model, reply.text, reply.tool_calls, done=True))

            def _openai(self, model: str, reply: Scripted, stream: bool) -> None:
                base = {"id": "chatcmpl-stand-in", "created": 1767225600, "model": model}
                if not stream:
                    return self._json(200, {**base, "object": "chat.completion", "choices": [
                        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply.text}}]})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for word in reply.text.split(" ") if reply.text else []:
                    chunk = {**base, "object": "chat.completion.chunk",
                             "choices": [{"index": 0, "finish_reason": None, "delta": {"content": word + " "}}]}
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.flush()
                end = {**base, "object": "chat.completion.chunk", "choices": [{"index": 0, "finish_reason": "stop", "delta": {}}]}
                self.wfile.write(b"data: " + json.dumps(end).encode() + b"\n\ndata: [DONE]\n\n")

            def _message(self, model: str, text: str, tool_calls: list, done: bool) -> dict:
                message = {"role": "assistant", "content": text}
                if tool_calls:
                    message["tool_calls"] = [{"function": c} for c in tool_calls]
                out = {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": message, "done": done}
                if done:
                    out.update(done_reason="stop", prompt_eval_count=1, eval_count=max(1, len(text.split())))
                return out

            def _stream(self, model: str, reply: Scripted) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                words = reply.text.split(" ") if reply.text else []
                for i, word in enumerate(words):
                    if reply.break_after is not None and i >= reply.break_after:
                        return   # connection closes without the final "done" line
                    if reply.error_after is not None and i >= reply.error_after:
                        self._line({"error": reply.error or "model runner crashed"})
                        return
                    self._line(self._message(model, word + (" " if i < len(words) - 1 else ""), [], False))
                    if reply.delay:
                        time.sleep(reply.delay)
                if reply.tool_calls:
                    self._line(self._message(model, "", reply.tool_calls, False))
                self._line(self._message(model, "", [], True))

            def _pull(self, model: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                self._line({"status": "pulling manifest"})
                for done in (0, 50, 100):
                    self._line({"status": "pulling 1234abcd", "digest": "sha256:1234", "total": 100, "completed": done})
                self._line({"status": "success"})
                stub.models.append(f"{model}:latest")

        return Handler
