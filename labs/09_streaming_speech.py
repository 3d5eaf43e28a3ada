"""Lab 9: why speak sentence by sentence. A model writes about 20 tokens a second; waiting for the
whole reply before speaking costs seconds, while the first sentence is ready almost at once.

    .venv/bin/python labs/09_streaming_speech.py
"""
import re

from assistant.tts import SentenceChunker


class ToyChunker:
    """Collect the model's pieces; each time a sentence end arrives (. ! ? then a space), hand the sentence on."""

    def __init__(self):
        self.text = ""

    def feed(self, piece: str) -> list[str]:
        self.text += piece
        done = re.findall(r".+?[.!?](?=\s)", self.text)
        self.text = self.text[sum(len(d) for d in done):]
        return [d.strip() for d in done]

    def flush(self) -> list[str]:
        rest, self.text = self.text.strip(), ""
        return [rest] if rest else []

reply = ("Congratulations. You remembered your own name. Next, we will try something harder, like "
         "remembering where you left your dignity. It was last seen near the incinerator.")
tokens_per_second = 20
toy = ToyChunker()
toy_said = [s for word in reply.split(" ") for s in toy.feed(word + " ")] + toy.flush()
chunker = SentenceChunker()
project_said = []
for i, word in enumerate(reply.split(" "), start=1):
    for sentence in chunker.feed(word + " "):
        print(f"after {i / tokens_per_second:4.2f} s: speak {sentence!r}")
        project_said.append(sentence)
for sentence in chunker.flush():
    project_said.append(sentence)
    print(f"after {len(reply.split()) / tokens_per_second:4.2f} s: speak {sentence!r}")
print(f"waiting for the whole reply: first audio after {len(reply.split()) / tokens_per_second:.2f} s")
print(f"the toy chunker cuts the same sentences: {toy_said == project_said}")
print('notice: the first sentence is spoken long before the reply is finished; that gap is the latency saved.')
