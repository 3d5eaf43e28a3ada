"""Recall: the whole history by words (stems), meaning as well as words, restatements, decay,
deletion that reaches the vectors, and the floor of `bench/recall_eval.py`."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from memory import Memory
from memory import embed
from memory.recall import words as recall_words
from memory.recall import RecallSettings
from memory.erase import NOT_USER_DATA, STORES
from tests.conftest import ROOT, glados


def texts(found) -> list[str]:
    return [r.text for r in found]


@pytest.fixture
def words_only(tmp_path, clock):
    with Memory(tmp_path / "w.db", clock=clock, embedder=None) as memory:
        yield memory


@pytest.fixture
def meaning(tmp_path, clock):
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        yield memory


def say(memory: Memory, user: str, *lines: str, clock=None, step=timedelta(hours=1)) -> list[int]:
    ids = []
    for line in lines:
        ids.append(memory.observe(user, line, session="s").message_id)
        if clock is not None:
            clock.advance(seconds=step.total_seconds())
    memory.index_pending(user)
    return ids


def test_an_old_message_of_common_words_competes_with_the_whole_history(words_only, clock):
    say(words_only, "ada", "the spare key for the shed is under the blue flowerpot", clock=clock)
    for i in range(300):      # far more newer matches of "key" and "shed" than any candidate cap
        say(words_only, "ada", f"I need a new key ring number {i}", f"the shed roof needs paint, coat {i}")
    assert texts(words_only.recall("ada", "where did I leave the spare key for the shed?", k=4))[0] == \
        "the spare key for the shed is under the blue flowerpot"


def test_a_word_in_more_messages_than_are_scored_ranks_its_newest_and_outlives_a_deletion(tmp_path, words_only,
                                                                                           monkeypatch):
    monkeypatch.setattr(recall_words, "MAX_SCORED", 20)
    monkeypatch.setattr(recall_words, "NEWEST_SCORED", 6)
    say(words_only, "ada", "the old bike is in the garage")
    say(words_only, "bob", *[f"my bike needs a new chain, link {i}" for i in range(30)])
    say(words_only, "ada", "the bike shop opens at nine", "I rode my bike to work")
    # "bike" is in 33 messages, more than are scored: the newest 6, two of them ada's; her first is older
    assert sorted(texts(words_only.recall("ada", "bike", k=10))) == ["I rode my bike to work", "the bike shop opens at nine"]
    with Memory(tmp_path / "w.db", embedder=None) as other:
        other.clear("bob")      # by another process: the counts this one keeps still say 33; three are left
    assert len(words_only.recall("ada", "bike", k=10)) == 3


@pytest.mark.parametrize("said, asked", [("my passport expires next March", "when does my passport expire?"),
                                         ("I parked on level 4", "where did I park?"),
                                         ("the boiler was serviced in May", "when is the boiler service?")])
def test_stems_match(words_only, said, asked):
    say(words_only, "ada", said, "I had soup for lunch")
    assert texts(words_only.recall("ada", asked, k=2)) == [said]


@pytest.mark.parametrize("said, asked", [
    ("Mum's flight lands at 6:15 on Sunday at Gatwick", "what time does my mother's plane arrive?"),
    ("I'm lactose intolerant", "which dairy products upset my stomach?"),
    ("I parked the car on level 4 of the station car park", "on which floor did I leave the vehicle?"),
])
def test_a_question_in_other_words_finds_what_was_meant(meaning, clock, said, asked):
    say(meaning, "ada", said, "the kids' football kit needs washing", "we ran out of teabags",
        "Dad called about the lawnmower", "I watched a documentary about volcanoes", clock=clock)
    assert meaning.recall_mode == "words+meaning"
    assert texts(meaning.recall("ada", asked, k=4))[0] == said
    assert meaning.recall("ada", asked, k=4) and not texts(meaning.recall("ben", asked, k=4))


@pytest.mark.parametrize("use_meaning", [True, False])
def test_a_fact_said_four_times_takes_one_slot(tmp_path, clock, use_meaning):
    with Memory(tmp_path / "r.db", clock=clock, embedder="auto" if use_meaning else None) as memory:
        say(memory, "ada", "I'm allergic to penicillin", "remember that I'm allergic to penicillin",
            "don't forget I'm allergic to penicillin", "I'm allergic to penicillin!",
            "the penicillin prescription from 2019 is in the drawer", "my doctor is Dr Shah",
            clock=clock)
        found = texts(memory.recall("ada", "what am I allergic to, penicillin?", k=4))
    assert sum("allergic to penicillin" in t for t in found) == 1, found
    assert "the penicillin prescription from 2019 is in the drawer" in found


def test_an_allergy_outlives_two_years_and_a_passing_state_fades_then_expires(meaning, clock):
    say(meaning, "ada", "I'm allergic to penicillin")
    fresh = meaning.recall("ada", "am I allergic to penicillin?", k=1)[0]
    say(meaning, "ada", "I'm so tired today")
    tired_fresh = meaning.recall("ada", "am I tired?", k=1)[0]
    assert tired_fresh.text == "I'm so tired today"

    clock.advance(hours=12)
    tired_later = meaning.recall("ada", "am I tired?", k=1)[0]
    assert tired_later.text == "I'm so tired today"
    assert tired_later.score == pytest.approx(tired_fresh.score * 0.5 ** (0.5 / 7), rel=0.02)   # half-life: 7 days
    clock.advance(days=7)
    assert "I'm so tired today" not in texts(meaning.recall("ada", "am I tired?", k=3))       # expired after a day

    clock.advance(days=730)
    later = meaning.recall("ada", "am I allergic to penicillin?", k=1)[0]
    assert later.text == "I'm allergic to penicillin" and later.score == pytest.approx(fresh.score)
    say(meaning, "ada", "I sleep badly when it's hot")       # less close to the question, but not faded
    assert texts(meaning.recall("ada", "am I tired?", k=2))[0] == "I sleep badly when it's hot"


def test_a_superseded_statement_is_never_recalled(meaning, clock):
    say(meaning, "ada", "I live in Bath", clock=clock)
    say(meaning, "ada", "I moved to Bristol last month", clock=clock)
    for question in ("where do I live?", "which city is home these days?", "Bath"):
        assert "I live in Bath" not in texts(meaning.recall("ada", question, k=4))
    assert "I moved to Bristol last month" in texts(meaning.recall("ada", "where do I live?", k=4))


def test_forget_removes_the_vectors_too(meaning, clock):
    source, other = say(meaning, "ada", "I work at Globex", "Globex has a nice canteen", clock=clock)
    vectors = lambda: {r[0] for r in meaning.db.execute("SELECT message_id FROM message_vectors")}
    assert {source, other} <= vectors()
    meaning.forget("ada", "employer")
    assert source not in vectors()
    assert other not in vectors()                   # redacted: its old vector encoded "Globex"
    meaning.index_pending("ada")                    # made again from the redacted text
    assert other in vectors()
    for question in ("where do I work?", "Globex", "which company employs me?"):
        assert not any("Globex" in t for t in texts(meaning.recall("ada", question, k=5)))
    meaning.clear("ada")
    assert meaning.db.execute("SELECT count(*) FROM message_vectors").fetchone()[0] == 0


def test_every_table_is_listed_in_the_erase_function(meaning):
    tables = {r[0] for r in meaning.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    shadow = {t for t in tables if any(t.startswith(f"{fts}_") for fts in ("messages_fts", "facts_fts"))}
    assert tables - shadow - NOT_USER_DATA == set(STORES)


def test_a_process_holding_vectors_never_recalls_what_another_forgot(tmp_path, clock):
    db = tmp_path / "shared.db"
    with Memory(db, clock=clock) as holder:
        say(holder, "ada", "I work at Globex", "my desk at Globex faces the window")
        assert holder.recall("ada", "which company do I work for?", k=2)
        code = "import sys; from memory import Memory; Memory(sys.argv[1]).forget('ada', 'employer')"
        subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, check=True, timeout=60)
        found = texts(holder.recall("ada", "which company do I work for?", k=4))
        assert not any("Globex" in t for t in found), found


def test_vectors_persist_for_another_process(tmp_path):
    db = tmp_path / "p.db"
    code = ("import sys; from memory import Memory; m = Memory(sys.argv[1]); "
            "m.observe('ada', \"Mum's flight lands at 6:15 on Sunday at Gatwick\"); "
            "m.observe('ada', 'we ran out of teabags'); print(m.index_pending('ada'))")
    made = subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=60)
    assert made.stdout.strip() == "2"
    with Memory(db) as memory:
        assert memory.pending("ada") == 0
        assert texts(memory.recall("ada", "what time does my mother's plane arrive?", k=1)) == \
            ["Mum's flight lands at 6:15 on Sunday at Gatwick"]


def test_without_the_model_recall_uses_words_and_says_so_once(tmp_path):
    """An environment where the sentence model's package is not installed (its name taken by a plain module
    that holds no model, ahead of site-packages): recall matches words, and says so once, with the fix."""
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / f"{embed.PACKAGE}.py").write_text("")
    env, db = {"PYTHONPATH": str(shadow)}, str(tmp_path / "n.db")
    assert glados("memory", "observe", "the spare key is under the flowerpot", "--db", db, "--user", "ada",
                  env=env).returncode == 0
    out = glados("memory", "recall", "spare", "key", "--json", "--db", db, "--user", "ada", env=env)
    assert [r["text"] for r in json.loads(out.stdout)] == ["the spare key is under the flowerpot"]
    assert out.stderr.count("recall matches words only") == 1 and "pip install --no-deps" in out.stderr
    with_model = glados("memory", "recall", "spare", "key", "--db", db, "--user", "ada")
    assert "recall matches words only" not in with_model.stderr         # the shadow was what took it away


def test_a_broken_model_file_is_one_line(tmp_path):
    (tmp_path / "model.zip").write_bytes(b"not a zip")
    with pytest.raises(embed.EmbedderMissing, match="unreadable"):
        embed.MiniLM(tmp_path / "model.zip")


def test_the_model_reproduces_the_published_vector():
    vector = embed.load().encode(["This is an example sentence"])[0]
    # sentence-transformers' all-MiniLM-L6-v2 gives 0.0677, 0.0635, 0.0487, 0.0793, 0.0374 for it
    assert vector[:5] == pytest.approx([0.06765688, 0.0634959, 0.04871311, 0.07930499, 0.03744806], abs=1e-5)
    assert float(vector @ vector) == pytest.approx(1.0, abs=1e-5)


@pytest.fixture(scope="module")
def evaluation():
    from bench import recall_eval as ev
    from assistant.config import load_config
    clock = ev.Clock()
    with Memory(":memory:", clock=clock) as memory:
        store = ev.build(memory, clock)
        yield ev.run(memory, store, load_config(None))


def test_eval_floor(evaluation):
    """The floor of the six numbers on the seeded store (see README for the table). A change that
    makes recall worse fails here."""
    r = evaluation
    assert r.recall_at_4["words"] >= 0.95
    # 0.867 before the fit on real conversations (docs/recall.md): its recall.min_cosine 0.3 (for a quarter less
    # noise) and the subject gate lose four paraphrase-only questions of this invented set
    assert r.recall_at_4["meaning"] >= 0.7
    assert r.recall_at_4["superseded"] >= 0.75
    assert r.mrr >= 0.78                             # 0.86 before the fit (see above)
    assert r.violations == []                        # no superseded, forgotten or other users' items
    assert r.most_of_one_fact <= 2                   # a fact said four times never fills the top 4
    assert r.degraded == 0.0
    assert r.prompt_tokens < 1000
    assert r.queries >= 50 and r.messages >= 2000


def recall_eval(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "recall_eval.py"), *args], capture_output=True,
                          text=True, timeout=timeout)


def test_recall_eval_prints_the_numbers(tmp_path):
    out = recall_eval("--per-user", "40", "--json", "--keep", str(tmp_path / "e.db"))
    assert out.returncode == 0, out.stderr
    numbers = json.loads(out.stdout)
    assert set(numbers) >= {"recall_at_4", "precision_at_4", "mrr", "prompt_tokens", "degraded", "memory_ms_p95"}
    assert sqlite3.connect(tmp_path / "e.db").execute("SELECT count(*) FROM message_vectors").fetchone()[0] > 0
    again = recall_eval("--keep", str(tmp_path / "e.db"))
    assert again.returncode == 1 and "already exists" in again.stderr


def test_messages_stored_from_the_command_line_are_found_by_meaning(tmp_path):
    """A store built with `glados memory observe` (one process per message, no vectors yet) is
    indexed by the first recall, with a note, and then found by meaning."""
    db = tmp_path / "cli.db"
    code = ("import sys; from memory import Memory; m = Memory(sys.argv[1], embedder=None); "
            "[m.observe('ada', f'I need to buy a new key ring number {i}') for i in range(80)]; "
            "m.observe('ada', \"Mum's flight lands at 6:15 on Sunday at Gatwick\"); "
            "[m.observe('ada', f'the shed roof needs paint, coat {i}') for i in range(80)]")
    subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, check=True, timeout=120)
    out = glados("memory", "recall", "what time does my mother's plane arrive?", "--db", str(db), "--user", "ada",
                 "-k", "1", timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Mum's flight lands" in out.stdout
    assert "indexed 161 earlier message(s)" in out.stderr
    again = glados("memory", "recall", "plane arrival", "--db", str(db), "--user", "ada", timeout=120)
    assert "indexed" not in again.stderr


def test_glados_memory_index_says_how_many(tmp_path):
    db = str(tmp_path / "i.db")
    for line in ("I parked on level 4", "we ran out of teabags"):
        assert glados("memory", "observe", line, "--db", db).returncode == 0
    out = glados("memory", "index", "--db", db, timeout=120)
    assert out.returncode == 0 and "indexed 2 message(s); 0 left without a vector" in out.stdout


def test_alike_but_different_things_are_both_kept_and_the_newer_comes_first(meaning, clock):
    say(meaning, "ada", "my sister lives in Leeds", "my brother lives in Leeds", "I parked on level 2",
        clock=clock, step=timedelta(days=3))
    say(meaning, "ada", "I parked on level 4", clock=clock)
    assert set(texts(meaning.recall("ada", "who lives in Leeds?", k=4))) >= \
        {"my sister lives in Leeds", "my brother lives in Leeds"}
    assert texts(meaning.recall("ada", "where did I park?", k=4))[0] == "I parked on level 4"


def _stored_lists(memory: Memory, user: str) -> tuple[list[int], np.ndarray, np.ndarray]:
    rows = memory.db.execute("SELECT message_id, vector, neighbours FROM message_vectors WHERE user = ? "
                             "ORDER BY message_id", (user,)).fetchall()
    vectors = np.stack([np.frombuffer(r["vector"], np.float16).astype(np.float32) for r in rows])
    lists = np.stack([np.sort(np.frombuffer(r["neighbours"], np.float16).astype(np.float32))[::-1]
                      if r["neighbours"] else np.full(10, np.nan, np.float32) for r in rows])
    return [r["message_id"] for r in rows], vectors, lists


def _brute_force(vectors: np.ndarray) -> np.ndarray:
    sims = vectors @ vectors.T
    np.fill_diagonal(sims, 0.0)
    padded = np.concatenate([sims, np.zeros((len(sims), 10))], axis=1)
    return np.clip(-np.sort(-padded, axis=1)[:, :10], 0, None)


def test_crowding_lists_stay_exact_as_messages_arrive_in_any_order_and_an_old_database_gets_them(meaning, clock):
    """Each message's nearest-neighbour cosines (what crowding is made of) equal a full computation
    over the user's messages, whether they were indexed one per turn or as a backlog; a database
    from before crowding gets them a bounded share at a time, or all at once from `memory index`."""
    lines = [f"I paid the agent back for the {thing}" for thing in ("bike", "lamp", "kettle", "rug", "clock")]
    lines += ["I lent my ladder to Priya next door", "my passport expires next March", "we ran out of teabags"]
    lines += [f"the {thing} needs fixing before the holiday" for thing in ("gate", "shed", "tap", "fence")]
    for i, line in enumerate(lines * 2):
        meaning.observe("ada", f"{line} {i}" if i >= len(lines) else line, session="s")
        if i % 3 == 0:
            meaning.index_pending("ada", limit=2)     # newest first, a few at a time, like turns
    meaning.index_pending("ada")
    ids, vectors, lists = _stored_lists(meaning, "ada")
    assert len(ids) == 2 * len(lines)
    assert abs(lists - _brute_force(vectors)).max() < 2e-3

    meaning.db.execute("UPDATE message_vectors SET neighbours = NULL")     # as migration 005 leaves them
    with Memory(meaning.db.path, clock=clock) as fresh:
        import memory.vectors as V
        budget, V.FILL_BUDGET = V.FILL_BUDGET, 5 * len(ids) * 384          # five rows a call
        try:
            fresh.index_pending("ada")
            assert sum(np.isnan(_stored_lists(fresh, "ada")[2][:, 0])) == len(ids) - 5
        finally:
            V.FILL_BUDGET = budget
        assert fresh.fill_crowding("ada", everything=True) == (len(ids) - 5, 0)
        assert abs(_stored_lists(fresh, "ada")[2] - _brute_force(vectors)).max() < 2e-3


def _exchange(memory: Memory, session: str, *lines: str) -> None:
    """The user's lines and her replies, taking turns, in one session."""
    for i, line in enumerate(lines):
        if i % 2 == 0:
            memory.observe("ada", line, session=session)
        else:
            memory.log("ada", session, "assistant", line)


def test_one_sentence_of_a_long_message_answers_for_all_of_it(meaning):
    _exchange(meaning, "a", "Miso knocked a glass off the table again", "Cats.")
    _exchange(meaning, "b", "Miso slept on my keyboard all day", "Cats.")
    _exchange(meaning, "c", "Miso chased a fly around the kitchen", "Cats.")
    _exchange(meaning, "d", "Thanks so much for listening to me ramble about work all evening, you are the best. "
              "I still need to sort the recycling and call the plumber about the sink. Anyway the vet said "
              "Miso needs a special kidney diet from now on. Talk soon!", "Poor Miso.")
    meaning.index_pending("ada")
    parts = meaning.db.execute("SELECT length(parts) FROM message_vectors WHERE length(parts) > 0").fetchall()
    assert [p[0] for p in parts] == [3 * 384 * 2]       # three sentences of float16s; short messages have none
    assert texts(meaning.recall("ada", "what food does Miso need?", k=3))[0].startswith("Thanks so much")


@pytest.mark.parametrize("use_meaning", [False, True])
def test_saying_something_and_asking_back_is_not_a_question(tmp_path, clock, use_meaning):
    """An earlier question answers nothing; a statement that ends by asking back still says something."""
    with Memory(tmp_path / "m.db", clock=clock, embedder="auto" if use_meaning else None) as memory:
        say(memory, "ada", "Do you like sci-fi movies?",
            "I love sci-fi movies, I watch one every single weekend! What's your favourite film of theirs?", clock=clock)
        memory.index_pending("ada")
        assert texts(memory.recall("ada", "which sci-fi movies do I love?", k=2))[0].startswith("I love sci-fi")


def test_an_answer_is_recalled_by_the_question_it_answers(meaning):
    _exchange(meaning, "a", "I dusted the piano in the hall", "Riveting.")
    _exchange(meaning, "b", "The piano tuner is coming next week", "Noted.")
    _exchange(meaning, "c", "Back from the shops", "How long have you been playing the piano?",
              "Since I was seven years old", "Impressive, for a human.")
    _exchange(meaning, "d", "I played the piano at my cousin's wedding", "How festive.")
    for i, line in enumerate(("I was seven years old when we moved to Leeds", "My nephew turns seven next year",
                              "Since last Tuesday I have had a cold")):
        _exchange(meaning, f"e{i}", line, "Fascinating.")
    meaning.index_pending("ada")
    readings = meaning.db.execute("SELECT m.text, length(v.parts) FROM message_vectors v JOIN messages m "
                                  "ON m.id = v.message_id WHERE length(v.parts) > 0").fetchall()
    assert [tuple(r) for r in readings] == [("Since I was seven years old", 384 * 2)]   # read after her question
    # by meaning alone: not a word of the question is in hers or in the answer
    assert texts(meaning.recall("ada", "when did I start learning my instrument?", k=3))[0] == "Since I was seven years old"


def test_forgetting_her_question_remakes_the_answer_read_after_it(meaning):
    meaning.observe("ada", "I am allergic to peanuts", session="s")
    meaning.log("ada", "s", "assistant", "Noted. Do you carry an epinephrine pen with you?")
    answer = meaning.observe("ada", "Yes, always in my bag", session="s").message_id
    meaning.index_pending("ada")

    def reading() -> int | None:      # the bytes of the answer's further readings; None: no vector
        row = meaning.db.execute("SELECT length(parts) FROM message_vectors WHERE message_id = ?", (answer,)).fetchone()
        return row and row[0]
    assert reading() == 384 * 2
    meaning.forget("ada", "allergy")      # the source message and her reply to it go
    assert reading() is None              # the answer's vector held her words: it goes with them
    meaning.index_pending("ada")
    assert reading() == 0                 # made again from what is left: no question before it now


def test_a_question_naming_a_day_looks_at_what_was_said_that_day(tmp_path, clock):
    plain = RecallSettings(crowding_weight=0.0)     # eighty alike messages, none set apart as chatter
    with Memory(tmp_path / "d.db", clock=clock, recall_settings=plain) as memory:
        clock.now = datetime(2022, 5, 1, 9, tzinfo=timezone.utc)
        things = [f"{a} {b}" for a in ("an old", "a red", "a broken", "a wooden", "the front", "my best", "a new",
                                       "the spare") for b in ("shed", "piano", "clock", "bicycle", "window", "chair",
                                                              "tap", "lamp", "gate", "sofa")]
        for i, thing in enumerate(things):
            memory.observe("ada", f"I wonder what I did on that day with {thing}", session=f"s{i}")
            clock.advance(days=1)
        clock.now = datetime(2023, 3, 14, 9, tzinfo=timezone.utc)
        memory.observe("ada", "We took the boat out around the bay all afternoon", session="sail")
        memory.index_pending("ada")
        # two candidates by meaning: only the day named brings the boat in
        found = texts(memory.recall("ada", "what did I do on 14 March 2023?", k=3, candidates=2))
        assert found[0] == "We took the boat out around the bay all afternoon"
        assert texts(memory.recall("ada", "what did I do on 14 March 2022?", k=3, candidates=2))[0] != found[0]


def test_an_old_database_has_its_messages_read_again_by_sentences(tmp_path, clock):
    long_one = ("Thanks so much for listening to me ramble about work all evening, you are the best. "
                "Anyway the vet said Miso needs a special kidney diet from now on. Talk soon!")
    with Memory(tmp_path / "old.db", clock=clock) as before:
        say(before, "ada", "Miso knocked a glass off the table again", long_one, "Miso slept on my keyboard all day",
            clock=clock)
        stored = _stored_lists(before, "ada")
        # as a database indexed before sentences were read: one vector a message, no sentences
        before.db.execute("UPDATE message_vectors SET parts = NULL")
    meaning = Memory(tmp_path / "old.db", clock=clock)
    assert meaning.pending("ada") == 3
    assert meaning.index_pending("ada") == 3 and meaning.pending("ada") == 0
    ids, vectors, lists = _stored_lists(meaning, "ada")
    assert ids == stored[0] and np.allclose(vectors, stored[1], atol=1e-3)   # the same vectors, none lost
    np.testing.assert_allclose(lists, _brute_force(vectors), atol=2e-3)       # its neighbours without its old self
    sentences = meaning.db.execute("SELECT length(parts) FROM message_vectors ORDER BY message_id").fetchall()
    assert [s[0] for s in sentences] == [0, 2 * 384 * 2, 0]     # two sentences ("Talk soon!" joins the one before)
    assert texts(meaning.recall("ada", "what food does Miso need?", k=1)) == [long_one]


def test_a_database_from_before_answers_were_read_reads_them_at_the_next_indexing(tmp_path):
    with Memory(tmp_path / "old.db") as before:
        _exchange(before, "s", "Back from the shops", "How long have you been playing the piano?",
                  "Since I was seven years old", "Noted. Anything else?", "No, that is all")
        before.index_pending("ada")
        # as migration 008 left it: no reading after her question, and the migration not run yet
        before.db.execute("UPDATE message_vectors SET parts = x''")
        before.db.execute("DELETE FROM migrations WHERE name = '009_answers'")
    with Memory(tmp_path / "old.db") as after:
        assert after.pending("ada") == 2            # the two answers; "Back from the shops" answers no question
        assert after.index_pending("ada") == 2
        readings = after.db.execute("SELECT m.text, length(v.parts) FROM message_vectors v JOIN messages m "
                                    "ON m.id = v.message_id ORDER BY m.id").fetchall()
        assert [tuple(r) for r in readings] == [("Back from the shops", 0), ("Since I was seven years old", 384 * 2),
                                                ("No, that is all", 384 * 2)]


def test_the_scan_keeps_exactly_the_largest():
    from memory.vectors import _top
    rng = np.random.default_rng(3)
    for size, n in ((50_000, 120), (3_000, 30), (10, 4), (8_000, 120)):
        values = rng.standard_normal(size).astype(np.float32)
        values[: size // 3] = values[0]          # ties
        kept = _top(values, n)
        assert len(set(kept.tolist())) == n
        assert np.sort(values[kept]).tolist() == np.sort(values)[-n:].tolist()


def test_a_long_history_is_searched_by_sign_bits_then_exactly_and_keeps_the_nearest(tmp_path):
    """From SHORTLIST_FROM vectors the scan shortlists by sign bits; what it returns must match an
    exact scan almost everywhere, also for rows added after the first search."""
    from memory.vectors import SHORTLIST_FROM, VectorIndex
    rng = np.random.default_rng(11)
    size = 24_000
    assert size > SHORTLIST_FROM
    centres = rng.standard_normal((300, 384))
    vectors = centres[rng.integers(0, 300, size)] + rng.standard_normal((size, 384)) * 1.2
    vectors = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float16).astype(np.float32)
    Memory(tmp_path / "m.db").close()
    db = sqlite3.connect(tmp_path / "m.db")
    db.execute("PRAGMA foreign_keys = OFF")       # vectors only: the scan never reads the messages

    def store(first: int, rows: np.ndarray) -> None:
        with db:
            db.executemany("INSERT INTO message_vectors (message_id, user, model, vector) VALUES (?, 'ada', ?, ?)",
                           [(first + i, embed.MODEL_NAME, v.astype(np.float16).tobytes()) for i, v in enumerate(rows)])

    store(1, vectors[:-1000])
    index = VectorIndex(embed.MODEL_NAME)
    index.search(db, "ada", vectors[0], 10)
    store(size - 999, vectors[-1000:])             # appended to what the index holds
    kept = []
    for row in rng.choice(size, 60, replace=False):
        query = vectors[row] + rng.standard_normal(384).astype(np.float32) * 0.02
        query /= np.linalg.norm(query)
        found = [m for m, _ in index.search(db, "ada", query, 10)]
        assert found[0] == row + 1                 # the message it was made from comes first
        exact = set((np.argsort(-(vectors @ query))[:10] + 1).tolist())
        kept.append(len(exact & set(found)) / 10)
    assert np.mean(kept) >= 0.97
