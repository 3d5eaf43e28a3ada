"""The grounding checks against an oracle model: how many true facts they keep, how many false ones
they let through.

    .venv/bin/python bench/consolidation_bench.py [--dropped]   # --dropped: the true facts it rejected

The "model" is scripted: for every labelled line it proposes the labels (true facts), a value
taken from another line with the same key (an invention: not in this user's words), and, where
the labels forbid a reading (someone else's fact, a negation, a question, a wish), that reading.
For every line labelled as holding no fact it proposes facts made of the line's own words (the
plausible mistakes: "my brother lives in oslo" -> location oslo). Messages are logged without the
rules, so the checks alone decide. Corpora: the shared persona-chat development set (when present
beside the project) and the project's own labelled corpus.
"""
from __future__ import annotations

import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from memory import Memory, Proposal  # noqa: E402
from memory.consolidate import content_words  # noqa: E402
from memory.lexicon import as_number  # noqa: E402
from tests.mining_corpus import CORPUS  # noqa: E402

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "persona-chat" / "dev_scenarios.json"
KEYS_FROM_WORDS = ("likes", "location", "job", "pet", "name")


def literal(value: str, text: str) -> bool:
    """Every content word of value appears in text as written: the fact is grounded by any reading."""
    lowered = text.lower()
    return all(w in lowered for w in content_words(value))


def unrelated(value: str, text: str) -> bool:
    """No word of value is in text, even shortened or as a number word: an invention for this user."""
    lowered = text.lower()
    words = lowered.replace("-", " ").split()
    said_numbers = {str(as_number(" ".join(words[i:i + n]))) for i in range(len(words)) for n in (1, 2)}
    return all((w[:3] if len(w) <= 4 else w[:4]) not in lowered and w not in said_numbers for w in content_words(value))


def scenarios() -> list[dict]:
    """[{say, true: [(key, value)], false: [(key, value, kind)]}] from both corpora."""
    out = []
    if DEV.exists():
        for s in json.loads(DEV.read_text(encoding="utf-8"))["scenarios"]:
            true = [(k, v) for k, vs in s.get("expect", {}).items() for v in vs if k != "note"]
            false = [(k, v, "forbidden reading") for k, v in s.get("forbid", [])]
            out.append({"name": "persona-chat dev", "say": s["say"], "true": true, "false": false})
    for text, labels in CORPUS:
        true = [(l[2:].split("=", 1)[0], l.split("=", 1)[1]) for l in labels if l.startswith("+ ") and "=" in l]
        true = [(k, v) for k, v in true if k not in ("note", "wake_word")]
        out.append({"name": "project corpus", "say": [text], "true": true, "false": [], "no_fact": not labels})
    return out


def oracle(scenario: dict, ids: list[int], by_key: dict[str, list[str]], rng: random.Random) -> list[tuple]:
    """(proposal, is_true, kind) for one scenario."""
    text = " ".join(scenario["say"])

    def cite(value: str) -> int:
        return next((i for i, line in zip(ids, scenario["say"]) if literal(value, line)), ids[0])

    out = [(Proposal(k, v, cite(v)), True, "true fact") for k, v in scenario["true"]]
    for key, _ in scenario["true"]:
        invented = [v for v in by_key.get(key, []) if content_words(v) and unrelated(v, text)]
        if invented:
            out.append((Proposal(key, rng.choice(invented), ids[0]), False, "invented value"))
    out += [(Proposal(k, v, cite(v)), False, kind) for k, v, kind in scenario["false"]]
    if scenario.get("no_fact"):
        words = [w for w in content_words(text) if len(w) > 2]
        if words:
            out.append((Proposal(rng.choice(KEYS_FROM_WORDS), " ".join(words[-2:]), ids[0]), False, "no fact in line"))
    return out


def main() -> int:
    rng = random.Random(20261130)
    all_scenarios = scenarios()
    by_key: dict[str, list[str]] = {}
    for s in all_scenarios:
        for k, v in s["true"]:
            by_key.setdefault(k, []).append(v)
    kept, total, let_through, false_total = Counter(), Counter(), Counter(), Counter()
    slipped: list[str] = []
    dropped: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, Memory(Path(tmp) / "bench.db") as mem:
        for n, s in enumerate(all_scenarios):
            user, session = f"u{n}", f"s{n}"
            ids = [mem.log(user, session, "user", line) for line in s["say"]]
            mem.log(user, session, "assistant", "How fascinating. Go on.")
            tried = oracle(s, ids, by_key, rng)
            verdicts = mem.consolidate(user, session, [p for p, _, _ in tried], "oracle")
            for (proposal, is_true, kind), verdict in zip(tried, verdicts):
                stored = verdict.outcome != "rejected"
                if is_true:
                    grounded = "literally grounded" if literal(proposal.value, " ".join(s["say"])) else "reworded"
                    for bucket in (f"{s['name']}: {grounded}", f"{s['name']}: all"):
                        total[bucket] += 1
                        kept[bucket] += stored
                    if not stored and grounded == "literally grounded":
                        dropped.append(f"{proposal.key}={proposal.value!r} ({verdict.reason}) from {s['say']}")
                else:
                    false_total[f"{s['name']}: {kind}"] += 1
                    if stored:
                        let_through[f"{s['name']}: {kind}"] += 1
                        slipped.append(f"{kind}: {proposal.key}={proposal.value!r} from {s['say']}")
    console = Console()
    table = Table(title="True facts the checks keep")
    for col in ("corpus: facts", "proposed", "kept", "kept %"):
        table.add_column(col, justify="right")
    for bucket in sorted(total):
        table.add_row(bucket, str(total[bucket]), str(kept[bucket]), f"{100 * kept[bucket] / total[bucket]:.1f}")
    console.print(table)
    table = Table(title="False facts the checks let through")
    for col in ("corpus: kind", "proposed", "let through"):
        table.add_column(col, justify="right")
    for bucket in sorted(false_total):
        table.add_row(bucket, str(false_total[bucket]), str(let_through[bucket]))
    console.print(table)
    for line in slipped:
        console.print(f"  let through: {line}", markup=False, highlight=False)
    if "--dropped" in sys.argv:
        for line in dropped:
            console.print(f"  dropped: {line}", markup=False, highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
