"""What the chat reads its lines from: on a terminal, a line editor (prompt_toolkit, loaded only then: arrows
and the usual keys edit, Up and Ctrl-R search this user's history, a paste of many lines or of any length is
taken whole as one message); piped, plain lines.

The history is the user's own words, kept like the memory: one private file per user in the state folder
(logs.history_file, 0600), scrubbed by forgetting and deleted by `memory clear` (logs.scrub).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Protocol, TextIO

from rich.console import Console

from .. import logs

PROMPT = "you> "


class Reader(Protocol):
    def read(self, prompt: str = PROMPT, question: bool = False) -> str | None:
        """The next line (a paste of several lines is one), None at the end of input; Ctrl-C raises
        KeyboardInterrupt. `question`: an answer to a question ("Type YES"), kept out of the history."""

    def then(self, work: Callable[[], None]) -> None:
        """Run `work` once the first prompt is on the screen (what can wait until the user types)."""


class _Then:
    """`then`, for both readers: the work runs at the first prompt, once."""
    waiting: Callable[[], None] | None = None

    def then(self, work: Callable[[], None]) -> None:
        self.waiting = work

    def _shown(self) -> None:
        work, self.waiting = self.waiting, None
        if work is not None:
            work()


class PipedLines(_Then):
    """Lines from a pipe or a file: nothing is echoed but a question, so a script's output stays clean
    (`prompts`: the prompt too, for a terminal whose output goes elsewhere)."""

    def __init__(self, stream: TextIO, console: Console, prompts: bool = False):
        self.stream, self.console, self.prompts = stream, console, prompts

    def read(self, prompt: str = PROMPT, question: bool = False) -> str | None:
        if question or self.prompts:
            self.console.print(prompt, end="", markup=False, highlight=False, style=None if question else "bold cyan")
        self._shown()
        line = self.stream.readline()
        return line.rstrip("\n") if line else None


class Editor(_Then):
    """A terminal's line editor with the user's history, as `ollama run`, `sqlite3` and `ipython` give.
    prompt_toolkit (about 0.1 s to import) loads in the background from the start, while the chat opens the
    memory and the model, so the first prompt comes no later than a plain one would."""

    def __init__(self, user: str, max_chars: int | None = None):
        import threading
        self.user, self.max_chars = user, max_chars
        self.sessions: tuple | None = None
        self._loading = threading.Thread(target=_load, name="prompt_toolkit", daemon=True)
        self._loading.start()

    def _made(self) -> tuple:
        if self.sessions is None:
            self._loading.join()
            from prompt_toolkit import PromptSession
            from prompt_toolkit.history import FileHistory, InMemoryHistory

            longest = self.max_chars

            class PrivateHistory(FileHistory):
                """Appended to a file made private first (after `memory clear` deleted it, it is made anew); a
                line too long to be stored (refused, nothing kept) is not kept here either."""

                def store_string(self, string: str) -> None:
                    if longest is not None and len(string) > longest:
                        return
                    logs.private_file(Path(self.filename))
                    super().store_string(string)
            try:
                history = PrivateHistory(str(logs.private_file(logs.history_file(self.user))))
            except OSError:        # a state folder that cannot be written: history for this session only
                history = InMemoryHistory()
            # answers to questions ("Type YES") have a session of their own, outside the history
            self.sessions = (PromptSession(history=history), PromptSession())
        return self.sessions

    def read(self, prompt: str = PROMPT, question: bool = False) -> str | None:
        from prompt_toolkit.formatted_text import FormattedText
        chat, asking = self._made()
        try:
            if question:
                return asking.prompt(prompt)
            return chat.prompt(FormattedText([("bold ansicyan", prompt)]), pre_run=self._shown)
        except EOFError:
            return None


def _load() -> None:
    """prompt_toolkit imported, so the first prompt finds it loaded."""
    import importlib
    importlib.import_module("prompt_toolkit.shortcuts")


def reader(stream: TextIO, console: Console, user: str, max_chars: int | None = None) -> Reader:
    """The line editor on a terminal, plain lines otherwise; `max_chars`: the longest line the history keeps
    (memory.max_message_chars: a longer one is refused, and kept nowhere)."""
    if stream.isatty() and console.is_terminal:
        return Editor(user, max_chars)
    return PipedLines(stream, console, prompts=stream.isatty())
