"""The entity check (``checks.entities``) and the name rules it reads (``checks.proper_names``)."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.name_frames import only_other_person
from ragguard.scoring.checks.parse import parse, parse_passage, sentences_of
from tests.scoring.checks.passages import Case, assert_first_reason

ENTITIES_CASES: list[Case] = [
    (
        "Jack Falahee is from America.",
        "Jack Falahee is an American actor.",
        (),
        "a demonym matches its country (American, America)",
    ),
    ("Kenya won the race.", "The Kenyan team won the race.", (), "Kenyan shares the root of Kenya"),
    (
        "J. Smith founded the firm in Ohio.",
        "John Smith founded the firm in Ohio.",
        (),
        "an initial matches the first name it stands for",
    ),
    (
        "The Ukrainian SSR was a member of the UN.",
        "The Ukrainian SSR joined the United Nations as a member.",
        (),
        "an acronym matches its words (UN, United Nations)",
    ),
    (
        "Yesterday John Smith won the final.",
        "John Smith won the final.",
        (),
        "a capitalized sentence opener is no name",
    ),
    (
        "The Smiths released the album.",
        "The album was released by Smith.",
        (),
        "a plural name matches its singular",
    ),
    (
        "Mick Thomson was born in Iowa.",
        "Mick Thomson was born in Des Moines, Iowa.",
        (),
        "a place listed with another fills the same slot (Des Moines, Iowa)",
    ),
    (
        "The film Café Society stars Sheryl Lee.",
        "Sheryl Lee stars in the film Café Society, directed by Woody Allen.",
        (),
        "a name written with a combining accent is the same name",
    ),
    (
        "The net interest margin was higher than in Q2.",
        "The net interest margin was higher than in Q2, the bank said.",
        (),
        "a lone letter and a digit is no name to look up (Q2)",
    ),
    (
        "Python was created by Guido van Rossum.",
        "Python was created by Guido van Rossum.",
        (),
        "a name with a lower-case joiner (van) is one name",
    ),
    (
        "Python was created by James Gosling.",
        "Python was created by Guido van Rossum in 1991.",
        ("entity", "James Gosling", "Guido van Rossum"),
        "a name led by the same word as the anchor's",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"), ENTITIES_CASES, ids=[c[3] for c in ENTITIES_CASES]
)
def test_entity_rules(claim: str, passage: str, expected: tuple[str, ...], why: str) -> None:
    assert_first_reason(claim, passage, expected, why)


@pytest.mark.parametrize(
    ("claim", "passage", "claimed", "named"),
    [
        (
            "Kilimanjaro is in Kenya.",
            "Kilimanjaro is a dormant volcano in Tanzania.",
            "Kenya",
            "Tanzania",
        ),
        (
            "The tower was designed by Eiffel.",
            "The tower was designed by Koechlin.",
            "Eiffel",
            "Koechlin",
        ),
        (
            "Maurice Koechlin designed the tower.",
            "Gustave Eiffel designed the tower in 1887.",
            "Maurice Koechlin",
            "Gustave Eiffel",
        ),
        (
            "The Golden Gate Bridge is in Los Angeles.",
            "The Golden Gate Bridge is a suspension bridge in San Francisco, California.",
            "Los Angeles",
            "San Francisco",
        ),
        (
            "El museo está en Madrid.",
            "El museo está en Barcelona desde 1900.",
            "Madrid",
            "Barcelona",
        ),
        (  # the subject against the agent of a passive
            "Ivan Petrov built the Greystone Bridge.",
            "The Greystone Bridge in Manchester was built by Mira Chandra and opened in 1937.",
            "Ivan Petrov",
            "Mira Chandra",
        ),
        (  # a subject that opens with the letters of an article ("El" of "Elena")
            "Ivan Petrov a créé l'entreprise Copperfield.",
            "Elena Marsh a créé l'entreprise Copperfield à Berlin en 1852.",
            "Ivan Petrov",
            "Elena Marsh",
        ),
        (  # places after different words that say where
            "Mira Chandra grew up near Bordeaux.",
            "Mira Chandra grew up in Hamburg and later settled in Dunmore.",
            "Bordeaux",
            "Hamburg",
        ),
        (
            "La empresa Copperfield tiene su sede cerca de Holloway.",
            "Anna Sorensen creció en Ámsterdam, donde la empresa Copperfield tiene su sede.",
            "Holloway",
            "Ámsterdam",
        ),
    ],
)
def test_a_name_in_the_slot_where_the_passage_names_another(claim, passage, claimed, named):
    from ragguard.scoring.checks import check
    from ragguard.scoring.interface.protocols import Reason

    assert Reason("entity", claimed, named) in check(claim, passage)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Ed Decter directs films.", "The New Guy is a 2002 film directed by Ed Decter."),
        ("Paris is the capital of France.", "France's capital, Paris, is its largest city."),
        (
            "Gustave Eiffel designed the tower.",
            "Gustave Eiffel designed the tower. Maurice Koechlin drew the first sketch.",
        ),
    ],
)
def test_names_that_merely_co_occur_do_not_fire(claim, passage):
    from ragguard.scoring.checks import check

    assert not [r for r in check(claim, passage) if r.check == "entity"]


ANY_POSITION_CASES: list[Case] = [
    (
        "David Okoye's firm, Willow Press, began in Berlin.",
        "Diego Navarro started Willow Press in Berlin in 1978. It now has 2,150 employees.",
        ("entity", "David Okoye", "Diego Navarro"),
        "a possessive full name against the sentence's one other full name",
    ),
    (
        "L'entreprise Redstone est la création de Mira Chandra.",
        "Greta Holm a créé l'entreprise Redstone à Berlin en 1899.",
        ("entity", "Mira Chandra", "Greta Holm"),
        "a full name after any preposition (de), the place (à Berlin) no rival of a person",
    ),
    (
        "Le prix Tallis est revenu à Ivan Petrov en 1881.",
        "Mira Chandra a reçu le prix Tallis en 1881 pour des recherches sur les glaciers.",
        ("entity", "Ivan Petrov", "Mira Chandra"),
        "a person after a word that also leads places (à)",
    ),
    (
        "Die Firma Blue Fern ist Hana Satos Gründung.",
        "Paul Fischer gründete 1852 die Firma Blue Fern in Riga.",
        ("entity", "Hana Satos", "Paul Fischer"),
        "two capitals in a row are a German name, less a common noun's ending (Gründung)",
    ),
    (
        "Mira Chandra erhielt 1962 den Orwin-Preis.",
        "Sofia Lindgren erhielt 1962 den Orwin-Preis für Forschung über Gletscher.",
        ("entity", "Mira Chandra", "Sofia Lindgren"),
        "a German subject of two words",
    ),
    (
        "The Meyer Medal of 1822 was awarded to Elena Marsh.",
        "Omar Farouk received the Meyer Medal in 1822 for research on glaciers.",
        ("entity", "Elena Marsh", "Omar Farouk"),
        "an acronym that spells a function word (Omar Farouk: of) is no key",
    ),
    (
        "the kellan bridge was built by mira chandra.",
        "The Kellan Bridge in Oslo was built by Paul Fischer and opened in 1850.",
        ("entity", "Mira Chandra", "Paul Fischer"),
        "a two-word name typed in lower case after 'by'",
    ),
    (
        "केलन पुल मैड्रिड में नदी पर बना है।",
        "केलन पुल वालेंसिया में नदी पर बना है। इसे 1869 में खोला गया था।",
        ("entity", "मैड्रिड", "वालेंसिया"),
        "a Hindi name by the postposition after it",
    ),
    (
        "विलो कंपनी पॉल फ़िशर द्वारा शुरू की गई थी।",
        "अन्ना सोरेनसेन ने 1920 में डबलिन में विलो कंपनी शुरू की।",
        ("entity", "पॉल फ़िशर", "अन्ना सोरेनसेन"),
        "the doer of a passive (द्वारा) against the doer of an active (ने)",
    ),
    (
        "केलन पुल वालेंसिया में नदी पर बना है।",
        "केलन पुल वालेंसिया में नदी पर बना है। इसे 1869 में खोला गया था।",
        (),
        "a Hindi claim the passage states",
    ),
    (
        "While staying in Eliat, one can explore the Red Sea.",
        "It is feasible to spend a fortnight in Eilat, exploring the Red Sea.",
        (),
        "a name one letter apart is the same name misspelt",
    ),
    (
        "The Morant Point Lighthouse was built in the 19th Century.",
        "On the easternmost tip of Jamaica stands Morant Point Lighthouse, built in 1841.",
        (),
        "a one-word name may be anything: no person put for a person",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"),
    ANY_POSITION_CASES,
    ids=[c[3] for c in ANY_POSITION_CASES],
)
def test_a_name_put_for_another_wherever_it_stands(
    claim: str, passage: str, expected: tuple[str, ...], why: str
) -> None:
    assert_first_reason(claim, passage, expected, why)


FRAME_CASES: list[Case] = [
    (
        "Dunmore is where Willow Press has its head office.",
        "Mira Chandra grew up in Amsterdam and later settled in Ashcombe, where Willow Press "
        "has its head office.",
        ("entity", "Dunmore", "Ashcombe"),
        "a place opening the claim, read by the word beside it (Willow Press)",
    ),
    (
        "Ashcombe is where Willow Press has its head office.",
        "Mira Chandra grew up in Amsterdam and later settled in Ashcombe, where Willow Press "
        "has its head office.",
        (),
        "the same frame with the passage's place: nothing",
    ),
    (
        "Berlin's Willow Press was started by Mira Chandra.",
        "Mira Chandra started Willow Press in Oslo in 1920. It now has 350 employees.",
        ("entity", "Berlin", "Oslo"),
        "a place in a possessive against the place beside the same name",
    ),
    (
        "Dunmore abrite le siège de l'entreprise Willow.",
        "Lukas Weber a grandi à Valence puis s'est établi à Holloway, où l'entreprise Willow a "
        "son siège.",
        ("entity", "Dunmore", "Holloway"),
        "a place opening the claim, nearest the same name as the passage's place",
    ),
    (
        "L'entreprise Copperfield de Lisbonne a été créée par Anna Sorensen.",
        "Anna Sorensen a créé l'entreprise Copperfield à Dublin en 1852.",
        ("entity", "Lisbonne", "Dublin"),
        "the last part of a joined name whose first part the passage states",
    ),
    (
        "एलेना मार्श ट्रॉनहैम चली गईं।",
        "एलेना मार्श का जन्म ओस्लो में हुआ और 1950 में वे बर्गन चली गईं।",
        ("entity", "ट्रॉनहैम", "बर्गन"),
        "Hindi: a place gone to stands bare before the verb; its role is the verb's, not में's",
    ),
    (
        "एलेना मार्श बर्गन चली गईं।",
        "एलेना मार्श का जन्म ओस्लो में हुआ और 1950 में वे बर्गन चली गईं।",
        (),
        "Hindi: the place gone to, as the passage writes it",
    ),
    (
        "मैड्रिड की विलो कंपनी मीरा चंद्रा ने शुरू की थी।",
        "मीरा चंद्रा ने 1920 में ओस्लो में विलो कंपनी शुरू की।",
        ("entity", "मैड्रिड", "ओस्लो"),
        "Hindi: a name before another role's postposition, the same word after it",
    ),
    (
        "There was a discussion between PhDs about spectral subtraction.",
        "PhD D: we tried spectral subtraction. PhD F: is spectral subtraction better?",
        (),
        "an acronym's plural is the acronym (PhDs, PhD)",
    ),
    (
        "Le lac Vatna se trouve au Cyrrus.",
        "Le lac Vatna se trouve dans le nord du Belmora. Il couvre 82 kilomètres carrés.",
        ("entity", "Cyrrus", "Belmora"),
        "French: a region of a country says where ('dans le nord du'), as 'au' does",
    ),
    (
        "El lago Vatna está en Cyrrus.",
        "El lago Vatna está en el norte de Belmora. Tiene 82 kilómetros cuadrados.",
        ("entity", "Cyrrus", "Belmora"),
        "Spanish: 'en el norte de'",
    ),
    (
        "Der Vatna-See liegt in Cyrrus.",
        "Der Vatna-See liegt im Norden von Belmora. Er hat 82 Quadratkilometer.",
        ("entity", "Cyrrus", "Belmora"),
        "German: 'im Norden von'",
    ),
    (
        "Cyrrus is home to Lake Vatna.",
        "Lake Vatna lies in the north of Belmora and drains into the Kessel Sea. It covers 82 "
        "square kilometres.",
        ("entity", "Cyrrus", "Belmora"),
        "a place as the subject of 'is home to'; the sentence that names no one else is no rival",
    ),
    (
        "Le Cyrrus abrite le lac Vatna.",
        "Le lac Vatna se trouve dans le nord du Belmora. Il couvre 82 kilomètres carrés.",
        ("entity", "Le Cyrrus", "Belmora"),
        "French: the article opening a name is no key of it ('Le lac' holds no 'Le Cyrrus')",
    ),
    (
        "एलेना मार्श ने बर्गन शहर में विलो कंपनी शुरू की।",
        "एलेना मार्श ने 1950 में ओस्लो में विलो कंपनी शुरू की।",
        ("entity", "बर्गन", "ओस्लो"),
        "Hindi: a place noun between a name and its postposition ('शहर में')",
    ),
    (
        "L'Ostralie abrite le lac Vatna.",
        "Le lac Vatna se trouve dans le nord de l'Elvarie. Il couvre 82 kilomètres carrés.",
        ("entity", "Ostralie", "Elvarie"),
        "French: an elided article opening the claim is apart from the name it opens",
    ),
    (
        "Le Cyrrus possède le lac Vatna.",
        "Le lac Vatna se trouve dans le nord du Belmora. Il couvre 82 kilomètres carrés.",
        ("entity", "Le Cyrrus", "Belmora"),
        "French: a verb of having makes the name opening the claim a place",
    ),
    (
        "York is the city where Elena Marsh founded Willow Press.",
        "Elena Marsh founded Willow Press in Oslo in 1922.",
        ("entity", "York", "Oslo"),
        "a place as the subject of 'the city where'",
    ),
    (
        "Nantes est la ville où Elena Marsh a fondé Willow Press.",
        "Elena Marsh a fondé Willow Press à Oslo en 1922.",
        ("entity", "Nantes", "Oslo"),
        "French: 'est la ville où'",
    ),
    (
        "Granada es donde Elena Marsh fundó Willow Press.",
        "Elena Marsh fundó Willow Press en Oslo en 1922.",
        ("entity", "Granada", "Oslo"),
        "Spanish: 'es donde'",
    ),
    (
        "Bremen ist die Stadt, in der Elena Marsh Willow Press gründete.",
        "Elena Marsh gründete Willow Press 1922 in Oslo.",
        ("entity", "Bremen", "Oslo"),
        "German: 'ist die Stadt, in der'",
    ),
    (
        "यॉर्क वह शहर है जहाँ एलेना मार्श ने विलो प्रेस शुरू की।",
        "एलेना मार्श ने 1922 में ओस्लो में विलो प्रेस शुरू की।",
        ("entity", "यॉर्क", "ओस्लो"),
        "Hindi: 'वह शहर है जहाँ' (the city where)",
    ),
    (
        "Madrid is where Elena Marsh founded Willow Press.",
        "Elena Marsh founded Willow Press in Oslo in 1922.",
        ("entity", "Madrid", "Oslo"),
        "a name before 'is where' is a place, matched to the sentence's one place",
    ),
    (
        "Oslo is where Elena Marsh founded Willow Press.",
        "Elena Marsh founded Willow Press in Oslo in 1922.",
        (),
        "the place stated, in the 'is where' frame",
    ),
    (
        "À Madrid, Elena Marsh a fondé Willow Press en 1922.",
        "Elena Marsh a fondé Willow Press à Oslo en 1922. L'entreprise emploie 400 personnes.",
        ("entity", "Madrid", "Oslo"),
        "a capitalized preposition opening the sentence is no part of the name",
    ),
    (
        "En Oslo, Elena Marsh fundó Willow Press en 1922.",
        "Elena Marsh fundó Willow Press en Oslo en 1922.",
        (),
        "a fronted place the passage states (Spanish)",
    ),
    (
        "Elena Marsh founded Willow Press in the city of Madrid.",
        "Elena Marsh founded Willow Press in Oslo in 1922.",
        ("entity", "Madrid", "Oslo"),
        "'in the city of' says where",
    ),
    (
        "Dublin accueille l'entreprise Willow.",
        "L'entreprise Willow a son siège à Madrid. Elle accueille chaque année 920 visiteurs.",
        ("entity", "Dublin", "Madrid"),
        "French: a place opening the claim, where the sentence sharing its verb names no place",
    ),
    (
        "Dublin is home to Willow Press.",
        "Willow Press has its head office in Madrid. It is home to 920 staff.",
        ("entity", "Dublin", "Madrid"),
        "the place set by the sentences about the claim's other name, where none is most on topic",
    ),
    (
        "Madrid is home to Willow Press.",
        "Willow Press has its head office in Madrid. It is home to 920 staff.",
        (),
        "the same frame with the passage's place: nothing",
    ),
    (
        "C'est Dublin qui abrite le siège de l'entreprise Willow.",
        "Elena Marsh a grandi à Madrid puis s'est établie à Velden, où l'entreprise Willow a son "
        "siège.",
        ("entity", "Dublin", "Velden"),
        "French: a place in a cleft is the subject of the clause after 'qui'",
    ),
    (
        "Es Dublín la que alberga la sede de la empresa Willow.",
        "Elena Marsh creció en Madrid y más tarde se estableció en Velden, donde la empresa Willow "
        "tiene su sede.",
        ("entity", "Dublín", "Velden"),
        "Spanish: a place in a cleft, before 'la que'",
    ),
    (
        "Es Velden la que alberga la sede de la empresa Willow.",
        "Elena Marsh creció en Madrid y más tarde se estableció en Velden, donde la empresa Willow "
        "tiene su sede.",
        (),
        "Spanish: the cleft with the passage's place: nothing",
    ),
    (
        "Dunmore abrite le siège de l'entreprise Willow.",
        "Elena Marsh est née à Madrid et vit à Velden, où se trouve le siège de l'entreprise "
        "Willow.",
        ("entity", "Dunmore", "Velden"),
        "French: of several places, the one whose stretch of the sentence holds the claim's words",
    ),
    (
        "Dunmore alberga la sede de la empresa Willow.",
        "Elena Marsh nació en Madrid y vive en Velden, donde se encuentra la sede de la empresa "
        "Willow.",
        ("entity", "Dunmore", "Velden"),
        "Spanish: the place the claim's words are said of, far from the name they name",
    ),
]


@pytest.mark.parametrize(
    ("claim", "passage", "expected", "why"), FRAME_CASES, ids=[c[3] for c in FRAME_CASES]
)
def test_a_name_stated_nowhere_is_read_by_its_frame(
    claim: str, passage: str, expected: tuple[str, ...], why: str
) -> None:
    assert_first_reason(claim, passage, expected, why)


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "The Cry of the Owl is based on a book by an American.",
            "The Cry of the Owl is a 2009 thriller film based on Patricia Highsmith's book.",
        ),
        (
            "The Nobel Prize in Chemistry was awarded to a person from the Kingdom of the "
            "Netherlands.",
            "The first Nobel Prize in Chemistry was awarded in 1901 to Jacobus van 't Hoff, of "
            "the Netherlands.",
        ),
        (
            "Elena Marsh was an inmate in a western U.S state.",
            "Elena Marsh . Marsh was the first inmate in Nevada to be pardoned in 1990 .",
        ),
    ],
    ids=["after an indefinite article", "the head of a joined name", "qualifying a noun"],
)
def test_a_word_that_describes_is_read_by_no_frame(claim: str, passage: str) -> None:
    from ragguard.scoring.checks import check

    assert not [r for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize(
    ("claim", "passage", "expected"),
    [
        (
            "The Rowan Bridge is the longest bridge in Riga.",
            "The Millbrook Bridge is the longest bridge in Riga. It opened in 1978.",
            ("entity", "Rowan Bridge", "Millbrook Bridge"),
        ),
        (
            "The Millbrook Bridge is the longest bridge in Riga.",
            "The Millbrook Bridge is the longest bridge in Riga. It opened in 1978.",
            (),
        ),
    ],
    ids=["two bridges", "the same bridge"],
)
def test_a_common_noun_ending_two_names_makes_them_no_one_name(
    claim: str, passage: str, expected: tuple[str, ...]
) -> None:
    assert_first_reason(claim, passage, expected, "a shared common noun is no shared name")


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("The film is set during WWII.", ()),
        ("The film is set during WWI.", ("entity", "WWI", "World War II")),
    ],
    ids=["the acronym", "another war"],
)
def test_an_acronym_keeps_a_roman_numeral_whole(claim: str, expected: tuple[str, ...]) -> None:
    passage = "The film is set in Italy during World War II."
    assert_first_reason(claim, passage, expected, "WWII is World War II")


AMBERLINE = "Nora Quist started Amberline in Tallinn in 1962. It now has 340 employees."


@pytest.mark.parametrize(
    ("claim", "passage", "expected"),
    [
        ("Amberline comes from Vilnius.", AMBERLINE, ("entity", "Vilnius", "Tallinn")),
        ("Amberline is based in Vilnius.", AMBERLINE, ("entity", "Vilnius", "Tallinn")),
        ("Amberline is based in Tallinn.", AMBERLINE, ()),
        (
            "L'entreprise Amberline est originaire de Vilnius.",
            "Nora Quist a créé l'entreprise Amberline à Tallinn en 1962. Elle compte aujourd'hui "
            "340 salariés.",
            ("entity", "Vilnius", "Tallinn"),
        ),
        (
            "La empresa Amberline procede de Vilna.",
            "Nora Quist creó la empresa Amberline en Tallin en 1962. Hoy tiene 340 empleados.",
            ("entity", "Vilna", "Tallin"),
        ),
    ],
    ids=["comes from", "based in", "the same place", "originaire de", "procede de"],
)
def test_a_one_word_subject_anchors_its_origin(
    claim: str, passage: str, expected: tuple[str, ...]
) -> None:
    assert_first_reason(claim, passage, expected, "the company's one word is its anchor")


FOUNDED = {
    "en": "Nora Quist founded Amberline in Tallinn in 1998. The company makes ferries.",
    "fr": "Nora Quist a créé l'entreprise Amberline à Tallinn en 1998. Elle fabrique des ferries.",
    "es": "Nora Quist creó la empresa Amberline en Tallin en 1998. Fabrica transbordadores.",
}


@pytest.mark.parametrize(
    ("code", "claim"),
    [
        ("en", "Tomas Reyes started Amberline."),
        ("en", "Amberline was started by Tomas Reyes."),
        ("en", "The founder of Amberline is Tomas Reyes."),
        ("en", "Amberline's founder is Tomas Reyes."),
        ("fr", "Le fondateur d'Amberline est Tomas Reyes."),
        ("es", "El fundador de Amberline es Tomas Reyes."),
    ],
)
def test_a_one_word_name_anchors_another_founder(code: str, claim: str) -> None:
    """The claim says nothing but its names and one word (a verb or a noun the passage words
    otherwise): the sentence holding its other name anchors it, and its one full name is
    put for the passage's."""
    reasons = [r for r in check(claim, FOUNDED[code]) if r.check == "entity"]
    assert [(r.claim, r.evidence) for r in reasons] == [("Tomas Reyes", "Nora Quist")]


def test_the_same_founder_in_other_words_is_no_rival() -> None:
    for claim in ("The founder of Amberline is Nora Quist.", "Nora Quist started Amberline."):
        assert [r for r in check(claim, FOUNDED["en"]) if r.check == "entity"] == []


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "Die Kellan-Brücke ist die längste Brücke in Riga. Sie wurde 1931 eröffnet.",
            "Die längste Brücke in Riga ist die Harlow-Brücke.",
            "Kellan-Brücke",
        ),
        (
            "Die Kellan-Brücke ist die längste Brücke in Riga. Sie wurde 1931 eröffnet.",
            "Die Harlow-Brücke ist die längste Brücke in Riga.",
            "Kellan-Brücke",
        ),
        (
            "केलन पुल रीगा का सबसे लंबा पुल है। इसे 1931 में खोला गया था।",
            "रीगा का सबसे लंबा पुल हार्लो पुल है।",
            "केलन",
        ),
    ],
)
def test_another_name_of_the_same_kind_is_a_rival(passage: str, claim: str, rival: str) -> None:
    """German's capitalized "Brücke" and Hindi's "पुल" after a name say what kind of thing it
    names, not which: "Harlow-Brücke" is another bridge than "Kellan-Brücke"."""
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", rival)]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        ("Die Kellan-Brücke ist die längste Brücke in Riga.", "Die Kellan-Brücke ist lang."),
        ("केलन पुल रीगा का सबसे लंबा पुल है।", "केलन पुल एक पुराना पुल है।"),
    ],
)
def test_the_same_name_or_a_describing_word_is_no_rival(passage: str, claim: str) -> None:
    assert [r for r in check(claim, passage) if r.check == "entity"] == []


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Nora Quist started Amberline in Tallinn in 1987. It now has 4,200 employees.",
            "Nora Quist started Amberline on the outskirts of Vilnius.",
        ),
        (
            "Nora Quist a créé l'entreprise Amberline à Tallinn en 1987.",
            "Nora Quist a créé l'entreprise Amberline en dehors de Vilnius.",
        ),
        (
            "Nora Quist creó la empresa Amberline en Tallin en 1987.",
            "Nora Quist creó la empresa Amberline en las afueras de Vilna.",
        ),
        (
            "नोरा क्विस्ट ने 1987 में टालिन में एम्बरलाइन कंपनी शुरू की।",
            "नोरा क्विस्ट ने विल्नियस के पास एम्बरलाइन कंपनी शुरू की।",
        ),
    ],
)
def test_a_place_after_any_preposition_fills_the_place_slot(passage: str, claim: str) -> None:
    """ "on the outskirts of", "en dehors de", "के पास" say where as "in" does."""
    assert "entity" in [r.check for r in check(claim, passage)]


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "Nora Quist started Amberline in Tallinn in 1987. It now has 4,200 employees.",
            "David Okoye's Amberline has 4,200 employees.",
            "Nora Quist",
        ),
        (
            "Nora Quist a créé l'entreprise Amberline à Tallinn en 1987. Elle compte aujourd'hui "
            "4 200 salariés.",
            "L'entreprise Amberline de David Okoye compte 4 200 salariés.",
            "Nora Quist",
        ),
        (
            "Nora Quist creó la empresa Amberline en Tallin en 1987. Hoy tiene 4.200 empleados.",
            "La empresa Amberline, creada por David Okoye, tiene 4.200 empleados.",
            "Nora Quist",
        ),
        (
            "नोरा क्विस्ट ने 1987 में टालिन में एम्बरलाइन कंपनी शुरू की। आज इसमें 4,200 कर्मचारी हैं।",
            "डेविड ओकोये की एम्बरलाइन कंपनी में 4,200 कर्मचारी हैं।",
            "नोरा क्विस्ट",
        ),
    ],
)
def test_a_person_the_passage_never_names_beside_its_subject(
    passage: str, claim: str, rival: str
) -> None:
    """A full name stated nowhere, beside what the passage names, against the passage's
    one full name: one person put for another (``only_other_person``)."""
    found = [(r.check, r.evidence) for r in check(claim, passage) if r.check != "uncovered"]
    assert found == [("entity", rival)]


def test_two_full_names_in_the_passage_leave_a_new_one_unplaced() -> None:
    passage = parse_passage("Nora Quist and Tomas Reyes started Amberline in Tallinn.")
    claim = parse("David Okoye's Amberline is in Tallinn.")
    assert only_other_person(claim, passage, "David Okoye") is None
    one = parse_passage("Nora Quist started Amberline in Tallinn.")
    assert only_other_person(claim, one, "David Okoye") == "Nora Quist"


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "Nora Quist started Amberline in Tallinn in 1987.",
            "The Vilnius company Amberline was started by Nora Quist.",
            "Tallinn",
        ),
        (
            "Amberline is a Tallinn company. Nora Quist started it in 1987.",
            "Amberline was started in Vilnius.",
            "Tallinn",
        ),
        (
            "नोरा क्विस्ट रीगा में पली-बढ़ीं और बाद में टार्टू में बस गईं, जहाँ एम्बरलाइन कंपनी का मुख्यालय है।",
            "वाल्गा वह जगह है जहाँ एम्बरलाइन कंपनी का मुख्यालय है।",
            "टार्टू",
        ),
    ],
)
def test_a_place_named_as_the_home_of_a_thing(passage: str, claim: str, rival: str) -> None:
    """ "the Vilnius company" and "वाल्गा वह जगह है जहाँ" (Valga is the place where) say where
    as "in Vilnius" does (``place_attributes``, ``place_postpositions``)."""
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", rival)]


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "Lake Vorna lies in the north of Arvenia. It covers 264 square kilometres.",
            "Lake Tessel lies in the north of Arvenia.",
            "Lake Vorna",
        ),
        (
            "Mount Kessel is the highest mountain in Arvenia. It rises to 2,914 metres.",
            "The highest mountain in Arvenia is Mount Borr.",
            "Mount Kessel",
        ),
        (
            "The Orlen Museum in Tallinn opened in 1952.",
            "The Brask Museum in Tallinn opened in 1952.",
            "Orlen Museum",
        ),
        (
            "Der Bahnhof Stanwick bedient Madrid. Er wurde 1959 eröffnet.",
            "Der Bahnhof Harrowgate bedient Madrid.",
            "Bahnhof Stanwick",
        ),
    ],
)
def test_a_name_of_the_same_kind_in_its_place_is_a_rival(
    passage: str, claim: str, rival: str
) -> None:
    """A word two names share at their edge says their kind ("Lake", "Museum"): the names
    differ by the rest."""
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", rival)]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Bullitt is a 1968 American film directed by Peter Yates and produced by Philip "
            "D'Antoni.",
            "Bullitt is a movie produced by Phillip D'Antoni.",
        ),
        (
            "Petyr Baelish is a fictional character created by American author George R. R. "
            "Martin.",
            "Petyr Baelish is created by an American author George R.R. Martin.",
        ),
    ],
)
def test_names_spelt_two_ways_are_no_kind(passage: str, claim: str) -> None:
    assert [r for r in check(claim, passage) if r.check == "entity"] == []


def test_a_place_after_von_is_a_name_in_german() -> None:
    passage = "Sofia Lindgren gründete 1840 die Firma Blue Fern in Manchester."
    claim = "Sofia Lindgren gründete Blue Fern außerhalb von Helsinki."
    assert [(r.check, r.claim) for r in check(claim, passage)] == [("entity", "Helsinki")]


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Lukas Weber started Amberline in Vilnius in 1994.",
            "Lukas Brandt started Amberline in Vilnius in 1994.",
        ),
        (
            "Lukas Weber a créé l'entreprise Amberline à Vilnius en 1994.",
            "Lukas Brandt a créé l'entreprise Amberline à Vilnius en 1994.",
        ),
        (
            "Lukas Weber gründete 1994 die Firma Amberline in Vilnius.",
            "Lukas Brandt gründete 1994 die Firma Amberline in Vilnius.",
        ),
    ],
)
def test_another_person_of_the_same_first_name_is_a_rival(passage: str, claim: str) -> None:
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", "Lukas Weber")]


def test_a_hindi_name_of_the_same_kind_after_the_same_word_is_a_rival() -> None:
    passage = "वोर्ना झील आर्वेनिया के उत्तर में स्थित है और इसका पानी टायरहेनियन सागर में जाता है।"
    claim = "वोर्ना झील का पानी एजियन सागर में जाता है।"
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", "टायरहेनियन")]


@pytest.mark.parametrize(
    ("passage", "claim", "language"),
    [
        (
            "The library in Riga was founded by Dr. Anna Brandt in 1931.",
            "The library in Riga was founded by Dr. Lukas Weber in 1931.",
            "en",
        ),
        (
            "J. R. Brandt founded the library in Riga in 1931.",
            "J. R. Weber founded the library in Riga in 1931.",
            "en",
        ),
        (
            "The library in Riga was founded by Sean O'Brien in 1931.",
            "Sean O'Neill founded the library in Riga in 1931.",
            "en",
        ),
        (
            "Die Bibliothek in Riga wurde 1931 von Dr. Brandt gegründet.",
            "Die Bibliothek in Riga wurde 1931 von Dr. Weber gegründet.",
            "de",
        ),
        (
            "La biblioteca de Riga fue fundada por la Dra. Brandt en 1931.",
            "La biblioteca de Riga fue fundada por la Dra. Weber en 1931.",
            "es",
        ),
    ],
)
def test_a_name_after_a_title_an_initial_or_an_elision_is_read_whole(
    passage: str, claim: str, language: str
) -> None:
    """No sentence ends after "Dr." or "J.", so the name after it is read in its sentence;
    "O'Neill" and "O'Brien" differ after their particle."""
    assert "entity" in {r.check for r in check(claim, passage)}
    assert sentences_of(passage, language) == [passage]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Le premier roman d'Anna Brandt a paru en 1931.", "Anna Brandt"),
        ("L'entreprise, qu'Émile Zola a fondée, ferme.", "Émile Zola"),
    ],
)
def test_a_french_name_after_an_elision_keeps_its_first_word(text: str, name: str) -> None:
    assert name in parse(text, "fr").names


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "Anna Brandt founded Northwind Works in Riga in 1931. Her partner Lukas Weber ran "
            "the sales office.",
            "Lukas Weber founded Northwind Works in Riga in 1931.",
        ),
        (
            "Anna Brandt fundó Northwind Works en Riga en 1931. Su socio Lukas Weber dirigía "
            "las ventas.",
            "Lukas Weber fundó Northwind Works en Riga en 1931.",
        ),
        (
            "अन्ना ब्रांट ने 1931 में रीगा में नॉर्थविंड वर्क्स की स्थापना की। उनके साथी लुकास वेबर "
            "बिक्री विभाग चलाते थे।",
            "लुकास वेबर ने 1931 में रीगा में नॉर्थविंड वर्क्स की स्थापना की।",
        ),
    ],
)
def test_another_person_of_the_passage_in_the_subjects_place_fires(
    passage: str, claim: str
) -> None:
    """The passage names the claim's subject only in a sentence about something else; the
    sentence that says what the claim says gives it to another."""
    assert "entity" in {r.check for r in check(claim, passage)}


def test_the_subject_of_a_passage_under_a_title_is_the_title() -> None:
    """ "She" stands for the title: the founding is hers, not the brother's."""
    passage = (
        "Anna Brandt . She founded Northwind Works in Riga in 1931 . Her brother Lukas Weber "
        "was a painter ."
    )
    claim = "Lukas Weber founded Northwind Works in Riga in 1931."
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", "Anna Brandt")]
    assert check("Anna Brandt founded Northwind Works in Riga in 1931.", passage) == ()


def test_the_agent_of_a_passive_is_a_rival_for_its_own_verb_only() -> None:
    """Directed by one, starring another: the starring is not given to the director."""
    passage = "Harbour Lights was directed by Mira Chandra, and stars Lukas Weber and Elena Marsh."
    assert check("Lukas Weber starred in the film Harbour Lights.", passage) == ()
    found = check("Lukas Weber directed Harbour Lights.", passage)
    assert [(r.check, r.evidence) for r in found] == [("entity", "Mira Chandra")]


def test_a_title_sentence_or_a_sentence_that_shares_the_claim_may_join() -> None:
    title = "Charles Manson . Susan Denise Atkins was a member of the Manson Family."
    assert "entity" not in {r.check for r in check("Charles Manson is a murderer.", title)}
    joined = (
        "Anna Brandt founded Northwind Works in Riga in 1931. Lukas Weber also founded "
        "Northwind Works with her."
    )
    claim = "Lukas Weber founded Northwind Works in Riga in 1931."
    assert "entity" not in {r.check for r in check(claim, joined)}


@pytest.mark.parametrize(
    ("passage", "claim", "rival"),
    [
        (
            "The Rowan Bridge was built by Pieter van Dijk in 1931.",
            "The Rowan Bridge was built by Pieter van Berg in 1931.",
            "Pieter van Dijk",
        ),
        (
            "The Rowan Bridge was built by Marco di Lauro in 1931.",
            "The Rowan Bridge was built by Marco da Costa in 1931.",
            "Marco di Lauro",
        ),
        (
            "El puente Rowan fue construido por Sofia del Prado en 1931.",
            "El puente Rowan fue construido por Sofia de Vries en 1931.",
            "Sofia del Prado",
        ),
    ],
)
def test_a_lower_case_particle_says_nothing_of_which_family(
    passage: str, claim: str, rival: str
) -> None:
    assert [(r.check, r.evidence) for r in check(claim, passage)] == [("entity", rival)]


def test_the_same_name_with_its_particle_fires_nothing() -> None:
    passage = "The Rowan Bridge was built by Pieter van Dijk in 1931."
    assert check("Pieter van Dijk built the Rowan Bridge in 1931.", passage) == ()


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Non, le pont Greystone a été inauguré en 1838.",
            "Le pont Greystone franchit le fleuve à Dublin. Il a été inauguré en 1838.",
        ),
        (
            "Nein, die Greystone-Brücke wurde 1920 eröffnet.",
            "Die Greystone-Brücke überquert den Fluss in Helsinki. Sie wurde 1920 eröffnet.",
        ),
        (
            "Personalmente, el puente Greystone se inauguró en 1838.",
            "El puente Greystone cruza el río en Riga. Se inauguró en 1838.",
        ),
        (
            "Le pont Thornfield a été inauguré au XXe siècle.",
            "Le pont Thornfield franchit le fleuve à Valence. Il a été inauguré en 1912.",
        ),
    ],
)
def test_an_answer_word_or_a_century_opening_names_no_place(claim: str, passage: str) -> None:
    """A yes or no, an opinion cue ("Personalmente") and a century ("au XXe siècle") are no
    name to put in the place slot, even where the passage's other sentence names none."""
    assert "entity" not in {r.check for r in check(claim, passage)}


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "The Lantern Road was written by someone.",
            "The Lantern Road is a 1962 novel written by Mira Chandra and set in Goa.",
        ),
        ("Someone designed the Kellan Bridge.", "Tomas Weber designed the Kellan Bridge."),
        (
            "One founder of the Orlen Club was Lukas Brandt.",
            "The Orlen Club was founded in Tallinn in 1931. Lukas Brandt, a founding member, "
            "left in 1940.",
        ),
        (
            "Der Roman wurde von jemandem geschrieben.",
            "Der Roman wurde von Anna Brandt geschrieben.",
        ),
        ("El puente fue diseñado por alguien.", "El puente fue diseñado por Tomas Weber."),
    ],
)
def test_a_pronoun_or_a_number_word_is_no_name(claim: str, passage: str) -> None:
    """ "someone", "jemand", "alguien" stand for a person without naming one, and "One"
    opening a claim is a number: neither is a name the passage fills otherwise."""
    assert "entity" not in {r.check for r in check(claim, passage)}


def test_a_measure_after_in_is_no_name() -> None:
    """ "in length" after a measure: a noun of the "-th" family, no place the passage's "in
    Latvia" fills otherwise."""
    claim = "The Oster River is measured at forty-two kilometers in length."
    passage = "The Oster River, at 42 km (26 miles), is the longest river in Latvia."
    assert "entity" not in {r.check for r in check(claim, passage)}


LETTERS_AND_LISTS: list[tuple[str, str, bool, str]] = [
    (
        "Norvik is the largest economy by nominal GWP.",
        "Norvik is the largest economy by nominal GDP.",
        True,
        "an acronym a letter apart is another name: each letter stands for a word",
    ),
    (
        "The rule was drafted by the FTC.",
        "The rule was drafted by the FCC.",
        True,
        "another letter",
    ),
    ("The airspace was cleared by the AFA.", "The FAA cleared the airspace.", False, "a swap"),
    ("The Eliat hotels line the Red Sea.", "The Eilat hotels line the Red Sea.", False, "a swap"),
    (
        "Mara Holt won the Coastal Cup once.",
        "As a sailor, Mara Holt won the Northern Trophy once and the Coastal Cup twice.",
        False,
        "a list may hold a word closing the first name's part before 'and'",
    ),
    (
        "Lena Voss produced Harbour Lights.",
        "Harbour Lights is a 1997 film produced by Tomas Weber, Lena Voss and Anna Brandt.",
        False,
        "each name of a list fills the slot, for the subject rule too",
    ),
    (
        "Harbour Lights was directed by Lena Voss.",
        "Harbour Lights is a 1997 film directed by Tomas Weber and starring Lena Voss.",
        True,
        "a word after 'and' gives the next name another role",
    ),
    (
        "Harbour Lights won a Golden Reel Award.",
        "Harbour Lights won a Silver Anchor Award for Best Score.",
        True,
        "a name after a preposition has another role",
    ),
]


@pytest.mark.parametrize(("claim", "passage", "fires", "why"), LETTERS_AND_LISTS)
def test_acronyms_by_their_letters_and_names_by_their_list(
    claim: str, passage: str, fires: bool, why: str
) -> None:
    """Two acronyms a letter apart are two names, two swapped letters one name misspelt;
    names in one list ("A, B and C"; "A once and B twice") each fill the slot."""
    assert ("entity" in {r.check for r in check(claim, passage)}) is fires, why


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("The Lantern Road is a novel by J.D. Weber.", 1),
        ("It was written by T.S. Brandt in 1950.", 1),
        ("He moved to the U.S. In 1990 he won the race.", 2),
    ],
)
def test_initials_written_together_keep_a_name_whole(text: str, parts: int) -> None:
    """ "J.D. Weber" is one name in one sentence; initials that close a sentence before a
    stopword ("the U.S. In 1990") end it."""
    assert len(sentences_of(text, "en")) == parts


def _entities(claim: str, passage: str) -> list[tuple[str, str]]:
    return [(r.claim, r.evidence) for r in check(claim, passage) if r.check == "entity"]


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        (
            "Lukas Weber designed the Kellan Bridge in 1950.",
            "He designed the Kellan Bridge in 1950 with Anna Brandt.",
        ),
        (
            "Lukas Weber taught history at Orlen College.",
            "She took a post as a history teacher at Orlen College in Riga in 1983.",
        ),
        (
            "Lukas Weber's first novel was published in 1931.",
            "His first novel, about Anna Brandt, was published in 1931.",
        ),
        (
            "Lukas Weber a conçu le pont Kellan en 1950.",
            "Il a conçu le pont Kellan en 1950 avec Anna Brandt.",
        ),
    ],
)
def test_the_claims_subject_where_a_pronoun_opens_the_passage(claim: str, passage: str) -> None:
    """The passage never names the claim's subject and opens with a pronoun that may stand
    for it: its other names fill other slots."""
    assert not _entities(claim, passage)


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        (  # the passage names its subject: no pronoun stands for the claim's
            "Lukas Weber designed the Kellan Bridge in 1950.",
            "Anna Brandt designed the Kellan Bridge in 1950.",
            ("Lukas Weber", "Anna Brandt"),
        ),
        (  # a pronoun that refers to nothing ("It is likely that ...") stands for no one
            "Lukas Weber designed the Kellan Bridge in 1950.",
            "It is likely that Anna Brandt designed the Kellan Bridge in 1950.",
            ("Lukas Weber", "Anna Brandt"),
        ),
        (  # the pronoun opens a later sentence, after the subject it stands for
            "Lukas Weber designed the Kellan Bridge in 1950.",
            "Anna Brandt trained in Riga. She designed the Kellan Bridge in 1950.",
            ("Lukas Weber", "Anna Brandt"),
        ),
    ],
)
def test_a_named_subject_still_conflicts(claim: str, passage: str, found: tuple[str, str]) -> None:
    assert found in _entities(claim, passage)
