"""The chat as a terminal program, in a pseudo-terminal: the line editor edits, Up brings back earlier lines
(kept per user, privately, and gone with `memory clear`), a paste of several lines is one message and one
too long is refused with the line `observe -` gives; and the CLI's small things (empty states, local times,
--json, a count that must be positive)."""
from __future__ import annotations

import json
import os
import re
import select
import stat
import subprocess
import sys
import time

from tests.conftest import ROOT, glados

LEFT, UP = "\x1b[D", "\x1b[A"


class Terminal:
    """`glados chat` on a pseudo-terminal, typed into as a person would."""

    def __init__(self, *args: str):
        self.master, slave = os.openpty()
        env = {**os.environ, "OLLAMA_HOST": "http://127.0.0.1:9", "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1",
               "COLUMNS": "100", "LINES": "40"}
        self.proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "chat", *args], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def wait_for(self, text: str, timeout: float = 60, after: str = "") -> str:
        """What the terminal showed since the last keys, once it holds `text` (after `after`, when given)."""
        deadline = time.monotonic() + timeout
        while after not in self.seen or text not in (self.seen.split(after, 1)[1] if after else self.seen):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r} in {self.seen[-2000:]!r}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.5))
            if ready:
                try:
                    self.seen += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
        return self.seen

    def type(self, keys: str) -> None:
        self.seen = ""
        for start in range(0, len(keys), 4096):
            os.write(self.master, keys[start:start + 4096].encode())

    def turn(self, keys: str, answer: str = "GLaDOS:") -> str:
        """Type a message and wait for her answer and the next prompt (the editor redraws the prompt as it
        echoes, so the prompt alone says nothing)."""
        self.type(keys)
        return self.wait_for("you>", timeout=120, after=answer)

    def close(self) -> int:
        try:
            self.type("/quit\r")
            return self.proc.wait(timeout=60)
        finally:
            self.proc.kill()
            os.close(self.master)


def said_by_user() -> list[str]:
    rows = json.loads(glados("memory", "export", "--user", "ada").stdout)["messages"]
    return [m["text"] for m in rows if m["role"] == "user"]


def history_files(home) -> list:
    return [p for p in home.rglob("*") if p.is_file() and "chat-history" in p.parts]


def test_the_line_editor_edits_and_up_brings_back_the_last_line(isolated_home):
    term = Terminal("--user", "ada")
    term.wait_for("you>")
    term.turn(f"I live in Pars{LEFT}{LEFT}i\r")     # "Pars", two left, "i": the cursor was before "rs"
    term.turn(f"{UP}\r")
    assert term.close() == 0
    assert said_by_user() == ["I live in Pairs", "I live in Pairs"]
    assert not any("\x1b" in text for text in said_by_user())
    [history] = history_files(isolated_home)
    assert stat.S_IMODE(history.stat().st_mode) == 0o600 and "I live in Pairs" in history.read_text()


def test_a_paste_of_several_lines_is_one_message_and_a_long_one_is_refused_as_observe_refuses(isolated_home):
    term = Terminal("--user", "ada")
    term.wait_for("you>")
    term.turn("\x1b[200~My name is Ada.\nI live in Leeds.\x1b[201~\r")
    long = ("word " * 5004).strip()                                     # 25,019 characters, as one paste
    seen = term.turn(f"\x1b[200~{long}\x1b[201~\r", "nothing was stored")
    assert term.close() == 0
    assert said_by_user() == ["My name is Ada.\nI live in Leeds."]
    refused = glados("memory", "observe", "--user", "ada", "-", input=long).stderr.strip()
    shown = re.sub(r"\s+", " ", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen))
    assert refused.removeprefix("glados: ") in shown
    [history] = history_files(isolated_home)            # refused, so kept nowhere: not in the line history either
    assert "I live in Leeds." in history.read_text() and "word word word" not in history.read_text()


def test_clear_asks_without_the_chat_prompt_and_takes_the_history_with_it(isolated_home):
    term = Terminal("--user", "ada")
    term.wait_for("you>")
    term.turn("I live in Leeds\r")
    term.type("/memory clear\r")
    asked = term.wait_for("confirm")
    time.sleep(0.5)
    assert "you>" not in asked.split("confirm", 1)[1]
    term.turn("YES\r", "deleted")
    assert term.close() == 0
    [history] = history_files(isolated_home)          # made anew for "/quit", private again
    assert "Leeds" not in history.read_text() and stat.S_IMODE(history.stat().st_mode) == 0o600


def test_empty_states_say_so():
    chatted = glados("chat", "--user", "newcomer", input="/history\n/sessions\n",
                     env={"OLLAMA_HOST": "http://127.0.0.1:9"})
    assert "nothing said in this session yet" in chatted.stdout and "no sessions yet" in chatted.stdout
    assert "no summaries for 'ada' yet" in glados("memory", "summaries", "--user", "ada").stdout
    glados("memory", "observe", "--user", "ada", "I live in Leeds")
    indexed = glados("memory", "index", "--user", "ada")
    assert indexed.stdout.startswith("indexed") or "recall by meaning" in indexed.stderr
    listed = glados("memory", "list", "--user", "ada", "--origin", "model").stdout
    assert "no fact about 'ada' came from the model (1 fact in all" in listed


def test_recall_shows_local_times_with_their_offset_like_list():
    glados("memory", "observe", "--user", "ada", "I live in Leeds")
    tokyo = {"TZ": "Asia/Tokyo"}
    recalled = glados("memory", "recall", "--user", "ada", "Leeds", env=tokyo).stdout
    listed = glados("memory", "list", "--user", "ada", env=tokyo).stdout
    assert "+09:00" in recalled and "+09:00" in listed


def test_observe_context_and_summaries_speak_json():
    observed = json.loads(glados("memory", "observe", "--user", "ada", "--json", "I live in Leeds").stdout)
    assert [(c["kind"], c["key"], c["value"]) for c in observed] == [("added", "location", "Leeds")]
    assert "Leeds" in json.loads(glados("memory", "context", "--user", "ada", "--json").stdout)["context"]
    assert json.loads(glados("memory", "summaries", "--user", "ada", "--json").stdout) == []


def test_recall_refuses_a_count_that_is_not_positive():
    for k in ("0", "-3"):
        done = glados("memory", "recall", "--user", "ada", "Leeds", "-k", k)
        assert done.returncode == 2 and "give 1 or more" in done.stderr and "relates" not in done.stdout


def test_the_readme_commands_work_as_written_after_the_quick_start():
    readme = (ROOT / "README.md").read_text()
    path_line = re.search(r'`(export PATH="\$PWD/\.venv/bin:\$PATH")`', readme)[1]
    done = subprocess.run(["bash", "-c", f"{path_line} && glados memory list --user ada && glados --version"],
                          cwd=ROOT, capture_output=True, text=True, env=dict(os.environ), timeout=60)
    assert done.returncode == 0 and "glados" in done.stdout, done.stderr
    chat_list = readme[readme.index("Inside the chat:"):][:400]
    assert "/memory pin" in chat_list and "unpin" in chat_list


def test_forgetting_takes_the_words_out_of_the_chat_history_too(isolated_home):
    term = Terminal("--user", "ada")
    term.wait_for("you>")
    term.turn("remember that my bike lock code is 7788\r")
    assert term.close() == 0
    [history] = history_files(isolated_home)
    assert "7788" in history.read_text()
    assert glados("memory", "forget", "--user", "ada", "bike lock code").returncode == 0
    assert "7788" not in history.read_text() and stat.S_IMODE(history.stat().st_mode) == 0o600
