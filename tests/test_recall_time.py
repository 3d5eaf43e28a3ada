"""Recall that keeps time: asked as of a moment, time in the question read against it, and of two
tellings of the same thing the newer first (the older when the question asks about the past)."""
import json
from datetime import date, datetime, timedelta, timezone

import pytest

from memory import Memory
from memory.api import iso
from memory.dates import Window, asked_about, asks_past, asks_when
from tests.conftest import glados

ASKED = datetime(2023, 5, 20, 14, 0, tzinfo=timezone.utc)     # a Saturday


class Clock:
    def __init__(self) -> None:
        self.now = ASKED

    def __call__(self) -> datetime:
        return self.now


def said(memory: Memory, clock: Clock, days_before: float, text: str, reply: str = "Noted.") -> None:
    clock.now = ASKED - timedelta(days=days_before)
    session = f"s{days_before}"
    memory.log("ana", session, "user", text)
    memory.log("ana", session, "assistant", reply)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    clock = Clock()
    memory = Memory(tmp_path_factory.mktemp("time") / "m.db", clock=clock)
    said(memory, clock, 75, "I volunteered at a charity event, a book drive for the town library.")
    said(memory, clock, 31, "I ran a 5k for the children's hospital fundraiser this morning.")
    said(memory, clock, 60, "I go to the gym twice a week, on Mondays and Thursdays.")
    said(memory, clock, 9, "I go to the gym four times a week now.")
    said(memory, clock, 40, "I cooked a lasagna for my neighbour's birthday.")
    said(memory, clock, 2, "I made a big pot of chilli for my friend Sam.")
    said(memory, clock, 5, "My sister is visiting next month.")
    said(memory, clock, -3, "I bought a new road bike today.")          # after the moment asked about
    assert memory.index_pending("ana") == 8
    clock.now = ASKED
    yield memory
    memory.close()


def texts(memory: Memory, question: str, **kw) -> list[str]:
    return [r.text for r in memory.recall("ana", question, k=5, **kw)]


def test_a_question_asked_as_of_a_time_sees_nothing_said_after_it(store):
    assert any("road bike" in t for t in texts(store, "what bike did I buy?", at=ASKED + timedelta(days=5)))
    assert not any("road bike" in t for t in texts(store, "what bike did I buy?", at=ASKED))
    assert texts(store, "what bike did I buy?", at=ASKED - timedelta(days=100)) == []


def test_time_in_the_question_is_read_against_when_it_is_asked(store):
    # by meaning alone the book drive (a "charity event") is nearer; a month before the moment asked, the run
    assert "5k" in texts(store, "What charity event did I participate in a month ago?", at=ASKED)[0]
    assert "book drive" in texts(store, "What charity event did I participate in two and a half months ago?",
                                 at=ASKED)[0] or \
        "book drive" in texts(store, "What charity event did I participate in 11 weeks ago?", at=ASKED)[0]
    assert "chilli" in texts(store, "I mentioned cooking something for a friend a couple of days ago. What was it?",
                             at=ASKED)[0]
    assert "lasagna" in texts(store, "What did I cook about 40 days ago?", at=ASKED)[0]


def test_of_two_tellings_the_newer_comes_first_unless_the_question_asks_about_the_past(store):
    now = texts(store, "How often do I go to the gym?", at=ASKED)
    assert "four times" in now[0] and any("twice" in t for t in now[1:3]), now
    before = texts(store, "How often did I go to the gym before?", at=ASKED)
    assert "twice" in before[0]
    # as of a time before the change, only the old habit exists
    assert "twice" in texts(store, "How often do I go to the gym?", at=ASKED - timedelta(days=30))[0]


def test_a_value_changed_in_passing_in_long_messages_comes_newest_first(tmp_path):
    """The two tellings share the question's words but little else: each is one sentence of a longer
    message about something else, so their sentences are not close in meaning."""
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 40, "I'm planning a spring campaign for my bakery and need a posting schedule for the next "
                                "six weeks. And by the way, I've got 1250 followers on Instagram now, so some growth "
                                "tips would help too.")
        said(memory, clock, 12, "Could you write a caption for a photo of our sourdough loaves fresh out of the oven? "
                                "By the way, I keep meaning to check my follower count on Instagram - I think I'm close "
                                "to 1300 now.")
        said(memory, clock, 30, "What are good hashtags for a small bakery?")
        memory.index_pending("ana")
        clock.now = ASKED
        now = [r.text for r in memory.recall("ana", "How many followers do I have on Instagram now?", k=3)]
        assert "1300" in now[0] and any("1250" in t for t in now[1:]), now
        before = [r.text for r in memory.recall("ana", "How many Instagram followers did I have before?", k=3)]
        assert "1250" in before[0], before


def test_a_message_telling_of_a_day_counts_for_that_day(tmp_path):
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 14, "We walked along the river to the old mill.")
        said(memory, clock, 10, "Last Saturday I walked up to the castle with my dad.")   # said on a Wednesday
        memory.index_pending("ana")
        clock.now = ASKED
        first = memory.recall("ana", "Where did I walk two weeks ago?", k=2)[0]
        assert "castle" in first.text


def test_relative_windows():
    today = date(2023, 5, 20)
    assert asked_about("what did I do two weeks ago?", today) == Window(date(2023, 5, 6), date(2023, 5, 6), 4)
    assert asked_about("a couple of days ago", today).first == date(2023, 5, 18)
    weekend = asked_about("what did I do last weekend?", today)
    assert (weekend.first, weekend.last) == (date(2023, 5, 13), date(2023, 5, 14))
    assert asked_about("in March", today).first == date(2023, 3, 1)
    assert asked_about("in June", today).first == date(2022, 6, 1)       # the latest June
    assert asked_about("earlier this year", today).first == date(2023, 1, 1)
    far = asked_about("a month ago", today)
    assert far.slack > asked_about("yesterday", today).slack              # the further back, the looser
    assert far.weight(far.first) == 1 and 0 < far.weight(far.first - timedelta(days=far.slack)) < 1
    assert asked_about("what did I say about the gym?", today) is None
    assert asked_about("two weeks ago") is None                           # relative needs a day to count from
    assert asked_about("on 12 July 2022, two weeks ago", today).first == date(2022, 7, 12)   # a named day wins


def test_questions_about_the_past():
    assert asks_past("What was my previous personal best?")
    assert asks_past("How often did I use to go to the gym?")
    assert not asks_past("How often do I go to the gym?")
    assert not asks_past("Where is Rachel, a colleague from my previous job, currently working?")   # asks now
    # "current" only in the clause that places the question in time: it still asks about then
    assert asks_past("What was my old phone plan, before I switched to the current one?")
    assert not asks_past("How many films have I watched in the past few weeks?")   # a recent span, not a change


def test_asked_when_the_message_that_dates_the_event_comes_before_one_that_only_mentions_it(tmp_path):
    """One conversation (so no time order between them): a general remark that shares more of the question's
    words, and the telling that says when."""
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 30, "Can you suggest a quick pasta recipe for weeknights?")
        clock.now = ASKED - timedelta(days=12)
        for text in ("My arms are so sore, I went to the climbing wall with Sam yesterday.",
                     "Climbing is great exercise, and the wall in town has a friendly crowd."):
            memory.log("ana", "gym", "user", text)
            memory.log("ana", "gym", "assistant", "Noted.")
        said(memory, clock, 5, "I'm thinking about buying my own climbing shoes.")
        memory.index_pending("ana")
        clock.now = ASKED
        when = memory.recall("ana", "When did I go to the climbing wall?", k=3)
        what = memory.recall("ana", "What do I think of the climbing wall?", k=3)
    assert "yesterday" in when[0].text
    assert "yesterday" not in what[0].text       # a question that does not ask when is unchanged


def test_questions_that_ask_when():
    assert asks_when("When did I go to the climbing wall?")
    assert asks_when("How many days ago did I repaint the fence?")
    assert asks_when("Which did I buy first, the kettle or the toaster?")
    assert not asks_when("What was my first car?")                  # "first" of a kind, not of an order
    assert not asks_when("Where do I keep my bike?")


def test_a_question_about_the_value_before_the_current_one_gets_the_older_first(tmp_path):
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 60, "I'm a Silver member at the climbing gym, which gets me two guest passes a month.")
        said(memory, clock, 20, "Can you suggest a quick pasta recipe for weeknights?")
        said(memory, clock, 5, "Good news: the climbing gym just moved me up to Gold membership, so I get four "
                               "guest passes a month now.")
        memory.index_pending("ana")
        clock.now = ASKED
        then = memory.recall("ana", "What was my previous membership level at the climbing gym, before I got the "
                                    "current one?", k=3)
        now = memory.recall("ana", "What membership level do I have at the climbing gym now?", k=3)
    assert "Silver" in then[0].text and "Gold" in now[0].text


def test_the_command_line_recalls_as_of_a_time(tmp_path):
    messages = [{"id": i + 1, "session": f"s{i}", "role": "user", "text": text,
                 "created_at": iso(ASKED - timedelta(days=days)), "tokens": 0, "interrupted": 0}
                for i, (days, text) in enumerate([(30, "I adopted a cat called Miso."),
                                                  (-2, "I adopted a second cat called Tofu.")])]
    export = tmp_path / "e.json"
    export.write_text(json.dumps({"format": "glados-memory/1", "user": "ana", "messages": messages,
                                  "facts": [], "summaries": []}))
    db = ["--db", str(tmp_path / "m.db"), "--user", "ana"]
    assert glados("memory", "import", str(export), *db).returncode == 0
    out = glados("memory", "recall", "what cat did I adopt?", "--json", "--at", "2023/05/20 (Sat) 14:00", *db)
    assert out.returncode == 0, out.stderr
    assert [r["text"] for r in json.loads(out.stdout)] == ["I adopted a cat called Miso."]
    bad = glados("memory", "recall", "cat", "--at", "next tuesday", *db)
    assert bad.returncode != 0 and "--at 'next tuesday' is not an ISO time" in bad.stderr


def test_a_number_told_again_different_comes_newest_first_however_far_apart_the_two_score(tmp_path):
    """The old telling says just the fact, in the question's words; the new one says it in passing at the
    end of a long message about something else, so it scores far lower. A number told again different
    about the same thing ("3 designers" / "seven designers") is an update all the same."""
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 50, "I manage a team of 3 designers at the studio.")
        said(memory, clock, 6, "Could you help me find a quiet place for a team lunch near the river, with vegetarian "
                               "options and room for a whiteboard? We want to sketch next quarter's roadmap over food. "
                               "Work has been hectic since I now manage a team of seven designers, which means a lot "
                               "more reviews.")
        said(memory, clock, 20, "I walk for 30 minutes every morning before work.")
        said(memory, clock, 4, "Any podcasts for my 30-minute morning walk?")
        memory.index_pending("ana")
        clock.now = ASKED
        now = texts(memory, "How many designers do I manage?")
        assert "seven designers" in now[0] and any("3 designers" in t for t in now[1:]), now
        before = texts(memory, "How many designers did I manage before?")
        assert "3 designers" in before[0], before
        # the same number of the same thing is not a change: the better match keeps its place
        walks = texts(memory, "How long is my morning walk?")
        assert "every morning" in walks[0], walks


def test_a_near_restatement_that_tells_a_new_number_is_not_held_back(tmp_path):
    """Two messages of one conversation nearly alike; the second also tells a new personal best. It is
    not the first said again: it ranks as itself and, as the newer value, above the old best."""
    clock = Clock()
    with Memory(tmp_path / "m.db", clock=clock) as memory:
        said(memory, clock, 20, "Great news, I ran a personal best of 27:40 at the parkrun 5k this morning!")
        clock.now = ASKED - timedelta(days=3)
        memory.log("ana", "race", "user", "I'm getting ready for the parkrun 5k on Saturday and want a new personal "
                                          "best. Any tips for pacing?")
        memory.log("ana", "race", "assistant", "Start slower than you think.")
        memory.log("ana", "race", "user", "I'm getting ready for the parkrun 5k on Saturday, hoping to beat my "
                                          "personal best of 26:15. Any tips for pacing?")
        memory.log("ana", "race", "assistant", "You can do it.")
        memory.index_pending("ana")
        clock.now = ASKED
        found = texts(memory, "What is my personal best at the parkrun 5k?")
        assert found.index(next(t for t in found if "26:15" in t)) < found.index(next(t for t in found if "27:40" in t)), found
