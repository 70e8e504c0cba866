"""A small judged corpus for ranking quality: papers in five topics, a group that voted up two
of them (graph learning and protein structure), and three days of feeds mixing all five.

Written for these tests (no real papers): the texts use each topic's ordinary vocabulary with
different wordings, and the feeds list the topics the group does not favour newest. A feed
paper is relevant when its topic is one the group favours: the held-out judgement the tray's
precision is measured against.
"""

from __future__ import annotations

from datetime import date

from bot.domain import VoteCount
from bot.sources.candidates import Candidate, make_candidate
from bot.sources.rank import GroupRead

FAVOURED = frozenset({"graphs", "proteins"})
WATCH_KEYWORDS = ("learning", "model")  # a broad watch: it passes most of every topic

# (topic, title, abstract, authors, 👍, 👎, comments)
READ: tuple[tuple[str, str, str, tuple[str, ...], int, int, int], ...] = (
    (
        "graphs",
        "Message passing neural networks for molecular property graphs",
        "We study message passing on graphs where nodes aggregate neighbour features; the graph "
        "neural network predicts properties of molecules from their bond graph.",
        ("Ada Lovelace", "Wen Zhou"),
        5,
        0,
        4,
    ),
    (
        "graphs",
        "Over-smoothing in deep graph convolutional networks",
        "Stacking many graph convolution layers makes node embeddings indistinguishable; we "
        "analyse over-smoothing and propose residual message passing for deep graph networks.",
        ("Wen Zhou",),
        4,
        0,
        3,
    ),
    (
        "graphs",
        "Link prediction with subgraph sampling",
        "Link prediction on large graphs benefits from sampling enclosing subgraphs around node "
        "pairs and learning node representations with a graph neural network.",
        ("Maria Santos",),
        3,
        1,
        2,
    ),
    (
        "graphs",
        "Expressive power of graph neural networks beyond Weisfeiler-Lehman",
        "We relate the expressive power of message passing graph networks to the Weisfeiler-Lehman "
        "test and build higher-order node tuples to distinguish non-isomorphic graphs.",
        ("Ada Lovelace",),
        4,
        0,
        5,
    ),
    (
        "proteins",
        "Protein structure prediction from multiple sequence alignments",
        "Residue contacts inferred from multiple sequence alignments guide protein structure "
        "prediction; an attention model folds the amino acid chain into 3D coordinates.",
        ("Kenji Sato", "Laura Chen"),
        5,
        0,
        3,
    ),
    (
        "proteins",
        "Protein language models learn residue contacts",
        "A protein language model trained on millions of amino acid sequences learns residue "
        "contacts and secondary structure without supervision.",
        ("Laura Chen",),
        4,
        1,
        2,
    ),
    (
        "proteins",
        "Designing protein binders with diffusion over backbone structure",
        "Diffusion over protein backbone coordinates generates binders for a target; designed "
        "sequences fold into the predicted structure in the lab.",
        ("Kenji Sato",),
        3,
        0,
        4,
    ),
    (
        "proteins",
        "Docking small molecules into predicted protein pockets",
        "We dock ligands into binding pockets of predicted protein structures and compare docking "
        "scores with experimental affinity for drug discovery.",
        ("Omar Haddad",),
        3,
        0,
        1,
    ),
    (
        "robots",
        "Reinforcement learning for legged robot locomotion",
        "A policy trained with reinforcement learning in simulation controls a quadruped robot; "
        "domain randomisation transfers the locomotion policy to hardware.",
        ("Tom Becker",),
        0,
        3,
        1,
    ),
    (
        "robots",
        "Reward shaping for robotic grasping",
        "Sparse rewards make robotic grasping hard to learn; shaped rewards and demonstrations "
        "speed up reinforcement learning of the grasping policy.",
        ("Tom Becker", "Sara Kim"),
        1,
        3,
        0,
    ),
    (
        "robots",
        "Offline reinforcement learning from robot logs",
        "We learn manipulation policies from logged robot trajectories without interaction, "
        "with a conservative value function for offline reinforcement learning.",
        ("Sara Kim",),
        0,
        2,
        0,
    ),
    (
        "language",
        "Chain-of-thought prompting for arithmetic reasoning",
        "Prompting a large language model with worked examples of intermediate steps improves "
        "arithmetic reasoning benchmarks.",
        ("Priya Nair",),
        1,
        2,
        1,
    ),
    (
        "language",
        "Instruction tuning of language models at scale",
        "Fine-tuning a language model on thousands of instruction tasks improves zero-shot "
        "generalisation to unseen prompts.",
        ("Priya Nair", "Jon Berg"),
        0,
        3,
        0,
    ),
    (
        "language",
        "Retrieval-augmented generation for open-domain questions",
        "A language model conditioned on retrieved passages answers open-domain questions with "
        "fewer hallucinations than closed-book generation.",
        ("Jon Berg",),
        1,
        2,
        2,
    ),
    (
        "databases",
        "Learned cardinality estimation for query optimisation",
        "A learned model estimates join cardinalities so the query optimiser picks better plans "
        "than with histogram statistics.",
        ("Eva Novak",),
        1,
        1,
        1,
    ),
    (
        "databases",
        "Adaptive indexing for analytical workloads",
        "Indexes built incrementally as queries arrive adapt a column store to analytical "
        "workloads without a tuning phase.",
        ("Eva Novak",),
        1,
        1,
        0,
    ),
)

# (day, topic, title, abstract, authors): three days of a feed, newest first in each day;
# the favoured topics are mostly among the oldest.
FEED: tuple[tuple[int, str, str, str, tuple[str, ...]], ...] = (
    (
        1,
        "robots",
        "Sim-to-real transfer of dexterous hand manipulation",
        "Reinforcement learning in simulation trains a dexterous robot hand; we study which "
        "randomisations let the learned policy transfer to the real hand.",
        ("Sara Kim",),
    ),
    (
        1,
        "language",
        "Scaling laws for language model pretraining data",
        "We fit scaling laws relating pretraining tokens, model size and loss for large language "
        "models and predict the compute-optimal data budget.",
        ("Priya Nair",),
    ),
    (
        1,
        "databases",
        "Learning to rewrite SQL queries",
        "A learned model rewrites SQL queries into equivalent forms that the query optimiser "
        "executes faster.",
        ("Eva Novak",),
    ),
    (
        1,
        "graphs",
        "Graph transformers with positional encodings from random walks",
        "Random-walk positional encodings let a graph transformer attend over all node pairs; "
        "the model outperforms message passing on long-range graph benchmarks.",
        ("Li Wei",),
    ),
    (
        1,
        "proteins",
        "Predicting protein stability changes from structure",
        "A model over predicted protein structures estimates how single amino acid mutations "
        "change folding stability.",
        ("Laura Chen",),
    ),
    (
        1,
        "robots",
        "Curriculum learning for robot navigation",
        "A curriculum of increasingly cluttered maps speeds up reinforcement learning of a mobile "
        "robot's navigation policy.",
        ("Tom Becker",),
    ),
    (
        2,
        "language",
        "Detecting hallucinations in language model summaries",
        "We train a classifier that flags unsupported statements in summaries produced by "
        "language models.",
        ("Jon Berg",),
    ),
    (
        2,
        "robots",
        "Safe exploration for reinforcement learning on robots",
        "Constraints learned from demonstrations keep a robot safe while reinforcement learning "
        "explores new behaviours.",
        ("Nina Rossi",),
    ),
    (
        2,
        "databases",
        "Learned index structures for key-value stores",
        "A learned model of the key distribution replaces B-tree index nodes in a key-value store "
        "and cuts lookup latency.",
        ("Eva Novak", "Ivan Petrov"),
    ),
    (
        2,
        "graphs",
        "Scalable node classification on billion-edge graphs",
        "Neighbour sampling and partitioned message passing let a graph neural network classify "
        "nodes of a billion-edge social graph.",
        ("Maria Santos",),
    ),
    (
        2,
        "proteins",
        "Inverse folding: sequences for a given protein backbone",
        "Given a protein backbone structure, a graph model over residues designs amino acid "
        "sequences that fold into it.",
        ("Kenji Sato",),
    ),
    (
        2,
        "graphs",
        "Temporal graph networks for dynamic interaction data",
        "Node memories updated by message passing over timestamped edges let a temporal graph "
        "network predict future links.",
        ("Ada Lovelace",),
    ),
    (
        3,
        "language",
        "Tokenizer-free language modelling over bytes",
        "A language model reads raw bytes instead of subword tokens and matches tokenised models "
        "on multilingual benchmarks.",
        ("Jon Berg",),
    ),
    (
        3,
        "proteins",
        "Antibody structure prediction with geometric deep learning",
        "Geometric deep learning over residue frames predicts antibody loop structures more "
        "accurately than homology modelling.",
        ("Omar Haddad",),
    ),
    (
        3,
        "robots",
        "Learning robot manipulation from video demonstrations",
        "Human videos are turned into reward signals so a robot arm learns manipulation skills "
        "with reinforcement learning.",
        ("Sara Kim", "Nina Rossi"),
    ),
    (
        3,
        "databases",
        "Query optimisation with reinforcement learning",
        "The optimiser's join ordering is learnt by reinforcement learning from query latencies "
        "observed on the database.",
        ("Ivan Petrov",),
    ),
    (
        3,
        "proteins",
        "Protein function annotation from sequence embeddings",
        "Embeddings from a protein language model annotate enzyme function for amino acid "
        "sequences with no known homologue.",
        ("Laura Chen",),
    ),
    (
        3,
        "graphs",
        "Graph pooling for whole-graph classification",
        "Learned pooling coarsens node sets into clusters so a graph neural network classifies "
        "whole graphs such as molecules.",
        ("Wen Zhou",),
    ),
)
DAYS = (1, 2, 3)


def group_read() -> tuple[GroupRead, ...]:
    """The papers the group read, with its votes and comment counts."""
    return tuple(
        GroupRead(title=t, abstract=a, authors=au, votes=VoteCount(up, down), comments=c)
        for _topic, t, a, au, up, down, c in READ
    )


def feed(*, day: int) -> list[tuple[Candidate, str]]:
    """The day's candidates with their topic, as the feed lists them: newest first."""
    found = []
    for place, (d, topic, title, abstract, authors) in enumerate(FEED):
        if d != day:
            continue
        made = make_candidate(
            source="arxiv:cs.LG",
            title=title,
            abstract=abstract,
            authors=authors,
            arxiv_id=f"2406.{20000 - place:05d}",  # newest first: ids fall
            announced=date(2024, 6, day),
        )
        assert made is not None
        found.append((made, topic))
    return found
