"""Every lab runs and prints what its golden file says (regenerate a golden file on purpose:
`.venv/bin/python labs/NN_name.py > labs/golden/NN_name.txt`)."""
import subprocess
import sys

import pytest

from tests.conftest import ROOT

LABS = sorted((ROOT / "labs").glob("[0-9][0-9]_*.py"))


@pytest.mark.parametrize("lab", LABS, ids=[p.stem for p in LABS])
def test_lab_matches_its_golden_output(lab):
    result = subprocess.run([sys.executable, str(lab)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (ROOT / "labs" / "golden" / f"{lab.stem}.txt").read_text()
