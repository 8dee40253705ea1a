"""The lite tier reads only the evidence sentences that share words with the claim or query."""

import numpy as np

from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.lexical.text import content_tokens
from ragguard.scoring.lite.scorers import MAX_SELECTED, select_sentences, support_features

FILLER = [
    f"Filler sentence number {n} talks about weather patterns over oceans." for n in range(60)
]
TOWER = "The Eiffel Tower was completed in 1889 in Paris."


def test_a_short_passage_is_read_whole():
    sentences = ["Cats sleep a lot.", TOWER, "Bread needs flour."]
    assert select_sentences(sentences, content_tokens("Where is the Eiffel Tower?")) == (0, 1, 2)


def test_a_long_passage_is_read_in_the_sentences_sharing_words():
    sentences = [*FILLER[:10], TOWER, *FILLER[10:20], "Paris hosts the tower."]
    assert select_sentences(sentences, content_tokens("Where is the Eiffel Tower?")) == (10, 21)


def test_a_probe_sharing_nothing_with_a_long_passage_keeps_its_first_sentence():
    assert select_sentences(FILLER[:20], frozenset({"x"})) == (0,)


def test_at_most_the_best_sharing_sentences_are_kept_in_passage_order():
    sentences = [f"Tower fact {n}." for n in range(20)] + ["Eiffel Tower in Paris, 1889."]
    kept = select_sentences(sentences, content_tokens(TOWER))
    assert len(kept) == MAX_SELECTED and kept[-1] == 20 and list(kept) == sorted(kept)


class CountingEmbedder(TextEmbedder):
    """The real bundled embedder, counting the texts that reach the model."""

    def __init__(self, inner: TextEmbedder) -> None:
        super().__init__(cache_size=0)
        self._model = inner.model
        self._keep = inner._keep
        self.encoded: list[str] = []

    def _run(self, texts):
        self.encoded += texts
        return super()._run(texts)


def test_a_long_document_costs_a_few_sentences_not_a_pass(embedder):
    counting = CountingEmbedder(embedder)
    document = " ".join([*FILLER[:30], TOWER, *FILLER[30:]])
    claim = Claim("The Eiffel Tower was completed in 1889.")
    support_features(counting, [claim], [Evidence("d1", document)])
    evidence = [t for t in counting.encoded if t != claim.text]
    assert TOWER in evidence and len(evidence) <= MAX_SELECTED


def test_a_pair_scores_the_same_alone_and_batched_with_others(embedder):
    document = " ".join([*FILLER[:20], TOWER])
    alone = support_features(
        embedder, [Claim("The tower was completed in 1889.")], [Evidence("d", document)]
    )
    batched = support_features(
        embedder,
        [Claim("Weather patterns over oceans."), Claim("The tower was completed in 1889.")],
        [Evidence("d", document), Evidence("d", document)],
    )
    np.testing.assert_allclose(batched[1], alone[0], rtol=1e-5)
