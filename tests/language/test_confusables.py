"""Issue 45, item 5: look-alike letters, blank letters, styled and enclosed digits and
bidirectional overrides cannot make a wrong answer supported. 53 wrong answers against the
Eiffel Tower passage, each hiding its negation or its wrong value in one of the forms the
probe used; on 394702e 20 of the probe's 53 were supported. Space-grouped thousands ("3 300",
"3\u202f300", "3\u00a0300 metres") depend on the number grammar of issue 47 (helper v1) and are
left out here."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

PASSAGE = (
    "The Eiffel Tower is a wrought-iron lattice tower in Paris. "
    "It is 330 metres tall and was completed in 1889."
)

NOT = {
    "Cyrillic o": "n\u043et",
    "Greek omicron": "n\u03bft",
    "Hangul filler U+3164": "no\u3164t",
    "half-width Hangul filler U+FFA0": "no\uffa0t",
    "Hangul choseong filler U+115F": "no\u115ft",
    "right-to-left override": "\u202eton\u202c",
    "mathematical bold": "\U0001d427\U0001d428\U0001d42d",  # 𝐧𝐨𝐭
    "mathematical sans-serif bold": "\U0001d5fb\U0001d5fc\U0001d601",  # 𝗻𝗼𝘁
    "small capitals": "\u0274\u1d0f\u1d1b",  # ɴᴏᴛ
    "o with stroke": "n\u00f8t",
    "o with a combining solidus": "no\u0338t",
}
NOT_FRAMES = (
    "The Eiffel Tower is {} in Paris.",
    "The Eiffel Tower was {} completed in 1889.",
    "The Eiffel Tower is {} 330 metres tall.",
)
NEVER = {"Cyrillic ie": "nev\u0435r", "Cyrillic ie twice": "n\u0435v\u0435r"}
NEVER_FRAMES = ("The Eiffel Tower was {} completed.", "The Eiffel Tower was {} in Paris.")
ISNT = {"Cyrillic te": "isn'\u0442", "small capital T": "isn'\u1d1b", "dotless i": "\u0131sn't"}
ISNT_FRAMES = ("The Eiffel Tower {} in Paris.", "The Eiffel Tower {} 330 metres tall.")
NUMBERS = {
    "circled 500": "The Eiffel Tower is \u2464\u24ea\u24ea metres tall.",  # ⑤⓪⓪
    "dingbat 500": "The Eiffel Tower is \u278e\u24ff\u24ff metres tall.",  # ➎⓿⓿
    "bold 500": "The Eiffel Tower is \U0001d7d3\U0001d7ce\U0001d7ce metres tall.",  # 𝟓𝟎𝟎
    "full-width 500": "The Eiffel Tower is \uff15\uff10\uff10 metres tall.",
    "circled 3300": "The Eiffel Tower is \u2462\u2462\u24ea\u24ea metres tall.",
    "circled 1999": "The Eiffel Tower was completed in \u2460\u2468\u2468\u2468.",  # ①⑨⑨⑨
    "dingbat 1999": "The Eiffel Tower was completed in \u278a\u2792\u2792\u2792.",  # ➊➒➒➒
    "bold 1999": "The Eiffel Tower was completed in \U0001d7cf\U0001d7d7\U0001d7d7\U0001d7d7.",
    "circled 1880": "The Eiffel Tower was completed in \u2460\u2467\u2467\u24ea.",
    "one circled digit": "The Eiffel Tower was completed in 1\u2468\u2468\u2468.",
}


def _attempts() -> dict[str, str]:
    made = {}
    for forms, frames in ((NOT, NOT_FRAMES), (NEVER, NEVER_FRAMES), (ISNT, ISNT_FRAMES)):
        for name, word in forms.items():
            for n, frame in enumerate(frames):
                made[f"{name} #{n}"] = frame.format(word)
    return {**made, **NUMBERS}


ATTEMPTS = _attempts()


def test_there_are_53_attempts():
    assert len(ATTEMPTS) == 53


def test_no_attempt_is_supported(guard):
    """0 flips: every wrong answer is unsupported, with the check that caught it."""
    flipped, uncaught = [], []
    for name, answer in ATTEMPTS.items():
        trace = {"trace_id": name, "query": "Tell me about the Eiffel Tower.", "response": answer}
        evaluation = guard.evaluate({**trace, "items": [{"id": "d", "text": PASSAGE}]})
        (span,) = evaluation.spans
        assert span.text == answer[span.start : span.end]  # spans keep the answer's own text
        if span.supported is not False:
            flipped.append(name)
        elif not {r.check for r in span.reasons} & {"negation", "number", "date"}:
            uncaught.append((name, [str(r) for r in span.reasons]))
    assert flipped == [] and uncaught == []


@pytest.mark.parametrize(
    "answer",
    [
        "The Eiffel Tower is \u2462\u2462\u24ea metres tall.",  # ③③⓪
        "The Eiffel Tower is \U0001d7d1\U0001d7d1\U0001d7ce metres tall.",  # 𝟑𝟑𝟎
        "The Eiffel Tower was completed in \u2460\u2467\u2467\u2468.",  # ①⑧⑧⑨
        "The Eiffel Tower is \U0001d5f6\U0001d5fb Paris.",  # 𝗶𝗻
        "The \u0395iffel T\u043ewer is in Paris.",  # Greek E, Cyrillic o
    ],
)
def test_the_true_values_in_the_same_forms_raise_no_check(answer):
    assert check(answer, PASSAGE) == ()


def test_the_right_to_left_override_reads_as_shown_and_spans_keep_their_text(guard):
    answer = "The Eiffel Tower is \u202eton\u202c in Paris."
    items = [{"id": "d", "text": PASSAGE}]
    evaluation = guard.evaluate(
        {"trace_id": "rlo", "query": "Where?", "response": answer, "items": items}
    )
    (span,) = evaluation.spans
    assert span.text == answer and span.start == 0 and span.end == len(answer)
    assert [r.check for r in span.reasons] == ["negation"] and span.supported is False
