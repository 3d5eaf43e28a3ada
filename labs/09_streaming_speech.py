"""Lab 9: why speak sentence by sentence. A model writes about 20 tokens a second; waiting for the
whole reply before speaking costs seconds, while the first sentence is ready almost at once.

    .venv/bin/python labs/09_streaming_speech.py
"""
from assistant.tts import SentenceChunker

reply = ("Congratulations. You remembered your own name. Next, we will try something harder, like "
         "remembering where you left your dignity. It was last seen near the incinerator.")
tokens_per_second = 20
chunker = SentenceChunker()
for i, word in enumerate(reply.split(" "), start=1):
    for sentence in chunker.feed(word + " "):
        print(f"after {i / tokens_per_second:4.2f} s: speak {sentence!r}")
for sentence in chunker.flush():
    print(f"after {len(reply.split()) / tokens_per_second:4.2f} s: speak {sentence!r}")
print(f"waiting for the whole reply: first audio after {len(reply.split()) / tokens_per_second:.2f} s")
print('notice: the first sentence is spoken long before the reply is finished; that gap is the latency saved.')
