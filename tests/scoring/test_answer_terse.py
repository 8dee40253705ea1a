"""Terse answers to every question type (issue 56): a yes or a no answers a yes/no question,
a number grouped by spaces is one word, and a name in a script without capitals answers
"who" and "where"."""

from __future__ import annotations

import pytest

from ragguard.scoring.lite.answer import answers_by_fragment, answers_yes_or_no, lacks_asked_type


@pytest.mark.parametrize(
    ("code", "question", "answer"),
    [
        ("en", "Did the Rowan Bridge open in 1840?", "No."),
        ("en", "Was the Eiffel Tower built in 1889?", "Yes."),
        ("de", "Wurde die Brücke 1840 eröffnet?", "Nein."),
        ("fr", "Est-ce que le pont a été inauguré en 1840 ?", "Non."),
        ("hi", "क्या पुल 1840 में खोला गया?", "नहीं।"),
        ("es", "¿Se inauguró el puente Kellan en 1840?", "No."),
        ("es", "¿Está el puente Kellan en Madrid?", "Sí."),
    ],
)
def test_a_yes_or_no_answers_a_yes_no_question(code: str, question: str, answer: str) -> None:
    assert answers_yes_or_no(question, answer, code)
    assert not answers_yes_or_no("Where is the bridge?", "No.")


def test_a_spanish_question_with_a_question_word_is_no_yes_no_question() -> None:
    """Spanish marks a yes/no question by having no question word (they carry an accent)."""
    assert not answers_yes_or_no("¿Dónde está el puente Kellan?", "No.", "es")
    assert not answers_yes_or_no("¿En qué año se inauguró el puente?", "Sí.", "es")


def test_a_size_asked_in_spanish_is_answered_by_a_number() -> None:
    question = "¿Qué superficie tiene el lago Vorna?"
    assert not lacks_asked_type(question, "264 kilómetros cuadrados.", "es")
    assert lacks_asked_type(question, "En el norte.", "es")


def test_a_number_grouped_by_spaces_is_a_fragment() -> None:
    question = "Combien a coûté la construction du pont Kellan ?"
    assert answers_by_fragment(question, "1 800 000 euros.", "fr")


@pytest.mark.parametrize(
    ("question", "answer", "answers"),
    [
        ("रोवन पुल किसने बनाया?", "डेविड ओकोये।", True),
        ("डेविड ओकोये ने रेडस्टोन कंपनी कहाँ शुरू की?", "मैनचेस्टर में।", True),
        ("डेविड ओकोये ने रेडस्टोन कंपनी कहाँ शुरू की?", "1822।", False),
    ],
)
def test_a_hindi_fragment_answers_who_and_where(question: str, answer: str, answers: bool) -> None:
    assert lacks_asked_type(question, answer, "hi") is not answers
    assert answers_by_fragment(question, answer, "hi") is answers


@pytest.mark.parametrize(
    ("code", "question", "answer"),
    [
        ("en", "In which year was Copperfield registered?", "In nineteen fifty-two."),
        ("es", "¿En qué año se registró la empresa?", "En mil novecientos cincuenta y dos."),
        ("fr", "En quelle année l'entreprise a-t-elle été créée ?", "En mille neuf cent douze."),
        ("de", "In welchem Jahr wurde die Firma eingetragen?", "Im Jahr neunzehnhundertzwölf."),
        ("hi", "कंपनी किस साल पंजीकृत हुई?", "उन्नीस सौ बावन में।"),
        ("en", "How long is the Rowan Bridge?", "About one hundred and forty-two metres."),
        ("fr", "Quelle est la longueur du pont ?", "Environ trois cent soixante-dix-huit mètres."),
        ("es", "¿Cuál es la longitud del puente?", "Unos ciento cuarenta y dos metros."),
        ("en", "In which year did the Rowan Bridge open?", "In the year 1931."),
        ("en", "How much did the Rowan Bridge cost?", "More than four million euros."),
        ("en", "In which decade did the Rowan Bridge open?", "In the thirties."),
        ("en", "Who designed the Rowan Bridge?", "The engineer Elena Marsh."),
        ("de", "Wie viel kostete die Rowan-Brücke?", "Etwa 4,2 Millionen Euro."),
        ("de", "Wann wurde die Rowan-Brücke eröffnet?", "In den 1930er Jahren."),
        ("de", "Wer entwarf die Rowan-Brücke?", "Die Ingenieurin Elena Marsh."),
        ("fr", "En quelle décennie le pont Rowan a-t-il été inauguré ?", "Dans les années trente."),
        ("es", "¿En qué año se inauguró el puente Rowan?", "En el año 1931."),
        ("es", "¿Quién diseñó el puente Rowan?", "La ingeniera Elena Marsh."),
        ("hi", "रोवन पुल पर कितना खर्च हुआ?", "4,000,000 यूरो से ज़्यादा।"),
    ],
)
def test_a_number_or_a_name_with_its_words_is_a_fragment_of_its_kind(
    code: str, question: str, answer: str
) -> None:
    """A number in words is one word, and it gives a date (a year) or a number. A bound,
    the year or decade a number is, a scale, and a name after a role are one word with what
    they stand beside (``with_number``, ``_in_a_name``); a decade in words gives a date."""
    assert answers_by_fragment(question, answer, code)


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Where is the Eiffel Tower?", "Bananas grow in the tropics."),
        ("When did the bridge open?", "Its designer was born in 1890."),
        ("When did the bridge open?", "It was built in the spring of 1889."),
    ],
)
def test_a_short_sentence_is_no_fragment(question: str, answer: str) -> None:
    """A sentence of more than three words is read by the head, whatever kind it gives:
    counting function words apart made "Bananas grow in the tropics." a place."""
    assert not answers_by_fragment(question, answer)


@pytest.mark.parametrize(
    ("code", "question", "answer"),
    [
        ("en", "In which city is the Rowan Bridge?", "Madrid."),
        ("en", "Which engineer designed the Rowan Bridge?", "Elena Marsh."),
        ("de", "In welcher Stadt steht die Rowan-Brücke?", "In Madrid."),
        ("de", "Welcher Ingenieur hat die Rowan-Brücke gebaut?", "Elena Marsh."),
        ("fr", "Dans quelle ville se trouve le pont Rowan ?", "À Madrid."),
        ("fr", "Quel ingénieur a conçu le pont Rowan ?", "Elena Marsh."),
        ("es", "¿En qué ciudad está el puente Rowan?", "En Madrid."),
        ("es", "¿Qué ingeniera diseñó el puente Rowan?", "Elena Marsh."),
        ("hi", "रोवन पुल किस शहर में है?", "मैड्रिड में।"),
        ("en", "What did the Rowan Bridge cost?", "7.2 million euros."),
    ],
)
def test_which_place_or_which_person_is_answered_by_a_name(
    code: str, question: str, answer: str
) -> None:
    """ "In which city", "Welcher Ingenieur": the noun after the question word says the
    kind, as "where" and "who" do."""
    assert answers_by_fragment(question, answer, code)


def test_which_city_answered_with_no_place_is_off_question() -> None:
    assert lacks_asked_type("In which city is the Rowan Bridge?", "It is very long.")


@pytest.mark.parametrize(
    "answer", ["Julius Caesar was Roman.", "Featuring Happy Days .", "He met Elena Marsh there."]
)
def test_a_name_opening_a_sentence_is_no_fragment_of_one_word(answer: str) -> None:
    assert not answers_by_fragment("Who designed the Rowan Bridge?", answer)
