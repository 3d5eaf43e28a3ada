"""`glados memory mcp` through the official MCP SDK's stdio client, as dnhkng/GLaDOS loads its memory."""
from __future__ import annotations

import json
import os
import sys

import anyio
import pytest

from tests.conftest import ROOT

mcp = pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

NATIVE = {"remember", "recall", "facts", "forget", "context"}
GLADOS = {"store_fact", "search_memory", "list_facts", "store_summary", "get_summaries", "memory_stats"}


def session(db, user: str, script):
    """Start the server for `user` on `db`, run `script(call)` against it, return what it returns."""
    server = StdioServerParameters(command=sys.executable, args=["-m", "assistant.cli", "memory", "mcp",
                                                                "--user", user, "--db", str(db)],
                                   env=dict(os.environ), cwd=str(ROOT))

    async def run():
        async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
            await client.initialize()

            async def call(name: str, **arguments) -> dict:
                result = await client.call_tool(name, arguments)
                if result.isError:          # a refusal: its one line, as an error the client can tell apart
                    return {"error": result.content[0].text, "isError": True}
                return json.loads(result.content[0].text)
            listed = await client.list_tools()
            return await script(call, {t.name: t for t in listed.tools})
    return anyio.run(run)


def test_a_fact_is_remembered_superseded_found_and_forgotten_and_another_user_sees_nothing(tmp_path):
    db = tmp_path / "m.db"

    async def ada(call, tools):
        assert NATIVE | GLADOS <= set(tools)
        assert all(tools[name].description for name in NATIVE | GLADOS)
        first = await call("remember", text="I'm vegetarian and I'm allergic to peanuts")
        assert {(c["key"], c["value"]) for c in first["changes"]} == {("diet", "vegetarian"), ("allergy", "peanuts")}
        second = await call("remember", text="actually I've started eating fish again")
        assert [(c["kind"], c["key"], c["value"]) for c in second["changes"]] == [("superseded", "diet", "pescatarian")]
        facts = {(f["key"], f["value"]) for f in (await call("facts"))["facts"]}
        assert facts == {("diet", "pescatarian"), ("allergy", "peanuts")}          # the allergy stays
        assert "peanuts" in (await call("context"))["context"]
        found = await call("recall", query="fish", k=3)
        assert any("fish" in r["text"] for r in found["results"])
        refused = await call("forget", target="allergy")
        assert refused["isError"] and "allergy: peanuts keeps the user safe" in refused["error"]
        assert "confirm: true to delete it" in refused["error"]
        gone = await call("forget", target="allergy", confirm=True)
        assert [c["value"] for c in gone["forgotten"]] == ["peanuts"]
        asked = await call("remember", text="what do you remember about me?")       # a storing tool: no answers
        assert "only stores" in asked["error"] and "pescatarian" in json.dumps(await call("facts"))
        assert "peanuts" not in json.dumps(await call("facts"))
        return True

    async def bob(call, tools):
        return (await call("facts"))["facts"], (await call("recall", query="fish peanuts vegetarian"))["results"]

    assert session(db, "ada", ada)
    assert session(db, "bob", bob) == ([], [])


def test_dnhkng_glados_memory_tools_keep_their_names_arguments_and_json(tmp_path):
    """The shapes GLaDOS's own memory server returns, so its agent reads ours unchanged."""
    db = tmp_path / "m.db"

    async def script(call, tools):
        for name, arguments in {"store_fact": {"fact", "source", "importance"}, "search_memory": {"query", "limit"},
                                "list_facts": {"limit", "min_importance"},
                                "store_summary": {"summary", "period", "start_time", "end_time"},
                                "get_summaries": {"period", "limit"}, "memory_stats": set()}.items():
            assert set(tools[name].inputSchema.get("properties", {})) == arguments, name
        empty = await call("search_memory", query="anything")
        assert empty == {"facts": [], "message": "No facts stored yet"}
        stored = await call("store_fact", fact="My name is David and I live in Leeds", source="user", importance=0.9)
        assert stored["status"] == "stored" and stored["fact"] == "My name is David and I live in Leeds" and stored["id"]
        note = await call("store_fact", fact="The garage code is 4512")
        assert note["status"] == "stored"
        found = await call("search_memory", query="where does the user live", limit=5)
        assert found["total_stored"] == 3 and found["facts"]
        assert set(found["facts"][0]) == {"id", "content", "source", "importance", "created_at"}
        assert any("Leeds" in f["content"] for f in found["facts"])
        listed = await call("list_facts", limit=20)
        assert {f["content"] for f in listed["facts"]} >= {"The user's name is David.", "The user lives in Leeds."}
        summary = await call("store_summary", summary="Talked about the garage.", period="daily",
                             start_time="2026-12-01T00:00:00", end_time="2026-12-01T23:59:59")
        assert summary["status"] == "stored" and summary["period"] == "daily" and summary["id"]
        bad = await call("store_summary", summary="x", period="yearly", start_time="a", end_time="b")
        assert bad == {"error": "period must be 'session', 'daily', or 'weekly'"}
        got = await call("get_summaries", period="daily", limit=5)
        assert [(s["content"], s["start_time"]) for s in got["summaries"]] == [("Talked about the garage.",
                                                                               "2026-12-01T00:00:00")]
        assert set(got["summaries"][0]) == {"id", "content", "period", "start_time", "end_time", "created_at"}
        stats = await call("memory_stats")
        assert stats["total_facts"] == 3 and stats["summaries_by_period"] == {"daily": 1}
        assert set(stats) == {"total_facts", "total_summaries", "facts_by_source", "summaries_by_period",
                              "average_importance"}
        return True

    assert session(db, "ada", script)


def test_a_noted_secret_never_leaves_through_any_tool_or_the_context(tmp_path):
    """Every tool result goes to another assistant's model: a locker code or a password the user noted is
    "(private)" there, as in the memory block (issue 71)."""
    db = tmp_path / "m.db"

    async def script(call, tools):
        said = [await call("remember", text="Remember that my locker code is 5521."),
                await call("store_fact", fact="User's wifi password is hunter2"),
                await call("remember", text="I live in Leeds")]
        results = said + [await call("search_memory", query="locker", limit=10),
                          await call("search_memory", query="wifi password", limit=10),
                          await call("recall", query="locker code", k=10),
                          await call("recall", query="wifi", k=10),
                          await call("list_facts", limit=50), await call("facts"), await call("context"),
                          await call("memory_stats")]
        return results

    results = session(db, "ada", script)
    text = json.dumps(results)
    assert "5521" not in text and "hunter2" not in text
    assert "locker code is (private)" in text and "Leeds" in text      # the rest is still there
