"""The papers' metric definitions on hand-computed cases (pure arithmetic, no models)."""

import math

import pytest

from ragguard.goldsets import alce, crux, fathoms, mirage
from ragguard.goldsets.score import AlceScores, FathomsScores, MirageScores, ReferenceScores
from ragguard.goldsets.tables import TABLES, render, table_rows

# --- MIRAGE ---------------------------------------------------------------------------------


def test_precision_and_recall_average_support_over_claims():
    # Eq. 1 / 2: (1/|C|) sum s(c, X); 3 of 4 claims supported
    assert mirage.mean_support([1.0, 0.0, 1.0, 1.0]) == 0.75
    assert mirage.mean_support([]) is None


def test_weighted_recall_rescales_importance_to_mean_one():
    # Eq. 11 with I = (2, 1, 1) rescaled to (1.5, 0.75, 0.75): (1*1.5 + 0 + 0) / 3 = 0.5,
    # where the unweighted Eq. 10 gives 1/3
    assert mirage.mean_support([1.0, 0.0, 0.0], [2, 1, 1]) == pytest.approx(0.5)
    assert mirage.mean_support([1.0, 0.0, 0.0], [5, 5, 5]) == pytest.approx(1 / 3)
    with pytest.raises(ValueError, match="2 weights for 3 claims"):
        mirage.mean_support([1.0, 0.0, 0.0], [1, 1])


def test_single_source_takes_the_best_item_per_claim():
    # Eq. 7: claim 1 best item 1.0, claim 2 best 0.0, claim 3 has no source (0): 1/3
    assert mirage.mean_best_support([[0.0, 1.0], [0.0, 0.0], []]) == pytest.approx(1 / 3)
    # Eq. 9 weighted: I = (3, 0, 0) -> (3, 0, 0) after rescaling (sum 3 = |C|): 1*3/3 = 1
    assert mirage.mean_best_support([[0.0, 1.0], [0.0], []], [3, 0, 0]) == 1.0


def test_f1_is_the_harmonic_mean():
    assert mirage.f1(0.5, 1.0) == pytest.approx(2 / 3)  # 2 * 0.5 * 1 / 1.5
    assert mirage.f1(0.0, 0.0) == 0.0
    assert mirage.f1(None, 1.0) is None


# --- ALCE -----------------------------------------------------------------------------------


def test_alce_leave_one_out_precision_and_recall():
    sentences = [
        # one citation that supports the sentence: precise
        alce.CitedSentence(joint=True, alone=(True,), without=(False,), n_citations=1),
        # [d1][d2][d3] jointly support; none alone; dropping d1 or d2 breaks support (both
        # needed), dropping d3 does not: d3 is irrelevant -> 2 precise of 3
        alce.CitedSentence(
            joint=True, alone=(False, False, False), without=(False, False, True), n_citations=3
        ),
        # [d1][d2] where d1 alone supports and the pair without d2 still supports: d2 is
        # irrelevant (alone no, removal changes nothing), d1 precise -> 1 of 2
        alce.CitedSentence(joint=True, alone=(True, False), without=(False, True), n_citations=2),
        # an unsupported sentence: no citation is precise
        alce.CitedSentence(joint=False, alone=(False,), without=(False,), n_citations=1),
        # no citation at all: recall 0, nothing added to precision
        alce.CitedSentence(joint=False),
    ]
    assert alce.citation_recall(sentences) == pytest.approx(3 / 5)
    assert alce.citation_precision(sentences) == pytest.approx((1 + 2 + 1 + 0) / (1 + 3 + 2 + 1))


def test_alce_without_sentences_or_citations():
    assert alce.citation_recall([]) is None and alce.citation_precision([]) is None
    assert alce.citation_precision([alce.CitedSentence(joint=False)]) == 0.0


# --- CRUX -----------------------------------------------------------------------------------

# Sub-questions q1 q2 q3. Ranked context: A answers {q1, q2}, B {q1}, C {q3}.
A, B, C = [1, 1, 0], [1, 0, 0], [0, 0, 1]


def test_coverage_counts_questions_answered_by_any_text():
    assert crux.coverage([A, B], 3) == pytest.approx(2 / 3)  # Eq. 3: {q1, q2} of 3
    assert crux.coverage([A, B, C], 3) == 1.0
    assert crux.coverage([], 0) is None


def test_novelty_gain_discounts_already_answered_questions():
    # Eq. 5 with alpha = 0.5: ng(1) = 1 + 1 = 2; ng(2) = q1 seen once: 0.5; ng(3) = q3 new: 1
    assert crux.novelty_gains(crux._matrix([A, B, C], 3)).tolist() == [2.0, 0.5, 1.0]


def test_alpha_ndcg_by_hand():
    # DCG of A, B, C = 2/log2(2) + 0.5/log2(3) + 1/log2(4) = 2 + 0.315465 + 0.5 = 2.815465
    # ideal (greedy over the pool {A, B, C}): A (gain 2), then C (gain 1 beats B's 0.5), then
    # B (0.5): 2 + 1/log2(3) + 0.5/log2(4) = 2 + 0.630930 + 0.25 = 2.880930
    # alpha-nDCG = 2.815465 / 2.880930 = 0.977277
    expected = (2 + 0.5 / math.log2(3) + 1 / 2) / (2 + 1 / math.log2(3) + 0.5 / 2)
    assert crux.alpha_ndcg([A, B, C], [A, B, C], 3) == pytest.approx(expected)
    assert expected == pytest.approx(0.977277, abs=1e-6)
    assert crux.alpha_ndcg([A, C, B], [A, B, C], 3) == pytest.approx(1.0)


def test_alpha_ndcg_ideal_draws_on_the_oracle_pool():
    # retrieved: B only; an oracle text D answers everything. DCG = 1; ideal at depth 1 = D's 3
    d = [1, 1, 1]
    assert crux.alpha_ndcg([B], [B, d], 3) == pytest.approx(1 / 3)
    assert crux.alpha_ndcg([[0, 0, 0]], [[0, 0, 0]], 3) is None  # nothing answers anything


def test_density_relative_to_the_oracle():
    # Eq. 6: ((2/3 / 30) / (1 / 20))^0.5 = (0.0222222 / 0.05)^0.5 = 0.444444^0.5 = 0.666667
    assert crux.density(2 / 3, 30, 1.0, 20) == pytest.approx(2 / 3)
    assert crux.density(2 / 3, 30, None, 20) is None
    assert crux.density(2 / 3, 30, 0.0, 20) is None


def test_redundant_items_add_no_new_subquestion():
    # A new (q1, q2), B nothing new, C new (q3), a text answering nothing is redundant too
    assert crux.redundant([A, B, C, [0, 0, 0]], 3) == [1, 3]


def test_token_count_is_whitespace_tokens():
    assert crux.token_count(["Paris has a tower.", "It is tall."]) == 7


# --- FATHOMS-RAG ----------------------------------------------------------------------------

RGB = [["red", "green", "blue"]]  # "the three most commonly used additive primary colors"


@pytest.mark.parametrize(
    ("prediction", "expected"),
    [
        ("The additive primaries are blue, then red, and finally green.", 1.0),  # any order
        ("RED, GREEN and BLUE.", 1.0),  # case-insensitive
        ("Red and green.", 2 / 3),  # partial credit: 2 of 3 required phrases
        ("Cyan, magenta and yellow.", 0.0),
    ],
)
def test_red_green_blue(prediction, expected):
    assert fathoms.phrase_recall(prediction, RGB) == pytest.approx(expected)


def test_phrase_recall_takes_the_best_variant_and_reads_hyphens_as_spaces():
    answers = [["red", "green", "blue"], ["RGB"]]
    assert fathoms.phrase_recall("Screens use RGB.", answers) == 1.0
    assert fathoms.phrase_recall("It lies in north central Maine.", [["north-central"]]) == 1.0
    assert fathoms.phrase_recall("A red-green-blue model.", RGB) == 1.0
    assert fathoms.phrase_recall("anything", []) == 0.0


def test_hallucination_indicator():
    assert fathoms.is_hallucination(abstained=False, correctness=2 / 3) is True
    assert fathoms.is_hallucination(abstained=False, correctness=1.0) is False
    assert fathoms.is_hallucination(abstained=True, correctness=0.0) is False


def test_macro_average_weights_categories_equally():
    # category means 0.5 and 1.0 -> 0.75 (the micro mean of the three values would be 2/3)
    assert fathoms.macro_average({"text": [1.0, 0.0], "tables": [1.0]}) == 0.75
    assert fathoms.macro_average({"text": []}) is None


# --- tables ---------------------------------------------------------------------------------


def _scores(pipeline, category, correctness, info_recall, info_precision=1.0):
    f1 = mirage.f1(info_precision, info_recall)
    return ReferenceScores(
        trace_id=f"{pipeline}-{category}-{correctness}",
        pipeline=pipeline,
        category=category,
        mirage=MirageScores(info_recall=info_recall, info_precision=info_precision, info_f1=f1),
        alce=AlceScores(),
        fathoms=FathomsScores(correctness=correctness, hallucination=correctness < 1),
    )


def test_table_rows_group_by_pipeline_and_category_with_a_macro_row():
    scores = [
        _scores("bm25", "text", 1.0, 0.5),
        _scores("bm25", "text", 0.0, None),
        _scores("bm25", "tables", 1.0, 1.0),
        _scores("dense", "text", 0.5, 0.0),
    ]
    answers = next(t for t in TABLES if t.title.startswith("Answers"))
    rows = table_rows(answers, scores)
    assert [(p, c, n) for p, c, n, _ in rows] == [
        ("bm25", "tables", 1),
        ("bm25", "text", 2),
        ("bm25", "(macro)", 3),
        ("dense", "text", 1),
    ]
    correct = [cells[0] for *_, cells in rows]
    assert correct == [(1.0, 1), (0.5, 2), (0.75, 3), (0.5, 1)]  # macro: (1.0 + 0.5) / 2
    information = next(t for t in TABLES if t.title.startswith("Information"))
    recall = [cells[2] for *_, cells in table_rows(information, scores)]
    assert recall == [(1.0, 1), (0.5, 1), (0.75, 2), (0.0, 1)]  # the None is left out


def test_precision_recall_and_f1_are_averaged_over_the_same_traces():
    """A trace with no precision (no objective claim) must not enter the recall mean while
    its F1 stays out: the row would read P 1.000, R 0.778, F1 0.900, an F1 no P and R give."""
    scores = [
        _scores("p", "c", 1.0, 1.0),
        _scores("p", "c", 1.0, 2 / 3),
        _scores("p", "c", 0.0, 2 / 3, info_precision=None),
    ]
    information = next(t for t in TABLES if t.title.startswith("Information"))
    ((*_, n, cells),) = table_rows(information, scores)
    headers = [c.header for c in information.columns]
    by_header = dict(zip(headers, cells, strict=True))
    assert n == 3
    assert by_header["InfoP"] == (1.0, 2) and by_header["InfoF1"] == (0.9, 2)
    assert by_header["InfoR"] == (pytest.approx(5 / 6), 2)
    text = render(scores)
    assert "0.833 [2]" in text and "[k]: the mean of k traces" in text


def test_render_prints_titles_headers_and_skips_empty_tables():
    text = render([_scores("bm25", "text", 1.0, 0.5)])
    assert "Answers - FATHOMS-RAG" in text and "InfoR" in text and "correct" in text
    assert "Retrieval context - CRUX" not in text  # no trace has sub-questions
    assert "1.000" in text and "0.500" in text
