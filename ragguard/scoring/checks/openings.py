"""A name of one word that opens the claim ("Weber wrote the novel in 1931."): capitals say
nothing of a sentence's first word, so ``proper_names.names`` leaves a lone one out. It is
read as a name where the passage never writes it and a passage sentence opens with another
lone word and goes on as the claim does ("Brandt wrote the novel in 1931."): the two fill
one slot. Not "Researchers found" against "Scientists found" alone: the sentence must
go on word for word. ``name_frames.neighbour_rival`` reads a claim's lone opening against
the passage's *names* by the one word beside each; the passage's own lone opening is no
name there, and that one word alone fired on common words ("Difficult question" against
"Tough question"; the training sets' figures are in ``docs/accuracy.md``).
"""

from __future__ import annotations

from ragguard.language import lexicon_or_fallback
from ragguard.scoring.checks.name_frames import AGENT_BEFORE, lone_opening
from ragguard.scoring.checks.parse import Sentence, content_of
from ragguard.scoring.checks.proper_names import name_keys
from ragguard.scoring.checks.words import WORD, first_words, one_stem
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem_in

OPENING_ANCHOR = 0.6
"""Share of the claim's other content words the passage sentence must hold: it says the same
of another name."""
FRAME = 2
"""Words after the opening name the passage sentence must write as the claim does: "Brandt
wrote the" against "Weber wrote the"."""


def opening_name_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The claim's name that opens it or is the agent of its passive, against the lone
    opening name of a passage sentence (``_subject_findings``, ``_agent_findings``)."""
    if not any(map(str.isupper, claim.text)):
        return _uncased_findings(claim, sentences)
    return _subject_findings(claim, sentences) or _agent_findings(claim, sentences)


def _subject_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The claim's opening name (a lone word, or a name of several) against the lone opening
    name of a passage sentence that goes on as the claim does (its next ``FRAME`` words) and
    holds ``OPENING_ANCHOR`` of the claim's other words; none where the passage writes the
    claim's name anywhere, or the two share their first letters ("Thanks", "Thank")."""
    word = _lone_opening(claim) or _opening_name(claim)
    if word is None or _stated(word, sentences):
        return []
    context = claim.content - content_of(word, claim.language)
    frame = [w.lower() for w in WORD.findall(claim.text[len(word) :])[:FRAME]]
    if len(frame) < FRAME:
        return []  # "Difficult question" against "Tough question": no clause to go on
    for sentence in sentences:
        if not set(frame) <= sentence.word_set:
            continue  # the cheap test first: most sentences go on otherwise
        other = _lone_opening(sentence)
        if other is None or other.lower()[:2] == word.lower()[:2]:
            continue
        goes_on = [w.lower() for w in WORD.findall(sentence.text)[1 : 1 + FRAME]] == frame
        if goes_on and len(context & sentence.content) >= OPENING_ANCHOR * len(context):
            return [Reason("entity", word, other)]
    return []


def _agent_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The agent of the claim's passive ("was designed by Oldecott") against the lone
    opening name of a passage sentence ("Tavrin designed ...") that holds
    ``AGENT_ANCHOR`` of the claim's other words, a word in another inflection counting
    ("diseñado" for "diseñó"): the active and the passive say one thing of two people."""
    for name in claim.names:
        if not AGENT_BEFORE.search(claim.text.split(name)[0]) or _stated(name, sentences):
            continue
        context = claim.content - content_of(name, claim.language)
        if not context:
            continue
        for sentence in sentences:
            other = _lone_opening(sentence)
            if other is None or other.lower() in claim.word_set:
                continue
            held = [w for w in context if any(one_stem(w, t) for t in sentence.content)]
            if len(held) >= AGENT_ANCHOR * len(context):
                return [Reason("entity", name, other)]
    return []


AGENT_ANCHOR = 1.0
"""Share of the claim's other content words a passage sentence must hold for its lone opening
name to be the agent the claim names otherwise: all of them."""


def _opening_name(claim: Sentence) -> str | None:
    """The claim's first name where it opens the claim ("Anna Sorensen designed ...")."""
    first = claim.names[0] if claim.names else ""
    return first if first and claim.text.lstrip().startswith(first) else None


def _stated(name: str, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the passage writes the name, or one of its keys."""
    keys = name_keys(name)
    return any(name.lower() in s.word_set or keys & s.keys for s in sentences)


def _lone_opening(sentence: Sentence) -> str | None:
    """The sentence's lone opening word (``name_frames.lone_opening``) where a lower-case word
    follows it ("Weber" of "Weber wrote the novel", not of "Weber 1931"); None otherwise."""
    tokens = first_words(sentence.text, 2)
    word = lone_opening(sentence)
    return word if word and len(tokens) > 1 and tokens[1][:1].islower() else None


MAX_RUN = 3
"""Words a name opening a sentence may run to where no capital marks it."""


def _uncased_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """Where no capital marks a name (Devanagari): the run of words opening the claim that
    the passage never writes, against the run opening a passage sentence that the claim
    never writes, the sentence going on as the claim does ("लुकास वेबर 1931 में ..." against
    "अन्ना ब्रांट 1931 में ...")."""
    written = frozenset().union(*(s.word_set for s in sentences))
    ours = _opening_run(claim.words, written, claim.language)
    frame = claim.words[ours : ours + FRAME]
    if not ours or len(frame) < FRAME:
        return []
    context = claim.content - {stem_in(claim.language, w) for w in claim.words[:ours]}
    for sentence in sentences:
        if any(map(str.isupper, sentence.text)):
            continue
        theirs = _opening_run(sentence.words, claim.word_set, claim.language)
        goes_on = theirs and sentence.words[theirs : theirs + FRAME] == frame
        if goes_on and len(context & sentence.content) >= OPENING_ANCHOR * len(context):
            claimed, stated = claim.words[:ours], sentence.words[:theirs]
            return [Reason("entity", " ".join(claimed), " ".join(stated))]
    return []


def _opening_run(words: tuple[str, ...], known: frozenset[str], language: str) -> int:
    """How many of the first words (up to ``MAX_RUN``) are words ``known`` does not hold,
    neither function words nor numbers."""
    stop = lexicon_or_fallback(language).stopwords
    count = 0
    for word in words[:MAX_RUN]:
        if word in known or word in stop or any(map(str.isdigit, word)):
            break
        count += 1
    return count
