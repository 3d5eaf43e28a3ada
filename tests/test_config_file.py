"""Which config file is in use: the shipped defaults travel with the package, the user's own file
wins over them, and chat says which one it read."""
import shutil
import subprocess
import sys

from assistant.config import SHIPPED_CONFIG, load_config
from tests.conftest import ROOT, glados


def test_the_project_config_is_the_shipped_one():
    assert (ROOT / "config.yaml").resolve() == SHIPPED_CONFIG
    assert load_config().source == str(SHIPPED_CONFIG)


def test_an_installed_copy_without_the_project_reads_its_shipped_defaults(tmp_path):
    """A non-editable install has only the package folders: it must still find the commented defaults."""
    site = tmp_path / "site"
    for package in ("assistant", "memory"):
        shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    code = "from assistant.config import load_config; c = load_config(); print(c.source); print(c.persona.lines.offline)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "HOME": str(tmp_path)}, timeout=60)
    assert out.returncode == 0, out.stderr
    source, offline = out.stdout.splitlines()
    assert source == str(site / "assistant" / "config.yaml")
    assert "How fitting" in offline                  # a value from the file, not the built-in default


def test_the_users_own_file_wins_and_chat_names_it(isolated_home):
    mine = isolated_home / ".config" / "glados" / "config.yaml"
    mine.parent.mkdir(parents=True)
    mine.write_text("user: chell\n")
    assert load_config().source == str(mine) and load_config().user == "chell"
    result = glados("chat", input="/help\n/quit\n")
    assert f"config: {mine}" in result.stdout


def test_voice_stages_are_chosen_by_engine_and_old_flat_keys_still_work(tmp_path):
    old = tmp_path / "old.yaml"
    old.write_text("voice:\n  wake_word: hey jarvis\n  wake_threshold: 0.9\n  stt_model: /models/small.en\n"
                   "  tts_length_scale: 1.2\n")
    voice = load_config(old).voice
    assert (voice.wake.phrase, voice.wake.threshold, voice.stt.model, voice.tts.length_scale) == \
        ("hey jarvis", 0.9, "/models/small.en", 1.2)
    assert (voice.stt.engine, voice.tts.engine, voice.wake.engine) == ("whisper", "piper", "transcript")

    from assistant.stt import STTError, make_transcriber
    from assistant.tts import TTSError, make_synthesizer
    from assistant.wake import WakeError, make_wake
    import pytest
    for make, error, section in ((make_transcriber, STTError, voice.stt), (make_synthesizer, TTSError, voice.tts),
                                 (make_wake, WakeError, voice.wake)):
        with pytest.raises(error, match="unknown voice.* engine|use one of"):
            make(section.model_copy(update={"engine": "nope"}))
    assert make_wake(voice.wake).threshold == 0.9
