"""The Ollama backend, through the official `ollama` client, with timeouts it lacks by default.

Every request carries the same `num_ctx` (a different one makes Ollama reload the model, sched.go
needsReload) and `keep_alive`; thinking models are asked not to think (`think: false`, or "low" for a model
that cannot stop, gpt-oss), and a trace that still arrives in the text is stripped (think.py).
"""
from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import urlsplit

import httpx
import ollama

from .base import (LLM, Chunk, LLMBusy, LLMError, LLMTimeout, LLMUnavailable, ModelMissing, Progress, StreamBroken,
                   ToolCall)
from .think import ThinkStripper

_END = object()
READ_SLACK_S = 5.0      # the client's read timeout past chat()'s own: chat()'s, with its clearer message, comes first
LEVELS_ONLY = ("gptoss", "gpt-oss")     # families whose thinking cannot be turned off, only down (docs: thinking)


@dataclass(frozen=True)
class ModelInfo:
    """What /api/show says of the model, as far as a request depends on it."""
    tools: bool = False
    thinking: bool = False
    family: str = ""

    def think(self) -> bool | str | None:
        """The request's `think`: off where it can be, the lowest level where it cannot, unsent otherwise."""
        if not self.thinking:
            return None
        return "low" if any(f in self.family.lower() for f in LEVELS_ONLY) else False


def base_url(host: str) -> str:
    """OLLAMA_HOST as Ollama reads it (envconfig.Host): no scheme means http on port 11434, so
    '127.0.0.1:11434', 'localhost' and ':11434' all work; 'http://h' is port 80, 'https://h' 443; a trailing
    '/api' is the server's root."""
    scheme, sep, rest = host.strip().partition("://")
    if not sep:
        scheme, rest, port = "http", scheme, 11434
    else:
        port = {"http": 80, "https": 443}.get(scheme, 11434)
    split = urlsplit(f"{scheme}://{rest}")
    name = split.hostname or "127.0.0.1"
    name = f"[{name}]" if ":" in name else name
    path = split.path.strip("/")
    # every endpoint is under /api (the client adds it): "http://h:11434/api" means the server at its root, where
    # Ollama itself would ask for /api/api/chat and read "404 page not found" as a missing model
    path = path[:-3].rstrip("/") if path == "api" or path.endswith("/api") else path
    return f"{scheme}://{name}:{split.port or port}" + (f"/{path}" if path else "")


class OllamaLLM(LLM):
    def __init__(self, host: str, model: str, connect_timeout: float = 3.0, first_token_timeout: float = 120.0,
                 between_tokens_timeout: float = 30.0, temperature: float = 0.8, num_ctx: int = 4096,
                 keep_alive: str = "30m", think_room: int = 0):
        self.host, self.model = host, model
        self.think_room = think_room     # num_predict's extra room for a trace that shares it (budget.think)
        self.num_ctx, self.keep_alive = num_ctx, keep_alive
        self.first_token_timeout = first_token_timeout
        self.between_tokens_timeout = between_tokens_timeout
        self.temperature = temperature
        # The client's default timeout is none: a server that accepts and never answers would hang us. chat()
        # times the first and later tokens itself; the client's own read timeout only frees its worker, so it
        # waits a little longer (equal, the two raced on a loaded machine and the message came out wrong).
        self._timeout = httpx.Timeout(connect=connect_timeout,
                                      read=max(first_token_timeout, between_tokens_timeout) + READ_SLACK_S,
                                      write=30.0, pool=connect_timeout)
        self._client = ollama.Client(host=host, timeout=self._timeout)
        self._info: ModelInfo | None = None
        self._traced = False       # a trace came in the text (an old template): it thinks whatever is asked

    # -- faults, translated once --------------------------------------------------------------
    def _unreachable(self) -> LLMUnavailable:
        return LLMUnavailable(f"cannot reach Ollama at {self.host}; start it with 'ollama serve' "
                              f"(or set OLLAMA_HOST)")

    def _translate(self, exc: BaseException) -> LLMError:
        if isinstance(exc, LLMError):
            return exc
        if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, ConnectionError)):
            return self._unreachable()
        if isinstance(exc, ollama.ResponseError):
            if exc.status_code == -1:     # an {"error": ...} line inside a stream
                return StreamBroken(f"the reply from Ollama broke off with an error: {exc.error}; try again")
            if exc.status_code == 404 and "not found" in str(exc.error).lower():
                return ModelMissing(self.model, f"model '{self.model}' is not pulled on {self.host}; "
                                                f"run 'ollama pull {self.model}'")
            if exc.status_code in (429, 503):
                return LLMBusy(f"Ollama at {self.host} is busy ({exc.error}); try again in a moment")
            return LLMError(f"Ollama answered with an error: {exc.error} (status {exc.status_code})")
        if isinstance(exc, httpx.TimeoutException):
            return LLMTimeout(f"Ollama at {self.host} stopped answering; check the server and try again")
        if isinstance(exc, (httpx.HTTPError, json.JSONDecodeError, ValueError)):
            return StreamBroken("the reply from Ollama broke off; try again")
        return LLMError(f"unexpected failure talking to Ollama ({exc or 'no details'}); try again")

    # -- the interface ------------------------------------------------------------------------
    def check(self) -> None:
        """Reachable, and the model listed by /api/tags. A server that answers /api/tags with an
        error or an empty list is taken as reachable: a missing model then shows as a 404 on chat."""
        try:
            names = {m.model for m in self._client.list().models if m.model}
        except ollama.ResponseError:
            return
        except Exception as exc:  # noqa: BLE001 - every failure is translated into one line
            raise self._translate(exc) from exc
        wanted = {self.model, f"{self.model}:latest"} if ":" not in self.model else {self.model}
        if names and not names & wanted:
            raise ModelMissing(self.model, f"model '{self.model}' is not pulled on {self.host}; "
                                           f"run 'ollama pull {self.model}'")

    def info(self) -> ModelInfo:
        """The model's capabilities from /api/show; cached after the first answer."""
        if self._info is None:
            try:
                shown = self._client.show(self.model)
            except ollama.ResponseError:
                self._info = ModelInfo()          # a server without /api/show: a plain model
            except Exception:  # noqa: BLE001 - unreachable now; ask again next time
                return ModelInfo()
            else:
                caps = shown.capabilities or []
                family = (shown.details.family if shown.details else None) or ""
                self._info = ModelInfo("tools" in caps, "thinking" in caps, family or self.model)
        return self._info

    def supports_tools(self) -> bool:
        return self.info().tools

    def loaded(self) -> bool | None:
        """Whether Ollama has the model in memory now (/api/ps); None when it cannot say."""
        try:
            running = self._client.ps().models
        except Exception:  # noqa: BLE001 - only used to word a timeout
            return None
        return any((m.model or "").removesuffix(":latest") == self.model.removesuffix(":latest") for m in running)

    def preload(self) -> None:
        """Load the model with this num_ctx and keep_alive now (a chat with no messages: done_reason 'load'),
        so the first turn does not wait for it and no later request reloads it."""
        try:
            self._client.chat(model=self.model, messages=[], keep_alive=self.keep_alive,
                              options={"num_ctx": self.num_ctx})
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc

    def pull(self, progress: Progress) -> None:
        try:
            for part in self._client.pull(self.model, stream=True):
                progress(part.status or "", part.completed, part.total)
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc

    def thinks(self) -> bool:
        """Its thinking cannot be turned off (gpt-oss: only down to "low"), or a trace came in its text before."""
        return self.info().think() == "low" or self._traced

    def chat(self, messages: list[dict], tools: list[dict] | None = None, max_tokens: int | None = None,
             format: dict | None = None, temperature: float | None = None) -> Iterator[Chunk]:
        """Stream in a worker thread, so the first-token and between-token timeouts are exact."""
        options: dict = {"temperature": self.temperature if temperature is None else temperature,
                         "num_ctx": self.num_ctx}
        if max_tokens:          # a trace that cannot be turned off shares num_predict: it gets room of its own
            options["num_predict"] = max_tokens + (self.think_room if self.thinks() else 0)
        request = dict(model=self.model, messages=messages, tools=tools or None, stream=True, options=options,
                       format=format, keep_alive=self.keep_alive, think=self.info().think())
        client = ollama.Client(host=self.host, timeout=self._timeout)
        out: queue.Queue = queue.Queue()
        stop = threading.Event()
        worker = threading.Thread(target=self._pump, args=(client, request, out, stop), daemon=True,
                                  name="ollama-stream")
        worker.start()
        started = False
        try:
            while True:
                wait = self.between_tokens_timeout if started else self.first_token_timeout
                try:
                    item = out.get(timeout=wait)
                except queue.Empty:
                    raise self._timed_out(started, wait) from None
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise self._translate(item) from item
                started = True
                yield item
        finally:
            stop.set()
            client._client.close()   # unblocks a worker stuck reading a stalled stream

    def _timed_out(self, started: bool, wait: float) -> LLMTimeout:
        if started:
            return LLMTimeout(f"no next token from Ollama within {wait:g} s; check the server, "
                              "or raise llm.between_tokens_timeout_s in config.yaml")
        if self.loaded() is False:
            return LLMTimeout(f"Ollama is still loading {self.model} after {wait:g} s (a cold start on a CPU can "
                              "take minutes); ask again shortly, or raise llm.first_token_timeout_s in config.yaml")
        return LLMTimeout(f"no reply from Ollama within {wait:g} s; check the server, "
                          "or raise llm.first_token_timeout_s in config.yaml")

    def _pump(self, client, request: dict, out: queue.Queue, stop: threading.Event) -> None:
        done = False
        strip = ThinkStripper()
        try:
            for part in client.chat(**request):
                if stop.is_set():
                    return
                done = done or bool(part.done)
                msg = part.message
                calls = tuple(ToolCall(c.function.name, dict(c.function.arguments or {}))
                              for c in (msg.tool_calls or []))
                text = strip.feed(msg.content or "") + (strip.flush() if part.done else "")
                self._traced = self._traced or strip.seen
                out.put(Chunk(text=text, tool_calls=calls, done=bool(part.done),
                              prompt_tokens=part.prompt_eval_count, reply_tokens=part.eval_count,
                              done_reason=part.done_reason if part.done else None,
                              thinking=bool(msg.thinking)))
            out.put(_END if done else StreamBroken("the reply from Ollama ended before it was finished; try again"))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer thread, never lost
            out.put(exc)
