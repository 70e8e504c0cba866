"""Synthetic reading-group archives: papers, posts, votes and comments, fast and deterministic.

Words follow a Zipf-like law over a vocabulary of function words, real ML/systems terms and
a long tail of made-up words; each paper has a topic whose stock phrases ("pipeline
parallelism") recur, so phrase queries and rare terms behave as in a real archive. About
5% of papers were posted, with a few votes and comments each (a few comments deleted).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta

SEED = 20260101
FUNCTION = str.split(
    "the of and a to in for we is on with that this by as are from an our be which can at it "
    "or these both than more not such while into also its only using based over show"
)
DOMAIN = str.split(
    "model models training data learning performance network networks neural large method "
    "methods approach results system systems propose language memory inference gpu gpus "
    "distributed parallel parallelism efficient task tasks accuracy framework deep layer "
    "layers compute throughput latency algorithm optimization gradient gradients batch scale "
    "scaling cluster clusters communication bandwidth pipeline tensor attention transformer "
    "transformers token tokens kernel kernels compiler hardware accelerator sparse dense "
    "embedding embeddings recommendation graph graphs federated privacy quantization pruning "
    "compression checkpointing scheduling heterogeneous stragglers reinforcement policy "
    "reward diffusion decoding speculative retrieval benchmark evaluation robustness "
    "adversarial convolution vision image images audio multimodal homology persistent "
    "topological manifold bayesian uncertainty calibration causal contrastive representation "
    "pretraining finetuning adapter lora experts routing mixture bubble bubbles microbatch "
    "microbatches activation activations offloading storage cache caching fault tolerance "
    "elastic serverless datacenter topology interconnect collective allreduce sharding zero "
    "optimizer adam momentum convergence theorem bound bounds regret sample samples dataset "
    "datasets label labels noise"
)
TOPICS = (
    "pipeline parallelism|microbatch scheduling|pipeline bubbles",
    "tensor parallelism|tensor parallel inference|model sharding",
    "large language models|instruction tuning|language model inference",
    "mixture of experts|expert routing|load balancing",
    "gradient compression|communication efficient training|allreduce bandwidth",
    "federated learning|differential privacy|client heterogeneity",
    "graph neural networks|message passing|node classification",
    "speculative decoding|draft model|decoding latency",
    "recommendation models|embedding tables|sparse features",
    "persistent homology|topological data analysis|betti numbers",
    "quantization aware training|low precision inference|int8 kernels",
    "diffusion models|image generation|denoising steps",
    "reinforcement learning|policy gradient|reward shaping",
    "activation checkpointing|memory offloading|recomputation",
    "kernel fusion|deep learning compiler|operator scheduling",
    "heterogeneous clusters|straggler mitigation|elastic training",
    "retrieval augmented generation|dense retrieval|vector search",
    "vision transformers|image classification|patch embeddings",
    "contrastive learning|self supervised pretraining|representation learning",
    "bayesian optimization|uncertainty estimation|calibration error",
)
FIRST = str.split("Ana Bo Chen Dana Eli Fatima Goran Hana Ivan Jun Kofi Lena Mei Nils Omar Priya")
LAST = str.split("Silva Wang Kumar Novak Haddad Ito Okafor Berg Rossi Kim Dubois Shah Costa Meyer")
USERS = [f"U{n:05d}" for n in range(60)]


def _pseudo_words(*, rng: random.Random, count: int) -> list[str]:
    """Made-up words from syllables: the long tail of a technical vocabulary."""
    syllables = str.split("ba ce di fo gu ka le mi no pu ra se ti vo zu tra pre con ex ion al ent")
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


@dataclass
class Vocabulary:
    """Words by Zipf rank and the cumulative weights to sample them."""

    words: list[str]
    cum_weights: list[float] = field(default_factory=list)

    @classmethod
    def build(cls, *, seed: int = SEED, size: int = 30_000) -> Vocabulary:
        """Function words first, domain words next, then the made-up tail."""
        rng = random.Random(seed)
        domain = DOMAIN[:]
        rng.shuffle(domain)
        words = FUNCTION + domain
        words += _pseudo_words(rng=rng, count=size - len(words))
        weights = (1.0 / (rank + 2.7) for rank in range(len(words)))
        return cls(words=words, cum_weights=list(itertools.accumulate(weights)))

    def sample(self, *, rng: random.Random, count: int) -> list[str]:
        """Draw words with Zipf-like frequencies."""
        return rng.choices(self.words, cum_weights=self.cum_weights, k=count)


_STREAM: list[str] = []


def stream() -> list[str]:
    """A long Zipf-distributed word stream, drawn once per process; texts are slices of it.

    Slicing at random offsets is C-speed, which is what makes a million abstracts cheap;
    word frequencies stay Zipf-like and topic phrases are inserted on top.
    """
    if not _STREAM:
        vocab = Vocabulary.build()
        _STREAM.extend(vocab.sample(rng=random.Random(SEED), count=1 << 22))
    return _STREAM


def topic_of(*, paper_id: int) -> list[str]:
    """A paper's topic, fixed by its id so that its comments can talk about it too."""
    return _TOPICS[paper_id * 7919 % len(_TOPICS)]


def _text(*, rng: random.Random, topic: list[str], count: int, phrases: int = 1) -> str:
    """`count` words from the stream with topic phrases inserted."""
    words_in = stream()
    start = int(rng.random() * (len(words_in) - count))
    words = words_in[start : start + count]
    for _ in range(phrases):
        words.insert(int(rng.random() * len(words)), topic[int(rng.random() * len(topic))])
    return " ".join(words)


def papers_chunk(*, start: int, count: int, seed: int = SEED) -> list[tuple[object, ...]]:
    """Rows (id, title, authors JSON, abstract) for papers start+1 .. start+count."""
    rng = random.Random(f"{seed}:{start}")
    rows: list[tuple[object, ...]] = []
    for paper_id in range(start + 1, start + count + 1):
        topic = topic_of(paper_id=paper_id)
        title = _text(rng=rng, topic=topic, count=4 + int(rng.random() * 6))
        length = 30 + int(rng.random() * 70)
        abstract = _text(rng=rng, topic=topic, count=length, phrases=1 + length // 40)
        names = [
            f"{FIRST[int(rng.random() * len(FIRST))]} {LAST[int(rng.random() * len(LAST))]}"
            for _ in range(1 + int(rng.random() * 4))
        ]
        rows.append((paper_id, title.capitalize(), json.dumps(names), abstract.capitalize() + "."))
    return rows


_TOPICS = [topic.split("|") for topic in TOPICS]


@dataclass(frozen=True)
class Activity:
    """Channels, posts, votes and comments for an archive of `papers` papers."""

    channels: list[tuple[object, ...]]
    posts: list[tuple[object, ...]]
    votes: list[tuple[object, ...]]
    comments: list[tuple[object, ...]]


def activity(*, papers: int, seed: int = SEED) -> Activity:
    """About 5% of papers posted (one a day per channel), 0-8 votes and 0-6 comments each."""
    rng = random.Random(f"{seed}:activity")
    posted = sorted(rng.sample(range(1, papers + 1), k=max(1, papers // 20)))
    n_channels = max(1, len(posted) // 1500)
    channels = [
        (n + 1, "slack", "T1", f"C{n + 1:07d}", "09:00", "Europe/Berlin", "mon-fri", 0, 0)
        for n in range(n_channels)
    ]
    first_day = date(2026, 6, 1) - timedelta(days=len(posted) // n_channels + 1)
    posts, votes, comments = [], [], []
    for index, paper_id in enumerate(posted):
        post_id, channel = index + 1, index % n_channels + 1
        day = first_day + timedelta(days=index // n_channels)
        ts = f"{1_700_000_000 + index * 86_400}.000100"
        link = f"https://example.slack.com/archives/C{channel:07d}/p{ts.replace('.', '')}"
        posts.append((post_id, paper_id, channel, day.isoformat(), "posted", ts, link, _at(day)))
        for user in rng.sample(USERS, k=rng.randint(0, 8)):
            votes.append((len(votes) + 1, post_id, user, rng.choice((1, 1, 1, -1)), _at(day)))
        topic = topic_of(paper_id=paper_id)
        for reply in range(rng.randint(0, 6)):
            # Half the replies name one of the paper's topic phrases; the rest is chatter.
            words = _text(rng=rng, topic=topic, count=rng.randint(6, 28), phrases=reply % 2)
            deleted = int(rng.random() < 0.03)
            reply_ts = f"{ts[:-6]}{reply + 2:06d}"
            comments.append(
                (
                    len(comments) + 1,
                    post_id,
                    channel,
                    rng.choice(USERS),
                    reply_ts,
                    words,
                    _at(day),
                    deleted,
                )
            )
    return Activity(channels=channels, posts=posts, votes=votes, comments=comments)


def _at(day: date) -> str:
    """A stored timestamp (SQLAlchemy's SQLite format) at 09:00 on a day."""
    return f"{day.isoformat()} 09:00:00.000000"


def chunks(*, total: int, size: int = 20_000) -> Iterator[tuple[int, int]]:
    """(start, count) pairs covering 0..total."""
    for start in range(0, total, size):
        yield start, min(size, total - start)
