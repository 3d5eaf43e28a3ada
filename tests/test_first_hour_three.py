"""The first hour, third pass (issue 71): lines that said what did not happen, each through the CLI in a
separate process, with the stand-in Ollama server where a model is involved."""
import json

from tests.conftest import glados
from tests.ollama_stub import StubOllama
from tests.test_chat_ollama import chat
from tests.test_first_hour import offline_chat


def test_an_ollama_host_ending_in_api_reaches_the_server():
    """OLLAMA_HOST=http://127.0.0.1:PORT/api sent /api/api/chat and read the 404 as a model not pulled."""
    with StubOllama() as stub:
        stub.enqueue("Hello. Again.")
        done = chat(f"{stub.url}/api", "ada", "good morning")
        assert done.returncode == 0, done.stderr
        assert "Hello. Again." in done.stdout and "not pulled" not in done.stdout + done.stderr
        assert stub.chats()


def test_memory_clear_takes_yes_in_any_case_and_says_why_it_did_not():
    glados("memory", "observe", "I live in Leeds", "--user", "ada")
    kept = offline_chat("/memory clear", "no thanks", "/memory", user="ada")
    assert "nothing deleted: 'no thanks' is not YES" in kept.stdout and "Leeds" in kept.stdout.split("/memory")[-1]
    gone = offline_chat("/memory clear", "yes", user="ada")
    assert "nothing deleted" not in gone.stdout
    listed = json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)
    assert listed == []


def test_a_name_with_an_apostrophe_keeps_its_small_letters():
    glados("memory", "observe", "i work at children's hospital", "--user", "ada")
    listed = json.loads(glados("memory", "list", "--json", "--user", "ada").stdout)
    assert [(f["key"], f["value"]) for f in listed] == [("employer", "Children's Hospital")]
