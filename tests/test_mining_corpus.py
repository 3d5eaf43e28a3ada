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
