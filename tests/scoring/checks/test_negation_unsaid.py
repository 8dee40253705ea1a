"""A negated claim against a passage that denies other things but says the claim's negated
words only as affirmed (``checks.polarity._negation_unsaid``): a long email or dialogue
summed up with "not", in every language the checks read."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check

# language: (passage with a denial elsewhere, negated claim, the passage denying the words)
EMAILS = {
    "en": (
        "Hi Ben, the spring launch is on Friday. {printer} printed the brochure last week. "
        "I do not know the final budget yet.",
        "Sally tells Ben that the brochure for the spring launch was not printed by {printer} "
        "and that she will ask about the budget.",
        "Hi Ben, the spring launch is on Friday. {printer} did not print the brochure last "
        "week. I know the final budget.",
    ),
    "de": (
        "Hallo Ben, der Start ist am Freitag. {printer} druckte die Broschüre letzte Woche. "
        "Das Budget kenne ich noch nicht.",
        "Sally sagt Ben, dass {printer} die Broschüre für den Start nicht druckte.",
        "Hallo Ben, der Start ist am Freitag. {printer} druckte die Broschüre letzte Woche "
        "nicht. Das Budget kenne ich.",
    ),
    "fr": (
        "Salut Ben, le lancement est vendredi. {printer} a imprimé la brochure la semaine "
        "dernière. Je ne connais pas encore le budget.",
        "Sally dit à Ben que {printer} n'a pas imprimé la brochure du lancement et qu'elle "
        "demandera le budget.",
        "Salut Ben, le lancement est vendredi. {printer} n'a pas imprimé la brochure la "
        "semaine dernière. Je connais le budget.",
    ),
    "es": (
        "Hola Ben, el lanzamiento es el viernes. {printer} imprimió el folleto la semana "
        "pasada. Todavía no conozco el presupuesto.",
        "Sally le dice a Ben que {printer} no imprimió el folleto del lanzamiento y que "
        "preguntará por el presupuesto.",
        "Hola Ben, el lanzamiento es el viernes. {printer} no imprimió el folleto la semana "
        "pasada. Conozco el presupuesto.",
    ),
    "hi": (
        "नमस्ते बेन, लॉन्च शुक्रवार को है। {printer} ने पिछले हफ्ते ब्रोशर छापा। मुझे अभी बजट नहीं पता।",
        "सैली ने बेन को बताया कि लॉन्च का ब्रोशर {printer} ने नहीं छापा और वह बजट के बारे में पूछेगी।",
        "नमस्ते बेन, लॉन्च शुक्रवार को है। {printer} ने पिछले हफ्ते ब्रोशर नहीं छापा। मुझे बजट पता है।",
    ),
}
PRINTERS = {
    "en": ["Harlow Press", "Orlen Print", "Brask and Sons"],
    "de": ["Harlow Press", "Orlen Druck", "Brask und Söhne"],
    "fr": ["Harlow Press", "Orlen Imprimerie", "Brask et Fils"],
    "es": ["Harlow Press", "Imprenta Orlen", "Brask e Hijos"],
    "hi": ["हार्लो प्रेस", "ओर्लेन प्रिंट", "ब्रास्क एंड संस"],
}
CASES = [(language, printer) for language, names in PRINTERS.items() for printer in names]


def negations(claim: str, passage: str) -> list[str]:
    return [r.claim for r in check(claim, passage) if r.check == "negation"]


@pytest.mark.parametrize(("language", "printer"), CASES)
def test_a_claim_denying_what_the_passage_only_affirms_is_flagged(
    language: str, printer: str
) -> None:
    affirmed, claim, _ = (text.format(printer=printer) for text in EMAILS[language])
    assert negations(claim, affirmed)


@pytest.mark.parametrize(("language", "printer"), CASES)
def test_a_passage_denying_the_same_words_keeps_the_claim(language: str, printer: str) -> None:
    _, claim, denied = (text.format(printer=printer) for text in EMAILS[language])
    assert not negations(claim, denied)


def test_a_passage_that_never_says_the_negated_words_is_left_to_the_other_rules() -> None:
    """Nothing of the passage holds "printed" and the printer: no sentence affirms them."""
    passage = "Hi Ben, the spring launch is on Friday. I do not know the final budget yet."
    claim = "Sally tells Ben that the brochure was not printed by Harlow Press."
    assert not negations(claim, passage)
