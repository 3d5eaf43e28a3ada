"""`glados serve` in front of the stand-in Ollama, through the real `ollama` client and plain HTTP: the
upstream request carries the memory, the reply comes back byte for byte, memory commands are answered
from memory, other paths pass through, and each user sees only their own memory."""
from __future__ import annotations

import json
import re
import os
import socket
import subprocess
import sys
import time

import httpx
import ollama
import pytest

from tests.conftest import ROOT, glados
from tests.ollama_stub import StubOllama


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """`glados serve` in its own process, in front of `upstream`."""

    def __init__(self, upstream: str, db, user: str = "ada", host: str = "127.0.0.1", config=None, more=()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        extra = (["--config", str(config)] if config else []) + list(more)
        self.proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "serve", "--port", str(self.port),
                                      "--host", host, "--upstream", upstream, "--user", user, "--db", str(db), *extra],
                                     cwd=ROOT, env=dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)

    def __enter__(self) -> "Served":
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"glados serve exited: {self.proc.stderr.read()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("glados serve did not start listening")

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)

    def stderr(self) -> str:
        return self.proc.stderr.read()


def system_of(request: dict) -> str:
    return "\n".join(m["content"] for m in request["messages"] if m["role"] == "system")


def test_the_ollama_client_through_the_proxy_gets_the_memory_and_the_reply_unchanged(tmp_path):
    db = tmp_path / "m.db"
    with StubOllama() as stub, Served(stub.url, db) as served:
        client = ollama.Client(host=served.url)
        stub.enqueue("Noted, test subject.")
        first = client.chat(model="llama3.2", stream=False, messages=[
            {"role": "system", "content": "You are GLaDOS."},
            {"role": "user", "content": "I'm vegetarian and I'm allergic to peanuts"}])
        assert first.message.content == "Noted, test subject."
        upstream = stub.chats()[-1]
        assert system_of(upstream).startswith("You are GLaDOS.") and "peanuts" in system_of(upstream)
        assert [m["role"] for m in upstream["messages"]] == ["system", "user"]        # a system message, not two

        stub.enqueue("Fish. How adventurous.")
        streamed = client.chat(model="llama3.2", stream=True, messages=[
            {"role": "user", "content": "I'm vegetarian and I'm allergic to peanuts"},
            {"role": "assistant", "content": "Noted, test subject."},
            {"role": "user", "content": "actually I've started eating fish again"}])
        assert "".join(part.message.content for part in streamed) == "Fish. How adventurous."
        upstream = stub.chats()[-1]
        assert upstream["messages"][0]["role"] == "system"                            # added where there was none
        assert "pescatarian" in system_of(upstream) and "peanuts" in system_of(upstream)

        asked = len(stub.chats())
        memory = client.chat(model="llama3.2", stream=False,
                             messages=[{"role": "user", "content": "what do you remember about me?"}])
        assert "peanuts" in memory.message.content and "pescatarian" in memory.message.content
        assert len(stub.chats()) == asked                                              # answered from memory
        streamed = client.chat(model="llama3.2", stream=True,
                               messages=[{"role": "user", "content": "why do you think I'm allergic to peanuts?"}])
        assert "I'm vegetarian and I'm allergic to peanuts" in "".join(p.message.content for p in streamed)
        assert len(stub.chats()) == asked

        assert [m.model for m in client.list().models] == ["llama3.2:latest"]           # passes through
        assert httpx.get(f"{served.url}/api/version").json() == {"version": "0.33.0-stand-in"}

    exported = json.loads(glados("memory", "export", "--user", "ada", "--db", str(db)).stdout)
    said = [(m["role"], m["text"]) for m in exported["messages"]]
    assert ("assistant", "Fish. How adventurous.") in said and ("user", "actually I've started eating fish again") in said
    assert {(f["key"], f["value"]) for f in exported["facts"] if f["valid_to"] is None} == \
        {("diet", "pescatarian"), ("allergy", "peanuts")}


def uncounted(body: bytes) -> bytes:
    return re.sub(rb'"(prompt_eval_count|prompt_tokens|total_tokens)": ?\d+', rb'"\1": 0', body)


def test_reply_bytes_are_upstreams_streamed_or_not_in_both_apis(tmp_path):
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db") as served:
        for path, stream in (("/api/chat", True), ("/api/chat", False),
                             ("/v1/chat/completions", True), ("/v1/chat/completions", False)):
            body = {"model": "llama3.2", "stream": stream, "messages": [{"role": "user", "content": "I live in Leeds"}]}
            stub.enqueue("One two three.")
            direct = httpx.post(f"{stub.url}{path}", json=body).content
            stub.enqueue("One two three.")
            proxied = httpx.post(f"{served.url}{path}", json=body)
            # byte for byte, but for the prompt's size: the proxied prompt carries the memory
            assert proxied.status_code == 200 and uncounted(proxied.content) == uncounted(direct), path
            assert "Leeds" in system_of(stub.chats()[-1])


def test_each_user_sees_only_their_own_memory(tmp_path):
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db") as served:
        client = ollama.Client(host=served.url)
        client.chat(model="llama3.2", stream=False, messages=[{"role": "user", "content": "I live in Reykjavik"}])
        bob = ollama.Client(host=served.url, headers={"X-Glados-User": "bob"})
        bob.chat(model="llama3.2", stream=False, messages=[{"role": "user", "content": "where do I live?"}])
        assert "Reykjavik" not in json.dumps(stub.chats()[-1])
        client.chat(model="llama3.2", stream=False, messages=[{"role": "user", "content": "where do I live?"}])
        assert "Reykjavik" in system_of(stub.chats()[-1])


def test_upstream_down_is_an_ollama_style_error_and_the_message_waits_to_be_sent_again(tmp_path):
    closed = f"http://127.0.0.1:{free_port()}"
    with Served(closed, tmp_path / "m.db") as served:
        reply = httpx.post(f"{served.url}/api/chat", json={"model": "llama3.2", "stream": False,
                                                            "messages": [{"role": "user", "content": "I live in Oslo"}]})
        assert reply.status_code == 502 and "not answering" in reply.json()["error"]
        with pytest.raises(ollama.ResponseError):
            ollama.Client(host=served.url).chat(model="llama3.2", messages=[{"role": "user", "content": "hi"}])
    exported = glados("memory", "export", "--user", "ada", "--db", str(tmp_path / "m.db"))
    assert exported.returncode != 0 or json.loads(exported.stdout)["messages"] == []    # the user will send it again
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db") as served:
        stub.enqueue("Oslo. Cold.")
        again = httpx.post(f"{served.url}/api/chat", json={"model": "llama3.2", "stream": False,
                                                            "messages": [{"role": "user", "content": "I live in Oslo"}]})
        assert again.status_code == 200
    facts = json.loads(glados("memory", "list", "--json", "--user", "ada", "--db", str(tmp_path / "m.db")).stdout)
    assert [(f["key"], f["value"]) for f in facts] == [("location", "Oslo")]          # remembered once it went through
    said = json.loads(glados("memory", "export", "--user", "ada", "--db", str(tmp_path / "m.db")).stdout)["messages"]
    assert [m["text"] for m in said] == ["I live in Oslo", "Oslo. Cold."]


def test_a_clients_own_background_task_passes_through_unremembered(tmp_path):
    task = "### Task:\nSuggest 3-5 relevant follow-up questions...\n### Chat History:\nUSER: my brother lives in Oslo"
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db") as served:
        glados("memory", "observe", "I'm allergic to peanuts", "--user", "ada", "--db", str(tmp_path / "m.db"))
        stub.enqueue('{"follow_ups": []}')
        reply = httpx.post(f"{served.url}/api/chat", json={"model": "llama3.2", "stream": False,
                                                            "messages": [{"role": "user", "content": task}]})
        assert reply.status_code == 200
    assert "peanuts" not in json.dumps(stub.chats()[-1])          # no memory block for the client's own task
    said = json.loads(glados("memory", "export", "--user", "ada", "--db", str(tmp_path / "m.db")).stdout)["messages"]
    assert all("### Task" not in m["text"] for m in said)


def test_with_ollama_down_it_warns_at_start_answers_memory_questions_and_says_it_runs(tmp_path):
    closed = f"http://127.0.0.1:{free_port()}"
    glados("memory", "observe", "I live in Oslo", "--user", "ada", "--db", str(tmp_path / "m.db"))
    with Served(closed, tmp_path / "m.db") as served:
        asked = httpx.post(f"{served.url}/api/chat", json={"model": "llama3.2", "stream": False, "messages": [
            {"role": "user", "content": "where do I live?"}]})
        assert asked.status_code == 200 and "Oslo" in asked.json()["message"]["content"]
        root, version = httpx.get(served.url), httpx.get(f"{served.url}/api/version")
        assert root.status_code == 200 and "not answering" in root.text
        assert version.status_code == 200 and "version" in version.json()
        world = httpx.post(f"{served.url}/api/chat", json={"model": "llama3.2", "stream": False, "messages": [
            {"role": "user", "content": "why is the sky blue?"}]})
        assert world.status_code == 502 and "Error" not in world.json()["error"]     # no exception class names
    said = served.stderr()
    assert "warning: the upstream Ollama" in said and "not answering" in said


def test_listening_beyond_this_machine_needs_a_token_or_named_addresses(tmp_path):
    refused = glados("serve", "--host", "0.0.0.0", "--port", str(free_port()), "--db", str(tmp_path / "m.db"))
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1 and "--token" in refused.stderr
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db", host="0.0.0.0", more=["--token", "s3cret"]) as served:
        stub.enqueue("Hello.")
        body = {"model": "llama3.2", "stream": False, "messages": [{"role": "user", "content": "hi"}]}
        assert httpx.post(f"{served.url}/api/chat", json=body).status_code == 401
        allowed = httpx.post(f"{served.url}/api/chat", json=body, headers={"Authorization": "Bearer s3cret"})
        assert allowed.status_code == 200
    assert "served to a bearer token" in served.stderr()


def test_a_session_idle_for_the_configured_time_ends_with_its_summary(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("session:\n  idle_timeout_min: 0.02\n  consolidate: false\n")      # 1.2 s
    db = tmp_path / "m.db"
    with StubOllama() as stub, Served(stub.url, db, config=config) as served:
        stub.enqueue("Leeds. Delightful.")
        ollama.Client(host=served.url).chat(model="llama3.2", stream=False,
                                            messages=[{"role": "user", "content": "I live in Leeds"}])
        stub.enqueue("The user lives in Leeds.")                   # the model writes the summary
        deadline, summaries = time.monotonic() + 30, ""
        while time.monotonic() < deadline and "Leeds" not in summaries:      # while it still runs: not its shutdown
            time.sleep(0.5)
            summaries = glados("memory", "summaries", "--user", "ada", "--db", str(db)).stdout
        assert "The user lives in Leeds." in summaries


def test_a_scheme_less_upstream_as_ollama_host_writes_it_works(tmp_path):
    with StubOllama() as stub, Served(stub.url.removeprefix("http://"), tmp_path / "m.db") as served:
        stub.enqueue("Reachable. Unfortunately.")
        reply = ollama.Client(host=served.url).chat(model="llama3.2", stream=False,
                                                    messages=[{"role": "user", "content": "I live in Leeds"}])
    assert reply.message.content == "Reachable. Unfortunately."
    assert stub.chats()[-1]["options"]["num_ctx"] > 0           # one num_ctx for everything the proxy forwards


def test_a_follow_up_with_a_tool_result_or_a_regenerate_is_not_stored_again(tmp_path):
    db = tmp_path / "m.db"
    asked = [{"role": "user", "content": "I'm learning the cello"}]
    with StubOllama(capabilities=("completion", "tools")) as stub, Served(stub.url, db) as served:
        client = ollama.Client(host=served.url)
        stub.enqueue("", tool_calls=[{"name": "get_time", "arguments": {}}]).enqueue("Practise at noon.")
        first = client.chat(model="llama3.2", stream=False, messages=asked)
        follow = asked + [{"role": "assistant", "content": "", "tool_calls": [dict(first.message.tool_calls[0])]},
                          {"role": "tool", "content": "12:00", "tool_name": "get_time"}]
        assert client.chat(model="llama3.2", stream=False, messages=follow).message.content == "Practise at noon."
        stub.enqueue("Still the cello.")
        assert client.chat(model="llama3.2", stream=False, messages=asked).message.content == "Still the cello."
    said = [(m["role"], m["text"]) for m in json.loads(glados("memory", "export", "--user", "ada", "--db", str(db))
                                                       .stdout)["messages"]]
    assert said.count(("user", "I'm learning the cello")) == 1


def test_a_one_shot_generate_gets_the_memory_and_is_remembered(tmp_path):
    db = tmp_path / "m.db"
    with StubOllama() as stub, Served(stub.url, db) as served:
        client = ollama.Client(host=served.url)
        stub.enqueue("Noted.")
        client.chat(model="llama3.2", stream=False, messages=[{"role": "user", "content": "I'm allergic to peanuts"}])
        stub.enqueue("Not with peanuts.")
        out = client.generate(model="llama3.2", prompt="I live in Hull. What should I bake?", stream=False)
        assert out.response == "Not with peanuts."
        sent = [b for path, b in stub.requests if path == "/api/generate"][-1]
        assert "peanuts" in sent.get("system", "") + sent.get("prompt", "")
    exported = json.loads(glados("memory", "export", "--user", "ada", "--db", str(db)).stdout)
    said = [(m["role"], m["text"]) for m in exported["messages"]]
    assert ("user", "I live in Hull. What should I bake?") in said and ("assistant", "Not with peanuts.") in said
    assert ("location", "Hull") in {(f["key"], f["value"]) for f in exported["facts"]}


def test_recalled_messages_go_with_the_users_message_and_the_system_message_stays_the_same(tmp_path):
    """What changes every turn goes late in the prompt, so the server's cache keeps the rest."""
    with StubOllama() as stub, Served(stub.url, tmp_path / "m.db") as served:
        client = ollama.Client(host=served.url)
        stub.enqueue("A locksmith. Riveting.").enqueue("Quince. Bartholomew Quince.")
        client.chat(model="llama3.2", stream=False,
                    messages=[{"role": "user", "content": "my locksmith is called Bartholomew Quince"}])
        asked = "what was my locksmith called, Quince something?"
        client.chat(model="llama3.2", stream=False, messages=[{"role": "user", "content": asked}])
    first, second = [r for r in stub.chats() if "Summarize" not in system_of(r) and "format" not in r][-2:]
    assert system_of(first) == system_of(second) and "Bartholomew" not in system_of(second)
    last = second["messages"][-1]
    assert last["role"] == "user" and "Bartholomew Quince" in last["content"] and last["content"].endswith(asked)
