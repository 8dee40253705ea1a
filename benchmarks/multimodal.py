"""What images and video cost outside the model: decode, preprocessing, batching.

    python benchmarks/multimodal.py [--images 48] [--video-seconds 10]

Runs on a tiny random-weight CLIP built on the spot (``benchmarks/synthetic_media.py``), so
the model's own time is near zero and what is left is ragguard's pipeline: reading and
downscaling images (``max_side`` 448), sampling video frames with decord, CLIP
preprocessing, batching and aggregation. A real CLIP adds its forward pass on top (see the
README). Every image is distinct (cold embedding cache). torch runs on one thread.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from synthetic_media import photo, tiny_clip, write_mp4

from ragguard import Config, Guard
from ragguard.media.images import load_image
from ragguard.media.video import sample_frames


def distinct_jpegs(folder: Path, count: int, size: tuple[int, int]) -> list[Path]:
    """``count`` different photos of ``size`` (shifted crops of scikit-image's astronaut)."""
    base = photo("astronaut").resize((size[0] + count, size[1] + count))
    paths = []
    for n in range(count):
        path = folder / f"img-{size[0]}-{n}.jpg"
        base.crop((n, n, n + size[0], n + size[1])).save(path, quality=90)
        paths.append(path)
    return paths


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=int, default=48)
    parser.add_argument("--video-seconds", type=int, default=10)
    args = parser.parse_args()
    # one torch thread: on a shared 2-core machine a 2-thread pool spends most of a tiny
    # model's forward pass waiting for a busy core, which is noise, not pipeline cost
    torch.set_num_threads(1)
    folder = Path(tempfile.mkdtemp(prefix="ragguard-mm-"))
    clip = tiny_clip(folder / "clip")
    config = Config.model_validate(
        {"image": {"backend": "clip", "model": clip}, "media": {"local_roots": [str(folder)]}}
    )
    policy = config.media
    guard = Guard(config)
    scorer = guard.models.visual_scorer
    guard.evaluate(
        {"trace_id": "warm", "query": "q", "items": [{"id": "a", "text": "x"}], "response": "x"}
    )  # load the text models outside the timings

    print(f"{'stage':58s} {'ms':>8s}")
    for size in ((640, 480), (1920, 1080)):
        paths = distinct_jpegs(folder, 8, size)
        decode = median_ms(
            lambda ps=paths: [load_image(str(p), max_side=448, policy=policy) for p in ps], 3
        )
        print(f"{f'decode + downscale one {size[0]}x{size[1]} JPEG':58s} {decode / 8:8.2f}")
    images = [
        load_image(str(p), max_side=448, policy=policy)
        for p in distinct_jpegs(folder, 32, (1024, 768))
    ]
    processor = scorer._load()[0]
    prep = median_ms(lambda: processor(images=images, return_tensors="pt"), 3)
    print(f"{'CLIP preprocessing per image (batch of 32)':58s} {prep / 32:8.2f}")

    paths = distinct_jpegs(folder, args.images, (1024, 768))
    traces = [
        {
            "trace_id": f"t{k}",
            "query": "What is the astronaut holding?",
            "items": [{"id": f"i{j}", "image": str(paths[k * 4 + j])} for j in range(4)],
            "response": "The astronaut holds a helmet in <image1>. The suit is white.",
        }
        for k in range(args.images // 4)
    ]
    timing = guard.evaluate_many(traces)[0].timing_ms  # per trace, amortized over the batch
    print("whole evaluation of 1024x768 images, 4 per trace and 2 claims, per image:")
    for stage, label in (
        ("media", "read, decode, downscale, hash"),
        ("relevance", "RS: preprocess, tiny CLIP, text tower, batching"),
        ("support", "CS: 2 claims x 4 images, text tower, aggregation"),
        ("total", "total, span analysis included"),
    ):
        print(f"{'  ' + label:58s} {timing[stage] / 4:8.2f}")

    seconds = args.video_seconds
    video = write_mp4(
        folder / "long.mp4",
        ("astronaut", "coffee", "rocket", "chelsea"),
        seconds_each=seconds / 4,
        fps=30,
        side=480,
    )
    for label, fps in (("uniform 8 frames", None), ("1 fps (cap 32)", 1.0)):
        cost = median_ms(
            lambda f=fps: sample_frames(
                str(video), frames=8, fps=f, max_frames=32, max_side=448, policy=policy
            ),
            3,
        )
        print(
            f"{f'sample {label} of a {seconds} s 480x480 30 fps video, per s':58s} "
            f"{cost / seconds:8.2f}"
        )
    trace = {
        "trace_id": "v",
        "query": "Is there a cat?",
        "items": [{"id": "v", "video": str(video)}],
        "response": "A cat is in the video.",
    }
    timing = guard.evaluate(trace).timing_ms
    print("whole evaluation of that video (8 frames, 1 claim), per video second:")
    for stage in ("media", "relevance", "support", "total"):
        print(f"{'  ' + stage:58s} {timing[stage] / seconds:8.2f}")


if __name__ == "__main__":
    main()
