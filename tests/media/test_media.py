"""Decoding images from every source a trace may name, and sampling video frames."""

import base64
import http.server
import threading
from functools import partial

import pytest

from benchmarks.synthetic_media import photo, save_photos, write_mp4
from ragguard.config import ImageConfig, MediaConfig
from ragguard.errors import MediaError
from ragguard.media.images import load_image
from ragguard.media.video import frame_indices, sample_frames
from ragguard.media.visual import load_visual
from ragguard.schema import Item, Trace
from ragguard.schema.inline import pixels_key


@pytest.fixture(scope="module")
def policy(tmp_path_factory):
    """Media under pytest's temporary folders, and images from the loopback test server."""
    root = tmp_path_factory.getbasetemp()
    return MediaConfig(local_roots=[root], remote_fetch=True, allowed_hosts=["127.0.0.1"])


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    return save_photos(tmp_path_factory.mktemp("photos"), ("astronaut", "coffee"))


@pytest.fixture(scope="module")
def clip_mp4(tmp_path_factory):
    """2 s at 10 fps: the astronaut for one second, then the coffee cup."""
    path = tmp_path_factory.mktemp("video") / "clip.mp4"
    return write_mp4(path, ("astronaut", "coffee"), seconds_each=1.0)


def test_an_image_loads_from_a_path_a_file_uri_and_inline_bytes_alike(photos, policy):
    path = photos["astronaut"]
    from_path = load_image(str(path), max_side=128, policy=policy)
    from_uri = load_image(path.as_uri(), max_side=128, policy=policy)
    inline = Item(id="x", image=path.read_bytes())
    from_bytes = load_image(inline.image, max_side=128, policy=policy)
    assert inline.image.startswith("data:") and ";base64," in inline.image
    assert pixels_key(from_path) == pixels_key(from_uri) == pixels_key(from_bytes)
    assert from_path.mode == "RGB" and max(from_path.size) == 128  # 512 px, downscaled


def test_an_image_loads_over_http_from_a_local_server(photos, policy):
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(photos["coffee"].parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/coffee.jpg"
        assert load_image(url, max_side=64, policy=policy).size == (
            64,
            43,
        )  # 600x400 keeps its aspect
        with pytest.raises(MediaError, match="larger than 100 bytes"):
            load_image(url, max_side=64, policy=policy.model_copy(update={"max_image_bytes": 100}))
        with pytest.raises(MediaError, match="cannot fetch"):
            load_image(url.replace("coffee", "tea"), max_side=64, policy=policy)
    finally:
        server.shutdown()


def test_missing_corrupt_and_bad_inline_images_are_typed_errors(tmp_path, policy):
    (tmp_path / "broken.jpg").write_bytes(b"\xff\xd8 not really a jpeg")
    cases = {
        str(tmp_path / "absent.png"): "cannot read",
        str(tmp_path / "broken.jpg"): "not a readable image",
        "data:image/png;base64,@@@": "bad base64",
        "ftp://host/a.png": "unsupported URI scheme",
    }
    for source, message in cases.items():
        with pytest.raises(MediaError, match=message) as caught:
            load_image(source, max_side=64, policy=policy)
        assert caught.value.field == "image"


def test_a_pil_image_is_kept_in_memory_and_serialized_as_its_hash(policy):
    image = photo("chelsea")
    item = Item(id="cat", image=image, metadata={"caption": "A cat."})
    assert item.pixels is image and item.image == "sha256:" + pixels_key(image)
    assert item.uri == item.image and item.modality == "image"
    trace = Trace(trace_id="t", query="a cat?", items=[item], response="A cat.")
    again = Trace.model_validate_json(trace.model_dump_json())
    assert again.items[0].image == item.image and again.items[0].pixels is None
    visual = load_visual(item, ImageConfig(max_side=100), policy)
    assert max(visual.frames[0].image.size) == 100
    with pytest.raises(MediaError, match="in-memory image is not available"):
        load_visual(again.items[0], ImageConfig(), policy)


def test_uri_never_carries_pixel_bytes(photos):
    inline = Item(id="x", image=photos["coffee"].read_bytes())
    digest = inline.uri.removeprefix("sha256:")
    assert len(digest) == 64 and "base64" not in inline.uri
    assert Item(id="p", image="/a/b.png").uri == "/a/b.png"
    assert Item(id="v", video="clip.mp4", image="poster.png").uri == "clip.mp4"
    assert Item(id="t", text="words").uri is None


def test_frame_indices_uniform_and_fps_with_a_cap():
    assert frame_indices(20, 10.0, frames=4, fps=None, max_frames=32) == [2, 7, 12, 17]
    assert frame_indices(20, 10.0, frames=4, fps=2.0, max_frames=32) == [0, 5, 10, 15]
    capped = frame_indices(36_000, 30.0, frames=8, fps=1.0, max_frames=5)  # a 20 min video
    assert len(capped) == 5 and capped[0] == 0 and capped[-1] >= 35_000
    assert frame_indices(3, 10.0, frames=8, fps=None, max_frames=32) == [0, 1, 2]


def test_video_frames_are_sampled_with_timestamps_and_bounded_size(clip_mp4, policy):
    frames = sample_frames(
        str(clip_mp4), frames=4, fps=None, max_frames=32, max_side=48, policy=policy
    )
    times = [t for _, t in frames]
    assert times == pytest.approx([0.2, 0.7, 1.2, 1.7], abs=0.051)
    assert all(image.size == (48, 48) for image, _ in frames)
    by_fps = sample_frames(
        clip_mp4.as_uri(), frames=4, fps=5.0, max_frames=6, max_side=64, policy=policy
    )
    assert len(by_fps) == 6  # 10 frames at 5 fps, thinned to the cap


def test_unreadable_videos_are_typed_errors(tmp_path, policy):
    (tmp_path / "junk.mp4").write_bytes(b"\x00" * 64)
    for source, message in (
        (str(tmp_path / "junk.mp4"), "not a readable video"),
        (str(tmp_path / "none.mp4"), "No such file"),
        ("https://host/v.mp4", "only local video files"),
    ):
        with pytest.raises(MediaError, match=message) as caught:
            sample_frames(source, frames=2, fps=None, max_frames=4, max_side=32, policy=policy)
        assert caught.value.field == "video"


def test_inline_base64_survives_a_json_round_trip(photos, policy):
    raw = photos["coffee"].read_bytes()
    encoded = "data:image/jpeg;base64," + base64.b64encode(raw).decode()
    trace = Trace(trace_id="t", query="q?", items=[Item(id="c", image=encoded)], response="r")
    again = Trace.model_validate_json(trace.model_dump_json())
    assert load_image(again.items[0].image, max_side=600, policy=policy).size == (600, 400)
