"""How the MCP server talks: stdio (until the client closes stdin or a signal stops it) or HTTP (streamable HTTP and
SSE on one port, behind the access guard), with the SDK's log made to read as a service's."""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import Callable

from .access import Access, Guard
from .stop import until_signal


@dataclass(frozen=True)
class Http:
    """Serve over HTTP instead of stdio: streamable HTTP at /mcp and SSE at /sse, for `access` only."""
    host: str
    port: int
    access: Access


NAME = "glados-memory"


def version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("glados-assistant")
    except PackageNotFoundError:       # a checkout that was never installed
        return "0+unknown"


def run_stdio(server) -> None:
    """Until the client closes stdin or a signal stops the server. A reply still on its way when the client
    leaves (the SDK writes it to a closed stream) is the client leaving, not an error."""
    import anyio
    if sys.version_info < (3, 11):
        from exceptiongroup import BaseExceptionGroup      # anyio's backport, installed with it on 3.10
    else:
        from builtins import BaseExceptionGroup
    try:
        anyio.run(_stdio, server._mcp_server)
    except BaseExceptionGroup as group:
        _, rest = group.split((anyio.ClosedResourceError, anyio.BrokenResourceError))
        if rest is not None:
            raise rest from None


async def _stdio(lowlevel) -> None:
    """FastMCP's run_stdio_async, with the signals taken in the loop and a stdin reader a stop may leave."""
    import io

    import anyio
    from mcp.server.stdio import stdio_server
    async with anyio.create_task_group() as group:
        await group.start(until_signal, group.cancel_scope)
        stdin = _Lines(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
        async with stdio_server(stdin=stdin) as (read, write):
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
        group.cancel_scope.cancel()       # the client left: the signal watcher ends too


class _Lines:
    """stdin's lines for the SDK's reader, each read in a worker thread that a stop abandons: anyio's own
    file object waits for the line, and a client that keeps stdin open would hold the server forever."""

    def __init__(self, stream):
        self.stream = stream

    def __aiter__(self) -> "_Lines":
        return self

    async def __anext__(self) -> str:
        import anyio
        line = await anyio.to_thread.run_sync(self.stream.readline, abandon_on_cancel=True)
        if not line:
            raise StopAsyncIteration
        return line


class _Noise(logging.Filter):
    """The MCP SDK's log, as a service's log should read: a client that left is not an error (the SDK logs a
    traceback for each streamable-HTTP disconnect), and a malformed message is one line, not a pydantic
    report of every request type it is not."""

    def filter(self, record: logging.LogRecord) -> bool:
        import anyio
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (anyio.ClosedResourceError, anyio.BrokenResourceError)):
            return False
        text = record.getMessage()
        if "Failed to validate request" in text or "Received exception from stream" in text:
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            what = lines[0].split(": ", 1)[-1]       # "28 validation errors for ClientRequest"
            if what.startswith("1 validation error") and len(lines) > 1:
                what = lines[1]                        # "Invalid JSON: expected value at line 1 column 1"
            record.msg = f"ignored a malformed message ({what.split(' [type=')[0][:160]})"
            record.args, record.exc_info = (), None
        return True


def quiet_logs(verbose: bool) -> None:
    """The SDK's records on stderr, one line each, prefixed with the command (FastMCP would install a rich
    handler that wraps every line to the terminal's width)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("glados memory mcp: %(levelname)s %(message)s"))
    handler.addFilter(_Noise())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO if verbose else logging.WARNING)


def run_http(server, http: Http, user: str, say: Callable[[str], None]) -> None:
    """Streamable HTTP (/mcp) and SSE (/sse, /messages/) on one port, behind the access guard."""
    import uvicorn

    from .listen import check_free
    check_free(http.host, http.port, "the MCP server")
    app = server.streamable_http_app()            # its lifespan runs the streamable sessions
    app.router.routes.extend(server.sse_app().routes)
    say(f"glados memory mcp: the memory of {user!r} at http://{http.host}:{http.port}/mcp (streamable HTTP) and "
        f"/sse (SSE), for {http.access.describe()}")
    uvicorn.run(Guard(app, http.access, resource="/mcp"), host=http.host, port=http.port, log_level="warning")
