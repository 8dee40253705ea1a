"""Language detection, the per-language lexicons, numerals and negation cues
(``ragguard.language``)."""

from __future__ import annotations

import re
import time

import pytest

from ragguard.language import (
    NAMES,
    SUPPORTED,
    WORD,
    checks_off,
    detect,
    lexicon,
    phrase_pattern,
)
from ragguard.language.negation import negation_positions
from ragguard.language.numerals import english_numerals


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The Eiffel Tower is in Paris.", "en"),
        ("It was built in 1889 for the World's Fair.", "en"),
        ("He did not win the award.", "en"),
        ("Der Spiegel reported that the minister resigned in March.", "en"),
        ("The headquarters of Banco de España are in Madrid.", "en"),
        ("Die Stadt hat 3,5 Millionen Einwohner.", "de"),
        ("Er wurde 1879 in Ulm geboren und starb in Princeton.", "de"),
        ("Das Museum ist montags geschlossen.", "de"),
        ("La torre Eiffel está en París.", "es"),
        ("El museo no abre los lunes.", "es"),
        ("¿Dónde nació el autor de la novela?", "es"),
        ("La vista, que me parece preciosa, merece la pena.", "es"),
        ("Venecia es preciosa, creo.", "es"),
        ("Creo que la Torre Eiffel se completó en 1925.", "es"),
        ("Die Beatles waren besser als die Rolling Stones.", "de"),
        ("Der Eiffelturm steht in Berlin.", "de"),
        ("La tour Eiffel est à Paris.", "fr"),
        ("Il n'est pas venu à la réunion.", "fr"),
        ("Le musée est fermé le lundi.", "fr"),
        ("भारत की राजधानी नई दिल्ली है।", "hi"),
        ("ताजमहल का निर्माण 1632 में शुरू हुआ था।", "hi"),
        ("Москва — столица России.", "ru"),
        ("北京是中国的首都。", "zh"),
        ("東京は日本の首都です。", "ja"),
        ("서울은 한국의 수도이다.", "ko"),
        ("القاهرة هي عاصمة مصر.", "ar"),
        ("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.", "el"),
        ("ירושלים היא עיר גדולה.", "he"),
        ("กรุงเทพเป็นเมืองหลวงของประเทศไทย", "th"),
        ("A cidade não tem um aeroporto e também não tem porto.", "pt"),
        ("Het museum is niet open op maandag.", "nl"),
    ],
)
def test_detect_names_the_language(text: str, code: str) -> None:
    assert detect(text) == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("THE EIFFEL TOWER IS IN BERLIN.", "en"),
        ("DER EIFFELTURM STEHT IN BERLIN.", "de"),
        ("LA TOUR EIFFEL EST À BERLIN.", "fr"),
        ("LA TORRE EIFFEL ESTÁ EN BERLÍN.", "es"),
    ],
)
def test_a_sentence_in_capitals_is_read_as_its_language_not_as_names(text: str, code: str) -> None:
    assert detect(text) == code


@pytest.mark.parametrize(
    "text",
    ["", "   ", "1889", "Paris.", "Angela Merkel", "100 km", "Die Hard is a movie."],
)
def test_detect_says_und_when_the_text_gives_no_clear_signal(text: str) -> None:
    assert detect(text) == "und"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("En mil novecientos cincuenta y dos.", "es"),
        ("Dos mil trescientos.", "es"),
        ("Deux mille trois cents.", "fr"),
    ],
)
def test_a_number_said_in_words_tells_its_language(text: str, code: str) -> None:
    """Without its own number words, a short Spanish answer read as Portuguese ("dos") or
    Italian ("uno")."""
    assert detect(text) == code


def test_english_number_words_tell_english_too() -> None:
    """ "six" is French and English: shared, it moves no English sentence to French."""
    assert detect("Lake Sedlow covers six point seven square kilometres.") == "en"


@pytest.mark.parametrize("text", ["Sales rose 5 per cent.", "Tickets cost ten cents.", "Sept. 5."])
def test_an_english_word_that_is_a_number_elsewhere_tells_no_language(text: str) -> None:
    """ "cent", "sept", "once" and "seize" are English too (``english_words``)."""
    assert detect(text) in ("en", "und")


def test_a_hindi_sentence_with_a_latin_name_is_still_hindi() -> None:
    assert detect("भारत की राजधानी New Delhi है और यह एक बड़ा शहर है।") == "hi"


def test_detection_is_fast_and_memoized() -> None:
    sentence = "The committee approved the budget for the new bridge in 2021."
    detect.__wrapped__(sentence)  # type: ignore[attr-defined]
    started = time.perf_counter()
    for _ in range(200):
        detect.__wrapped__(sentence)  # type: ignore[attr-defined]
    cold = (time.perf_counter() - started) / 200
    assert cold < 0.001  # about 10 µs here; a millisecond is a generous ceiling
    assert detect(sentence) is detect(sentence)


def test_supported_languages_have_lexicons_and_names() -> None:
    assert SUPPORTED == ("en", "de", "es", "fr", "hi")
    assert NAMES["de"] == "German" and NAMES["hi"] == "Hindi"
    for code in SUPPORTED[1:]:
        found = lexicon(code)
        assert found is not None and found.name == NAMES[code]
        assert len(found.months) >= 12 and len(found.weekdays) >= 7
        assert found.negations and found.stopwords
        assert not found.negations & found.stopwords  # a stopword is never read as a cue
    assert lexicon("ru") is None


def test_checks_off_name_the_check_and_why() -> None:
    assert checks_off("en") == () and checks_off("und") == ()
    hindi = dict(entry.split(": ", 1) for entry in checks_off("hi"))
    assert "English only" in hindi["antonym"]
    # Hindi reads a name by the postposition after it, German where it writes a place
    # without an article ("in Paris") or two capitals in a row: entity is on in both
    assert "entity" not in hindi
    assert "entity" not in dict(entry.split(": ", 1) for entry in checks_off("de"))
    assert "entity" not in dict(entry.split(": ", 1) for entry in checks_off("fr"))
    assert checks_off("ru")[0].startswith("all: ")


@pytest.mark.parametrize(
    ("text", "code", "english"),
    [
        ("3,5 Millionen und 1.000 Einwohner", "de", "3.5 Millionen und 1,000 Einwohner"),
        ("am 24.12.2020, Version 1.5", "de", "am 24.12.2020, Version 1.5"),
        ("1.234,56 Euro", "de", "1,234.56 Euro"),
        ("1.000.000 personas y 2,75 %", "es", "1,000,000 personas y 2.75 %"),
        ("1 000 habitants, 12\u202f500 euros, 3,14", "fr", "1,000 habitants, 12,500 euros, 3.14"),
        ("en 2019 100 jours", "fr", "en 2019 100 jours"),
        ("१,००,००० लोग २०२३ में", "hi", " 100,000 लोग 2023 में"),
        ("1,000 people and 3.5 km", "en", "1,000 people and 3.5 km"),
    ],
)
def test_numerals_are_rewritten_the_english_way_in_place(
    text: str, code: str, english: str
) -> None:
    assert english_numerals(text, code) == english
    assert len(english) == len(text)


@pytest.mark.parametrize(
    ("sentence", "code", "negated"),
    [
        ("das museum ist nicht geöffnet", "de", True),
        ("er ist nicht nur arzt", "de", False),
        ("es hat keine fenster", "de", True),
        ("el museo no abre", "es", True),
        ("no solo abre los lunes", "es", False),
        ("il n est plus président", "fr", True),
        ("il est plus grand", "fr", False),
        ("elle n est jamais venue", "fr", True),
        ("non seulement il chante", "fr", False),
        ("वह कभी नहीं आया", "hi", True),
        ("न केवल वह आया", "hi", False),
    ],
)
def test_negation_cues_per_language(sentence: str, code: str, negated: bool) -> None:
    words = tuple(re.findall(WORD, sentence))
    assert bool(negation_positions(words, code)) is negated


def test_words_keep_devanagari_vowel_signs() -> None:
    assert re.findall(WORD, "नहीं, दिल्ली!") == ["नहीं", "दिल्ली"]


def test_phrase_pattern_matches_whole_words_only() -> None:
    pattern = phrase_pattern(["कुछ", "je ne sais pas"])
    assert pattern.search("Je  ne sais pas.")
    assert pattern.search("कुछ लोग")
    assert not pattern.search("कुछे")
    assert not phrase_pattern([]).search("anything")


def test_the_language_package_is_a_leaf() -> None:
    """Standard library and ``ragguard.runtime.caches`` only, so every layer may ask it (the root
    facade, which imports everything, is stood in for by an empty package)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    import ragguard

    code = (
        "import importlib, json, sys, types\n"
        "root = types.ModuleType('ragguard')\n"
        f"root.__path__ = [{str(Path(ragguard.__file__).parent)!r}]\n"
        "sys.modules['ragguard'] = root\n"
        "for name in ('language', 'language.numerals', 'language.negation'):\n"
        "    importlib.import_module('ragguard.' + name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('ragguard.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    loaded = json.loads(done.stdout)
    outside = {m for m in loaded if not m.startswith("ragguard.language")}
    assert outside == {
        "ragguard.errors",
        "ragguard.runtime",
        "ragguard.runtime.caches",
        "ragguard._exports",
    }
