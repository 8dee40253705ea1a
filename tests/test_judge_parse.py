"""Reading verdicts from judge replies: JSON (fenced, wrapped in prose, other spellings),
``verdict:`` and ``<answer>`` lines; no clear verdict is None, never a guess."""

import pytest

from ragguard.judge.parse import MAX_RATIONALE, Parsed, parse_verdict


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            '{"reasoning": "Paris, per passage 1.", "verdict": "supported"}',
            (True, "Paris, per passage 1."),
        ),
        (
            'Sure!\n```json\n{"reasoning": "No date given.", "verdict": "Not Supported"}\n```',
            (False, "No date given."),
        ),
        ('{"verdict": "not-relevant", "rationale": "off topic"}', (False, "off topic")),
        ('{"verdict": "maybe"} then {"reasoning": "r", "verdict": "yes"}', (True, "r")),
        (
            '{"reasoning": "cut at the token limit", "verdict": "unsupported"',
            (False, "cut at the token limit"),
        ),
        (
            "The passage names Paris.\nVerdict: supported, since it matches",
            (True, "The passage names Paris."),
        ),
        ("Reasoning: none.\n**Verdict:** NOT SUPPORTED", (False, "Reasoning: none.")),
        ("<answer>Not supported</answer>", (False, "")),
    ],
)
def test_verdicts_are_read_from_json_and_labelled_lines(reply, expected):
    assert parse_verdict(reply) == Parsed(*expected)


@pytest.mark.parametrize(
    "reply",
    [
        None,
        "",
        "It is supported.",  # a bare word: "not supported" contains it too
        '{"reasoning": "the reply stopped here',
        '{"reasoning": "r", "verdict": "partially"}',
        "verdict: not sure",
        "The Eiffel Tower is in Berlin.\n\nSentence 2: ...",
    ],
)
def test_replies_without_a_clear_verdict_are_unparseable(reply):
    assert parse_verdict(reply) is None


def test_rationales_are_capped():
    reply = '{"reasoning": "' + "x" * 5000 + '", "verdict": "supported"}'
    assert len(parse_verdict(reply).rationale) == MAX_RATIONALE
