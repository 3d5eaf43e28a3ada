"""Lab 7: voice activity. Silero VAD (shipped in faster-whisper) gives a speech probability per
32 ms frame; the segmenter keeps a little audio from before speech (pre-roll) and ends an
utterance after 0.6 s of silence.

    .venv/bin/python labs/07_vad.py [file.wav]
"""
import sys
from pathlib import Path

import numpy as np

from assistant.audio import WavSource
from assistant.voice.vad import Segmenter, SileroVAD


def toy_speech(frame: np.ndarray, floor: float = 0.01) -> bool:
    """The simplest voice activity: loud enough is speech (rms over a fixed floor). Noise that is loud
    enough is speech too, and quiet speech is not: Silero's model listens for speech itself."""
    return float(np.sqrt(np.mean(frame ** 2))) > floor

wav = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent.parent / "tests/fixtures/follow_up_piper_16k.wav"
vad = SileroVAD()
line, toy_line = [], []
segmenter = Segmenter(vad)
utterances = []
for frame in WavSource(wav).frames():
    utterance = segmenter.feed(frame)
    line.append("#" if segmenter.speaking else ".")
    toy_line.append("#" if toy_speech(frame) else ".")
    if utterance:
        utterances.append(utterance)
print("the toy, frame by frame (loud enough):")
print("".join(toy_line))
print("the project's segmenter (Silero VAD, pre-roll, 0.6 s of silence to end):")
print("".join(line))
for u in utterances:
    print(f"utterance from {u.start_s:.2f} s to {u.end_s:.2f} s ({u.seconds:.2f} s of audio)")
print('notice: loudness alone flickers on the noise before the speech and drops out between syllables; the')
print('        segmenter starts a little before the first speech frame (pre-roll) and ends only after 0.6 s of silence.')
