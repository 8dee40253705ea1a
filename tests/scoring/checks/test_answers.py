"""An answer's pronoun takes the span before's subject, else the question's."""

from types import SimpleNamespace

import pytest

from ragguard.scoring.checks.answers import answer_readings, question_reading, question_subject


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("Where is the Eiffel Tower?", "the Eiffel Tower"),
        ("Who was Niels Bohr?", "Niels Bohr"),
        ("Where is the old tower?", "the old tower"),
        ("Why?", None),
    ],
)
def test_the_question_subject(question, found):
    assert question_subject(question) == found


def test_a_capitalized_question_word_is_no_subject():
    assert question_subject("¿Quién construyó el puente Kellan?", "es") == "Kellan"
    assert question_subject("¿Cuál es el puente más largo de Riga?", "es") == "Riga"
    # after "¿" a lone first word is any word, as it is opening a sentence
    assert question_subject("¿Dónde tiene su sede la empresa Willow?", "es") == "Willow"
    assert question_subject("¿Cuántos empleados tiene Willow?", "es") == "Willow"


def test_an_article_before_a_relative_is_no_clitic():
    """ "la que" after a name opens a relative; "lo" before a verb stands for the object."""
    question = "¿Dónde tiene su sede la empresa Willow?"
    answer = "Es Velden la que alberga la sede de la empresa Willow."
    assert answer_readings(question, [SimpleNamespace(text=answer, language="es")]) == [answer]
    asked = "¿Quién construyó el puente Kellan?"
    read = answer_readings(
        asked, [SimpleNamespace(text="Lukas Weber lo ha construido.", language="es")]
    )
    assert read == ["Lukas Weber ha construido el puente Kellan."]


def test_german_questions_name_no_subject():
    assert question_subject("Wo steht der Eiffelturm?", "de") is None


def spans(*texts):
    return [SimpleNamespace(text=t, language="en") for t in texts]


def test_an_answer_span_takes_the_question_subject_then_the_span_before():
    assert answer_readings("Where is the Eiffel Tower?", spans("It stands in Paris.")) == [
        "The Eiffel Tower stands in Paris."
    ]
    assert answer_readings("Who was Niels Bohr?", spans("He was Danish.")) == [
        "Niels Bohr was Danish."
    ]
    read = answer_readings(
        "Tell me about Paris.", spans("Gustave Eiffel was an engineer.", "He was born in Dijon.")
    )
    assert read == ["Gustave Eiffel was an engineer.", "Gustave Eiffel was born in Dijon."]


@pytest.mark.parametrize(
    ("question", "answer", "language", "read"),
    [
        (
            "Who built the Kellan Bridge?",
            "Lukas Weber.",
            "en",
            "Lukas Weber built the Kellan Bridge.",
        ),
        (
            "Which station is the busiest in Riga?",
            "Kestrel Station.",
            "en",
            "Kestrel Station is the busiest in Riga.",
        ),
        (
            "Wer baute die Kellan-Brücke?",
            "Lukas Weber.",
            "de",
            "Lukas Weber baute die Kellan-Brücke.",
        ),
        (
            "Quelle gare est la plus fréquentée de Riga ?",
            "La gare de Kestrel.",
            "fr",
            "La gare de Kestrel est la plus fréquentée de Riga.",
        ),
        (
            "¿Cuál es el puente más largo de Riga?",
            "El puente Kellan.",
            "es",
            "El puente Kellan es el puente más largo de Riga.",
        ),
        ("केलन पुल किसने बनाया?", "लुकास वेबर।", "hi", "केलन पुल लुकास वेबर ने बनाया।"),
        # the words that place the asker's noun stay with it
        (
            "Which station in Riga is the busiest?",
            "Kestrel Station.",
            "en",
            "Kestrel Station in Riga is the busiest.",
        ),
        (
            "Welcher Bahnhof in Riga ist der verkehrsreichste?",
            "Der Bahnhof Kestrel.",
            "de",
            "Der Bahnhof Kestrel in Riga ist der verkehrsreichste.",
        ),
        # a frame that only presents the answer is read as the fragment inside it
        (
            "Which is the busiest station in Riga?",
            "It is Kestrel Station.",
            "en",
            "Kestrel Station is the busiest station in Riga.",
        ),
        (
            "¿Cuál es la estación más concurrida de Riga?",
            "Es la estación de Kestrel.",
            "es",
            "La estación de Kestrel es la estación más concurrida de Riga.",
        ),
        (
            "रीगा का सबसे व्यस्त स्टेशन कौन सा है?",
            "यह केस्ट्रल स्टेशन है।",
            "hi",
            "रीगा का सबसे व्यस्त स्टेशन केस्ट्रल स्टेशन है।",
        ),
        ("रीगा में कौन सा स्टेशन सबसे व्यस्त है?", "केस्ट्रल स्टेशन।", "hi", "रीगा में केस्ट्रल स्टेशन सबसे व्यस्त है।"),
    ],
)
def test_a_fragment_is_read_as_the_sentence_its_question_makes(question, answer, language, read):
    assert question_reading(question, answer, language) == read


@pytest.mark.parametrize(
    ("question", "answer", "language"),
    [
        ("What did Brandt write?", "Grey Harbour.", "en"),  # asks for an object
        ("Who built it?", "Lukas Weber did.", "en"),  # a verb: a sentence of its own
        ("Who built it?", "He did.", "en"),
        ("When did it open?", "In 1931.", "en"),  # a number: read by its own rules
        ("Who built it?", "the engineer.", "en"),  # no name
        ("¿Quién construyó el puente Kellan?", "Lukas Weber lo construyó.", "es"),
        ("Quel pont Brandt a-t-il construit ?", "Le pont Kellan.", "fr"),
        ("Which bridge in Riga did Brandt build?", "The Kellan Bridge.", "en"),
        ("Which is the longest bridge in Riga?", "It is long.", "en"),  # a frame, no name
        ("Where is the Kellan Bridge?", "Riga.", "en"),  # no asker of the subject
        ("केलन पुल कब खुला?", "1931 में।", "hi"),
    ],
)
def test_what_is_no_fragment_or_no_question_of_a_subject_is_not_read(question, answer, language):
    assert question_reading(question, answer, language) is None


@pytest.mark.parametrize(
    ("question", "answer", "language", "read"),
    [
        (
            "Who built the Kellan Bridge?",
            "Lukas Weber built it in 1931.",
            "en",
            "Lukas Weber built the Kellan Bridge in 1931.",
        ),
        (
            "Wer baute die Kellan-Brücke?",
            "Lukas Weber hat sie gebaut.",
            "de",
            "Lukas Weber hat die Kellan-Brücke gebaut.",
        ),
        (
            "Qui a construit le pont Kellan ?",
            "Lukas Weber l'a construit.",
            "fr",
            "Lukas Weber a construit le pont Kellan.",
        ),
        (
            "¿Quién construyó el puente Kellan?",
            "Lukas Weber lo construyó.",
            "es",
            "Lukas Weber construyó el puente Kellan.",
        ),
    ],
)
def test_an_object_pronoun_takes_what_the_question_asks_about(question, answer, language, read):
    assert answer_readings(question, [SimpleNamespace(text=answer, language=language)]) == [read]


@pytest.mark.parametrize(
    ("answer", "language"),
    [
        ("En la década de 1880.", "es"),  # an article after a capitalized function word
        ("Le pont Greystone, le plus long pont de Stockholm, a été inauguré en 1959.", "fr"),
        ("DAVID OKOYE CREÓ LA EMPRESA WILLOW.", "es"),
        ("Anna Brandt sagte, sie habe gebaut.", "de"),
    ],
)
def test_an_article_or_a_subject_pronoun_is_no_object(answer, language):
    question = "¿Quién construyó el puente Kellan?" if language == "es" else "Who built it?"
    assert answer_readings(question, [SimpleNamespace(text=answer, language=language)]) == [answer]


def test_a_later_span_takes_the_span_before_as_its_object():
    read = answer_readings(
        "Who built the Kellan Bridge?",
        spans("The Kellan Bridge opened in 1931.", "Lukas Weber built it."),
    )
    assert read[1] == "Lukas Weber built the Kellan Bridge."
