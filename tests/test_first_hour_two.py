"""The first hour, second pass (issue 50): what a new user tripped over, each through the CLI in a
separate process with a fresh home, and the stand-in Ollama server where a model is involved."""
import json
import os
import stat
import subprocess
import sys

from tests.conftest import ROOT, glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat
from tests.test_first_hour import offline_chat


# -- the memory command line ------------------------------------------------------------------------
def test_piped_output_is_whole():
    value = "my wifi password is correct-horse-battery-staple-and-then-some-more-words-to-be-long"
    glados("memory", "observe", f"remember that {value}", "--user", "ada")
    listed = glados("memory", "list", "--all", "--user", "ada")
    assert value in listed.stdout and "…" not in listed.stdout
    assert "+00:00" in listed.stdout or "-" in listed.stdout.split(value)[1]      # the time is whole too


def test_piped_facts_are_plain_columns_and_a_terminal_gets_the_table():
    glados("memory", "observe", "remember that our team sign is :thumbs_up: twice", "--user", "ada")
    glados("memory", "observe", "I live in Leeds", "--user", "ada")
    piped = glados("memory", "list", "--user", "ada").stdout.splitlines()
    assert piped[0].split() == ["id", "key", "value", "since", "from"] and "│" not in "".join(piped)
    assert any(":thumbs_up:" in line for line in piped)       # the user's words as written, no emoji made of them
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "memory", "list", "--user", "ada"],
                            stdout=slave, stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ, COLUMNS="120"))
    os.close(slave)
    assert proc.wait(timeout=60) == 0
    shown = b""
    while chunk := _read(master):
        shown += chunk
    os.close(master)
    assert "│" in shown.decode() and "Leeds" in shown.decode() and ":thumbs_up:" in shown.decode()


def _read(fd: int) -> bytes:
    try:
        return os.read(fd, 65536)
    except OSError:          # the terminal's other end closed: all read
        return b""


def test_listing_facts_loads_only_what_it_shows():
    """`glados memory list | ...` starts without rich, recall, the fact rules or the rotating log handler
    (bench/startup_bench.py times it; this keeps them out)."""
    glados("memory", "observe", "I live in Leeds", "--user", "ada")
    probe = ("import sys; from assistant.cli.main import main; code = main(['memory', 'list', '--user', 'ada']); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'memory', 'logging', 'hashlib')), "
             "file=sys.stderr); sys.exit(code)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0 and "Leeds" in result.stdout, result.stderr
    loaded = result.stderr
    for heavy in ("'rich", "memory.recall", "memory.parsing", "memory.grammar", "logging.handlers", "hashlib"):
        assert heavy not in loaded, f"{heavy} loaded: {loaded}"


def test_an_export_file_is_private(tmp_path):
    glados("memory", "observe", "I live in Leeds", "--user", "ada")
    out = tmp_path / "ada.json"
    out.write_text("old")
    out.chmod(0o644)
    assert glados("memory", "export", "-o", str(out), "--user", "ada").returncode == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and json.loads(out.read_text())["user"] == "ada"


def test_plain_recall_shows_her_reply():
    with StubOllama() as stub:
        stub.enqueue("A dentist. On a Thursday. How thrilling.")
        chat(stub.url, "ada", "I have a dentist appointment on Thursday")
    shown = glados("memory", "recall", "dentist appointment", "--user", "ada").stdout
    assert "her reply: A dentist. On a Thursday. How thrilling." in shown


def test_counts_and_errors_read_as_sentences(tmp_path):
    glados("memory", "observe", "I'm vegetarian", "--user", "ada")
    export = tmp_path / "e.json"
    glados("memory", "export", "-o", str(export), "--user", "ada")
    data = json.loads(export.read_text())
    data["summaries"] = [{"session": "s1", "text": "The user said they are vegetarian.", "created_at": "2026-12-01T10:00:00Z"}]
    export.write_text(json.dumps(data))
    imported = glados("memory", "import", str(export), "--user", "bob")
    assert "1 fact, 1 message, 1 summary and no voiceprint" in imported.stdout, imported.stdout
    missing = glados("memory", "import", str(tmp_path / "nope.json"), "--user", "bob")
    assert missing.returncode == 1 and "no such file" in missing.stderr and "Errno" not in missing.stderr
    unpinned = glados("memory", "unpin", "diet", "--user", "ada")
    assert "diet: vegetarian stays pinned: it keeps you safe" in unpinned.stderr
    unknown = glados("memory", "pin", "zzz", "--user", "ada")
    assert "'zzz' is neither a fact key" in unknown.stderr and "give at least 4" not in unknown.stderr


def test_help_says_what_each_command_does_and_there_is_a_version():
    assert glados("--version").stdout.startswith("glados ")
    assert "typed chat with the same brain and memory" in glados("chat", "--help").stdout
    assert "over MCP" in glados("memory", "mcp", "--help").stdout
    assert "what a note is about" in " ".join(glados("memory", "forget", "--help").stdout.split())


def test_the_test_command_says_how_many_passed():
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "tests/test_layout.py::test_every_room_has_a_layer"],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "1 passed" in result.stdout, result.stdout


# -- the chat ---------------------------------------------------------------------------------------
def test_a_note_shows_what_was_remembered_and_history_keeps_her_offline_replies():
    result = offline_chat("remember that my locker code is 4512", "I live in Leeds", "tell me a joke", "/history")
    assert "[remembered note: my locker code is 4512 (added)]" in result.stdout
    history = result.stdout.split("/history")[-1] if "/history" in result.stdout else result.stdout
    assert history.count("assistant: ") >= 3, result.stdout       # her note reply, the fact, the offline line


def test_slash_commands_answer_in_the_chats_words():
    result = offline_chat("/recall", "/memory forget zz")
    assert "usage: /recall TEXT" in result.stdout and "unknown command" not in result.stdout
    assert "nothing to forget for 'zz'" in result.stdout and "glados: " not in result.stdout.split("zz")[-1]


def test_why_answers_end_once():
    result = offline_chat("I'm allergic to shellfish.", "why do you think I'm allergic to shellfish?")
    assert '"I\'m allergic to shellfish."' in result.stdout and 'shellfish.".' not in result.stdout


def test_offline_she_answers_from_notes_and_acknowledges_what_was_taken_back():
    result = offline_chat("remember that my locker code is 4512", "what's my locker code?",
                          "I'm allergic to peanuts", "I'm not allergic to peanuts anymore")
    answer = result.stdout.split("what's my locker code")[-1] if "what's my" in result.stdout else result.stdout
    lines = [line for line in result.stdout.splitlines() if line.startswith("GLaDOS:")]
    assert "Your locker code is 4512" in lines[1], lines
    assert "Struck from the record: you are allergic to peanuts" in lines[3], lines
    assert answer


def test_with_the_model_not_pulled_she_says_to_pull_it_not_to_start_ollama():
    with StubOllama(models=()) as stub:
        result = chat(stub.url, "ada", "hello", "how are you?")
    lines = [line for line in result.stdout.splitlines() if line.startswith("GLaDOS:")]
    assert len(lines) == 2 and all("ollama pull llama3.2" in line and "Start Ollama" not in line for line in lines)


def test_a_model_that_does_not_answer_in_json_is_said_in_words():
    with StubOllama() as stub:
        stub.enqueue("Noted.").enqueue("I refuse to write JSON.").enqueue("The user said hello.")
        result = chat(stub.url, "ada", "hello")
    assert "did not answer with the JSON it was asked for" in result.stdout
    assert "Expecting value" not in result.stdout


def test_the_mcp_server_keeps_stderr_quiet_unless_verbose(tmp_path):
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    def run(*extra: str) -> str:
        log = tmp_path / f"stderr{len(extra)}.txt"
        server = StdioServerParameters(command=sys.executable, cwd=str(ROOT), env=dict(os.environ),
                                       args=["-m", "assistant.cli", "memory", "mcp", "--user", "ada", *extra])

        async def session():
            with log.open("w") as errlog:
                async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as client:
                    await client.initialize()
                    await client.list_tools()
                    await client.call_tool("facts", {})
        anyio.run(session)
        return log.read_text()
    assert "INFO" not in run()
    assert "INFO" in run("--verbose")


def test_identify_with_nobody_enrolled_says_so_once():
    clip = sorted((ROOT / "tests" / "fixtures" / "speakers").glob("ada*_ami_*.wav"))[0]
    result = glados("speakers", "identify", str(clip), timeout=240)
    assert (result.stdout + result.stderr).count("nobody is enrolled") == 1, result.stdout + result.stderr


def test_ctrl_c_during_a_reply_stops_it_and_the_chat_goes_on():
    import signal
    import time
    with StubOllama() as stub:
        stub.enqueue("word " * 400, delay=0.02).enqueue("Second reply.")
        proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "chat", "--user", "ada"], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "OLLAMA_HOST": stub.url, "PYTHONUNBUFFERED": "1"})
        proc.stdin.write("tell me a very long story\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(path == "/api/chat" and "very long story" in json.dumps(body)
                                                      for path, body in stub.requests):
            time.sleep(0.05)
        time.sleep(1.0)                       # she is a few words in
        proc.send_signal(signal.SIGINT)
        time.sleep(0.5)
        out, err = proc.communicate("and now something short\n/quit\n", timeout=120)
    assert proc.returncode == 0, err
    assert "[stopped; what she said so far is kept" in out and "Second reply." in out
    kept = json.loads(glados("memory", "export", "--user", "ada").stdout)["messages"]
    story = [m for m in kept if m["role"] == "assistant" and m["text"].startswith("word")]
    assert story and story[0]["interrupted"] and len(story[0]["text"].split()) < 400
