"""Tiny random-weight BERTs built at test time (no download is possible here): they prove
that ragguard's loading code works, never any quality."""

from ragguard.scoring.encoders.backbones import bundled_minilm_path


def save_tiny_bert(path, model_class, **settings):
    """A 2-layer, 32-unit ``model_class`` (a transformers BERT class) with the MiniLM
    tokenizer, saved in ``path``; ``settings`` go to its config (labels, for a classifier)."""
    from transformers import AutoTokenizer, BertConfig

    tokenizer = AutoTokenizer.from_pretrained(bundled_minilm_path())
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        **settings,
    )
    model_class(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return str(path)
