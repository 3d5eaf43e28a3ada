"""Language model clients: one interface (base.py), one file per backend, chosen by `make_llm`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import LLM, Chunk, LLMBusy, LLMError, LLMTimeout, LLMUnavailable, ModelMissing, StreamBroken, ToolCall

if TYPE_CHECKING:
    from ..config import LLMConfig


def make_llm(config: "LLMConfig", num_ctx: int, think_room: int = 0) -> LLM:
    """The Ollama client `llm` describes, every request asking for `num_ctx`, and `think_room` tokens more than
    each asks for when the model thinks in a way that shares them (the `ollama` package imported only now)."""
    from .ollama import OllamaLLM, base_url
    return OllamaLLM(base_url(config.host), config.model, config.connect_timeout_s, config.first_token_timeout_s,
                     config.between_tokens_timeout_s, config.temperature, num_ctx, config.keep_alive, think_room)


__all__ = ["LLM", "Chunk", "LLMBusy", "LLMError", "LLMTimeout", "LLMUnavailable", "ModelMissing", "StreamBroken", "ToolCall",
           "make_llm"]
