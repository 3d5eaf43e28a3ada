"""LoCoMo's turns, scored as bench/real_turns.py scores LongMemEval's: what the miner keeps from one message.

    .venv/bin/python bench/locomo_turns.py                 # the labelled dev conversations
    .venv/bin/python bench/locomo_turns.py --split held    # conv-49 and conv-50 (report them; never tune on them)
    .venv/bin/python bench/locomo_turns.py --misses        # and every turn that scored wrong
    .venv/bin/python bench/locomo_turns.py --split held --stored bench/locomo_turns_labels_second.json
                                                           # a second labeller in the miner's place (P 0.89, R 0.89)
    .venv/bin/python bench/locomo_turns.py --split held --labels bench/locomo_turns_labels_adjudicated.json
                                                           # the held labels where the two disagreed, adjudicated blind

Two friends talking about their lives, not a user asking an assistant: more tastes, pets, partners and plans
said in passing, and few requests. A second kind of real talk beside LongMemEval's, so that a rule fitted on one
is checked on the other. The turns are read at run time from `../shared/data/locomo/` (CC BY-NC 4.0, for
evaluation only; never copied). The labels (`bench/locomo_turns_labels.json`, 2026-12-07) name a turn as
"conv-NN:D<session>:<turn>" with the sha1 of its text; 372 turns: the 152 where the miner then fired, 160 with a
first-person cue and 60 at random, labelled blind to the miner by docs/real-turns-rubric.md, reading "the user" as
the speaker. Conversations 49 and 50 are the held-out part. Later: fired6 (9 dev turns where the changed miner newly
fired), fired7 (4 dev turns where the partner form newly fired), fired8, fired9 and fired11 (2, 1 and 3 where the
pastime rules did), labelled the same way; fired12 (7 unlabelled held turns where the miner then fired, split by the
sha1 as bench/real_turns.py's twelfth batch).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.real_turns import Turn, report, score  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo"
LABELS = Path(__file__).resolve().parent / "locomo_turns_labels.json"
HELD = ("conv-49", "conv-50")


def turns(data: Path = DATA) -> dict[str, Turn]:
    """Every turn of every conversation, by "conv-NN:D3:5"."""
    found: dict[str, Turn] = {}
    for path in sorted(data.glob("conv-*.json")):
        conv = json.loads(path.read_text())
        for key, session in conv.items():
            if key.startswith("session_") and isinstance(session, list):
                for turn in session:
                    tid = f"{path.stem}:{turn['dia_id']}"
                    found[tid] = Turn(tid, turn["text"])
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("dev", "held", "all"), default="dev")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--stored", type=Path, help="a second labeller's labels, scored in place of the miner's facts")
    args = ap.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"no LoCoMo data at {DATA}; the README's data section says where it comes from")
    by_id = turns()
    report(f"locomo {args.split}", score(args.split, args.labels, by_id, args.stored), by_id, args.misses)


if __name__ == "__main__":
    main()
