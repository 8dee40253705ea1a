"""Framework documents carrying images or videos become image/video items by themselves."""

import base64
import io

from langchain_core.documents import Document
from llama_index.core.schema import ImageNode, NodeWithScore

from benchmarks.synthetic_media import photo
from ragguard.adapters.langchain import document_item
from ragguard.adapters.llamaindex import node_item
from ragguard.config import MediaConfig
from ragguard.media.images import load_image
from ragguard.schema.inline import pixels_key


def test_langchain_metadata_names_the_image_or_video():
    cases = {
        "image_path": ("/data/a.png", "image"),
        "image": ("file:///data/b.png", "image"),
        "image_url": ("https://host/c.png", "image"),
        "video_path": ("/data/clip.mp4", "video"),
    }
    for key, (source, modality) in cases.items():
        item = document_item(Document("", metadata={key: source}))
        assert (item.modality, item.uri) == (modality, source), key


def test_llamaindex_image_nodes_with_inline_base64_become_loadable_image_items():
    buffer = io.BytesIO()
    picture = photo("coffee").resize((60, 40))
    picture.save(buffer, format="PNG")
    encoded = base64.b64encode(buffer.getvalue()).decode()
    node = ImageNode(image=encoded, image_mimetype="image/png", text="A cup.")
    item = node_item(NodeWithScore(node=node, score=0.4))
    assert item.modality == "image" and item.image.startswith("data:image/png;base64,")
    assert item.uri.startswith("sha256:")  # what exporters log: never the bytes
    decoded = load_image(item.image, max_side=64, policy=MediaConfig())  # inline: no policy
    assert pixels_key(decoded) == pixels_key(picture)
    by_url = node_item(NodeWithScore(node=ImageNode(image_url="https://h/x.jpg"), score=None))
    assert (by_url.modality, by_url.uri) == ("image", "https://h/x.jpg")
