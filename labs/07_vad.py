"""Lab 7: voice activity. Silero VAD (shipped in faster-whisper) gives a speech probability per
32 ms frame; the segmenter keeps a little audio from before speech (pre-roll) and ends an
utterance after 0.6 s of silence.

    .venv/bin/python labs/07_vad.py [file.wav]
"""
import sys
from pathlib import Path

from assistant.audio import WavSource
from assistant.voice.vad import Segmenter, SileroVAD

wav = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent.parent / "tests/fixtures/follow_up_piper_16k.wav"
vad = SileroVAD()
line = []
segmenter = Segmenter(vad)
utterances = []
for frame in WavSource(wav).frames():
    utterance = segmenter.feed(frame)
    line.append("#" if segmenter.speaking else ".")
    if utterance:
        utterances.append(utterance)
print("".join(line))
for u in utterances:
    print(f"utterance from {u.start_s:.2f} s to {u.end_s:.2f} s ({u.seconds:.2f} s of audio)")
print('notice: each utterance starts a little before its first speech frame (the pre-roll) and ends only after 0.6 s of silence.')
