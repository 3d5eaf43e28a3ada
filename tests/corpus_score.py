"""Score mining against the labelled corpus: precision, recall and the misses."""
from __future__ import annotations

from memory import Change, mine

from tests.mining_corpus import CORPUS

OPS = {"+": "assert", "-": "retract", "x": "forget"}


def parse(label: str) -> Change:
    op, _, rest = label.partition(" ")
    key, _, value = rest.partition("=")
    return Change(OPS[op], key, value or None)


def norm(c: Change) -> tuple:
    # A correction that names its key ("my name is Robert, not Bob") asserts that value; so does a mention.
    op = "assert" if c.op in ("correct", "mention") and c.key else c.op
    return (op, c.key, (c.value or "").casefold())


def score(corpus=CORPUS):
    tp = fp = fn = 0
    misses = []
    for text, labels in corpus:
        want = {norm(parse(l)) for l in labels}
        got = {norm(c) for c in mine(text)}
        tp += len(want & got)
        fp += len(got - want)
        fn += len(want - got)
        if want != got:
            misses.append((text, sorted(want - got), sorted(got - want)))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, misses


if __name__ == "__main__":
    p, r, misses = score()
    for text, missing, extra in misses:
        print(f"{text!r}\n    missing {missing}\n    extra   {extra}")
    print(f"{len(CORPUS)} utterances  precision {p:.3f}  recall {r:.3f}")
