"""`glados memory ...` through real separate processes, as a user would run it."""
import json
from datetime import datetime, timezone

from tests.conftest import glados


def facts(*extra: str, user: str = "ada") -> list[dict]:
    result = glados("memory", "list", "--json", "--user", user, *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_persistence_across_processes_and_supersession(tmp_path):
    for text in ["I'm vegetarian, and I'm allergic to peanuts.", "my name is ada and i live in leeds",
                 "actually I've started eating fish again"]:
        result = glados("memory", "observe", "--user", "ada", text)
        assert result.returncode == 0, result.stderr
    current = {(f["key"], f["value"]) for f in facts()}
    assert current == {("diet", "pescatarian"), ("allergy", "peanuts"), ("name", "Ada"), ("location", "Leeds")}
    fact = facts()[0]
    for field in ("id", "key", "value", "source", "asserted_at", "valid_from", "valid_to", "pinned"):
        assert field in fact
    assert all(f["valid_to"] is None for f in facts())
    history = facts("--all")
    assert any(f["value"] == "vegetarian" and f["valid_to"] for f in history)
    assert (tmp_path / "memory.db").exists()          # GLADOS_DB from the fixture, not the cwd


def test_observe_prints_what_changed():
    glados("memory", "observe", "--user", "ada", "I live in Paris")
    out = glados("memory", "observe", "--user", "ada", "I've moved to Rome").stdout
    assert "location: Paris -> Rome" in out
    assert "no facts" in glados("memory", "observe", "--user", "ada", "I'm tired").stdout


def test_list_at_a_past_time():
    glados("memory", "observe", "--user", "ada", "I live in Paris")
    between = datetime.now(timezone.utc).isoformat()
    glados("memory", "observe", "--user", "ada", "I've moved to Rome")
    assert [f["value"] for f in facts("--at", between)] == ["Paris"]
    bad = glados("memory", "list", "--at", "last tuesday")
    assert bad.returncode == 1 and "ISO time" in bad.stderr


def test_context_recall_forget_clear():
    assert glados("memory", "context", "--user", "ada").stdout == ""
    glados("memory", "observe", "--user", "ada", "remember that the spare key is under the gnome")
    glados("memory", "observe", "--user", "bob", "remember that the gnome is a spy")
    assert '"the spare key is under the gnome"' in glados("memory", "context", "--user", "ada").stdout
    recalled = json.loads(glados("memory", "recall", "--user", "ada", "--json", "gnome").stdout)
    assert recalled and all("spy" not in r["text"] for r in recalled)
    note = facts()[0]
    assert glados("memory", "forget", "--user", "ada", note["id"][:6]).returncode == 0
    assert facts() == []
    assert glados("memory", "recall", "--user", "ada", "gnome").stdout == "nothing in ada's memory relates to 'gnome'\n"
    refused = glados("memory", "clear", "--user", "bob")
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert glados("memory", "clear", "--user", "bob", "--yes").returncode == 0
    assert facts(user="bob") == []


def test_forget_unknown_is_one_clear_line():
    glados("memory", "observe", "--user", "ada", "I live in Oslo")
    result = glados("memory", "forget", "--user", "ada", "deadbeef")
    assert result.returncode == 1 and result.stderr.count("\n") == 1 and "nothing to forget" in result.stderr


def test_export_import_round_trip(tmp_path):
    glados("memory", "observe", "--user", "ada", "I'm allergic to peanuts and I live in Oslo")
    out = tmp_path / "ada.json"
    assert glados("memory", "export", "--user", "ada", "--output", str(out)).returncode == 0
    other_db = tmp_path / "other.db"
    result = glados("memory", "import", "--user", "ada2", "--db", str(other_db), str(out))
    assert result.returncode == 0, result.stderr
    imported = json.loads(glados("memory", "list", "--json", "--user", "ada2", "--db", str(other_db)).stdout)
    assert {(f["key"], f["value"]) for f in imported} == {("allergy", "peanuts"), ("location", "Oslo")}
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2, 3]")
    bad = glados("memory", "import", str(junk))
    assert bad.returncode == 1 and "not a memory export" in bad.stderr


def test_default_database_is_in_the_user_data_folder(isolated_home, monkeypatch):
    monkeypatch.delenv("GLADOS_DB")
    assert glados("memory", "observe", "I live in Paris").returncode == 0
    assert (isolated_home / ".local" / "share" / "glados" / "memory.db").exists()


def test_invalid_config_names_the_key(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("memory:\n  max_facts: lots\n")
    result = glados("memory", "list", env={"GLADOS_CONFIG": str(cfg)})
    assert result.returncode == 1 and "memory.max_facts" in result.stderr
    result = glados("memory", "list", env={"MEMORY_WINDOW": "-3"})
    assert result.returncode == 1 and "MEMORY_WINDOW" in result.stderr


def test_concurrent_processes_lose_nothing(tmp_path):
    """Eight `glados memory observe` processes at once on one file: every fact lands."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT
    procs = [subprocess.Popen([sys.executable, "-m", "assistant.cli", "memory", "observe", "--user", f"u{i}",
                               f"I live in City{i} and I'm allergic to thing{i}"],
                              cwd=ROOT, env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for i in range(8)]
    for proc in procs:
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    for i in range(8):
        assert {(f["key"], f["value"]) for f in facts(user=f"u{i}")} == {("location", f"City{i}"),
                                                                         ("allergy", f"thing{i}")}


def test_processes_opening_a_new_file_at_once_migrate_it_once(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT
    code = ("import sys; from memory import Memory; m = Memory(sys.argv[1]); "
            "m.observe('u' + sys.argv[2], 'I live in Paris'); print('ok')")
    db = tmp_path / "new.db"
    procs = [subprocess.Popen([sys.executable, "-c", code, str(db), str(i)], cwd=ROOT, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(8)]
    results = [p.communicate(timeout=60) for p in procs]
    assert all(out.strip() == "ok" for out, _ in results), [err for _, err in results]
    import sqlite3
    from memory.store import MIGRATIONS
    assert sqlite3.connect(db).execute("SELECT count(*) FROM migrations").fetchone()[0] == len(MIGRATIONS)
