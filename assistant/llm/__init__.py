"""Language model clients: one interface (base.py), one file per backend."""
from .base import LLM, Chunk, LLMError, LLMTimeout, LLMUnavailable, ModelMissing, StreamBroken, ToolCall

__all__ = ["LLM", "Chunk", "LLMError", "LLMTimeout", "LLMUnavailable", "ModelMissing", "StreamBroken", "ToolCall"]
