"""Reference-based metrics for golden sets: MIRAGE (claim-level information and citation
scores), ALCE (citation recall/precision), CRUX (context coverage, alpha-nDCG, density) and
FATHOMS-RAG (phrase recall, abstention vs hallucination), computed by ``score`` over the
Evaluator's verdicts and printed by ``tables``. Live traffic has no gold data, so nothing on
the live path imports this package."""
