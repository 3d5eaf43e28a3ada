"""The front ends: `glados` (main.py: arguments, errors as one line), the voice loop (voice.py), the typed
chat (chat.py) and `glados memory ...` (memory_commands.py)."""
from .main import entry, main, memory_entry, memory_main

__all__ = ["entry", "main", "memory_entry", "memory_main"]
