"""Whether a server can listen where it was asked to, found out before it says it is serving: a port another
program holds, or an address that is not this machine's, is one line (uvicorn would log its error after ours)."""
from __future__ import annotations

import errno
import socket


class Unservable(Exception):
    """A server cannot listen where it was asked to; the message says what to do instead."""


def check_free(host: str, port: int, what: str) -> None:
    """Raises Unservable when `what` (the command, for the message) cannot listen on host:port."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise Unservable(f"{what} cannot start: {host}:{port} is in use (by another glados server, or another "
                             "program); pick another with --port") from None
        raise Unservable(f"{what} cannot start on {host}:{port}: {(exc.strerror or str(exc)).lower()}") from None
