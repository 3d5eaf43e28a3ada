"""The Ollama backend, through the official `ollama` client, with timeouts it lacks by default."""
from __future__ import annotations

import json
import queue
import threading
from typing import Iterator

import httpx
import ollama

from .base import LLM, Chunk, LLMError, LLMTimeout, LLMUnavailable, ModelMissing, Progress, StreamBroken, ToolCall

_END = object()
READ_SLACK_S = 5.0      # the client's read timeout past chat()'s own: chat()'s, with its clearer message, comes first


class OllamaLLM(LLM):
    def __init__(self, host: str, model: str, connect_timeout: float = 3.0, first_token_timeout: float = 120.0,
                 between_tokens_timeout: float = 30.0, temperature: float = 0.8):
        self.host, self.model = host, model
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
        self._tools: bool | None = None

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

    def supports_tools(self) -> bool:
        """Ollama reports each model's capabilities; cached after the first answer."""
        if self._tools is None:
            try:
                self._tools = "tools" in (self._client.show(self.model).capabilities or [])
            except ollama.ResponseError:
                self._tools = False           # a server without /api/show: no tools
            except Exception:  # noqa: BLE001 - unreachable now; ask again next turn
                return False
        return self._tools

    def pull(self, progress: Progress) -> None:
        try:
            for part in self._client.pull(self.model, stream=True):
                progress(part.status or "", part.completed, part.total)
        except Exception as exc:  # noqa: BLE001
            raise self._translate(exc) from exc

    def chat(self, messages: list[dict], tools: list[dict] | None = None, max_tokens: int | None = None,
             context_tokens: int | None = None, format: dict | None = None,
             temperature: float | None = None) -> Iterator[Chunk]:
        """Stream in a worker thread, so the first-token and between-token timeouts are exact."""
        options: dict = {"temperature": self.temperature if temperature is None else temperature}
        if max_tokens:
            options["num_predict"] = max_tokens
        if context_tokens:
            options["num_ctx"] = context_tokens
        client = ollama.Client(host=self.host, timeout=self._timeout)
        out: queue.Queue = queue.Queue()
        stop = threading.Event()
        worker = threading.Thread(target=self._pump, args=(client, messages, tools, options, format, out, stop),
                                  daemon=True, name="ollama-stream")
        worker.start()
        started = False
        try:
            while True:
                wait = self.between_tokens_timeout if started else self.first_token_timeout
                try:
                    item = out.get(timeout=wait)
                except queue.Empty:
                    what, key = ("next token", "between_tokens") if started else ("reply", "first_token")
                    raise LLMTimeout(f"no {what} from Ollama within {wait:g} s; check the server, "
                                     f"or raise llm.{key}_timeout_s in config.yaml") from None
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise self._translate(item) from item
                started = True
                yield item
        finally:
            stop.set()
            client._client.close()   # unblocks a worker stuck reading a stalled stream

    def _pump(self, client, messages, tools, options, format, out: queue.Queue, stop: threading.Event) -> None:
        done = False
        try:
            for part in client.chat(model=self.model, messages=messages, tools=tools or None,
                                    stream=True, options=options, format=format):
                if stop.is_set():
                    return
                done = done or bool(part.done)
                msg = part.message
                calls = tuple(ToolCall(c.function.name, dict(c.function.arguments or {}))
                              for c in (msg.tool_calls or []))
                out.put(Chunk(text=msg.content or "", tool_calls=calls, done=bool(part.done),
                              prompt_tokens=part.prompt_eval_count, reply_tokens=part.eval_count))
            out.put(_END if done else StreamBroken("the reply from Ollama ended before it was finished; try again"))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer thread, never lost
            out.put(exc)
