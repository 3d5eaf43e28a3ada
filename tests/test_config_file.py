"""Which config file is in use: the shipped defaults travel with the package, the user's own file
wins over them, and chat says which one it read."""
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from assistant.config import SHIPPED_CONFIG, ConfigError, load_config
from tests.conftest import ROOT, glados


def test_the_project_config_is_the_shipped_one():
    assert (ROOT / "config.yaml").resolve() == SHIPPED_CONFIG
    assert load_config().source == str(SHIPPED_CONFIG)


def test_each_key_is_documented_once_and_the_shipped_file_and_readme_table_are_made_from_it():
    """assistant/config/sections.py holds each key's default and its one line; config.yaml and the README's table are
    generated from them (`python -m assistant.config.docs --write`), so they cannot drift apart."""
    out = subprocess.run([sys.executable, "-m", "assistant.config.docs", "--check"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr


def test_the_shipped_file_holds_exactly_the_built_in_defaults():
    from assistant.config import Config
    assert load_config(SHIPPED_CONFIG, env={}) == Config()


def test_a_changed_default_shows_in_the_generated_file():
    """The check can fail: a default changed in sections.py makes the shipped file out of date."""
    from assistant.config import docs as config_docs
    from assistant.config import Config
    changed = replace(Config(), voice=replace(Config().voice, min_speech_s=0.1))
    assert "  min_speech_s: 0.1 " in config_docs.config_yaml(changed)
    assert config_docs.config_yaml(changed) != SHIPPED_CONFIG.read_text() == config_docs.config_yaml()


def test_the_segmenter_defaults_are_the_configs():
    from assistant.config import VoiceConfig
    from assistant.voice import VadOptions
    assert VadOptions() == VadOptions.configured(VoiceConfig(), early_s=0.0)


def test_an_installed_copy_without_the_project_reads_its_shipped_defaults(tmp_path):
    """A non-editable install has only the package folders: it must still find the commented defaults."""
    site = tmp_path / "site"
    for package in ("assistant", "memory"):
        shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    code = "from assistant.config import load_config; c = load_config(); print(c.source); print(c.persona.system_prompt[:9])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(site), "HOME": str(tmp_path)}, timeout=60)
    assert out.returncode == 0, out.stderr
    source, prompt = out.stdout.splitlines()
    assert source == str(site / "assistant" / "config.yaml")     # the file was read, not only built-in defaults
    assert prompt == "You are G"


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
    for make, error, section in ((make_transcriber, STTError, voice.stt), (make_synthesizer, TTSError, voice.tts),
                                 (make_wake, WakeError, voice.wake)):
        with pytest.raises(error, match="unknown voice.* engine|use one of"):
            make(replace(section, engine="nope"))
    assert make_wake(voice.wake).threshold == 0.9


def test_the_wake_checks_retired_keys_load_as_shipped_and_a_changed_one_is_one_line(tmp_path):
    """voice.wake's checks are fixed now (assistant/wake/decide.py SHIPPED): an older file that sets one to
    the value it ships with still loads; one that turned a check off is told, not silently turned back on."""
    from assistant.config.load import _RETIRED_WAKE_KEYS
    from assistant.wake.decide import SHIPPED
    fields = {"name_model": "name_floor", "name_model_sure": "name_sure"}      # renamed in the policy
    assert _RETIRED_WAKE_KEYS == {key: getattr(SHIPPED, fields.get(key, key)) for key in _RETIRED_WAKE_KEYS}
    same = tmp_path / "same.yaml"
    same.write_text("voice:\n  wake_second_look_s: 2\n  wake:\n    phrase: hey jarvis\n    name_check: 14\n"
                    "    name_model: 0.3\n    plain_check: true\n")
    assert load_config(same).voice.wake.phrase == "hey jarvis" and SHIPPED.name_check == 14.0
    off = tmp_path / "off.yaml"
    off.write_text("voice:\n  wake:\n    name_check: 0\n")
    with pytest.raises(ConfigError, match="'voice.wake.name_check' in .*off.yaml is no longer a setting.*remove the key"):
        load_config(off)
    cli = glados("memory", "list", "--config", str(off))
    assert cli.returncode == 1 and "voice.wake.name_check" in cli.stderr and len(cli.stderr.strip().splitlines()) == 1


def test_recall_keys_the_fit_retired_load_as_they_shipped_and_a_changed_one_is_one_line(tmp_path):
    """recall.other_weight and recall.continuation_weight went with their mechanisms (docs/recall.md): a copy of
    the old config.yaml still loads; a file that had changed one is told."""
    old = tmp_path / "old.yaml"
    old.write_text("recall:\n  other_weight: 0.75\n  continuation_weight: 0.8\n  min_words: 0.45\n")
    assert load_config(old).recall.min_words == 0.45
    changed = tmp_path / "changed.yaml"
    changed.write_text("recall:\n  continuation_weight: 0.5\n")
    with pytest.raises(ConfigError, match="'recall.continuation_weight' in .*changed.yaml is no longer a setting"):
        load_config(changed)


def test_a_start_with_unchanged_inputs_reuses_the_validated_snapshot_and_any_change_is_seen(tmp_path, monkeypatch):
    import assistant.config as cfg

    def written():
        """Each validation writes a new snapshot file (a new inode, by rename); a reuse writes nothing."""
        stat = cfg.snapshot_file().stat()
        return stat.st_ino, stat.st_mtime_ns
    mine = tmp_path / "mine.yaml"
    mine.write_text("user: chell\nmemory:\n  max_facts: 7\n")
    first = load_config(mine)
    assert cfg.snapshot_file().stat().st_mode & 0o077 == 0            # private, like the database
    saved = written()
    again = load_config(mine)
    assert written() == saved                                          # served from the snapshot
    assert again == first and again.source == str(mine) and again.memory.max_facts == 7
    assert again.recall.half_life_days == first.recall.half_life_days and again.database_path() == first.database_path()

    mine.write_text("user: chell\nmemory:\n  max_facts: 8\n")           # same size, new value
    assert load_config(mine).memory.max_facts == 8 and written() != saved
    monkeypatch.setenv("GLADOS_USER", "wheatley")
    assert load_config(mine).user == "wheatley"
    mine.write_text("memory:\n  max_facts: -1\n")                          # an invalid file is never served stale
    with pytest.raises(ConfigError, match="memory.max_facts"):
        load_config(mine)


def test_a_snapshot_that_names_other_code_is_refused_not_run(tmp_path):
    import pickle

    import assistant.config as cfg
    mine = tmp_path / "mine.yaml"
    mine.write_text("user: chell\n")
    load_config(mine)
    key = cfg.snapshot_file().read_bytes()[:32]
    marker = tmp_path / "ran"

    class Hostile:
        def __reduce__(self):
            return (shutil.copy, (str(mine), str(marker)))
    cfg.snapshot_file().write_bytes(key + pickle.dumps(Hostile()))
    assert load_config(mine).user == "chell" and not marker.exists()
    cfg.snapshot_file().write_bytes(key + b"torn")
    assert load_config(mine).user == "chell"


def test_an_install_carries_every_subpackage_and_the_name_models_weights():
    """pyproject.toml once listed four packages by hand, so a non-editable install lacked stt, tts and
    wake. Every folder with an __init__.py must match the package patterns, and the data files exist."""
    import fnmatch
    import tomllib

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = setup["packages"]["find"]["include"]
    folders = [init.parent for top in ("assistant", "memory") for init in (ROOT / top).rglob("__init__.py")]
    assert len(folders) >= 7
    for folder in folders:
        dotted = ".".join(folder.relative_to(ROOT).parts)
        assert any(fnmatch.fnmatchcase(dotted, pattern) for pattern in patterns), dotted
    data = setup["package-data"]["assistant"]
    assert "wake/glados_name.npz" in data and "config.yaml" in data
    assert all(any(p.is_file() for p in (ROOT / "assistant").glob(pattern)) for pattern in data)
    assert (ROOT / "assistant" / "tts" / "voices" / "af_heart.bin").is_file()


def test_a_file_that_names_a_piper_voice_keeps_piper_and_the_default_is_her(tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("voice:\n  tts:\n    model: /voices/glados.onnx\n")
    assert load_config(mine).voice.tts.engine == "piper"
    mine.write_text("voice:\n  tts:\n    model: /voices/glados.onnx\n    engine: kokoro\n")
    assert load_config(mine).voice.tts.engine == "kokoro"
    mine.write_text("user: chell\n")
    assert (load_config(mine).voice.tts.engine, load_config(mine).voice.tts.effect) == ("pico", "glados")


def test_every_problem_is_said_at_once_with_the_key_meant(tmp_path):
    """Issue 71: errors came one at a time, with no "did you mean" for `llm.modle`."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("llm:\n  modle: llama3.2\nmemory:\n  recall_k: -3\nvoice:\n  wake:\n    phrse: hey glados\n")
    with pytest.raises(ConfigError) as caught:
        load_config(bad, env={})
    said = str(caught.value)
    assert said.startswith("3 problems") and "\n" not in said
    assert "'llm.modle'" in said and "did you mean 'llm.model'?" in said
    assert "did you mean 'voice.wake.phrase'?" in said and "'memory.recall_k'" in said


def test_a_yaml_error_says_the_fix_for_where_the_file_came_from(tmp_path, monkeypatch):
    bad = tmp_path / "bad.yaml"
    bad.write_text("llm:\n  model: [x\n")
    with pytest.raises(ConfigError, match="pass another --config") as named:
        load_config(bad, env={})
    assert "GLADOS_CONFIG" not in str(named.value)                 # never set: never the fix
    with pytest.raises(ConfigError, match="unset GLADOS_CONFIG"):
        load_config(None, env={"GLADOS_CONFIG": str(bad)})
