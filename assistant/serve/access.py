"""Who may talk to a server that holds someone's memory: this machine, a bearer token, or named addresses.

Listening on loopback, everyone on this machine may (as with Ollama itself). Listening beyond it, a request
needs the token (`--token`, sent as `Authorization: Bearer ...`, as dnhkng/GLaDOS's `token` sends it) or
must come from an address allowed by `--allow-from` (for clients that cannot send a token, such as Home
Assistant's MCP integration without OAuth); with neither given, such a server is not started at all.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
from dataclasses import dataclass

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class Refused(ValueError):
    """A server that would hand out someone's memory to anyone who can reach it; the message says what to add."""


@dataclass(frozen=True)
class Access:
    """Who may connect: `token` (None: no token asked), `allowed` networks (empty: none named)."""
    token: str | None = None
    allowed: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    @classmethod
    def for_host(cls, host: str, token: str | None, allow_from: list[str] | None, what: str) -> "Access":
        """The access rule for listening on `host`; raises Refused for a non-loopback host with neither."""
        try:
            allowed = tuple(ipaddress.ip_network(a.strip(), strict=False) for a in allow_from or [])
        except ValueError as exc:
            raise Refused(f"--allow-from takes addresses or networks such as 192.168.1.20 or 192.168.1.0/24 ({exc})") \
                from None
        if host not in LOOPBACK and not token and not allowed:
            raise Refused(f"{what} on {host} would give this memory to anyone who can reach the port; add --token "
                          "SECRET (clients send it as a bearer token) or --allow-from ADDRESS, or listen on 127.0.0.1")
        return cls(token or None, allowed)

    def admits(self, headers: dict[str, str], client: str | None) -> bool:
        if self.token is None and not self.allowed:
            return True               # loopback only, as with Ollama itself
        sent = headers.get("authorization", "")
        if self.token is not None and hmac.compare_digest(sent.encode(), f"Bearer {self.token}".encode()):
            return True
        try:
            address = ipaddress.ip_address(client or "")
        except ValueError:
            return False
        return any(address in network for network in self.allowed)

    def describe(self) -> str:
        """Who may connect, in words, for the line printed at start."""
        parts = (["a bearer token"] if self.token else []) + [str(n) for n in self.allowed]
        return " or ".join(parts) if parts else "this machine"


WELL_KNOWN = "/.well-known/oauth-protected-resource"


class Guard:
    """ASGI middleware: a request Access does not admit gets 401 and reaches nothing. `resource` (the MCP
    server's "/mcp"): the 401 names the resource's metadata (RFC 9728's `resource_metadata`, which newer MCP
    clients such as Home Assistant read first), served here to anyone: it says a bearer token in the header is
    how to get in, and holds nothing of the user's."""

    def __init__(self, app, access: Access, resource: str | None = None):
        self.app, self.access, self.resource = app, access, resource

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        base = f"{scope.get('scheme', 'http')}://{headers.get('host', 'localhost')}"
        if self.resource and scope["type"] == "http" and scope.get("path") in (WELL_KNOWN, WELL_KNOWN + self.resource):
            return await _respond(send, 200, {"resource": base + self.resource, "bearer_methods_supported": ["header"],
                                              "resource_name": "glados memory"})
        client = (scope.get("client") or (None,))[0]
        if self.access.admits(headers, client):
            return await self.app(scope, receive, send)
        challenge = f'Bearer resource_metadata="{base}{WELL_KNOWN}{self.resource}"' if self.resource else "Bearer"
        await _respond(send, 401, {"error": "not allowed: send the server's token (Authorization: Bearer ...) or "
                                            "connect from an allowed address"}, challenge)


async def _respond(send, status: int, body: dict, challenge: str | None = None) -> None:
    headers = [(b"content-type", b"application/json")]
    if challenge:
        headers.append((b"www-authenticate", challenge.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})
