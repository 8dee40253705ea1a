"""Images and video end to end with a tiny random-weight CLIP built at test time: the
plumbing (routing, references, frames, errors, caching), never quality."""

import itertools

import numpy as np
import pytest

from benchmarks.synthetic_media import photo, save_photos, tiny_clip, write_mp4
from ragguard import Config, Guard, ModelLoadError
from ragguard.config import ImageConfig
from ragguard.evaluation.evaluator import Evaluator
from ragguard.media.visual import Frame, load_visual
from ragguard.schema import Item
from ragguard.schema.inline import pixels_key
from ragguard.scoring.hub.clip import ClipScorer
from ragguard.scoring.interface.evidence import Claim
from ragguard.scoring.wiring.factory import build_visual
from ragguard.scoring.wiring.routing import on_scale as _on_scale


@pytest.fixture(scope="module")
def clip_path(tmp_path_factory):
    return tiny_clip(tmp_path_factory.mktemp("clip"))


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media")
    paths = save_photos(folder, ("astronaut", "coffee", "rocket"))
    paths["video"] = write_mp4(folder / "clip.mp4", ("astronaut", "coffee"), seconds_each=1.0)
    (folder / "corrupt.jpg").write_bytes(b"\xff\xd8\xff garbage")
    paths["corrupt"] = folder / "corrupt.jpg"
    return paths


@pytest.fixture(scope="module")
def clip_guard(clip_path, embedder, media):
    config = Config.model_validate(
        {
            "image": {"backend": "clip", "model": clip_path},
            "media": {"local_roots": [str(media["video"].parent)]},
        }
    )
    return Guard(config, evaluator=Evaluator(config, embedder=embedder))


def evaluator_eta(guard, role="relevance"):
    evaluator = guard.evaluator
    return (
        evaluator.models.relevance_scorer
        if role == "relevance"
        else evaluator.models.support_scorer
    ).threshold


def frame(name):
    image = photo(name)
    return Frame(pixels_key(image), image)


def test_image_scores_move_onto_the_text_scale_monotonically():
    assert _on_scale(0.7, 0.7, 0.55) == pytest.approx(0.55)  # image eta lands on text eta
    assert (_on_scale(0.0, 0.7, 0.55), _on_scale(1.0, 0.7, 0.55)) == (0.0, pytest.approx(1.0))
    mapped = [_on_scale(p, 0.7, 0.55) for p in np.linspace(0, 1, 11)]
    assert all(b > a for a, b in itertools.pairwise(mapped))


def test_scores_are_calibrated_to_the_unit_interval(clip_path):
    scorer = ClipScorer(clip_path, center=0.1, scale=20.0)
    frames = [frame("astronaut"), frame("coffee")]
    relevance = scorer.relevance(["an astronaut", "a cup of coffee"], frames)
    assert relevance.shape == (2,) and ((relevance > 0) & (relevance < 1)).all()
    assert scorer.calibrated(np.array([0.1]))[0] == pytest.approx(0.5)
    assert np.all(np.diff(scorer.calibrated(np.linspace(-1, 1, 9))) > 0)


def test_default_scale_is_the_models_own_logit_scale(clip_path):
    scorer = ClipScorer(clip_path)
    assert scorer._load()[3] == pytest.approx(np.exp(np.log(1 / 0.07)), rel=1e-4)


def test_group_support_is_the_best_image_of_the_group(clip_path):
    scorer = ClipScorer(clip_path)
    claim = Claim("A cup of coffee on a saucer.")
    a, b = frame("astronaut"), frame("coffee")
    alone = scorer.support([claim, claim], [[a], [b]])
    together = scorer.support([claim], [[a, b]])
    assert together[0] == pytest.approx(alone.max())


def test_image_embeddings_are_cached_by_content(clip_path, monkeypatch):
    scorer = ClipScorer(clip_path)
    model = scorer._load()[2]
    calls = []
    original = model.get_image_features
    monkeypatch.setattr(model, "get_image_features", lambda **kw: calls.append(1) or original(**kw))
    first = scorer.image_embeddings([frame("rocket"), frame("rocket")])
    again = scorer.image_embeddings([frame("rocket")])
    assert len(calls) == 1  # two equal pictures, one forward pass, then the cache
    np.testing.assert_array_equal(first[0], again[0])
    np.testing.assert_allclose(np.linalg.norm(first, axis=1), 1.0, rtol=1e-5)


def test_the_whole_trace_with_images_video_text_and_a_broken_file(clip_guard, media):
    items = [
        {"id": "astro", "image": str(media["astronaut"])},
        {"id": "cup", "image": media["coffee"].as_uri(), "metadata": {"caption": "A rocket."}},
        {"id": "clip", "video": str(media["video"])},
        {"id": "gone", "image": str(media["astronaut"].with_name("gone.jpg"))},
        {"id": "bad", "image": str(media["corrupt"])},
        {"id": "note", "text": "Coffee is brewed from roasted beans."},
    ]
    evaluation = clip_guard.evaluate(
        {
            "trace_id": "mm",
            "query": "What is the astronaut holding?",
            "items": items,
            "response": "The astronaut holds a helmet in <image1>. Coffee is brewed from beans.",
        }
    )
    by_id = {i.id: i for i in evaluation.items}
    assert [by_id[k].modality for k in ("astro", "clip", "note")] == ["image", "video", "text"]
    for key in ("astro", "cup", "clip", "note"):
        assert 0 <= by_id[key].relevance <= 1 and by_id[key].error is None
    # a missing and a corrupt file: a clear error on that item, the rest still evaluated
    assert by_id["gone"].relevance is None and "cannot read" in by_id["gone"].error
    assert by_id["bad"].relevance is None and "not a readable image" in by_id["bad"].error
    assert {e.field for e in evaluation.errors} == {"items[3].image", "items[4].image"}
    assert evaluation.metrics.n_unscored == {"image": 2}
    referenced, free = evaluation.spans
    assert referenced.references == ("astro",) and referenced.evidence_id == "astro"
    assert free.references == () and 0 <= free.support <= 1
    assert free.evidence_id in {"astro", "cup", "clip", "note"}
    assert by_id["clip"].best_frame_s is not None and by_id["astro"].best_frame_s is None


def test_image_reference_restricts_support_to_that_image(clip_guard, media):
    scorer = clip_guard.models.visual_scorer
    items = [
        {"id": "cup", "image": str(media["coffee"])},
        {"id": "astro", "image": str(media["astronaut"])},
    ]
    text = "A man in a white suit stands in <image2>."
    evaluation = clip_guard.evaluate(
        {"trace_id": "ref", "query": "Who is there?", "items": items, "response": text}
    )
    span = evaluation.spans[0]
    assert span.references == ("astro",) and span.evidence_id == "astro"
    config = clip_guard.config
    visual = load_visual(Item(id="a", image=str(media["astronaut"])), config.image, config.media)
    alone = scorer.support([Claim(span.text)], [list(visual.frames)])[0]
    expected = _on_scale(float(alone), scorer.threshold, evaluator_eta(clip_guard, "support"))
    assert span.support == pytest.approx(expected, abs=1e-6)  # image 1 never considered


def test_video_relevance_is_its_best_frame_with_the_timestamp(clip_guard, media):
    evaluator = clip_guard.evaluator
    item = Item(id="v", video=str(media["video"]))
    frames = load_visual(item, evaluator.config.image, evaluator.config.media).frames
    query = "a coffee cup"
    per_frame = evaluator.models.visual_scorer.relevance([query] * len(frames), frames)
    evaluation = clip_guard.evaluate(
        {"trace_id": "v", "query": query, "items": [item.model_dump()], "response": "A cup."}
    )
    result = evaluation.items[0]
    assert len(frames) == 8
    assert result.best_frame_s == pytest.approx(frames[int(per_frame.argmax())].time_s)
    best = float(per_frame.max())
    expected = _on_scale(best, evaluator.models.visual_scorer.threshold, evaluator_eta(clip_guard))
    assert result.relevance == pytest.approx(expected, abs=1e-6)


def test_in_memory_pil_images_are_scored(clip_guard):
    from ragguard.schema import Trace

    trace = Trace(
        trace_id="pil",
        query="a cat?",
        items=[Item(id="cat", image=photo("chelsea"))],
        response="A cat sits in <image1>.",
    )
    evaluation = clip_guard.evaluate(trace)
    assert evaluation.items[0].relevance is not None and evaluation.errors == ()
    assert evaluation.spans[0].evidence_id == "cat"


def test_without_an_image_model_images_use_their_surrogate_or_stay_unscored(guard, media):
    evaluation = guard.evaluate(
        {
            "trace_id": "offline",
            "query": "What is in the cup?",
            "items": [
                {"id": "cup", "image": str(media["coffee"]), "metadata": {"alt_text": "Coffee."}},
                {"id": "astro", "image": str(media["astronaut"])},
                {"id": "clip", "video": str(media["video"])},
            ],
            "response": "The cup holds coffee.",
        }
    )
    cup, astro, clip = evaluation.items
    assert cup.relevance is not None and cup.error is None
    for unscored in (astro, clip):
        assert unscored.relevance is None and "no scorer" in unscored.error
    assert evaluation.metrics.n_unscored == {"image": 1, "video": 1}


def test_the_image_backend_is_built_from_config(clip_path, tmp_path):
    assert build_visual(ImageConfig()) is None
    scorer = build_visual(ImageConfig(backend="clip", model=clip_path, threshold=0.3))
    assert isinstance(scorer, ClipScorer) and scorer.threshold == 0.3
    with pytest.raises(ValueError, match=r"image\.model"):
        build_visual(ImageConfig(backend="clip"))
    missing = build_visual(ImageConfig(backend="clip", model=str(tmp_path / "no-clip")))
    with pytest.raises(ModelLoadError, match="no-clip"):
        missing.relevance(["q"], [frame("coffee")])
