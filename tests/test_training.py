"""The training scripts' own logic, on made-up evidence: a setting they read that moved would
otherwise go unseen until someone fits again (as `voice.wake.name_model` did)."""
import numpy as np

from assistant.config import Config
from training import fit_wake_score as trainer


def row(first: float, sounded: float, someone_else: bool = False, label: str = "ordinary") -> dict:
    """One recording's evidence, shaped as bench/wake_bench.py's evidence_row makes it."""
    return {"heard": "", "first": first, "opening": first, "plain": "", "someone_else": someone_else,
            "invented": False, "named": float("-inf"), "after_pause": False, "sounded": sounded,
            "placed": float("-inf"), "alone": False, "accepted": False, "label": label}


def test_the_wake_score_trainer_fits_and_reads_the_shipped_settings(tmp_path):
    config = Config()
    threshold = config.voice.wake.threshold
    rng = np.random.default_rng(0)
    calls = [row(float(rng.uniform(threshold, 1.0)), float(rng.uniform(0.6, 1.0)), label="call") for _ in range(20)]
    others = [row(float(rng.uniform(0.0, threshold * 0.8)), float(rng.uniform(0.0, 0.4)), bool(i % 3 == 0))
              for i in range(30)]
    rows = calls + others
    x = np.stack([trainer.features(r, threshold) for r in rows])
    y = np.array([r["label"] == "call" for r in rows], float)
    scored = trainer.scores(trainer.fit(x, y), x)
    assert scored[:20].min() > scored[20:].max()            # separable evidence is separated
    called = scored >= 0.5
    assert trainer.tally(called, [r["label"] for r in rows]).startswith("false accepts 0 of 30")
    assert trainer.uncertain(row(0.0, 1.0), config) and not trainer.uncertain(row(1.0, 1.0), config)
    kept = trainer.cached(tmp_path / "evidence.json", "the set", config, lambda: rows)
    assert trainer.cached(tmp_path / "evidence.json", "the set", config, lambda: []) == kept
