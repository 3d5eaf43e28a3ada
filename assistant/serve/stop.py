"""A server stops the same way however it is told to: Ctrl-C, or SIGTERM from systemd, Docker or `kill`.

uvicorn shuts down gracefully on either signal (the proxy's lifespan ends its sessions) and then raises the
signal again so the default action runs: SIGTERM would kill the process before the code after `uvicorn.run`
(the MCP server's session end) and exit -15. Inside `until_stopped` both signals raise `Stopped` instead,
which it catches: what follows the server runs, and the command exits 0.

A server whose event loop is ours (the MCP server on stdio) takes the signals in the loop instead
(`until_signal`): an exception raised from a handler lands wherever the main thread is, inside a tool call's
write or inside a task whose group then waits forever for the stdin reader.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

import anyio

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


async def until_signal(scope: anyio.CancelScope, *, task_status=anyio.TASK_STATUS_IGNORED) -> None:
    """Cancel `scope` at SIGINT or SIGTERM, between the loop's steps: a tool call under way ends first. Started
    with `TaskGroup.start`, so the signals are the loop's before anything else runs."""
    with anyio.open_signal_receiver(*SIGNALS) as signals:
        task_status.started()
        async for signum in signals:
            _RECEIVED.append(signum)
            scope.cancel()
            return


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
