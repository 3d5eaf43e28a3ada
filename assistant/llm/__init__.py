"""Language model clients: one interface (base.py), one file per backend, chosen by `make_llm`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import LLM, Chunk, LLMError, LLMTimeout, LLMUnavailable, ModelMissing, StreamBroken, ToolCall

if TYPE_CHECKING:
    from ..config import LLMConfig


def make_llm(config: "LLMConfig") -> LLM:
    """The Ollama client `llm` describes (the `ollama` package imported only now)."""
    from .ollama import OllamaLLM
    return OllamaLLM(config.host, config.model, config.connect_timeout_s, config.first_token_timeout_s,
                     config.between_tokens_timeout_s, config.temperature)


__all__ = ["LLM", "Chunk", "LLMError", "LLMTimeout", "LLMUnavailable", "ModelMissing", "StreamBroken", "ToolCall",
           "make_llm"]
