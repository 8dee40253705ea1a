"""What the multimodal tests and ``benchmarks/multimodal.py`` share: real photos (scikit-
image's samples), a short real mp4 written with PyAV, and tiny random-weight CLIP and LLaVA
checkpoints built here and saved to disk (no download is possible on the project's
machines). Their scores mean nothing: they prove the plumbing, never quality."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

PHOTOS = ("astronaut", "coffee", "chelsea", "rocket")
IMAGE_TOKEN = "<image>"
_CHAT = (
    "{% for m in messages %}{{ m['role'] }}: {% for c in m['content'] %}"
    "{% if c['type'] == 'image' %}<image>\n{% else %}{{ c['text'] }}{% endif %}"
    "{% endfor %}\n{% endfor %}{% if add_generation_prompt %}assistant:{% endif %}"
)


def photo(name: str) -> Image.Image:
    from skimage import data

    return Image.fromarray(getattr(data, name)()).convert("RGB")


def save_photos(folder: Path, names: tuple[str, ...] = PHOTOS) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name in names:
        paths[name] = folder / f"{name}.jpg"
        photo(name).save(paths[name], quality=90)
    return paths


def write_mp4(
    path: Path, names: tuple[str, ...], *, seconds_each: float, fps: int = 10, side: int = 64
) -> Path:
    """An H.264 mp4 showing each named photo for ``seconds_each`` seconds."""
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=fps)
        stream.width = stream.height = side
        stream.pix_fmt = "yuv420p"
        for name in names:
            frame = np.asarray(photo(name).resize((side, side)))
            for _ in range(round(seconds_each * fps)):
                container.mux(stream.encode(av.VideoFrame.from_ndarray(frame, format="rgb24")))
        container.mux(stream.encode())
    return path


def _tokenizer():
    from transformers import AutoTokenizer

    from ragguard.scoring.encoders.backbones import bundled_minilm_path

    return AutoTokenizer.from_pretrained(bundled_minilm_path())


def _image_processor():
    from ragguard.scoring.hub.clip import _image_processor_class

    return _image_processor_class()(
        size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32}
    )


_VISION = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "image_size": 32,
    "patch_size": 8,
}


def tiny_clip(path: Path) -> str:
    """A 2-layer CLIP with the MiniLM word-piece tokenizer, saved to ``path``."""
    import torch
    from transformers import CLIPConfig, CLIPModel

    torch.manual_seed(0)
    tokenizer = _tokenizer()
    text = {
        "vocab_size": tokenizer.vocab_size,
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "max_position_embeddings": 77,
        "bos_token_id": tokenizer.cls_token_id,
        "eos_token_id": tokenizer.sep_token_id,
        "pad_token_id": tokenizer.pad_token_id,
    }
    config = CLIPConfig(text_config=text, vision_config=_VISION, projection_dim=16)
    CLIPModel(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    _image_processor().save_pretrained(path)
    return str(path)


def tiny_llava(path: Path) -> str:
    """A LLaVA of a 2-layer CLIP vision tower and a 2-layer Llama, with a processor and a
    minimal chat template, saved to ``path``."""
    import torch
    from transformers import (
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )

    torch.manual_seed(0)
    tokenizer = _tokenizer()
    tokenizer.add_special_tokens({"additional_special_tokens": [IMAGE_TOKEN]})
    text = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id,
    )
    config = LlavaConfig(
        vision_config=CLIPVisionConfig(**_VISION),
        text_config=text,
        image_token_index=tokenizer.convert_tokens_to_ids(IMAGE_TOKEN),
        vision_feature_layer=-1,
    )
    LlavaForConditionalGeneration(config).save_pretrained(path)
    LlavaProcessor(
        image_processor=_image_processor(),
        tokenizer=tokenizer,
        patch_size=_VISION["patch_size"],
        vision_feature_select_strategy="default",
        image_token=IMAGE_TOKEN,
        num_additional_image_tokens=1,
        chat_template=_CHAT,
    ).save_pretrained(path)
    return str(path)
