"""The one evaluation path for live, served and replayed traces: the `Evaluator` and the
`Guard` around it."""
