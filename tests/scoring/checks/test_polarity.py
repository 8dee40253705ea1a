"""The negation check (``checks.polarity``): negation cues, their scope, antonyms and
prefixed opposites."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from tests.scoring.checks.passages import Case, assert_first_reason

POLARITY_CASES: list[Case] = [
    (
        "The museum does not charge for entry.",
        "Entry to the museum is free; it does not charge visitors.",
        (),
        "a negated claim matches a negated passage",
    ),
    (
        "The company did not get the balance right when it raised prices.",
        "The boss admitted that the company failed to get the balance right when it raised prices.",
        (),
        "failed to is a negation that matches not",
    ),
    (
        "Animal cells do not have cell walls.",
        "Animal cells lack cell walls and chloroplasts.",
        (),
        "lack is a negation that matches do not have",
    ),
    (
        "The discovery was made in 1990.",
        "Researchers discovered the cover in 1990.",
        (),
        "discover is no negated cover",
    ),
    (
        "Smoking is not allowed in the park.",
        "Smoking is prohibited in the park.",
        (),
        "not allowed says what prohibited says",
    ),
    (
        "The drug was ineffective against the virus.",
        "The drug was not effective against the virus.",
        (),
        "ineffective says what not effective says",
    ),
    (
        "The cause of the fire is not known.",
        "The cause of the fire is unknown.",
        (),
        "not known says what unknown says",
    ),
    (
        "The plan is important, whether we like it or not.",
        "The plan is important.",
        (),
        "or not denies nothing",
    ),
    (
        "The final product will be more costly for buyers, no matter what method of "
        "customization was used.",
        "Regardless of how customization was done in the past, consumers paid more for the end "
        "product.",
        (),
        "no matter denies nothing",
    ),
    (
        "The matter of whether or not the Mass is a sacrifice for the remission of sins is "
        "controversial.",
        "As for the divisive issue of whether the Mass is a sacrifice for the remission of "
        "sins, the statement affirms that Christ's death upon the cross ...",
        (),
        "whether or not denies nothing",
    ),
    (
        "Astronomers have not used the telescope to peer inside spiral galaxies.",
        "Astronomers have used the telescope to peer inside spiral galaxies. Nobody expected "
        "the pictures to be so sharp.",
        ("negation", "not used the telescope", ""),
        "a negated claim whose words the passage affirms",
    ),
    (
        "Sales of the phone grew by 20% in 2023.",
        "Sales of the phone fell by 20% in 2023.",
        ("negation", "grew", "fell"),
        "an antonym in place of a claim word (grew, fell)",
    ),
    (
        "The crates are stacked in the yard after use.",
        "The crates are stacked in the yard before use.",
        ("negation", "after", "before"),
        "opposite function words before one object (after use, before use)",
    ),
    (
        "He called the office before three days had passed.",
        "He called the office after two or three days had passed.",
        ("negation", "before", "after"),
        "opposite function words before one object a few words on (three days)",
    ),
    (
        "The remake was filmed after the original film.",
        "The remake of the original film tells of a boxer taken to heaven before his time.",
        (),
        "opposite function words before other objects say nothing of each other",
    ),
    (
        "Jamie Murray is not a Davis Cup champion.",
        "Jamie Murray is a Davis Cup champion, currently the world No. 5 doubles player.",
        ("negation", "not a davis cup", ""),
        "a negated claim against a passage whose No. is a number sign",
    ),
    (
        "The cause of the fire in the mill is known.",
        "The cause of the fire in the mill is unknown.",
        ("negation", "known", "unknown"),
        "a prefixed opposite (known, unknown)",
    ),
    (
        "The company got the balance right when it raised prices.",
        "The boss admitted that the company failed to get the balance right when it raised prices.",
        ("negation", "", "failed to get the balance"),
        "failed to in the anchor governs the claim's words",
    ),
    (
        "Diego Navarro beendete den Küstenmarathon 1920.",
        "Diego Navarro scheiterte 1920 nach einer Verletzung daran, den Küstenmarathon zu beenden.",
        (
            "negation",
            "",
            "scheiterte 1920 nach einer verletzung daran den küstenmarathon zu beenden",
        ),
        "German failure verbs negate what they govern (scheiterte)",
    ),
    (
        "The bridge was not designed by Hanna Berg.",
        "The bridge was designed by Hanna Berg, though it was not finished until 1931.",
        ("negation", "not designed by hanna", ""),
        "the anchor's own negation governs other words: it affirms what the claim denies",
    ),
    (
        "The bridge was not designed by Hanna Berg.",
        "The bridge was not designed by Hanna Berg, though she drew its first plans.",
        (),
        "the anchor's negation governs the claim's negated words",
    ),
    (
        "The bridge was not finished by 1931.",
        "The bridge, designed by Hanna Berg, was not finished by 1931.",
        (),
        "the anchor's negation governs the claim's words past the first",
    ),
    (
        "Metals have higher melting points than nonmetals.",
        "Nonmetals have lower melting points than metals.",
        (),
        "a comparison the other way round says the same with opposite words",
    ),
    (
        "Metals have lower melting points than nonmetals.",
        "Metals have higher melting points than nonmetals.",
        ("negation", "lower", "higher"),
        "the same comparison with the opposite word is a conflict",
    ),
    (
        "No station in Riga is busier than Quenby Station.",
        "Quenby Station is the busiest station in Riga. It opened in 1942.",
        (),
        "a negated comparison says the ranking the passage states",
    ),
    (
        "No station in Riga is busier than Quenby Station.",
        "Quenby Station is the sixth-busiest station in Riga. It opened in 1942.",
        ("negation",),
        "a negated comparison against a passage that ranks it otherwise",
    ),
    (
        "Ninguna estación de Riga es más concurrida que la estación de Quenby.",
        "La estación de Quenby es la estación más concurrida de Riga.",
        (),
        "a negated comparison in Spanish ('más ... que')",
    ),
    (
        "No bridge in Riga is longer than the Harlow Bridge.",
        "The Harlow Bridge crosses the river in Riga. It opened in 1931 and is the longest "
        "bridge in Riga.",
        (),
        "a negated comparison says the ranking a sentence other than its closest one states",
    ),
    (
        "Aucun pont de Riga n'est plus long que le pont Harlow.",
        "Le pont Harlow franchit la rivière à Riga. Il a été inauguré en 1931 et c'est le pont "
        "le plus long de Riga.",
        (),
        "the same in French",
    ),
    (
        "La gare de Quenby n'est pas la gare la plus fréquentée de Riga.",
        "La gare de Quenby est la septième gare la plus fréquentée de Riga.",
        (),
        "a negation a few words from the ranking it denies, a rank with a noun between",
    ),
    (
        "David Okoye beendete den Küstenmarathon.",
        "David Okoye beendete den Küstenmarathon 1920 wegen einer Verletzung nicht.",
        ("negation",),
        "a negation closing its sentence governs the words before it",
    ),
    (
        "David Okoye hatte eine Verletzung.",
        "David Okoye beendete den Küstenmarathon 1920 wegen einer Verletzung nicht.",
        (),
        "a closing negation governs only a claim whose words its sentence holds",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"), POLARITY_CASES, ids=[c[3] for c in POLARITY_CASES]
)
def test_polarity_rules(claim: str, passage: str, expected: tuple[str, ...], why: str) -> None:
    assert_first_reason(claim, passage, expected, why)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("No, the bridge opened in 1931.", "The Harlow Viaduct opened in 1931."),
        ("Non, le pont a été inauguré en 1931.", "Le pont Harlow a été inauguré en 1931."),
        ("No, el puente se inauguró en 1931.", "El puente Harlow se inauguró en 1931."),
        ("नहीं, पुल 1931 में खुला था।", "हार्लो पुल 1931 में खुला था।"),
    ],
    ids=["en", "fr", "es", "hi"],
)
def test_an_answer_to_a_yes_no_question_negates_nothing(claim: str, passage: str) -> None:
    """ "No," before a sentence denies the question, not the sentence: no negation reason,
    and the head's negation feature counts no mismatch."""
    from ragguard.scoring.checks import negation_explained

    assert [r for r in check(claim, passage) if r.check == "negation"] == []
    assert negation_explained(claim, passage)


@pytest.mark.parametrize(
    "claim",
    [
        "No, the bridge did not open in 1931.",
        "No bridge opened in 1931.",
        "No bridge, then, opened.",
    ],
)
def test_a_negation_beside_or_without_the_answer_still_counts(claim: str) -> None:
    passage = "The Harlow Viaduct opened in 1931."
    assert "negation" in [r.check for r in check(claim, passage)]


@pytest.mark.parametrize(
    ("passage", "denied", "kept"),
    [
        (
            "Nora Quist konnte den Küstenmarathon 1987 wegen einer Verletzung nicht beenden.",
            "Nora Quist hat den Küstenmarathon 1987 beendet.",
            "Nora Quist beendete den Küstenmarathon 1987 nicht.",
        ),
        (
            "Nora Quist n'a pas pu terminer le marathon de Riga en 1987 à cause d'une blessure.",
            "Nora Quist a terminé le marathon de Riga en 1987.",
            "Nora Quist n'a pas terminé le marathon de Riga en 1987.",
        ),
        (
            "Nora Quist no pudo terminar el maratón de Riga en 1987 por una lesión.",
            "Nora Quist terminó el maratón de Riga en 1987.",
            "Nora Quist no terminó el maratón de Riga en 1987.",
        ),
    ],
)
def test_a_negated_verb_meets_the_claim_in_another_inflection(
    passage: str, denied: str, kept: str
) -> None:
    """A language read without a stemmer meets "beenden" in "beendet", "terminer" in
    "terminé": what the passage says could not happen did not."""
    assert "negation" in [r.check for r in check(denied, passage)]
    assert [r for r in check(kept, passage) if r.check == "negation"] == []


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Nora Quist leitet die Firma Amberline nicht mehr; sie trat 1990 zurück.",
            "Nora Quist leitet die Firma Amberline.",
        ),
        (
            "Nora Quist no longer runs Amberline; she stepped down in 1990.",
            "Nora Quist runs Amberline.",
        ),
    ],
)
def test_a_negation_closing_its_clause_governs_it(passage: str, claim: str) -> None:
    """What a negation governs ends at the semicolon that closes its clause."""
    assert [r.check for r in check(claim, passage)] == ["negation"]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Nora Quist hat den Halvorsen-Preis nie erhalten.",
            "Nora Quist erhielt den Halvorsen-Preis.",
        ),
        (
            "Nora Quist erhielt den Halvorsen-Preis nie.",
            "Nora Quist hat den Halvorsen-Preis erhalten.",
        ),
        ("Nora Quist hat nie in Riga gewohnt.", "Nora Quist wohnte in Riga."),
        (
            "Nora Quist konnte den Küstenmarathon nicht gewinnen.",
            "Nora Quist gewann den Küstenmarathon.",
        ),
    ],
)
def test_a_german_verb_in_another_tense_is_denied(passage: str, claim: str) -> None:
    """Forms of one strong verb (``[polarity] verb_forms``) and a past participle
    (``participle_prefixes``) are one verb: the passage's "nie erhalten" denies "erhielt"."""
    assert [r.check for r in check(claim, passage)] == ["negation"]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Greta Holm erhielt den Larsen-Preis nicht 1931, sondern 1935.",
            "Greta Holm erhielt den Larsen-Preis 1935.",
        ),
        (
            "Greta Holm received the Larsen Prize not in 1931 but in 1935.",
            "Greta Holm received the Larsen Prize in 1935.",
        ),
    ],
)
def test_a_negation_put_right_governs_nothing_after_the_correction(
    passage: str, claim: str
) -> None:
    assert "negation" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "The Kellan Bridge crosses the river in Riga and opened in 1931. It is not the "
            "longest bridge in Riga.",
            "The Kellan Bridge is the longest bridge in Riga.",
        ),
        (
            "Le pont Kellan franchit le fleuve à Riga et a été inauguré en 1931. Ce n'est pas "
            "le plus long pont de Riga.",
            "Le pont Kellan est le plus long pont de Riga.",
        ),
        (
            "Die Kellan-Brücke überquert den Fluss in Riga. Sie ist nicht die längste Brücke "
            "in Riga.",
            "Die Kellan-Brücke ist die längste Brücke in Riga.",
        ),
    ],
)
def test_a_denial_in_a_sentence_as_near_the_claim_as_the_anchor_counts(
    passage: str, claim: str
) -> None:
    """A sentence that holds as much of the claim as the first anchor, and whose negation
    governs two of its words, denies it ("plus" of "pas le plus long" is no second denial)."""
    assert "negation" in {r.check for r in check(claim, passage)}


def test_a_tied_sentence_denying_one_word_of_the_claim_does_not_count() -> None:
    passage = "Netscape Navigator first shipped in 1994. AOL could not sustain Netscape Navigator."
    claim = "Netscape Navigator was a web browser."
    assert "negation" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Greta Holm gewann den Larsen-Preis nie, obwohl sie 1931 nominiert wurde.",
            "Greta Holm hat den Larsen-Preis gewonnen.",
        ),
        (
            "David Okoye beendete den Marathon nicht, weil eine Verletzung dazwischenkam.",
            "David Okoye hat den Marathon beendet.",
        ),
    ],
)
def test_a_negation_closing_the_first_clause_before_a_comma_governs_it(
    passage: str, claim: str
) -> None:
    assert "negation" in {r.check for r in check(claim, passage)}
    assert "negation" not in {r.check for r in check(passage.split(",")[0] + ".", passage)}


AFFIRMED_BESIDE_A_DENIAL = [
    (
        "de",
        "Nora Quist beendete den Küstenlauf 1931, gewann aber keine Medaille.",
        "Nora Quist hat den Küstenlauf 1931 nicht beendet.",
        "Nora Quist beendete den Küstenlauf 1931 nicht, obwohl sie eine Stunde lang führte.",
    ),
    (
        "fr",
        "Nora Quist a terminé la course de Riga en 1931, mais elle n'a pas gagné de médaille.",
        "Nora Quist n'a pas terminé la course de Riga en 1931.",
        "Nora Quist n'a pas terminé la course de Riga en 1931, bien qu'elle ait mené longtemps.",
    ),
    (
        "es",
        "Nora Quist terminó la carrera de Riga en 1931, pero no ganó ninguna medalla.",
        "Nora Quist no terminó la carrera de Riga en 1931.",
        "Nora Quist no terminó la carrera de Riga en 1931, aunque lideró durante una hora.",
    ),
    (
        "hi",
        "नोरा क्विस्ट ने 1931 में रीगा दौड़ पूरी की, लेकिन कोई पदक नहीं जीता।",
        "नोरा क्विस्ट ने 1931 में रीगा दौड़ पूरी नहीं की।",
        "नोरा क्विस्ट 1931 में रीगा दौड़ पूरी नहीं कर सकीं, हालाँकि वे आगे रहीं।",
    ),
    (
        "hi",
        "विलो कंपनी ने 1931 में ओस्लो में एक दफ़्तर खोला, लेकिन वहाँ कभी कोई कारख़ाना नहीं बना।",
        "विलो कंपनी ने ओस्लो में कभी दफ़्तर नहीं खोला।",
        "विलो कंपनी ने ओस्लो में कभी दफ़्तर नहीं खोला, हालाँकि उसने 1931 में योजना बनाई।",
    ),
]


@pytest.mark.parametrize(
    ("code", "passage", "denied", "denying"),
    AFFIRMED_BESIDE_A_DENIAL,
    ids=[f"{case[0]}-{i}" for i, case in enumerate(AFFIRMED_BESIDE_A_DENIAL)],
)
def test_a_denial_of_what_the_sentence_affirms_beside_its_own_denial(
    code: str, passage: str, denied: str, denying: str
) -> None:
    """The sentence's own negation governs other words ("keine Medaille"), so the denied
    answer conflicts; a sentence whose negation governs the answer's words supports it
    ("कभी" of "कभी नहीं" joins the negation, it is no word it governs)."""
    assert [r.check for r in check(denied, passage, code)][:1] == ["negation"]
    assert not [r for r in check(denied, denying, code) if r.check == "negation"]
