"""What a language model is to the assistant: streamed chat with optional tool calls."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Callable, Iterator


class LLMError(Exception):
    """A model failure; str() is one line that says what to do."""


class LLMUnavailable(LLMError):
    """The server cannot be reached at all."""


class ModelMissing(LLMError):
    """The server is up but the model is not pulled."""

    def __init__(self, model: str, message: str):
        super().__init__(message)
        self.model = model


class LLMTimeout(LLMError):
    """No first token, or no next token, within the configured time."""


class LLMBusy(LLMError):
    """The server is up but refused the request for now (503: too many queued; 429)."""


class StreamBroken(LLMError):
    """The reply stream failed after it started."""


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Chunk:
    """One piece of a streamed reply: text, tool calls, or the final accounting."""
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    done: bool = False
    prompt_tokens: int | None = None      # Ollama's prompt_eval_count: the prompt as the model got it
    reply_tokens: int | None = None       # eval_count: the reply, a thinking trace included
    done_reason: str | None = None        # on the last chunk: "stop", or "length" when num_predict ran out
    thinking: bool = False                # a piece of a thinking trace arrived (its text is never kept)


Progress = Callable[[str, int | None, int | None], None]   # status, completed, total


class LLM(ABC):
    model: str
    num_ctx: int = 4096      # the context every request of this client asks for (one value: no reloads)

    @abstractmethod
    def chat(self, messages: list[dict], tools: list[dict] | None = None, max_tokens: int | None = None,
             format: dict | None = None, temperature: float | None = None) -> Iterator[Chunk]:
        """Stream a reply to `messages` (Ollama chat format); `format`: a JSON schema the reply must
        follow; `temperature`: this request's, instead of the chat's. Raises LLMError subclasses."""

    @abstractmethod
    def check(self) -> None:
        """Raise LLMUnavailable or ModelMissing when a chat would fail for that reason."""

    def supports_tools(self) -> bool:
        return False

    def thinks(self) -> bool:
        """Whether a reply may begin with a thinking trace that shares num_predict with it (one that cannot be
        turned off, or arrives in the text): the caller gives such a model room beyond the reply."""
        return False

    def preload(self) -> None:
        """Load the model now, as every later request will ask for it; raises LLMError."""

    def pull(self, progress: Progress) -> None:
        raise LLMError(f"this model backend cannot download {self.model}")
