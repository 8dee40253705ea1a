"""Pixels for the image scorers: images from paths, URIs, inline bytes or PIL objects, and
frames sampled from videos, each with a content key the embedding caches use.

Modules: ``inline`` (recognising and referring to inline media; standard library only),
``images`` (decoding one image), ``video`` (sampling frames), ``visual`` (an item as frames).
This package imports none of them, so the data model can use ``inline`` alone."""
