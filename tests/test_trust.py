"""Trust at the command line: exports that move whole and import once, pinned facts that need a
yes, times that mean the same in and out, and small things said in one line."""
import json
import re
import subprocess
import sys

from memory import Memory
from tests.conftest import ROOT, glados


def export(user: str, path) -> dict:
    assert glados("memory", "export", "--user", user, "--output", str(path)).returncode == 0
    return json.loads(path.read_text())


def comparable(data: dict) -> dict:
    """An export without what must differ between users: ids, the user, the time of export."""
    return {
        "facts": sorted((f["key"], f["value"], f["source"], f["asserted_at"], f["valid_from"], f["valid_to"],
                         f["ended_by"], f["pinned"], f["origin"]) for f in data["facts"]),
        "messages": sorted((m["session"], m["role"], m["text"], m["created_at"]) for m in data["messages"]),
        "summaries": sorted((s["session"], s["text"]) for s in data["summaries"]),
    }


def test_an_export_moves_whole_to_another_user_and_imports_once(tmp_path):
    glados("memory", "observe", "--user", "ada", "I'm allergic to peanuts and I live in Oslo")
    glados("memory", "observe", "--user", "ada", "actually I moved to Bergen")
    first = export("ada", tmp_path / "ada.json")
    copied = glados("memory", "import", "--user", "ada2", str(tmp_path / "ada.json"))
    assert copied.returncode == 0 and "3 facts, 2 messages" in copied.stdout, copied.stdout + copied.stderr
    assert comparable(export("ada2", tmp_path / "ada2.json")) == comparable(first)
    again = glados("memory", "import", "--user", "ada2", str(tmp_path / "ada.json"))
    assert "nothing new for 'ada2'" in again.stdout
    assert comparable(export("ada2", tmp_path / "ada2b.json")) == comparable(first)
    # ada's own facts are untouched by the copy
    assert comparable(export("ada", tmp_path / "ada-after.json")) == comparable(first)


def test_an_export_of_someone_else_needs_a_user(tmp_path):
    glados("memory", "observe", "--user", "ada", "I live in Oslo")
    export("ada", tmp_path / "ada.json")
    refused = glados("memory", "import", str(tmp_path / "ada.json"))
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1
    assert "export of 'ada'" in refused.stderr and "--user ada" in refused.stderr


def test_several_pinned_facts_need_a_yes(tmp_path):
    glados("memory", "observe", "--user", "ada", "I'm allergic to peanuts, shellfish and latex")
    refused = glados("memory", "forget", "allergy", "--user", "ada")
    assert refused.returncode == 1 and "3 pinned facts" in refused.stderr and "--yes" in refused.stderr
    assert len(json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)) == 3
    one = glados("memory", "forget", "allergy=latex", "--user", "ada")       # one value: no question
    assert one.returncode == 0
    done = glados("memory", "forget", "allergy", "--user", "ada", "--yes")
    assert done.returncode == 0 and json.loads(glados("memory", "list", "--json", "--user", "ada").stdout) == []


def test_a_time_copied_from_list_answers_at(tmp_path):
    glados("memory", "observe", "--user", "ada", "I live in Oslo")
    listed = glados("memory", "list", "--user", "ada").stdout
    since = re.split(r" {2,}", next(line for line in listed.splitlines() if "Oslo" in line))[3]   # piped: plain columns
    assert since[-6] in "+-" and since[-3] == ":"                  # local time, with its offset
    at = json.loads(glados("memory", "list", "--json", "--user", "ada", "--at", since).stdout)
    assert [f["value"] for f in at] == ["Oslo"]
    before = glados("memory", "list", "--json", "--user", "ada", "--at", "2000-01-01T00:00").stdout
    assert json.loads(before) == []
    zulu = glados("memory", "list", "--json", "--user", "ada", "--at", "2999-01-01T00:00:00Z").stdout
    assert [f["value"] for f in json.loads(zulu)] == ["Oslo"]


def test_small_mistakes_are_one_line(tmp_path):
    empty = glados("memory", "observe", "")
    assert empty.returncode == 1 and empty.stderr.count("\n") == 1 and "nothing to observe" in empty.stderr
    nobody = glados("memory", "list", "--user", "")
    assert nobody.returncode == 1 and "--user needs a name" in nobody.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("user: [oops\nllm: {\n")
    broken = glados("memory", "list", env={"GLADOS_CONFIG": str(bad)})
    assert broken.returncode == 1 and broken.stderr.count("\n") == 1 and "line 2" in broken.stderr


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    db = tmp_path / "many.db"
    with Memory(db) as mem:        # far more than a pipe holds (64 KB), so the writer meets a closed pipe
        for i in range(400):
            mem.log("ada", f"s{i}", "user", f"peanuts in locker {i} " + "and more words " * 40)
    cmd = f"{sys.executable} -m assistant.cli memory recall peanuts --json --user ada -k 400 --db {db} | head -1"
    # the first recall indexes the 400 long messages by meaning first: about 45 s on 2 idle cores (it
    # timed out at 60 s with two benchmarks running beside it), so the bound is a hang's, not a speed's
    result = subprocess.run(cmd, shell=True, capture_output=True, text=True, cwd=ROOT, timeout=240)
    assert result.stdout.strip() == "[" and "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
