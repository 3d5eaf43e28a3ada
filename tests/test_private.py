"""Private by construction: with a fresh HOME, the commands leave nothing outside glados's own folders
(no dependency's telemetry, caches or device ids)."""
from pathlib import Path

from assistant.private import QUIET, quiet_libraries
from tests.conftest import ROOT, glados
from tests.ollama_stub import StubOllama

FIXTURES = ROOT / "tests" / "fixtures"
OWN = (".local/share/glados", ".cache/glados", ".config/glados")


def left_behind(home: Path) -> list[str]:
    """Every file under home outside glados's own folders."""
    return sorted(str(p.relative_to(home)) for p in home.rglob("*")
                  if p.is_file() and not any(str(p.relative_to(home)).startswith(own) for own in OWN))


def test_a_fresh_home_holds_only_glados_folders_after_voice_recall_speakers_and_mcp(isolated_home, tmp_path,
                                                                                    monkeypatch):
    for name in QUIET:      # as a user's shell would be: nothing set; the package turns them off itself
        monkeypatch.delenv(name, raising=False)
    with StubOllama() as stub:
        stub.enqueue("Noted. Peanuts are now forbidden.")
        voice = glados("voice", "--user", "bob", "--input", str(FIXTURES / "wake_facts_piper_16k.wav"),
                       "--output", str(tmp_path / "out.wav"), env={"OLLAMA_HOST": stub.url}, timeout=240)
    assert voice.returncode == 0, voice.stderr
    assert glados("memory", "recall", "peanuts", "--user", "bob").returncode == 0
    clips = sorted((FIXTURES / "speakers").glob("ada*_ami_*.wav"))[:3]
    enrolled = glados("speakers", "enroll", "ada", *map(str, clips), timeout=240)
    assert enrolled.returncode == 0, enrolled.stderr
    assert glados("speakers", "identify", str(clips[0]), "--json", timeout=240).returncode == 0
    from tests.test_mcp import session

    async def script(call, tools):
        return await call("remember", text="I live in Leeds")
    assert session(tmp_path / "memory.db", "bob", script)["changes"]
    assert left_behind(isolated_home) == []


def test_telemetry_is_off_unless_the_user_chose_otherwise():
    environ = {"HF_HUB_OFFLINE": "0"}
    quiet_libraries(environ)
    assert environ["ORT_DISABLE_TELEMETRY"] == "1" and environ["HF_HUB_DISABLE_TELEMETRY"] == "1"
    assert environ["HF_HUB_OFFLINE"] == "0"      # the user's choice (fetching a named whisper model) is kept
