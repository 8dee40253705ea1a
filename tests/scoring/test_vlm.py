"""RAG-Check's own RS/CS prompts on a vision-language model: a tiny random-weight LLaVA
built at test time, loaded through ragguard's real loading code (plumbing, not quality)."""

import numpy as np
import pytest

from benchmarks.synthetic_media import photo, save_photos, tiny_llava
from ragguard import Config, Guard
from ragguard.evaluation.evaluator import Evaluator
from ragguard.media.visual import Frame
from ragguard.schema.inline import pixels_key
from ragguard.scoring.hub.vlm import CS_ANSWERS, RS_ANSWERS, VLMScorer, _answer_tokens
from ragguard.scoring.interface.evidence import Claim
from ragguard.scoring.wiring.factory import build_visual


@pytest.fixture(scope="module")
def vlm_path(tmp_path_factory):
    return tiny_llava(tmp_path_factory.mktemp("llava"))


@pytest.fixture(scope="module")
def scorer(vlm_path):
    return VLMScorer(vlm_path, batch_size=4)


def frame(name):
    image = photo(name)
    return Frame(pixels_key(image), image)


def test_prompts_ask_rag_checks_questions_with_the_images_in_place(scorer):
    tokenizer = scorer._load()[0].tokenizer
    captured = []
    original = scorer.render
    scorer.render = lambda prompt: captured.append(original(prompt)) or captured[-1]
    try:
        scorer.relevance(["What is the astronaut holding?"], [frame("astronaut")])
        scorer.support([Claim("A cup of coffee.")], [[frame("coffee"), frame("rocket")]])
    finally:
        del scorer.render
    rs, cs = captured
    assert rs == (
        "user: Here is an image: <image>\n. Would it help to answer the request below? Reply "
        "with one word, 'relevant' or 'irrelevant'. Request: What is the astronaut holding."
        "assistant:"
    )
    assert cs.count("<image>") == 2 and "The 2 images above are the evidence." in cs
    assert "Reply with one word, 'correct' or 'incorrect'. Statement: A cup of coffee." in cs
    assert len(tokenizer.tokenize(cs)) > 0


def test_answer_words_map_to_distinct_first_tokens(scorer):
    tokenizer = scorer._load()[0].tokenizer
    for words in (RS_ANSWERS, CS_ANSWERS):
        positive, negative = _answer_tokens(tokenizer, words)
        assert positive and negative and not set(positive) & set(negative)
        assert tokenizer.convert_ids_to_tokens(positive[0]) == words[0]


def test_scores_are_probabilities_and_do_not_depend_on_batching(scorer, vlm_path):
    queries = ["Is there an astronaut?", "What colour is the coffee cup on the table today?"]
    frames = [frame("astronaut"), frame("coffee")]
    batched = scorer.relevance(queries, frames)
    one_by_one = VLMScorer(vlm_path, batch_size=1).relevance(queries, frames)
    assert batched.shape == (2,) and ((batched > 0) & (batched < 1)).all()
    np.testing.assert_allclose(batched, one_by_one, atol=1e-4)  # left padding is harmless


def test_cs_reads_several_images_at_once(scorer):
    claim = Claim("A rocket stands on a launch pad.")
    single = scorer.support([claim], [[frame("rocket")]])
    pair = scorer.support([claim, claim], [[frame("rocket"), frame("coffee")], [frame("rocket")]])
    assert ((pair > 0) & (pair < 1)).all()
    assert pair[1] == pytest.approx(single[0], abs=1e-5)
    assert pair[0] != pytest.approx(pair[1], abs=1e-7)  # the second image changed the input


def test_the_vlm_backend_runs_the_whole_trace(vlm_path, embedder, tmp_path):
    paths = save_photos(tmp_path, ("astronaut", "coffee"))
    config = Config.model_validate(
        {
            "image": {"backend": "vlm", "model": vlm_path, "threshold": 0.5},
            "media": {"local_roots": [str(tmp_path)]},
        }
    )
    assert isinstance(build_visual(config.image), VLMScorer)
    guard = Guard(config, evaluator=Evaluator(config, embedder=embedder))
    evaluation = guard.evaluate(
        {
            "trace_id": "vlm",
            "query": "What is the astronaut holding?",
            "items": [
                {"id": "astro", "image": str(paths["astronaut"])},
                {"id": "cup", "image": str(paths["coffee"])},
            ],
            "response": "A cup of coffee is in <image2>.",
        }
    )
    assert all(0 < item.relevance < 1 for item in evaluation.items)
    span = evaluation.spans[0]
    assert span.references == ("cup",) and span.evidence_id == "cup"
    assert 0 < span.support < 1 and evaluation.errors == ()
