"""The tiny corpus, question and scripted answer every serve client app uses."""

DOCS = {
    "eiffel": "The Eiffel Tower is a wrought-iron lattice tower in Paris, France.",
    "banana": "Bananas are rich in potassium and grow in tropical regions.",
    "louvre": "The Louvre in Paris is the world's most-visited art museum.",
}
QUERY = "Where is the Eiffel Tower?"
ANSWER = "The Eiffel Tower is in Paris."


def overlap_ranking(query: str, k: int = 2) -> list[tuple[str, float]]:
    """(id, score) of the k documents sharing the most words with the query."""
    words = set(query.lower().strip("?").split())
    scored = [
        (key, len(words & set(text.lower().strip(".").split())) / len(words))
        for key, text in DOCS.items()
    ]
    return sorted(scored, key=lambda pair: -pair[1])[:k]
