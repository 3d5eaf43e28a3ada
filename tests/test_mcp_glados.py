"""`glados-memory mcp` as dnhkng/GLaDOS starts it: a `glados` of GLaDOS's own first on PATH, only the
environment the MCP SDK passes, the database named in the entry's args. Driven through the official
client as GLaDOS's model calls the tools: third-person facts, storing that never deletes, one entry per
statement, a summary sent twice, the memory block as a resource."""
import json
import os
import sys

import anyio
import pytest

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import get_default_environment, stdio_client  # noqa: E402

from tests.conftest import glados  # noqa: E402
from tests.test_chat_ollama import free_port  # noqa: E402

VENV_BIN = os.path.dirname(sys.executable)


def glados_session(tmp_path, db, script):
    """The server as GLaDOS's MCPManager starts it from the README's entry."""
    shadow = tmp_path / "glados-own-bin"
    shadow.mkdir(exist_ok=True)
    (shadow / "glados").write_text("#!/bin/sh\necho \"usage: glados {download,start,tui,say}\" >&2\nexit 2\n")
    (shadow / "glados").chmod(0o755)
    # GLaDOS's MCPManager passes env=None: the SDK's default environment, with GLaDOS's own venv first on PATH
    env = {**get_default_environment(), "PATH": f"{shadow}{os.pathsep}/usr/bin:/bin", "HOME": os.environ["HOME"]}
    server = StdioServerParameters(command=os.path.join(VENV_BIN, "glados-memory"),      # as the README's entry
                                   args=["mcp", "--user", "chell", "--db", str(db)], env=env, cwd=str(tmp_path))

    async def run():
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()

            async def call(name: str, **arguments) -> dict:
                result = await client.call_tool(name, arguments)
                if result.isError:      # a refusal: GLaDOS hands its text to the model as it is
                    return {"error": result.content[0].text}
                return json.loads(result.content[0].text)

            async def read_block() -> str:
                return (await client.read_resource("memory://context")).contents[0].text
            return await script(call, read_block, await client.list_resources())
    return anyio.run(run)


def test_glados_reaches_the_memory_its_prompt_sees_it_and_third_person_facts_supersede(tmp_path):
    db = tmp_path / "memory.db"

    async def script(call, read_block, resources):
        assert [str(r.uri) for r in resources.resources] == ["memory://context"]
        for fact in ("User's name is David", "The user lives in York", "User is vegetarian"):
            assert (await call("store_fact", fact=fact, importance=0.9))["status"] == "stored"
        assert '"York"' in await read_block()
        assert (await call("store_fact", fact="User lives in Leeds"))["status"] == "stored"
        block = await read_block()                     # read fresh: the change is there at once
        assert '"Leeds"' in block and "York" not in block and '"vegetarian"' in block
        refused = await call("store_fact", fact="forget where I live")
        assert "only stores" in refused["error"]
        found = await call("search_memory", query="where does the user live", limit=5)
        contents = [f["content"] for f in found["facts"]]
        assert "Leeds" in contents[0] and len(contents) == len(set(contents))
        assert not any("User lives in Leeds" == c for c in contents)       # the fact stands for its message
        await call("store_fact", fact="User likes jazz", importance=0.3, source="conversation")
        jazz = [f for f in (await call("list_facts"))["facts"] if "jazz" in f["content"]]
        assert jazz[0]["source"] == "conversation" and jazz[0]["importance"] == 0.3
        important = await call("list_facts", min_importance=0.7)
        kept = {f["content"]: f["importance"] for f in important["facts"]}
        assert kept.get("The user's name is David.") == 0.9 and not any("jazz" in c for c in kept)
        huge = await call("store_fact", fact="x" * 100_000)
        assert "error" in huge and "x" * 100 not in json.dumps(huge)
        span = {"period": "daily", "start_time": "2026-12-01T00:00:00", "end_time": "2026-12-01T23:59:59"}
        first = await call("store_summary", summary="David moved to Leeds.", **span)
        again = await call("store_summary", summary="David moved to Leeds.", **span)
        assert first["status"] == again["status"] == "stored" and first["id"] == again["id"]
        assert "error" in await call("store_summary", summary="Something else.", **span)
        return True

    assert glados_session(tmp_path, db, script)
    facts = json.loads(glados("memory", "list", "--json", "--all", "--user", "chell", "--db", str(db)).stdout)
    held = {(f["key"], f["value"], f["valid_to"] is None) for f in facts}
    assert {("name", "David", True), ("location", "Leeds", True), ("location", "York", False),
            ("diet", "vegetarian", True)} <= held


def test_another_user_of_the_same_file_sees_nothing(tmp_path):
    db = tmp_path / "memory.db"
    glados("memory", "observe", "I live in Oslo", "--user", "ada", "--db", str(db))

    async def script(call, read_block, resources):
        return (await call("list_facts"))["facts"], await read_block()
    facts, block = glados_session(tmp_path, db, script)
    assert facts == [] and "Oslo" not in block


def test_over_http_with_a_token_and_refused_without(tmp_path):
    """GLaDOS's `transport: http` with a `token`, and Home Assistant's SSE: the official clients, one server."""
    import socket
    import subprocess
    import time

    import httpx
    from contextlib import asynccontextmanager

    from mcp.client.sse import sse_client
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    @asynccontextmanager
    async def http_client(url, headers):       # as GLaDOS's MCPManager opens `transport: http`
        async with create_mcp_http_client(headers=headers) as client:
            async with streamable_http_client(url, http_client=client) as streams:
                yield streams

    port = free_port()
    db = tmp_path / "memory.db"
    refused = glados("memory", "mcp", "--http", "--host", "0.0.0.0", "--port", str(port), "--db", str(db))
    assert refused.returncode == 1 and "--token" in refused.stderr and refused.stderr.count("\n") == 1
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "memory", "mcp", "--http", "--port", str(port),
                             "--host", "0.0.0.0", "--token", "s3cret", "--user", "chell", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        refused = httpx.post(f"http://127.0.0.1:{port}/mcp", json={})
        assert refused.status_code == 401          # RFC 9728: where to read how to get in
        metadata = refused.headers["www-authenticate"].split('resource_metadata="')[1].rstrip('"')
        described = httpx.get(metadata).json()
        assert described["resource"].endswith("/mcp") and described["bearer_methods_supported"] == ["header"]
        auth = {"Authorization": "Bearer s3cret"}

        async def over(client_for, url):
            async with client_for(url, headers=auth) as streams:
                async with ClientSession(streams[0], streams[1]) as client:
                    await client.initialize()
                    stored = await client.call_tool("store_fact", {"fact": "User lives in Leeds"})
                    assert json.loads(stored.content[0].text)["status"] == "stored"
                    block = (await client.read_resource("memory://context")).contents[0].text
                    return block
        assert '"Leeds"' in anyio.run(over, http_client, f"http://127.0.0.1:{port}/mcp")
        assert '"Leeds"' in anyio.run(over, sse_client, f"http://127.0.0.1:{port}/sse")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    facts = json.loads(glados("memory", "list", "--json", "--user", "chell", "--db", str(db)).stdout)
    assert [(f["key"], f["value"]) for f in facts] == [("location", "Leeds")]
