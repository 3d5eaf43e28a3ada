"""A server stops the same way however it is told to: Ctrl-C, or SIGTERM from systemd, Docker or `kill`.

uvicorn shuts down gracefully on either signal (the proxy's lifespan ends its sessions) and then raises the
signal again so the default action runs: SIGTERM would kill the process before the code after `uvicorn.run`
(the MCP server's session end) and exit -15. Inside `until_stopped` both signals raise `Stopped` instead,
which it catches: what follows the server runs, and the command exits 0.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(Exception):
    """The server was told to stop (a signal's number in args)."""


_RECEIVED: list[int] = []


def _stop(signum: int, frame) -> None:
    _RECEIVED.append(signum)
    raise Stopped(signum)


def signalled() -> bool:
    """Whether a server of this process was stopped by a signal: then a thread the server left blocked (the
    stdio transport's reader, waiting on an stdin nobody closed) must not keep the process from exiting."""
    return bool(_RECEIVED)


@contextlib.contextmanager
def until_stopped() -> Iterator[None]:
    """Run a server inside: SIGINT and SIGTERM end the block quietly (only from the main thread, where signals
    can be handled; elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _stop) for s in SIGNALS}
    try:
        yield
    except (Stopped, KeyboardInterrupt):
        pass
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
