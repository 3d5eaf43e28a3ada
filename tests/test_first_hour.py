"""What a newcomer meets in the first hour, through the CLI: a fresh home, a wrong --db, forgetting a
note by what it is about, her offline lines, the lines the chat prints, and Ctrl-C at the prompt."""
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

from assistant.wake.transcript import TranscriptWakeWord
from tests.conftest import ROOT, glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat, free_port, session_end


def offline_chat(*lines: str, user: str = "ada"):
    return chat(f"http://127.0.0.1:{free_port()}", user, *lines)


def test_a_fresh_install_makes_its_data_folder_private_and_warns_about_nothing(isolated_home, monkeypatch):
    monkeypatch.delenv("GLADOS_DB")
    result = glados("memory", "observe", "I live in Leeds", "--user", "ada")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    data = isolated_home / ".local" / "share" / "glados"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE((data / "memory.db").stat().st_mode) == 0o600
    assert stat.S_IMODE((data / "glados.log").stat().st_mode) == 0o600
    again = offline_chat("what do you remember about me")
    assert "warning" not in again.stderr and "Leeds" in again.stdout


def test_a_path_that_cannot_be_a_database_gets_one_line(tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    for db in (a_file / "x.db", Path("/proc/none/x.db")):
        result = glados("memory", "observe", "I live in Leeds", "--db", str(db))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1 and "--db" in result.stderr, result.stderr
    assert "a-file is a file, not a folder" in glados("memory", "observe", "hi", "--db", str(a_file / "x.db")).stderr


def test_reading_commands_create_nothing(tmp_path):
    db = tmp_path / "nowhere" / "yet" / "x.db"
    for args in (["list"], ["context"], ["recall", "peanuts"], ["summaries"], ["export"]):
        result = glados("memory", *args, "--db", str(db))
        assert result.returncode == 0 and "no memory yet" in result.stderr, (args, result.stderr)
    assert json.loads(glados("memory", "list", "--json", "--db", str(db)).stdout) == []
    assert glados("memory", "forget", "location", "--db", str(db)).returncode == 1
    assert not (tmp_path / "nowhere").exists()
    assert glados("memory", "observe", "I live in Leeds", "--db", str(db)).returncode == 0 and db.exists()


def test_observe_reads_long_text_from_standard_input():
    text = "I live in Leeds and I am allergic to peanuts. " + "We talked about the garden for a while. " * 450
    result = glados("memory", "observe", "-", input=text)
    assert result.returncode == 0, result.stderr
    facts = json.loads(glados("memory", "list", "--json").stdout)
    assert {(f["key"], f["value"]) for f in facts} == {("location", "Leeds"), ("allergy", "peanuts")}


def test_notes_are_forgotten_by_what_they_are_about():
    result = offline_chat("remember that my locker code is 4512", "remember that my sister's birthday is on 3 May",
                          "forget my locker code", "forget what I said about my sister's birthday", "/memory")
    assert '"your locker code is 4512"' in result.stdout and "sister's birthday is on 3 May" in result.stdout
    assert "nothing remembered yet" in result.stdout
    export = glados("memory", "export", "--user", "ada").stdout
    assert "4512" not in export and "3 May" not in export


def test_an_ambiguous_forget_asks_and_deletes_nothing():
    result = offline_chat("remember that my door code is 1111", "remember that my bike code is 2222",
                          "forget my code")
    assert "Which one" in result.stdout and '"your door code is 1111"' in result.stdout
    assert len(json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)) == 2
    cli = glados("memory", "forget", "code", "--user", "ada")
    assert cli.returncode == 1 and "matches 2 notes" in cli.stderr
    assert glados("memory", "forget", "door code", "--user", "ada").returncode == 0
    assert [f["value"] for f in json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)] == \
        ["my bike code is 2222"]


def replies(stdout: str) -> list[str]:
    return [line[len("GLaDOS: "):] for line in stdout.splitlines() if line.startswith("GLaDOS: ")]


def test_offline_she_says_what_she_noted_and_never_the_same_line_twice_in_a_row():
    said = replies(offline_chat("I live in Lisbon", "I'm allergic to peanuts", "tell me a joke", "how are you",
                                "what is the capital of Peru", "what do you know about me").stdout)
    assert len(said) == 6
    assert "Lisbon" in said[0] and "peanuts" in said[1]
    assert all(a != b for a, b in zip(said, said[1:]))
    assert "Lisbon" not in said[2] and "peanuts" not in said[2]
    assert "You live in Lisbon" in said[5] and "You are allergic to peanuts" in said[5]
    assert not any(": " in line.split(".")[0] and "location:" in line for line in said)


def test_the_summary_without_a_model_says_what_the_user_told_her_or_nothing():
    result = offline_chat("I live in Lisbon", "I ran a charity race for the animal shelter",
                          "I'm not allergic to peanuts anymore", "the charity race was brutal", "tell me a joke")
    saved = [line for line in result.stdout.splitlines() if line.startswith("[session saved:")]
    assert saved == ["[session saved: The user said they live in Lisbon.]"]     # no word lists, no counts
    nothing = offline_chat("hi", "tell me a joke", user="bob")
    assert "session saved" not in nothing.stdout
    assert glados("memory", "summaries", "--user", "bob").stdout.startswith("no summaries for 'bob' yet")


def test_the_chat_says_what_it_recalled_and_what_a_star_means():
    with StubOllama() as stub:
        chat(stub.url, "ada", "I ran a charity race for mental health last Saturday")
        result = chat(stub.url, "ada", "when did I run the charity race?", "/memory")
    assert '[recalled: "I ran a charity race for mental health ..." (' in result.stdout
    offline = offline_chat("I'm allergic to peanuts", "/memory", user="bob")
    assert "* pinned: always in her memory" in offline.stdout


def test_session_end_requests_send_no_tools_and_a_low_temperature():
    with StubOllama(capabilities=("completion", "tools")) as stub:
        stub.enqueue("Charming.").enqueue('{"facts": []}').enqueue("A summary.")
        chat(stub.url, "ada", "I work as a nurse in Leeds, note that")   # about memory: tools offered
    ends = [r for r in stub.chats() if session_end(r)]
    turn = next(r for r in stub.chats() if not session_end(r))
    assert len(ends) == 2 and turn.get("tools")
    for request in ends:
        assert not request.get("tools") and request["options"]["temperature"] == 0.2
    assert turn["options"]["temperature"] == 0.8


def test_ctrl_c_at_an_empty_prompt_ends_the_chat_quietly():
    env = {**os.environ, "OLLAMA_HOST": f"http://127.0.0.1:{free_port()}"}
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "chat"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    first = proc.stdout.readline()          # the model-down notice: the chat is now at its prompt
    assert "Chatting without the model" in first
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and "interrupted" not in out + err and "Traceback" not in err


def test_a_short_request_before_her_name_at_the_end_is_the_request():
    wake = TranscriptWakeWord()
    assert wake.match("lights off, GLaDOS", "hey glados").request == "lights off"
    assert wake.match("Stop, GLaDOS.", "hey glados").request == "Stop"
    assert wake.match("Okay GLaDOS", "hey glados").request == ""         # a greeting: she waits for the request
    assert wake.match("hey GLaDOS, lights off", "hey glados").request == "lights off"


def test_setup_installs_once_and_extras_accumulate(tmp_path):
    """./glados.sh (no extras) and ./test.sh (test) share one stamp: neither reinstalls after the other."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts")
    calls = tmp_path / "calls.txt"
    fake = tmp_path / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text(f'#!/bin/sh\n[ "$3" = install ] && [ "$4" != "--quiet" ] && echo "$@" >> {calls}\nexit 0\n')
    fake.chmod(0o755)

    def setup(*extras: str) -> list[str]:
        before = calls.read_text().splitlines() if calls.exists() else []
        subprocess.run(["bash", "scripts/setup.sh", *extras], cwd=tmp_path, check=True, capture_output=True)
        after = calls.read_text().splitlines() if calls.exists() else []
        return [line for line in after[len(before):] if " -e " in line]

    assert [line.split()[-1] for line in setup("test")] == [".[test]"]
    assert setup() == [] and setup("test") == []
    assert [line.split()[-1] for line in setup("bench")] == [".[bench,test]"]
    assert setup("test") == [] and setup() == []
