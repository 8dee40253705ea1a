"""What makes a name a place (``checks.places``): a word that says where before it, words
after it in any tense, a cleft."""

from __future__ import annotations

import pytest

from ragguard.scoring.checks.places import in_cleft, place_words, placed


@pytest.mark.parametrize(
    ("language", "text", "name"),
    [
        ("en", "Elena Marsh started Willow Press in Oslo.", "Oslo"),
        ("en", "Oslo has been home to Willow Press.", "Oslo"),
        ("fr", "Nantes abrite le musée Halvard.", "Nantes"),
        ("fr", "Nantes abritait le musée Halvard.", "Nantes"),
        ("fr", "Nantes abritera le musée Halvard.", "Nantes"),
        ("fr", "Nantes a accueilli le musée Halvard.", "Nantes"),
        ("fr", "Le Cyrrus possédait le lac Vatna.", "Le Cyrrus"),
        ("fr", "C'est Nantes qui abritait le siège de l'entreprise Willow.", "Nantes"),
        ("es", "Nantes albergó el museo Halvard.", "Nantes"),
        ("es", "Nantes ha acogido el museo Halvard desde 1902.", "Nantes"),
        ("es", "Nantes había albergado el museo Halvard.", "Nantes"),
        ("es", "Es Nantes la que alberga la sede de la empresa Willow.", "Nantes"),
        ("de", "Bremen beherbergte die Firma Willow.", "Bremen"),
        ("de", "Bremen hat die Firma Willow seit 1902 beherbergt.", "Bremen"),
    ],
)
def test_a_place_verb_in_any_tense_or_a_cleft_makes_a_place(
    language: str, text: str, name: str
) -> None:
    assert placed(place_words(language), text, name)


@pytest.mark.parametrize(
    ("language", "text", "name"),
    [
        ("fr", "Elena Marsh a fondé le musée Halvard.", "Elena Marsh"),
        ("fr", "Elena Marsh a dit que le musée abrite 300 tableaux.", "Elena Marsh"),
        # a verb of having makes a place only of the name opening the claim
        ("fr", "L'entreprise de David Okoye comptait 300 salariés.", "David Okoye"),
        ("es", "Elena Marsh ha fundado el museo Halvard.", "Elena Marsh"),
        ("de", "Elena Marsh hat die Firma Willow gegründet.", "Elena Marsh"),
        ("en", "It is Elena Marsh that founded Willow Press.", "Elena Marsh"),
    ],
)
def test_other_verbs_make_no_place(language: str, text: str, name: str) -> None:
    assert not placed(place_words(language), text, name)


def test_a_cleft_is_read_only_before_its_relative() -> None:
    assert in_cleft("fr", "C'est Nantes qui abrite le siège de l'entreprise Willow.", "Nantes")
    assert not in_cleft("fr", "Nantes abrite le siège de l'entreprise Willow.", "Nantes")
    assert not in_cleft("fr", "C'est Nantes, une ville qui abrite le siège.", "Nantes")
