"""A stand-in Ollama HTTP server (stdlib only) on 127.0.0.1 and a free port, for the real client.

It behaves as the real server does where it matters (tests/ollama_model.py, from Ollama's source): the
prompt is rendered and counted in tokens, cut from the front past `num_ctx` and by the runner past that;
`num_ctx` is fixed at load and another value reloads the model (`loads`); thinking models think unless told
`think: false` (gpt-oss only takes levels), the trace counting against `num_predict`; an old template puts
`<think>...</think>` in the content; tool calls stream as one chunk before the last; a model profile can call
a tool on every round that offers one, make a call up, or write its call as text; 404, 503, stalls, slow
loads and mid-stream errors on demand. Speaks /api/chat, /api/generate, OpenAI's /v1/chat/completions,
/api/tags, /api/show, /api/ps, /api/version and /api/pull.

Replies are scripted with `enqueue`; every request body is in `requests`, and what the server made of each
chat in `served` (tokens, cuts, loads, cache reuse). The running note's rewrite (a background request asking
for the note's JSON) is answered from its own queue (`enqueue_note`; by default no lines), so a script of
turn replies stays in step; `chats()` leaves those requests and preloads out and `notes()` lists them.
"""
from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.ollama_model import DEFAULT_NUM_CTX, PROFILES, Profile, Served, common_prefix, count, fit, think_tokens


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


def profile_for(name: str, profiles: dict[str, Profile]) -> Profile:
    base = name.removesuffix(":latest")
    return profiles.get(base) or profiles.get(base.split(":")[0]) or Profile(base)


class StubOllama:
    def __init__(self, models: tuple[str, ...] = ("llama3.2:latest",), capabilities: tuple[str, ...] | None = None,
                 profiles: dict[str, Profile] | None = None, default_num_ctx: int = DEFAULT_NUM_CTX):
        self.models = list(models)
        self.profiles = dict(PROFILES, **(profiles or {}))
        if capabilities is not None:        # the same capabilities for every model listed
            for name in self.models:
                p = profile_for(name, self.profiles)
                self.profiles[p.name] = replace(p, capabilities=tuple(capabilities))
        self.default_num_ctx = default_num_ctx
        self.replies: deque[Scripted] = deque()
        self.note_replies: deque[Scripted] = deque()
        self.requests: list[tuple[str, dict]] = []
        self.served: list[Served] = []
        self.loads = 0
        self.loaded: tuple[str, int] | None = None     # (model, num_ctx) in memory
        self._cache: list[str] = []                    # the last prompt, for the runner's prefix cache
        self._runner = threading.Lock()                # one request generates at a time (OLLAMA_NUM_PARALLEL=1)
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
                and not is_note(body) and body.get("messages")]

    def notes(self) -> list[dict]:
        return [body for path, body in self.requests if path == "/api/chat" and is_note(body)]

    def profile(self, model: str) -> Profile:
        return profile_for(model, self.profiles)

    def __enter__(self) -> "StubOllama":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()

    # -- the scheduler and the runner ------------------------------------------------------------
    def _load(self, model: str, num_ctx: int, served: Served) -> None:
        """sched.go needsReload: another model or another num_ctx means a new runner (and an empty cache)."""
        if self.loaded != (model, num_ctx):
            self.loads += 1
            served.loaded = True
            self.loaded, self._cache = None, []       # /api/ps lists it once it has loaded
            time.sleep(self.profile(model).load_s)
            self.loaded = (model, num_ctx)

    def _reply_for(self, profile: Profile, body: dict, messages: list[dict]) -> Scripted:
        if is_note(body):
            return self.note_replies.popleft() if self.note_replies else Scripted(text='{"lines": []}')
        if body.get("tools") and profile.eager_tools and not body.get("format"):   # a schema leaves no room for a call
            last = next((str(m.get("content") or "") for m in reversed(messages) if m.get("role") == "user"), "")
            call = profile.made_up_call or {"name": "memory_remember", "arguments": {"key": "note", "value": last}}
            if profile.call_as_text:
                return Scripted(text=json.dumps(call))
            return Scripted(tool_calls=[call])
        return self.replies.popleft() if self.replies else Scripted(text="Stand-in reply.")

    def generate(self, path: str, body: dict, messages: list[dict]) -> tuple[Served, Scripted]:
        """Schedule, fit and 'generate' one request: what is streamed back, and the record of it."""
        model = body.get("model", "")
        profile = self.profile(model)
        options = body.get("options") or {}
        served = Served(path, body, "note" if is_note(body) else "chat" if messages else "preload",
                        num_ctx=int(options.get("num_ctx") or self.default_num_ctx))
        self._load(model, served.num_ctx, served)
        if not messages:
            served.done_reason = "load"
            self.served.append(served)
            return served, Scripted()
        reply = self._reply_for(profile, body, messages)
        fitted = fit(messages, body.get("tools"), served.num_ctx, profile.family)
        served.prompt_tokens, served.rendered_tokens = len(fitted.prompt), fitted.rendered
        served.dropped, served.runner_cut = fitted.dropped, fitted.runner_cut
        served.reused = common_prefix(self._cache, fitted.prompt)
        self._cache = fitted.prompt
        limit = int(options.get("num_predict") or -1)
        trace = think_tokens(profile, body.get("think"))
        thinking = " ".join(["hmm"] * trace)
        content = reply.text
        if profile.think_in_content and trace:
            content, thinking = f"<think>\n{thinking}\n</think>\n\n{content}", ""
        used = trace if not profile.think_in_content else 0
        served.done_reason = "stop"
        if limit > 0 and used >= limit:
            thinking, content, served.done_reason = " ".join(["hmm"] * limit), "", "length"
            reply = replace(reply, tool_calls=[])
        elif limit > 0 and used + count(content) > limit:
            words, kept = content.split(" "), []
            while words and used + count(" ".join(kept + words[:1])) <= limit:
                kept.append(words.pop(0))
            content, served.done_reason = " ".join(kept), "length"
        served.thinking, served.content, served.tool_calls = thinking, content, reply.tool_calls
        served.shifted = served.prompt_tokens + used + count(content) > served.num_ctx
        if body.get("keep_alive") in (0, "0", "0s"):
            self.loaded, self._cache = None, []
        self.served.append(served)
        return served, replace(reply, text=content)

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
                    self._json(200, {"version": "0.33.0-stand-in"})
                elif self.path == "/api/tags":
                    self._json(200, {"models": [{"name": m, "model": m, "size": 1, "digest": "0" * 12,
                                                 "modified_at": "2026-01-01T00:00:00Z", "details": {}}
                                                for m in stub.models]})
                elif self.path == "/api/ps":
                    loaded = [stub.loaded[0]] if stub.loaded else []
                    self._json(200, {"models": [{"name": m, "model": m, "size": 1, "digest": "0" * 12,
                                                 "context_length": stub.loaded[1]} for m in loaded]})
                else:
                    self._json(404, {"error": "not found"})

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                stub.requests.append((self.path, body))
                model = body.get("model", "")
                known = model in stub.models or f"{model}:latest" in stub.models
                profile = stub.profile(model)
                if self.path == "/api/show":
                    if not known:
                        return self._json(404, {"error": f"model '{model}' not found"})
                    return self._json(200, {"capabilities": list(profile.capabilities), "modelfile": "",
                                            "details": {"family": profile.family}, "parameters": "", "template": "",
                                            "model_info": {"general.architecture": profile.family,
                                                           f"{profile.family}.context_length": 131072}})
                if self.path == "/api/pull":
                    return self._pull(model)
                if self.path not in ("/api/chat", "/v1/chat/completions", "/api/generate"):
                    return self._json(404, {"error": "not found"})
                if not known:
                    return self._json(404, {"error": f'model "{model}" not found, try pulling it first'})
                think = body.get("think")
                if think not in (None, False) and not profile.thinks and not profile.think_in_content:
                    return self._json(400, {"error": f'"{model}" does not support thinking'})
                if self.path == "/v1/chat/completions":
                    reply = stub.replies.popleft() if stub.replies else Scripted(text="Stand-in reply.")
                    if reply.status != 200:
                        return self._json(reply.status, {"error": reply.error or "internal error"})
                    return self._openai(model, reply, bool(body.get("stream", False)))
                messages = body.get("messages") or []
                if self.path == "/api/generate":
                    prompt = body.get("prompt") or ""
                    messages = ([{"role": "system", "content": body["system"]}] if body.get("system") else []) + \
                               ([{"role": "user", "content": prompt}] if prompt else [])
                peek = stub.replies[0] if stub.replies and not is_note(body) and messages else None
                if peek is not None and (peek.stall or peek.status != 200):
                    stub.replies.popleft()
                    if peek.stall:          # outside the runner: a client that gives up frees it (as Ollama's)
                        stub.release.wait()
                        return
                    return self._json(peek.status, {"error": peek.error or "internal error"})
                with stub._runner:
                    served, reply = stub.generate(self.path, body, messages)
                    if self.path == "/api/generate":
                        return self._generate(model, served, reply, body.get("stream", True))
                    if body.get("stream", True):
                        self._stream(model, served, reply)
                    else:
                        message = {"role": "assistant", "content": reply.text}
                        if served.thinking:
                            message["thinking"] = served.thinking
                        if reply.tool_calls:
                            message["tool_calls"] = [{"function": c} for c in reply.tool_calls]
                        self._json(200, {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": message,
                                         **self._done(served)})

            def _done(self, served: Served) -> dict:
                return {"done": True, "done_reason": served.done_reason, "prompt_eval_count": served.prompt_tokens,
                        "eval_count": max(1, count(served.thinking) + count(served.content)),
                        "total_duration": 1, "load_duration": 1 if served.loaded else 0}

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

            def _message(self, model: str, text: str, tool_calls: list, thinking: str = "") -> dict:
                message = {"role": "assistant", "content": text}
                if thinking:
                    message["thinking"] = thinking
                if tool_calls:
                    message["tool_calls"] = [{"function": c} for c in tool_calls]
                return {"model": model, "created_at": "2026-01-01T00:00:00Z", "message": message, "done": False}

            def _stream(self, model: str, served: Served, reply: Scripted) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                for word in served.thinking.split(" ") if served.thinking else []:
                    self._line(self._message(model, "", [], thinking=word + " "))
                words = reply.text.split(" ") if reply.text else []
                for i, word in enumerate(words):
                    if reply.break_after is not None and i >= reply.break_after:
                        return   # connection closes without the final "done" line
                    if reply.error_after is not None and i >= reply.error_after:
                        self._line({"error": reply.error or "model runner crashed"})
                        return
                    self._line(self._message(model, word + (" " if i < len(words) - 1 else ""), []))
                    if reply.delay:
                        time.sleep(reply.delay)
                if reply.tool_calls:
                    self._line(self._message(model, "", reply.tool_calls))
                self._line({"model": model, "created_at": "2026-01-01T00:00:00Z",
                            "message": {"role": "assistant", "content": ""}, **self._done(served)})

            def _generate(self, model: str, served: Served, reply: Scripted, stream: bool) -> None:
                base = {"model": model, "created_at": "2026-01-01T00:00:00Z"}
                if not stream:
                    return self._json(200, {**base, "response": reply.text, **self._done(served)})
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                for word in served.thinking.split(" ") if served.thinking else []:
                    self._line({**base, "response": "", "thinking": word + " ", "done": False})
                words = reply.text.split(" ") if reply.text else []
                for i, word in enumerate(words):
                    self._line({**base, "response": word + (" " if i < len(words) - 1 else ""), "done": False})
                self._line({**base, "response": "", **self._done(served)})

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
