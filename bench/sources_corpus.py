"""Synthetic arXiv-like papers in eight topics, for the sources benchmarks: fast, deterministic,
and readable enough for the sentence model to tell the topics apart.

Each topic has its own noun phrases, methods and field name; an abstract is eight to twelve
sentences built from them, half the methods named being ones every field uses (transformers,
diffusion, reinforcement learning) and one sentence in three borrowed from another topic (real
abstracts cite neighbouring fields), so neither words nor meaning separate topics perfectly.
The field name ("graph learning") appears in most of a topic's papers, not all: a watch's
keyword filter on it passes most of the topic and a little of the others. Written for the
project; no real paper is quoted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Topic:
    """One topic's vocabulary: what its papers study, how, and the field they say they are in."""

    name: str
    field: str  # the keyword a watch finds the topic by
    category: str  # the arXiv category its papers are listed in first
    subjects: tuple[str, ...]
    methods: tuple[str, ...]

    @property
    def keyword(self) -> str:
        """What a watch on this topic filters by: its field's name (a topic's own words leak
        into the others' abstracts; the field's name is written only by its own papers)."""
        return self.field


def _topic(name: str, field: str, category: str, subjects: str, methods: str) -> Topic:
    """A topic from "|"-separated phrase lists (a table reads better than nested tuples)."""
    return Topic(name, field, category, tuple(subjects.split("|")), tuple(methods.split("|")))


TOPICS = (
    _topic(
        "graphs",
        "graph representation learning",
        "cs.LG",
        "graph neural networks|message passing|node classification|link prediction|"
        "over-smoothing in deep networks|graph transformers|molecular property graphs|"
        "subgraph sampling|heterophilous neighbourhoods|graph pooling|"
        "knowledge graph embeddings|spectral filters on graphs",
        "a message passing scheme|a graph rewiring step|random-walk positional encodings|"
        "a graph attention layer|a neighbour sampler|a spectral filter bank",
    ),
    _topic(
        "proteins",
        "protein structure modelling",
        "q-bio.BM",
        "protein structure prediction|amino acid sequences|residue contacts|"
        "protein language models|inverse folding|binding pockets|antibody loops|"
        "enzyme function annotation|backbone coordinates|multiple sequence alignments|"
        "protein stability|side-chain packing",
        "an equivariant structure module|a residue-level transformer|"
        "a diffusion model over backbones|a contact map predictor|a sequence design network|"
        "a learned docking score",
    ),
    _topic(
        "robots",
        "robot learning",
        "cs.RO",
        "legged locomotion|robotic grasping|sim-to-real transfer|dexterous manipulation|"
        "reward shaping|offline reinforcement learning|mobile navigation|"
        "learning from demonstrations|safe exploration|visuomotor control|"
        "domain randomisation|contact-rich assembly",
        "a policy gradient method|a model-based planner|a learned reward model|"
        "a behaviour cloning baseline|a curriculum of tasks|a latent world model",
    ),
    _topic(
        "language",
        "language modelling",
        "cs.CL",
        "large language models|instruction tuning|chain-of-thought prompting|"
        "retrieval-augmented generation|hallucination detection|tokenizer design|"
        "in-context learning|preference optimisation|long-context attention|"
        "machine translation|abstractive summarisation|alignment of chat assistants",
        "a prompting strategy|a fine-tuning recipe|a retrieval module|a decoding method|"
        "a reward model for answers|a data filtering pipeline",
    ),
    _topic(
        "databases",
        "query processing",
        "cs.DB",
        "query optimisation|cardinality estimation|learned index structures|join ordering|"
        "transaction processing|column stores|query rewriting|buffer management|"
        "key-value stores|workload tuning|index selection|streaming joins",
        "a learned cost model|a reinforcement-learned optimiser|a sampling estimator|"
        "an adaptive index|a plan cache|a lock-free scheduler",
    ),
    _topic(
        "vision",
        "image understanding",
        "cs.CV",
        "image classification|object detection|semantic segmentation|vision transformers|"
        "self-supervised image pretraining|image generation|video understanding|"
        "monocular depth estimation|few-shot recognition|patch embeddings|"
        "augmentation of photographs|3D scene reconstruction",
        "a convolutional backbone|a masked autoencoder|a detection head|a diffusion sampler|"
        "a contrastive objective|a multi-scale feature pyramid",
    ),
    _topic(
        "climate",
        "climate science",
        "physics.ao-ph",
        "climate model emulation|precipitation nowcasting|medium-range weather forecasting|"
        "sea surface temperature|carbon flux estimation|extreme event attribution|"
        "satellite observations|downscaling of climate projections|sea ice extent|"
        "air quality prediction|wildfire risk|ocean circulation",
        "a neural weather model|a physics-informed network|a spatio-temporal transformer|"
        "an ensemble of emulators|a downscaling network|a data assimilation scheme",
    ),
    _topic(
        "speech",
        "speech processing",
        "eess.AS",
        "speech recognition|speaker verification|text-to-speech synthesis|music generation|"
        "audio event detection|noise-robust recognition|voice conversion|"
        "spoken language understanding|neural audio codecs|source separation|"
        "keyword spotting|prosody modelling",
        "a conformer encoder|a neural vocoder|a self-supervised speech model|"
        "a spectrogram transformer|a codec language model|a beamforming front end",
    ),
)
BY_NAME = {topic.name: topic for topic in TOPICS}
# Methods of every field: a topic is what a paper is about, not the tools it uses.
SHARED_METHODS = (
    "a transformer encoder",
    "a diffusion model",
    "a graph neural network",
    "reinforcement learning",
    "contrastive pretraining",
    "a large language model",
    "self-supervised learning",
    "a mixture of experts",
    "Bayesian optimisation",
    "knowledge distillation",
)

_TITLES = (
    "{M} for {s}",
    "{S} with {m}",
    "Towards better {s}: {m}",
    "On {s} and {s2}",
    "Revisiting {s} through {m}",
    "{S} at scale",
)
_SENTENCES = (
    "We study {s} and its interplay with {s2}.",
    "{S} is central to {field}, yet {s2} remains poorly understood.",
    "We propose {m} for {s}, trained end to end as a single model.",
    "Our learning procedure combines {m} with {m2} and needs no extra labels.",
    "Experiments on {n} benchmarks show gains of {k}% over {m2} in {s}.",
    "The analysis explains when {s} helps {s2} and when it hurts.",
    "Ablations isolate the role of {m} in {s}.",
    "Unlike prior work on {s}, the model scales to {n} million examples.",
    "We release code and data so that others in {field} can reproduce the results.",
    "A theoretical argument bounds the error of {m} on {s2}.",
)
_FIELD_SHARE = 0.85  # papers that name their field: a watch keyword misses the other 15%
_BORROWED = 1 / 3  # sentences written in another topic's words
_SHARED = 0.5  # methods named from SHARED_METHODS rather than the topic's own
FIRST = (
    "Ada Wen Maria Kenji Laura Omar Tom Sara Priya Jon Eva Li Nina Ivan Zoë Chloé Björn "
    "Tomasz Aiyana Kwame Mei Rafael Hana Dmitri Amara Lucía Sven Yuki Noor Emeka"
).split()
LAST = (
    "Lovelace Zhou Santos Sato Chen Haddad Becker Kim Nair Berg Novak Wei Rossi Petrov "
    "Müller Dubois Okafor Ito Silva Kowalski Andersson Nguyen Haddadi Mensah García Shah"
).split()


@dataclass(frozen=True, slots=True)
class SimPaper:
    """One synthetic paper and its topic (the judgement the benchmarks score against)."""

    topic: str
    arxiv_id: str
    title: str
    abstract: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]


def _fill(*, template: str, rng: random.Random, topic: Topic) -> str:
    """One template with phrases of `topic` (capitalised where the template says so); about
    half the methods named are the ones every field uses."""
    s, s2 = rng.sample(topic.subjects, 2)
    m, m2 = (
        rng.choice(SHARED_METHODS) if rng.random() < _SHARED else rng.choice(topic.methods)
        for _ in range(2)
    )
    return template.format(
        s=s,
        s2=s2,
        m=m,
        m2=m2,
        S=s[0].upper() + s[1:],
        M=m[0].upper() + m[1:],
        field=topic.field,
        n=rng.randint(3, 40),
        k=rng.randint(2, 30),
    )


def _authors(*, rng: random.Random, topic: Topic) -> tuple[str, ...]:
    """One to six names; each topic has its regulars (a seeded pool), plus anyone."""
    regulars = random.Random(topic.name)  # the same regulars in every run
    pool = [f"{regulars.choice(FIRST)} {regulars.choice(LAST)}" for _ in range(10)]
    names = [
        rng.choice(pool) if rng.random() < 0.6 else f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        for _ in range(rng.randint(1, 6))
    ]
    return tuple(dict.fromkeys(names))


def paper(*, rng: random.Random, topic: Topic, number: int) -> SimPaper:
    """A paper of `topic` numbered `number` (its arXiv id is 2406.<number>)."""
    title = _fill(template=rng.choice(_TITLES), rng=rng, topic=topic)
    sentences = []
    names_field = rng.random() < _FIELD_SHARE
    for _ in range(rng.randint(8, 12)):
        other = rng.choice(TOPICS) if rng.random() < _BORROWED else topic
        template = rng.choice(_SENTENCES)
        while "{field}" in template and not (names_field and other is topic):
            template = rng.choice(_SENTENCES)
        sentences.append(_fill(template=template, rng=rng, topic=other))
    if names_field and not any(topic.field in s for s in sentences):
        sentences.insert(1, _fill(template=_SENTENCES[1], rng=rng, topic=topic))
    others = [t.category for t in rng.sample(TOPICS, 2) if t.category != topic.category]
    return SimPaper(
        topic=topic.name,
        arxiv_id=f"2406.{number:05d}",
        title=title,
        abstract=" ".join(sentences),
        authors=_authors(rng=rng, topic=topic),
        categories=(topic.category, *others[: rng.randint(0, 2)]),
    )


def papers(*, rng: random.Random, count: int, first: int) -> list[SimPaper]:
    """`count` papers of topics drawn uniformly, numbered from `first` up."""
    return [paper(rng=rng, topic=rng.choice(TOPICS), number=first + n) for n in range(count)]
