"""Issue 47's passage and a one-item trace around it, for the everyday-verdict tests."""

PASSAGE = (
    "The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. "
    "It was completed in 1889. It is 330 metres tall."
)


def evaluate(guard, response, passage=PASSAGE, query="Where is the Eiffel Tower?"):
    """The evaluation of ``response`` to ``query`` with ``passage`` as the one item."""
    trace = {
        "trace_id": "t",
        "query": query,
        "items": [{"id": "p", "text": passage}],
        "response": response,
    }
    return guard.evaluate(trace)
