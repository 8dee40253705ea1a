"""What the LangChain and LlamaIndex middleware tests share: a tiny corpus with one
question per document, a supported and an unsupported scripted answer, and a wrap that
collects its evaluations."""

import ragguard

DOCS = {
    "paris": "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. "
    "It was completed in 1889.",
    "berlin": "Berlin is the capital and largest city of Germany.",
    "rome": "The Colosseum is an ancient amphitheatre in the centre of Rome, Italy.",
}
QUESTIONS = {
    "paris": "Where is the Eiffel Tower?",
    "berlin": "What is the capital of Germany?",
    "rome": "Where is the Colosseum?",
}
SUPPORTED = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."
UNSUPPORTED = "The Eiffel Tower was moved to Madrid, Spain in 1975 by Napoleon."


def wrap_collecting(target, guard, **options):
    """``target`` wrapped with a fresh Monitor (own counters); evaluations land in a list."""
    evaluations = []
    monitor = ragguard.Monitor(guard=guard, **options)
    wrapped = ragguard.wrap(target, monitor=monitor, on_evaluation=evaluations.append)
    return wrapped, monitor, evaluations
