"""Servers a household can leave running: SIGTERM (systemd, Docker) stops `glados serve` and `glados memory
mcp --http` as Ctrl-C does (the session summarised, exit 0), a client leaving is not an error, the log keeps
no words unless asked to and forgetting scrubs it, and secrets stay out of the model's prompt."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import anyio
import pytest
import ollama
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ROOT, glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import free_port
from tests.test_serve import Served


def summaries(user: str, db) -> str:
    done = glados("memory", "summaries", "--user", user, "--db", str(db))
    assert done.returncode == 0, done.stderr
    return done.stdout


def listening(port: int, proc: subprocess.Popen) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise AssertionError(proc.stderr.read())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not start listening")


def test_sigterm_ends_the_memory_server_as_ctrl_c_does(tmp_path):
    port, db = free_port(), tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "memory", "mcp", "--http", "--port", str(port),
                             "--user", "chell", "--db", str(db)], cwd=ROOT, env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        listening(port, proc)

        async def remember() -> None:
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
                async with ClientSession(streams[0], streams[1]) as client:
                    await client.initialize()
                    await client.call_tool("remember", {"text": "I live in Leeds and I keep bees"})
        anyio.run(remember)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
    err = proc.stderr.read()
    assert "Traceback" not in err and "ClosedResourceError" not in err      # a client leaving is no error
    assert "Leeds" in summaries("chell", db)


def test_sigterm_ends_the_proxy_with_every_session_summarised(tmp_path):
    db = tmp_path / "m.db"
    with StubOllama() as stub:
        served = Served(stub.url, db).__enter__()
        stub.enqueue("Leeds. How provincial.")
        ollama.Client(host=served.url).chat(model="llama3.2", stream=False, messages=[
            {"role": "user", "content": "I live in Leeds and I keep bees"}])
        served.proc.send_signal(signal.SIGTERM)
        assert served.proc.wait(timeout=60) == 0
    assert "Traceback" not in served.stderr()
    assert summaries("ada", db).strip() and "no summar" not in summaries("ada", db).lower()


def test_the_tools_describe_every_argument_and_speak_of_the_user_in_the_third_person(tmp_path):
    from tests.test_mcp import session

    async def script(call, tools):
        for tool in tools.values():
            properties = tool.inputSchema.get("properties", {})
            assert all(p.get("description") for p in properties.values()), (tool.name, properties)
        stored = await call("remember", text="My name is Ada and I live in York")
        assert stored["reply"] == "The user's name is Ada. The user lives in York."
        return True
    assert session(tmp_path / "m.db", "ada", script)


def test_the_server_says_its_own_name_and_a_malformed_line_is_one_line(tmp_path):
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    lines = [json.dumps(hello), "this is not json", json.dumps({"jsonrpc": "2.0", "id": 2, "method": "bogus"})]
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "memory", "mcp", "--db", str(tmp_path / "m.db")],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout.splitlines()[0])["result"]["serverInfo"]
    assert info["name"] == "glados-memory" and not info["version"].startswith("1.")      # not the SDK's 1.x
    noise = [line for line in done.stderr.splitlines() if "glados memory mcp" in line]
    assert len(noise) == 2 and all("malformed message" in line for line in noise), done.stderr
    assert len(done.stderr.splitlines()) <= 3


def every_file(home, db) -> dict[str, bytes]:
    """Every file under the home folder (data, state, cache, config) and the database's own files."""
    files = [p for p in home.rglob("*") if p.is_file()] + [p for p in db.parent.glob(db.name + "*") if p.is_file()]
    return {str(p): p.read_bytes() for p in files}


def chat_through(served, *lines: str) -> None:
    client = ollama.Client(host=served.url)
    history: list[dict] = []
    for line in lines:
        history.append({"role": "user", "content": line})
        reply = client.chat(model="llama3.2", stream=False, messages=history)
        history.append({"role": "assistant", "content": reply.message.content})


def test_the_log_holds_no_words_unless_verbose(tmp_path, isolated_home):
    db = tmp_path / "m.db"
    with StubOllama() as stub, Served(stub.url, db) as served:
        chat_through(served, "My name is Chell and I'm allergic to shellfish",
                     "remember that my bike lock code is 7788")
        served.proc.send_signal(signal.SIGTERM)
        assert served.proc.wait(timeout=60) == 0
    log = (isolated_home / ".local" / "share" / "glados" / "glados.log").read_text()
    assert "added allergy" in log                                   # events, by kind and id
    assert not any(word in log for word in ("Chell", "shellfish", "7788", "bike lock"))


def test_after_forgetting_the_value_is_in_no_file_logs_included(tmp_path, isolated_home):
    db = tmp_path / "m.db"
    with StubOllama() as stub, Served(stub.url, db, more=["--verbose"]) as served:
        chat_through(served, "remember that my bike lock code is 7788", "what's a good name for a cat?")
        log = isolated_home / ".local" / "share" / "glados" / "glados.log"
        assert "7788" in log.read_text()                            # --verbose: the words are there
        chat_through(served, "forget my bike lock code")
        served.proc.send_signal(signal.SIGTERM)
        assert served.proc.wait(timeout=60) == 0
    assert [path for path, data in every_file(isolated_home, db).items() if b"7788" in data] == []


def test_a_secret_is_answered_from_memory_and_never_sent_to_the_model():
    from tests.test_chat_ollama import chat
    with StubOllama() as stub:
        chat(stub.url, "ada", "remember that my locker code is 4512", "what's a good recipe for soup?")
        later = chat(stub.url, "ada", "how far is the Moon?", "what's my locker code?")
        sent = json.dumps(stub.chats())
    assert "4512" not in sent and "how far is the Moon" in sent
    assert "4512" in later.stdout.split("what's my locker code")[-1] or "4512" in later.stdout


def test_glados_model_can_carry_out_forget_my_allergy_through_the_readme_entry(tmp_path):
    import re
    from tests.test_mcp_glados import glados_session
    readme = (ROOT / "README.md").read_text()
    allowed = re.search(r"allowed_tools: \[([^\]]*)\]", readme)[1].replace(" ", "").split(",")
    assert "forget" in allowed

    async def script(call, read_block, _resources):
        await call("store_fact", fact="User is allergic to peanuts and lives in Leeds")
        refused = await call("forget", target="my allergy")            # as GLaDOS's model passes the user's words
        assert "confirm" in refused["error"] and "peanuts" in await read_block()
        done = await call("forget", target="my allergy", confirm=True)
        assert [c["value"] for c in done["forgotten"]] == ["peanuts"]
        return await read_block()
    block = glados_session(tmp_path, tmp_path / "m.db", script)
    assert "peanuts" not in block and "Leeds" in block


def test_every_export_failure_is_one_line(tmp_path):
    glados("memory", "observe", "--user", "ada", "I live in Leeds")
    for where in ([str(tmp_path / "missing" / "ada.json")], [str(tmp_path)]):
        done = glados("memory", "export", "--user", "ada", "-o", *where)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert [line for line in done.stderr.splitlines() if "cannot write the export" in line] == \
            [done.stderr.strip().splitlines()[-1]]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "assistant.cli", "memory", "export", "--user", "ada"], cwd=ROOT,
                              stdout=full, stderr=subprocess.PIPE, text=True, env=dict(os.environ), timeout=60)
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [
        "glados: cannot write the export to standard output: no space left on device"], done.stderr


def test_a_voice_run_with_no_microphone_writes_nothing_outside_glados_folders(tmp_path, isolated_home):
    import glob
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "PULSE_SERVER", "PULSE_RUNTIME_PATH")}
    before = set(glob.glob("/tmp/pulse-*"))
    done = subprocess.run([sys.executable, "-m", "assistant.cli", "voice"], input="", capture_output=True,
                          text=True, cwd=ROOT, env={**env, "OLLAMA_HOST": "http://127.0.0.1:9"}, timeout=120)
    assert done.returncode == 0, done.stderr
    outside = [str(p.relative_to(isolated_home)) for p in isolated_home.rglob("*")
               if p.is_file() and "glados" not in p.relative_to(isolated_home).parts]
    assert outside == [] and set(glob.glob("/tmp/pulse-*")) == before


@pytest.mark.parametrize("when", ["answered", "mid-call"])
def test_sigterm_ends_the_stdio_memory_server_though_its_client_keeps_stdin_open(tmp_path, when):
    """After the remember call is answered, or while it runs (the first call loads the parser: about a second):
    the call ends first, then the session, with exit 0; the CI once caught a stop that hung mid-call."""
    db = tmp_path / "m.db"
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "memory", "mcp", "--user", "chell", "--db", str(db)],
                            cwd=ROOT, env=dict(os.environ), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    remember = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "remember", "arguments": {"text": "I live in Leeds and I keep bees"}}}

    def send(message: dict) -> None:
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()

    def answered(request: int) -> None:
        deadline = time.monotonic() + 60
        while f'"id":{request}' not in proc.stdout.readline().replace(" ", "") and time.monotonic() < deadline:
            pass
    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        answered(1)
        send(remember)
        if when == "answered":
            answered(2)
        else:
            time.sleep(0.3)                                        # read, and the call under way
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0                          # stdin still open: no reader holds it
    finally:
        proc.kill()
    assert "Leeds" in summaries("chell", db) and "Traceback" not in proc.stderr.read()