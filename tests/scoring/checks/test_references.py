"""A passage that names its subject once and goes on by reference, and a sentence that says
two things with one verb: a pronoun after an opening phrase ("In 2016, she appeared ..."),
after the verb of a German sentence that opens with something else ("Im Jahr 1869 entwarf
sie ..."), a description by the class an earlier sentence gave ("X is a 2016 film. The film
was announced ..."), a clause that leaves out its verb ("..., and into the Vocal Group Hall
of Fame in 2001") and a value told by the words beside it ("the 2011 Giro d'Italia")."""

import pytest

from ragguard.scoring.checks import check
from ragguard.scoring.checks.antecedents import opening_phrase_end, resolve, subject
from ragguard.scoring.checks.clauses import clauses
from ragguard.scoring.checks.words import nearest_words, told_alike
from ragguard.scoring.lexical.text import stopwords_of

ACTRESS = ("Sheryl Lee .", "From 2000 to 2009 , Lee only appeared in four films .")


@pytest.mark.parametrize(
    ("sentence", "end"),
    [
        ("In 2016, she appeared in a film.", len("In 2016, ")),
        ("From 2000 to 2009 , Lee appeared in four films.", len("From 2000 to 2009 , ")),
        ("By 1,000 BC, the city had grown.", len("By 1,000 BC, ")),  # past a number's comma
        ("Paris, the capital, is large.", 0),  # a name before the comma is the subject
        ("When he retired, she took over.", 0),  # a clause of its own, not a phrase
        ("In the north of the old town of Riga near the river, it stands.", 0),  # too long
    ],
)
def test_an_opening_phrase_is_set_off_by_a_comma(sentence: str, end: int) -> None:
    assert opening_phrase_end(sentence) == end


def test_the_subject_comes_after_an_opening_phrase() -> None:
    assert subject("In 1889, the tower was completed.") == "the tower"
    assert subject(ACTRESS[1]) == "Lee"


@pytest.mark.parametrize(
    ("code", "passage", "read"),
    [
        (
            "en",
            (*ACTRESS, "In 2016 , she appeared in Café Society ."),
            "In 2016 , Sheryl Lee appeared",
        ),
        (
            "fr",
            ("Elena Marsh est architecte.", "En 1942, elle a dessiné une gare."),
            "En 1942, Elena Marsh a",
        ),
        (
            "es",
            ("Elena Marsh es arquitecta.", "En 1942, ella diseñó una estación."),
            "En 1942, Elena Marsh dise",
        ),
        (
            "de",
            ("Hana Sato ist Architektin.", "Im Jahr 1869 entwarf sie einen Bahnhof."),
            "Im Jahr 1869 entwarf Hana Sato",
        ),
        ("de", ("Hana Sato ist Architektin.", "1931 wurde sie geehrt."), "1931 wurde Hana Sato"),
    ],
)
def test_a_pronoun_after_an_opening_phrase_takes_its_antecedent(
    code: str, passage: tuple[str, ...], read: str
) -> None:
    assert resolve(passage, code)[-1].startswith(read)


def test_a_pronoun_stands_for_the_fullest_name_the_passage_gave() -> None:
    passage = (
        "Elena Marsh est une architecte de Riga.",
        "En 1822, Marsh a dessiné de petites maisons.",
        "En 1942, elle a dessiné une gare.",
    )
    assert resolve(passage, "fr")[-1] == "En 1942, Elena Marsh a dessiné une gare."


def test_an_inverted_expletive_is_left_alone() -> None:
    passage = ("Die Brücke ist alt.", "1869 gab es einen Brand.")
    assert resolve(passage, "de") == passage


@pytest.mark.parametrize(
    ("code", "passage", "read"),
    [
        (
            "en",
            (
                "X-Men : Apocalypse is a 2016 American superhero film .",
                "The film was announced in 2013 .",
            ),
            "X-Men : Apocalypse was announced in 2013 .",
        ),
        (
            "fr",
            ("Silver Harbour est un roman policier de 1959.", "Le roman a été annoncé en 1840."),
            "Silver Harbour a été annoncé en 1840.",
        ),
        (
            "de",
            (
                "Silver Harbour ist ein Roman von Diego Navarro.",
                "Der Roman wurde 1840 angekündigt.",
            ),
            "Silver Harbour wurde 1840 angekündigt.",
        ),
    ],
)
def test_a_description_stands_for_the_subject_its_class_was_given_to(
    code: str, passage: tuple[str, ...], read: str
) -> None:
    assert resolve(passage, code)[-1] == read


def test_a_noun_after_a_verb_that_is_no_copula_gives_no_class() -> None:
    passage = ("The Eiffel Tower stands in a park near the river.", "The river floods.")
    assert resolve(passage) == passage


@pytest.mark.parametrize(
    ("claim", "passage", "fires"),
    [
        (
            "Sheryl Lee appeared in a film in 2016.",
            " ".join((*ACTRESS, "In 2016 , she appeared in Café Society .")),
            False,
        ),
        (
            "X-Men: Apocalypse was announced in 2013.",
            (
                "X-Men : Apocalypse is a 2016 American superhero film . The film was announced by "
                "Singer in December 2013 ."
            ),
            False,
        ),
        (
            "X-Men: Apocalypse was announced in 2012.",
            (
                "X-Men : Apocalypse is a 2016 American superhero film . The film was announced by "
                "Singer in December 2013 ."
            ),
            True,
        ),
    ],
)
def test_a_date_is_read_in_the_sentence_that_refers_to_the_subject(
    claim: str, passage: str, fires: bool
) -> None:
    assert any(r.check == "date" for r in check(claim, passage)) is fires


@pytest.mark.parametrize(
    ("code", "sentence", "gapped"),
    [
        (
            "en",
            (
                "Walsh was inducted into the Hall of Fame in 1998, and into the Vocal Group Hall "
                "of Fame in 2001."
            ),
            True,
        ),
        (
            "en",
            (
                "Mira Chandra was elected to the Academy in 1899, and to the Larsen Prize board "
                "in 1942."
            ),
            True,
        ),
        ("en", "Walsh was inducted into the Hall of Fame in 1998, and Frey in 2001.", False),
        ("en", "Ferrer won the Tony Award in 1947, and in 1952, he won another award.", False),
        (
            "en",
            "The firm was founded in 1990, and in 2001 moved to Oslo.",
            False,
        ),  # a verb of its own
        ("fr", "Holm a été élu à l'Académie en 1881, et au conseil du prix Larsen en 1920.", True),
        (
            "es",
            (
                "Sorensen fue elegido para la Academia en 1870, y para el consejo del premio "
                "Larsen en 1840."
            ),
            True,
        ),
        (
            "de",
            (
                "Weber wurde 1912 in die Akademie gewählt, und 1931 in den Vorstand des "
                "Larsen-Preises."
            ),
            True,
        ),
        ("hi", "वेबर 1912 में अकादमी के लिए चुने गए, और 1931 में लार्सन पुरस्कार बोर्ड के लिए।", True),
        ("hi", "वेबर 1912 में अकादमी के लिए चुने गए, और लुकास वेबर 1931 में बोर्ड के लिए।", False),
        ("hi", "पुल 1862 में बना, और 1931 में बंद हुआ।", False),  # a verb of its own
    ],
)
def test_a_clause_that_leaves_out_its_verb_holds_the_verb_before(
    code: str, sentence: str, gapped: bool
) -> None:
    first, *rest = clauses(sentence, code)
    second = next(c for c in rest if c.quantities)  # the clause of the second value
    assert (first.own <= second.own) is gapped


@pytest.mark.parametrize(
    ("claim", "passage", "fires"),
    [
        (
            "Joe Walsh was inducted in 2001.",
            (
                "Walsh was inducted into the Rock and Roll Hall of Fame in 1998 , and into the "
                "Vocal Group Hall of Fame in 2001 ."
            ),
            False,
        ),
        (
            "Walsh was inducted in 2001.",
            "Walsh was inducted into the Hall of Fame in 1998, and Frey in 2001.",
            True,
        ),
    ],
)
def test_a_date_in_a_clause_that_leaves_out_its_verb(claim: str, passage: str, fires: bool) -> None:
    assert any(r.check == "date" for r in check(claim, passage)) is fires


STOP = stopwords_of("en")


@pytest.mark.parametrize(
    ("text", "value", "after", "words"),
    [
        ("won the 2011 Giro d'Italia with team Saxo", "2011", True, ("giro", "italia", "team")),
        ("la course Brisac de 1978 avec un club", "1978", False, ("brisac", "course")),
        ("revenue grew 5% in 2020 and 7% in 2021", "7%", False, ()),  # another number first
        ("the bridge opened in 1931, the city grew", "1931", True, ()),  # a mark first
    ],
)
def test_the_words_nearest_a_value(
    text: str, value: str, after: bool, words: tuple[str, ...]
) -> None:
    stop = STOP | stopwords_of("fr")
    assert nearest_words(text, value, stop, after) == words


def test_a_value_told_by_the_words_beside_it_is_stated_there() -> None:
    passage = (
        "He also won the 2010 Tour de France with this team , and the 2011 Giro d'Italia with "
        "team Saxo Bank-SunGard ."
    )
    assert told_alike("He won the 2011 Giro d'Italia.", "2011", [(passage, "2011")], STOP)
    assert not told_alike("He won the 2011 Tour de France.", "2011", [(passage, "2011")], STOP)
    claim = "Alberto Contador initially won the 2011 Giro d'italia with team Saxo Bank-SunGard."
    assert check(claim, "Alberto Contador . " + passage) == ()
    wrong = check("Alberto Contador won the 2011 Tour de France.", "Alberto Contador . " + passage)
    assert any(r.check == "date" for r in wrong)


def test_a_third_word_tells_apart_two_names_that_end_alike() -> None:
    passage = "It moved to the National Basketball Association in 1976 ."
    claim = "It was a member of the American Basketball Association in 1976."
    assert not told_alike(claim, "1976", [(passage, "1976")], STOP)
    assert told_alike(
        "It joined the National Basketball Association in 1976.", "1976", [(passage, "1976")], STOP
    )
