"""Who is talking, on real voices: equal error rate, simulated households, and the cost, beside a plain MFCC
baseline computed in the same run over the same utterances.

    .venv/bin/python bench/speakers_bench.py [--households 300] [--seed 0]

The voices (fetched once from the package registries into bench/.realvoices, see realvoices.py):
- AMI meetings (CC BY 4.0), the excerpts pyannote.audio 4.0.7 ships for its tests, cut by its speaker labels
  at moments only one person talks (several people round a table; headset mix), and its own sample;
- a LibriVox reader (public domain) of pocketsphinx 5.1.1's tests;
- the telephone prompts of Asterisk (Debian bookworm, CC BY-SA 3.0; 8 kHz): Allison in English and in
  Spanish (one voice: one person), June (French), Carlo (Italian), and a Russian voice.

Every utterance's embedding is computed once, on one core (threads limited before numpy loads). EER: over
every pair of utterances of 2-5 s (same person or not), and of the utterances under 1.5 s. Households: four
members drawn from the people with enough speech, each enrolled with three of their 2-5 s utterances, the
rest of their utterances heard as theirs and everyone else's as visitors', decided by the configured
threshold and margin (voice.speakers); the baseline decides by its own EER threshold, which flatters it.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")      # one core: the cost is per core
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402
from rich.table import Table  # noqa: E402

from assistant.config import load_config  # noqa: E402
from assistant.speakers import Policy, attribute, unit, voiceprint  # noqa: E402
from assistant.speakers.fbank import fbank  # noqa: E402
from assistant.speakers.model import load, missing  # noqa: E402
from bench.realvoices import Source, fetch, recording  # noqa: E402

RATE = 16000
PYANNOTE = Source(
    "AMI meetings",
    "https://files.pythonhosted.org/packages/6d/d7/03b1d00d431c7be1d98635fefb99c2da64d9b84b4b8a06d5302666a96c88/"
    "pyannote_audio-4.0.7.tar.gz",
    "3a903dfb5ca711d134cc2522561c9158b186836f5d62e8a57c46c6648e8a8229",
    tuple(f"tests/data/{n}.wav" for n in ("dev00", "dev01", "trn01", "trn02", "trn03", "trn04", "trn05", "trn06",
                                          "trn07", "trn08", "trn09", "trñ00", "tst00", "tst01"))
    + tuple(f"tests/data/debug.{s}.rttm" for s in ("train", "development", "test"))
    + ("src/pyannote/audio/sample/sample.wav", "src/pyannote/audio/sample/sample.rttm"))
LIBRIVOX = Source(
    "a LibriVox reader",
    "https://files.pythonhosted.org/packages/61/e7/13e0e787ff467218de880310d79cba14424f13b87171ac44af0bde1e428c/"
    "pocketsphinx-5.1.1.tar.gz",
    "675778b309a22dfc9b7d37f7621976bba491d2a5f8c59696bd77fd6d07271355",
    tuple(f"test/data/librivox/sense_and_sensibility_01_austen_64kb-0{n}.wav" for n in (870, 880, 890, 920, 930)))
DEB = "http://deb.debian.org/debian/pool/main/a/asterisk-core-sounds/asterisk-core-sounds-{}-wav_1.6.1-1_all.deb"
TELEPHONE = (   # (language, voice folder, sha256 of the package, who)
    ("en", "en_US_f_Allison", "2be3ea287d83299d143815fa804f11179a75b7affd4a758b98b55f5afc18a35d", "Allison"),
    ("es", "es_MX_f_Allison", "9283a09a6d56fccdcc2bcfe86c48f0f844289cfbd46a3184d8785a6f7f569903", "Allison"),
    ("fr", "fr_CA_f_June", "8d4e1bc32ed5ba7fbda40841ca1825ed20cc6232724a473c90f8bb0e53e6073e", "June"),
    ("it", "it_IT_m_Carlo", "5a26638089e134b8ac39363fe249c5c93c50cd8bfdc9b2499ae61ec4a35e2fcb", "Carlo"),
    ("ru", "ru_RU_f_IvrvoiceRU", "ccbfaebfa450b7a9ddf644ae0f3d1e9017d5df7c0aebe816e946345589d38201", "IvrvoiceRU"),
)
def _band_limited(path: Path) -> np.ndarray:
    return recording(path, band_limited=True)


PROMPTS = 40        # telephone prompts per voice
LONGEST = 4.0       # longer speech is cut into pieces of this many seconds


@dataclass(frozen=True)
class Utterance:
    who: str
    audio: np.ndarray
    source: str

    @property
    def seconds(self) -> float:
        return len(self.audio) / RATE


def _pieces(audio: np.ndarray, least: float) -> list[np.ndarray]:
    step = int(LONGEST * RATE)
    out = [audio[i:i + step] for i in range(0, len(audio), step)]
    return [a for a in out if len(a) >= least * RATE]


def _alone(turns: list[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    """Stretches where exactly one labelled speaker talks (gaps under 0.3 s bridged), from RTTM turns."""
    end = int(max(e for _, e, _ in turns) * 100) + 1
    who: list[set[str]] = [set() for _ in range(end)]
    for s, e, spk in turns:
        for f in range(int(s * 100), int(e * 100)):
            who[f].add(spk)
    runs, current, start, last = [], None, 0, 0
    for f in range(end + 1):
        here = who[f] if f < end else {"", " "}
        if len(here) == 1:
            (spk,) = here
            if spk != current or f - last > 30:
                if current:
                    runs.append((start / 100, (last + 1) / 100, current))
                current, start = spk, f
            last = f
        elif len(here) > 1:
            if current:
                runs.append((start / 100, (last + 1) / 100, current))
            current = None
    return runs


def meetings(console: Console) -> list[Utterance]:
    folder = fetch(PYANNOTE, console)
    turns: dict[str, list] = collections.defaultdict(list)
    for rttm in folder.glob("*.rttm"):
        for line in rttm.read_text().splitlines():
            p = line.split()
            turns[p[1]].append((float(p[3]), float(p[3]) + float(p[4]), p[7]))
    out = []
    for uri, spoken in sorted(turns.items()):
        wav = next((p for p in folder.glob("*.wav") if p.stem.endswith(f"_{uri}")), None)
        if wav is None:
            continue
        audio = _band_limited(wav)
        for s, e, who in _alone(spoken):
            out += [Utterance(f"AMI {who}", a, uri) for a in _pieces(audio[int(s * RATE):int(e * RATE)], 1.0)]
    return out


def readers(console: Console) -> list[Utterance]:
    folder = fetch(LIBRIVOX, console)
    return [Utterance("LibriVox reader", a, p.name) for p in sorted(folder.glob("*.wav"))
            for a in _pieces(_band_limited(p), 1.0)]


def telephone(console: Console) -> list[Utterance]:
    out = []
    for language, voice, sha, who in TELEPHONE:
        source = Source(f"telephone prompts ({language})", DEB.format(language), sha,
                        (f"usr/share/asterisk/sounds/{voice}/",),
                        skip=("ascending-2tone.wav", "descending-2tone.wav", "beep.wav", "beeperr.wav"))
        folder = fetch(source, console)
        prompts = [_band_limited(p) for p in sorted(folder.glob("*.wav"))]
        prompts = [a for a in prompts if 1.0 * RATE <= len(a) <= 6 * RATE]
        chosen = prompts[:: max(1, len(prompts) // PROMPTS)][:PROMPTS]
        out += [Utterance(f"{who} (telephone)", a[: int(LONGEST * RATE)], f"{voice}") for a in chosen]
    return out


# -- the baseline: MFCC statistics ----------------------------------------------------------------------
def _dct(n_in: int, n_out: int) -> np.ndarray:
    k = np.arange(n_out)[:, None]
    return np.cos(np.pi / n_in * (np.arange(n_in) + 0.5) * k).astype(np.float32)


DCT = _dct(80, 20)


def mfcc_stats(audio: np.ndarray) -> np.ndarray:
    """Mean and standard deviation of 19 cepstral coefficients (c0, the loudness, left out)."""
    logmel = fbank(audio, normalise=False)
    cep = logmel @ DCT.T
    return np.concatenate([cep[:, 1:].mean(axis=0), cep[:, 1:].std(axis=0)])


# -- scoring ----------------------------------------------------------------------------------------------
def eer(vectors: np.ndarray, who: list[str]) -> tuple[float, float]:
    """The equal error rate over every pair, and the cosine where it falls."""
    sims = vectors @ vectors.T
    same, other = [], []
    for i, j in itertools.combinations(range(len(who)), 2):
        (same if who[i] == who[j] else other).append(sims[i, j])
    same_a, other_a = np.sort(same), np.sort(other)
    best, at = 1.0, 0.0
    for t in np.linspace(-1, 1, 2001):
        miss = np.searchsorted(same_a, t) / len(same_a)
        false = 1 - np.searchsorted(other_a, t) / len(other_a)
        if abs(miss - false) < 1e-9 or max(miss, false) < best:
            if max(miss, false) < best:
                best, at = max(miss, false), float(t)
    return best, at


@dataclass
class Tally:
    recognised: int = 0       # a member's 2-5 s utterance, attributed to them
    members: int = 0          # members' 2-5 s utterances heard
    short_recognised: int = 0
    short: int = 0            # members' utterances under 1.5 s
    wrong: int = 0            # a member's utterance attributed to another member (any length)
    visitors: int = 0
    taken: int = 0            # a visitor's utterance attributed to a member


def households(vectors: np.ndarray, utterances: list[Utterance], policy: Policy, count: int, seed: int) -> Tally:
    rng = np.random.default_rng(seed)
    by_who: dict[str, list[int]] = collections.defaultdict(list)
    for i, u in enumerate(utterances):
        by_who[u.who].append(i)
    eligible = sorted(w for w, idx in by_who.items()
                      if sum(1 for i in idx if 2.0 <= utterances[i].seconds) >= 4)
    tally = Tally()
    for _ in range(count):
        members = list(rng.choice(eligible, size=4, replace=False))
        prints, enrolled = {}, set()
        for m in members:
            long = [i for i in by_who[m] if utterances[i].seconds >= 2.0]
            pick = list(rng.choice(long, size=3, replace=False))
            enrolled |= set(pick)
            prints[m] = voiceprint([vectors[i] for i in pick])[0]
        for i, u in enumerate(utterances):
            if i in enrolled:
                continue
            said = attribute(vectors[i], prints, policy).speaker
            if u.who in prints:
                if said is not None and said != u.who:
                    tally.wrong += 1
                if u.seconds >= 2.0:
                    tally.members += 1
                    tally.recognised += said == u.who
                elif u.seconds < 1.5:
                    tally.short += 1
                    tally.short_recognised += said == u.who
            else:
                tally.visitors += 1
                tally.taken += said is not None
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--households", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", choices=("dev", "test", "all"), default="test",
                        help="each person's utterances alternate between dev (for choosing settings) and test "
                             "(the number to report); default test")
    args = parser.parse_args()
    console = Console(width=max(Console().width, 150))
    if (why := missing()) is not None:
        console.print(why)
        return 1
    utterances = meetings(console) + readers(console) + telephone(console)
    if args.split != "all":
        seen: collections.Counter = collections.Counter()
        kept = []
        for u in utterances:
            seen[u.who] += 1
            if (seen[u.who] % 2 == 1) == (args.split == "dev"):
                kept.append(u)
        utterances = kept
    people = collections.Counter(u.who for u in utterances)
    console.print(f"{args.split}: {len(utterances)} utterances of {len(people)} people, "
                  f"{sum(u.seconds for u in utterances) / 60:.1f} min")
    model = load()
    model.embed(utterances[0].audio)                    # warm
    spent = audio_s = 0.0
    campp = []
    for u in track(utterances, description="CAM++", console=console, transient=True):
        t = time.process_time()
        campp.append(model.embed(u.audio))
        spent += time.process_time() - t
        audio_s += u.seconds
    t = time.process_time()
    raw = np.array([mfcc_stats(u.audio) for u in utterances])
    mfcc_spent = time.process_time() - t
    mfcc = np.array([unit(v) for v in raw - raw.mean(axis=0)])
    campp_a = np.array(campp)

    config = load_config().voice.speakers
    table = Table(title="who is talking, on real voices (households: 4 members, 3 utterances each to enrol)")
    for col in ("", "EER 2-5 s", "EER <1.5 s", "members recognised (2-5 s)", "under 1.5 s", "wrong person",
                "visitors taken for a member", "CPU per 3 s (one core)"):
        table.add_column(col, justify="right" if col else "left")
    for name, vectors, cost in (("CAM++ (glados)", campp_a, spent), ("MFCC mean+std (baseline)", mfcc, mfcc_spent)):
        long = [i for i, u in enumerate(utterances) if 2.0 <= u.seconds <= 5.0]
        short = [i for i, u in enumerate(utterances) if u.seconds < 1.5]
        e_long, at = eer(vectors[long], [utterances[i].who for i in long])
        e_short, _ = eer(vectors[short], [utterances[i].who for i in short])
        policy = Policy(config.threshold, config.margin) if name.startswith("CAM") else Policy(at, config.margin)
        t = households(vectors, utterances, policy, args.households, args.seed)
        table.add_row(name, f"{e_long:.1%}", f"{e_short:.1%}",
                      f"{t.recognised / max(t.members, 1):.1%} of {t.members}",
                      f"{t.short_recognised / max(t.short, 1):.1%} of {t.short}",
                      f"{t.wrong} of {t.members + t.short}",
                      f"{t.taken / max(t.visitors, 1):.2%} of {t.visitors}",
                      f"{cost / audio_s * 3 * 1000:.0f} ms")
    console.print(table)
    sweep = Table(title="CAM++: the trade-off as the threshold moves (margin as configured)")
    for col in ("threshold", "members recognised (2-5 s)", "under 1.5 s", "wrong person", "visitors taken"):
        sweep.add_column(col, justify="right")
    for threshold in (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7):
        t = households(campp_a, utterances, Policy(threshold, config.margin), args.households, args.seed)
        sweep.add_row(f"{threshold:.2f}", f"{t.recognised / max(t.members, 1):.1%}",
                      f"{t.short_recognised / max(t.short, 1):.1%}", str(t.wrong), f"{t.taken / max(t.visitors, 1):.2%}")
    console.print(sweep)
    console.print(f"CAM++ decided at threshold {config.threshold} and margin {config.margin} (voice.speakers); the "
                  "baseline at its own EER threshold. Targets: 0 wrong person, visitors at most 1%, members at least "
                  "95%, at most 100 ms of one core per 3 s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
