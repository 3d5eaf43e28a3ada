"""Mining against the labelled corpus: precision and recall at 0.9 or more, no forbidden fact."""
from memory import Memory

from tests.corpus_score import score
from tests.mining_corpus import CORPUS


def test_corpus_is_big_and_mixed():
    assert len(CORPUS) >= 150
    assert sum(1 for _, labels in CORPUS if not labels) >= 40            # non-facts
    assert sum(1 for text, _ in CORPUS if text == text.lower()) >= 50     # speech-to-text style


def test_precision_and_recall():
    precision, recall, misses = score()
    assert precision >= 0.9, misses
    assert recall >= 0.9, misses


def test_non_facts_leave_nothing_current(tmp_path):
    """Questions, hypotheticals, other people and chatter: no fact may become current."""
    with Memory(tmp_path / "m.db") as mem:
        for i, (text, labels) in enumerate(CORPUS):
            if not labels:
                mem.observe(f"user{i}", text)
                assert mem.facts(f"user{i}") == [], text


NOTE_PHRASES = [
    "remember that", "please remember", "remember this:", "don't forget that", "do not forget",
    "never forget that", "keep in mind that", "please keep in mind", "bear in mind that",
    "for future reference,", "for the record,", "note that", "please note", "take note that",
    "make a note that", "make a mental note that", "mental note:", "fyi", "for your information,",
    "save a note that", "jot down that", "write down that", "memorize that", "commit to memory that",
    "store this:", "record that", "add to your memory that", "put this in your memory:",
    "keep a note that", "i want you to remember that", "i need you to remember that",
    "can you remember that", "could you remember that", "make sure you remember that",
    "it's worth remembering that", "remind yourself that", "file this away:", "a reminder that",
]


def test_at_least_30_note_triggers_in_prefix_and_contains_forms():
    from memory import mine
    assert len(NOTE_PHRASES) >= 30
    for phrase in NOTE_PHRASES:
        for text in (f"{phrase} the garage code is 4512", f"ok so, {phrase} the garage code is 4512",
                     f"Thanks. Oh and {phrase} the garage code is 4512."):
            changes = mine(text)
            assert [(c.op, c.key, c.value) for c in changes] == [("assert", "note", "the garage code is 4512")], text
