"""The model's reply to one assembled request: streamed as it comes, over rounds of tool calls, with the server's
own token count read back to correct the next request's estimate."""
from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, replace
from typing import Callable

from memory import Recalled

from . import prompt, tools
from ..config import BudgetConfig, Config
from ..llm import LLM, Chunk, LLMError, ToolCall
from .events import Degraded, EventSink, ToolUsed
from .memory_path import MemoryPath
from .replies import Interrupted, Reply, Stats, TextSink
from .window import Sent

log = logging.getLogger("glados.brain")
MAX_TOOL_ROUNDS = 3


class NoReply(LLMError):
    """The model's reply ended with no words (a thinking model spent num_predict on its trace)."""


class ModelFailed(Exception):
    """The model failed mid-turn (`error`); `said`: what it had said by then (logged, marked interrupted)."""

    def __init__(self, error: LLMError, said: str):
        super().__init__(str(error))
        self.error, self.said = error, said


@dataclass(frozen=True)
class Round:
    """One request of a turn: the words said (spoken as they came), the tool calls, and how it ended."""
    text: str
    calls: tuple[ToolCall, ...]
    done_reason: str | None


class Generator:
    """`scale`: the server's token count over our estimate, as last seen (>= 1); `last`: the last request
    answered in full, which the server holds in its cache."""

    def __init__(self, llm: LLM | None, config: Config, path: MemoryPath, stats: Stats, on_event: EventSink):
        self.llm, self.config, self.path, self.stats, self.on_event = llm, config, path, stats, on_event
        self.scale = 1.0
        self.last: Sent | None = None

    def scaled(self, budget: BudgetConfig) -> BudgetConfig:
        """The history and recall budgets shrunk by how far the server's count ran over our estimate."""
        if self.scale <= 1.0:
            return budget
        return replace(budget, history=int(budget.history / self.scale), recall=int(budget.recall / self.scale))

    def reply(self, session: str, messages: list[dict], offered: list[dict] | None, recalled: tuple[Recalled, ...],
              on_text: TextSink, on_end: Callable[[], None], message_id: int | None) -> Reply:
        """The model's reply, over rounds of tool calls. The last round offers no tools, so a turn always ends in
        words; each call runs once a turn (an eager model's repeats are told so). Raises ModelFailed when the
        model fails, after logging what it had said."""
        assert self.llm is not None
        self.last = None
        parts: list[str] = []
        done: set[str] = set()
        asked = time.perf_counter()
        try:
            for round_ in range(MAX_TOOL_ROUNDS + 1):
                self.stats.last_prompt = messages
                tooled = offered if round_ < MAX_TOOL_ROUNDS else None
                knew = self.llm.thinks()
                said = self._round(messages, tooled, parts, on_text, asked)
                if not knew and self.llm.thinks() and not "".join(parts).strip() and said.done_reason == "length":
                    # its first trace (in the text, an old template) used the reply's room: asked again, with its own
                    said = self._round(messages, tooled, parts, on_text, asked)
                if not said.calls:
                    self.last = Sent(session, messages + [{"role": "assistant", "content": said.text}], tooled)
                    break
                messages = messages + self._run_tools(said.calls, said.text, session, done, message_id)
            if not "".join(parts).strip():
                raise NoReply(f"{self.llm.model} used all its reply tokens without saying anything (thinking "
                              "first); raise budget.think in config.yaml"
                              if said.done_reason == "length" else f"{self.llm.model} gave an empty reply; try again")
            on_end()
        except Interrupted as exc:
            self.path.log_reply(session, exc.spoken, interrupted=True)
            return Reply(exc.spoken, "model", interrupted=True, recalled=recalled)
        except KeyboardInterrupt:
            self.path.log_reply(session, "".join(parts), interrupted=True)
            raise
        except LLMError as exc:
            log.warning("model failed: %s", exc)
            self.on_event(Degraded(str(exc)))
            self.path.log_reply(session, "".join(parts), interrupted=bool(parts))
            raise ModelFailed(exc, "".join(parts)) from exc
        self.path.log_reply(session, "".join(parts))
        return Reply("".join(parts), "model", recalled=recalled)

    def _round(self, messages: list[dict], offered: list[dict] | None, parts: list[str], on_text: TextSink,
               asked: float) -> Round:
        """One request, streamed to on_text. A reply that may be a tool call written as text ('{"name": ...')
        is held back until it ends: a call is run, never spoken or stored; anything else is said then."""
        assert self.llm is not None
        text, held, calls, reason = [], "", [], None

        def say(words: str) -> None:
            text.append(words)
            parts.append(words)
            on_text(words)
        for chunk in self.llm.chat(messages, tools=offered, max_tokens=self.config.budget.reply):
            self.stats.timings.setdefault("first_token_s", time.perf_counter() - asked)
            calls += chunk.tool_calls
            if chunk.done:
                reason = chunk.done_reason
                if chunk.prompt_tokens is not None:
                    self._counted(messages, offered, chunk)
            if not chunk.text:
                continue
            spoke = "".join(text).strip()
            at = tools.call_start(chunk.text) if spoke and not held else None
            if at:      # "Fine. {"name": "memory_remember", ...}": the words are said, the call is held like a bare one
                before, chunk = chunk.text[:at], replace(chunk, text=chunk.text[at:])
                say(before)
            if held or (tools.might_be_call(chunk.text) and (not spoke or at is not None)):
                held += chunk.text
                if tools.might_be_call(held):
                    continue
                chunk, held = replace(chunk, text=held), ""
            say(chunk.text)
        if held:
            written = tools.calls_in_text(held)
            if written is not None:
                calls += written
            else:
                say(held)
        return Round("".join(text), tuple(calls), reason)

    def _counted(self, messages: list[dict], offered: list[dict] | None, chunk: Chunk) -> None:
        """Ollama's prompt_eval_count, read back: it corrects the estimate for the next turn, and a prompt that
        filled the context is said to have been cut (Ollama cuts silently, with HTTP 200)."""
        assert self.llm is not None and chunk.prompt_tokens is not None
        estimate = prompt.request_tokens(messages, offered)
        self.scale = min(3.0, max(1.0, chunk.prompt_tokens / max(1, estimate), self.scale * 0.9))
        if chunk.prompt_tokens + self.config.budget.reply > self.llm.num_ctx:
            self.on_event(Degraded(f"the request filled the model's context ({chunk.prompt_tokens} of "
                                   f"{self.llm.num_ctx} tokens), so Ollama may have cut its start; shorter "
                                   "messages or a smaller budget in config.yaml keep it whole"))

    def _run_tools(self, calls: tuple[ToolCall, ...], said: str, session: str, done: set[str],
                   message_id: int | None) -> list[dict]:
        out = [{"role": "assistant", "content": said,
                "tool_calls": [{"function": {"name": c.name, "arguments": c.arguments}} for c in calls]}]
        room = prompt.TOOL_ROOM * 3 // (MAX_TOOL_ROUNDS * len(calls))    # characters: JSON runs ~3 a token
        for call in calls:
            key = json.dumps([call.name, call.arguments], sort_keys=True, default=str)
            if key in done:
                result = json.dumps({"error": "already done in this turn; answer the user now"})
            else:
                done.add(key)
                self.stats.tool_calls += 1
                result = tools.run(self.path.memory, self.path.user, call, self.config.memory.recall_k, message_id,
                                   session, self.llm.model if self.llm else "model", room)
                self.on_event(ToolUsed(call.name, call.arguments, result))
            out.append({"role": "tool", "content": result if len(result) <= room else result[:room - 1] + "…",
                        "tool_name": call.name})
        return out
