"""The negation check: a claim that denies what the evidence affirms, or the reverse, or
says the opposite word ("closed" where the evidence says "open")."""

from __future__ import annotations

from functools import cache

from ragguard.language import (
    answers_the_question,
    corrective_words,
    infinitive_markers,
    lexicon_or_fallback,
    negation_companions,
    negation_governs_before,
    negation_positions,
    one_verb,
    participle_prefixes,
)
from ragguard.runtime import memoized
from ragguard.scoring.checks.clauses import CLAUSE_BREAK
from ragguard.scoring.checks.comparisons import compared_conversely
from ragguard.scoring.checks.parse import MIN_SHARED, Sentence, overlap, parse
from ragguard.scoring.checks.superlatives import (
    compared_as_ranked,
    denied_by_rival,
    ranked_by_comparison,
)
from ragguard.scoring.checks.words import objects_after, one_stem
from ragguard.scoring.interface.protocols import Reason
from ragguard.scoring.lexical.text import stem, stem_in, stopwords_of, trained_reading
from ragguard.scoring.lexical.vocabulary import ANTONYMS

POLARITY_ANCHOR = 0.5
"""Polarity has no value to look up, so its anchor sentence must hold more of the claim."""
MIN_ROOT = 5
"""Letters a word must keep without its prefix to be its opposite ("legal"/"illegal"), so
that "discover" is no "cover" negated; the rest are its language's ``not_prefixed``."""


_ANTONYM_STEMS = frozenset(stem(w) for w in ANTONYMS)
"""English's antonyms, stemmed: left out of every claim's context (as the checks were tuned)."""


@memoized(entries=65_536)
def prefix_variants(word: str, language: str) -> frozenset[str]:
    """The word with a negating prefix of its language added or removed ("known"/"unknown",
    "effective"/"ineffective"; "agree"/"disagree" is too short), less real words that only
    look prefixed ("increase")."""
    found = lexicon_or_fallback(language)
    prefixes, not_prefixed = found.negating_prefixes, found.not_prefixed
    if word in not_prefixed or not word.isalpha():
        return frozenset()
    variants = {p + word for p in prefixes} if len(word) >= MIN_ROOT else set()
    variants |= {
        word[len(p) :] for p in prefixes if word.startswith(p) and len(word) - len(p) >= MIN_ROOT
    }
    return frozenset(variants - not_prefixed)


def sentence_cues(sentence: Sentence) -> list[int]:
    """``negation_positions`` in the sentence's language, less an opening answer to a
    yes/no question ("No, it opened in 1931.": ``answers_the_question``)."""
    cues = negation_positions(sentence.words, sentence.language)
    if cues[:1] == [0] and answers_the_question(sentence.words, sentence.text, sentence.language):
        return cues[1:]
    return cues


@cache
def _cue_words(language: str) -> frozenset[str]:
    """The words that are negation cues in a language."""
    found = lexicon_or_fallback(language)
    return found.negations | found.particle_negations


CLOSING_SHARE = 0.8
"""Share of the claim's words a clause closed by its negation must hold before it for the
negation to govern them all."""
CLOSING_OPENING = 3
"""Content words the claim must open with as the negated sentence does: it restates the
sentence ("David Okoye beendete ..."), not a word of its reason ("... eine Verletzung")."""


def _closing_scope(
    anchor: Sentence, claim: Sentence, cue: int, context: frozenset[str]
) -> list[str]:
    """The words before a negation that closes its sentence ("David Okoye beendete den
    Marathon wegen einer Verletzung nicht."), nearest first, when the claim opens as the
    sentence does and they hold ``CLOSING_SHARE`` of its words: the negation then denies
    what the claim says."""
    stop = stopwords_of(anchor.language)
    if any(w not in stop for w in anchor.words[cue + 1 :]):
        return []
    before = [w for w in anchor.words[:cue] if w not in stop]
    opening = [w for w in claim.words if w not in stop][:CLOSING_OPENING]
    if len(opening) < CLOSING_OPENING or not _opens_as(opening, before, anchor.language):
        return []
    held = _held(context, frozenset(stem_in(anchor.language, w) for w in before), anchor.language)
    return before[::-1] if context and len(held) >= CLOSING_SHARE * len(context) else []


def _opens_as(opening: list[str], before: list[str], language: str) -> bool:
    """Whether the claim's opening words open the sentence: in order, or, where the language
    has no stemmer, each among its first words in any form, one more word allowed ("Nora
    Quist hat den Preis erhalten" opens as "Nora Quist erhielt den Preis nie")."""
    if before[: len(opening)] == opening:
        return True
    if trained_reading(language) or before[:1] != opening[:1]:
        return False
    first = before[: len(opening) + 1]
    return all(any(_one_form(o, b, language) for b in first) for o in opening)


def _clause_of(sentence: Sentence, cue: int) -> Sentence:
    """The sentence's first clause, up to a semicolon, where the negation cue at ``cue``
    stands in it ("Nora Quist leitet die Firma nicht mehr; sie trat 1990 zurück."): what it
    governs ends there. The whole sentence otherwise."""
    head, _, rest = sentence.text.partition(";")
    if not rest:
        return sentence
    clause = parse(head, sentence.language)
    inside = cue < len(clause.words) and clause.words[cue] == sentence.words[cue]
    return clause if inside else sentence


def _closed_clause(sentence: Sentence, cue: int) -> Sentence | None:
    """The sentence's first clause, up to a comma, where the negation cue at ``cue`` closes
    it ("Greta Holm gewann den Preis nie, obwohl sie 1931 nominiert wurde."); None
    otherwise."""
    head, _, rest = sentence.text.partition(",")
    if not rest:
        return None
    clause = parse(head, sentence.language)
    closes = cue == len(clause.words) - 1 and clause.words[cue] == sentence.words[cue]
    return clause if closes else None


def _held(words: frozenset[str], content: frozenset[str], language: str) -> frozenset[str]:
    """Those of ``words`` that ``content`` holds; in any inflection where the language has
    no stemmer (``_one_form``: "beenden" of "beendete", "terminer" of "terminé", "erhalten"
    of "erhielt")."""
    if trained_reading(language):
        return words & content
    return frozenset(w for w in words if any(_one_form(w, c, language) for c in content))


def _one_form(one: str, other: str, language: str) -> bool:
    """Whether two words are one verb: in one stem (``one_stem``), of one group of the
    language's ``verb_forms``, or a past participle and another form ("gewohnt",
    "wohnte": ``participle_prefixes``)."""
    if one == other or one_stem(one, other) or one_verb(one, other, language):
        return True
    return any(
        word.startswith(prefix) and one_stem(word[len(prefix) :], form)
        for prefix in participle_prefixes(language)
        for word, form in ((one, other), (other, one))
        if len(word) - len(prefix) >= MIN_ROOT - 1
    )


def _stems(words: list[str], language: str) -> frozenset[str]:
    """The words, stemmed as the language's content words are."""
    return frozenset(stem_in(language, w) for w in words)


@cache
def _not_governed(language: str) -> frozenset[str]:
    """Words a negation never governs: stopwords, and those that join it into one cue."""
    return stopwords_of(language) | negation_companions(language)


def governed_words(
    words: tuple[str, ...], cue: int, width: int = 2, language: str = "en"
) -> list[str]:
    """The content words a negation cue governs: the next few after it (before it, nearest
    first, where the language says so: ``negation_governs_before``), up to a word that
    puts it right (``corrective_words``: "nicht 1931, sondern 1935"); an infinitive that
    ends the words, with the word before its marker, where there is one (``_infinitive``:
    "scheiterte 1931 daran, den Marathon zu beenden" denies the finish, not the year)."""
    infinitive = _infinitive(words, cue, language)
    if infinitive:
        return infinitive
    out = []
    stop, ends = _not_governed(language), corrective_words(language)
    denials = set(negation_positions(words, language))  # not "plus" of "pas le plus long"
    before = negation_governs_before(language)
    for at in range(cue - 1, -1, -1) if before else range(cue + 1, len(words)):
        word = words[at]
        if at in denials or word in ends:
            break
        if word not in stop:
            out.append(word)
        if len(out) == width:
            break
    return out


def _infinitive(words: tuple[str, ...], cue: int, language: str) -> list[str]:
    """The object and verb of an infinitive that ends the words after a negation cue, where
    no other cue stands between ("den Marathon zu beenden" after "scheiterte ... daran")."""
    markers = infinitive_markers(language)
    if not markers or len(words) < cue + 3 or words[-2] not in markers:
        return []
    if any(w in _cue_words(language) for w in words[cue + 1 : -2]):
        return []
    stop = stopwords_of(language)
    return [w for w in (words[-1], words[-3]) if w not in stop]


def negated_phrase(words: tuple[str, ...], cue: int, scope: list[str], language: str = "en") -> str:
    """The words from a negation cue to the last word it governs, as a reason shows them
    (from that word to the cue, where it governs the words before it)."""
    if scope and (negation_governs_before(language) or scope[-1] not in words[cue:]):
        start = max(i for i in range(cue) if words[i] == scope[-1])
        return " ".join(words[start : cue + 1])
    end = max(words.index(w, cue) for w in scope) + 1 if scope else cue + 1
    return " ".join(words[cue:end])


@memoized(entries=16_384)
def stands_alone(text: str, word: str) -> bool:
    """Whether ``word`` stands alone in ``text``, not as the end of a compound: the "born"
    of "German-born" says nothing about a death."""
    lowered = text.lower()
    at = lowered.find(word)
    while at >= 0:
        before, end = lowered[at - 1 : at], at + len(word)
        if not (before.isalnum() or before == "-" or lowered[end : end + 1].isalnum()):
            return True
        at = lowered.find(word, at + 1)
    return False


def has_antonyms(language: str) -> bool:
    """Whether the language lists antonyms (``[antonyms]``; ``checks_off`` says where not)."""
    return bool(lexicon_or_fallback(language).antonyms)


def opposites_of(word: str, language: str) -> frozenset[str]:
    """Antonyms and the word with a negating prefix added or removed."""
    antonyms = lexicon_or_fallback(language).antonyms
    return antonyms.get(word, frozenset()) | prefix_variants(word, language)


def holds_opposite(words: list[str], sentence: Sentence) -> bool:
    """Whether the sentence holds the opposite of one of ``words`` (the word a negation
    governs): "not allowed" is what "prohibited" says, "not effective" what "ineffective"
    says; a negated opposite is a paraphrase, not a conflict. Only in a language that lists
    antonyms."""
    if not has_antonyms(sentence.language):
        return False
    return any(
        stands_alone(sentence.text, o)
        for w in words
        for o in opposites_of(w, sentence.language)
        if o in sentence.word_set
    )


def ranking_denied(claim: Sentence, cue: int, sentences: tuple[Sentence, ...]) -> bool:
    """Whether the claim's negation says what the passage's ranking says: "not the largest"
    against "the sixth-largest" (``denied_by_rival``), "no station is busier than Quenby
    Station" against "Quenby Station is the busiest" (``compared_as_ranked``)."""
    return denied_by_rival(claim, cue, sentences) or compared_as_ranked(claim, sentences)


def polarity_findings(claim: Sentence, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """A negated claim against a passage that negates nothing where it says the negated
    words (``_negation_unsaid``); a negation in the on-topic sentence that governs words of
    an affirmed claim; a negated claim whose governed words the on-topic sentence affirms,
    none of its own negations governing them (``_denies_any``); an antonym in place of a
    claim word.
    Example: "The FDA approved the drug in 2020" against "The drug was not approved by the
    FDA in 2020" gives "not approved by the fda". A negated claim is supported only by a
    negated statement, so the first needs no anchor."""
    language = claim.language
    claim_cues = sentence_cues(claim)
    if claim_cues and (unsaid := _negation_unsaid(claim, claim_cues[0], sentences)):
        return unsaid
    context = claim.content - _cue_words(language) - _ANTONYM_STEMS
    anchor = max(sentences, key=lambda s: overlap(context, s))
    if overlap(context, anchor) < POLARITY_ANCHOR:
        return []
    if not claim_cues:
        best = overlap(context, anchor)
        tied = [s for s in sentences if s is not anchor and overlap(context, s) == best]
        for each, least in ((anchor, 1), *((s, MIN_SHARED) for s in tied)):
            found = _denied_by(each, claim, context, least)
            if found is not None:
                return found
    else:
        for cue in claim_cues:
            scope = governed_words(claim.words, cue, language=language)
            governed = _stems(scope, language)
            if (
                scope
                and _held(governed, anchor.content, language) == governed
                and not _denies_any(anchor, governed)
                and not holds_opposite(scope[:1], anchor)
                and not ranking_denied(claim, cue, sentences)
            ):
                return [Reason("negation", negated_phrase(claim.words, cue, scope, language), "")]
    if not has_antonyms(language):
        return []  # ``checks_off`` says where antonyms are off
    return _antonym_findings(claim, anchor, claim_cues)


def _negation_unsaid(claim: Sentence, cue: int, sentences: tuple[Sentence, ...]) -> list[Reason]:
    """The claim's negation, where the passage negates nothing, or where every sentence of it
    that holds all the words the negation governs negates nothing ("The email is not from
    Mike Johnson" against a long email whose only sentence with "Mike Johnson" is its
    signature): the passage says those words only as affirmed. A sentence that denies
    anything at all may deny them, so it leaves the claim to the anchor's reading."""
    language = claim.language
    scope = governed_words(claim.words, cue, language=language)
    said = sentences
    denying = [bool(sentence_cues(s)) for s in sentences]
    if any(denying):
        governed = _stems(scope, language)
        holding = [
            i for i, s in enumerate(sentences) if _held(governed, s.content, language) == governed
        ]
        if not (governed and holding) or any(denying[i] for i in holding):
            return []
        said = tuple(sentences[i] for i in holding)
    if ranking_denied(claim, cue, sentences) or any(holds_opposite(scope[:1], s) for s in said):
        return []
    return [Reason("negation", negated_phrase(claim.words, cue, scope, language), "")]


ANCHOR_SCOPE = 3
"""Words an anchor's own negation is taken to govern when it is asked whether it denies the
claim's negated words: one more than a claim's, so that a denial a word further on counts."""


def _clause_around(sentence: Sentence, cue: int) -> tuple[tuple[str, ...], int]:
    """The words of the clause (``clauses.CLAUSE_BREAK``) that holds the word at ``cue``, and
    its place there; the whole sentence where the clauses do not read as the sentence does."""
    start = 0
    for piece in CLAUSE_BREAK.split(sentence.text):
        words = parse(piece, sentence.language).words
        if sentence.words[start : start + len(words)] != words:
            return sentence.words, cue
        if cue < start + len(words):
            return words, cue - start
        start += len(words)
    return sentence.words, cue


def _anchor_scope(anchor: Sentence, cue: int) -> list[str]:
    """What a negation of the anchor governs, within its clause: the words after it (before
    it, where the language says so), and the words before a negation that closes its clause
    ("Greta Holm beendete den Marathon nicht, obwohl ...")."""
    language = anchor.language
    words, at = _clause_around(anchor, cue)
    scope = governed_words(words, at, ANCHOR_SCOPE, language)
    stop = _not_governed(language)
    if all(w in stop for w in words[at + 1 :]):
        scope += [w for w in words[:at] if w not in stop]
    return scope


def _denies_any(anchor: Sentence, governed: frozenset[str]) -> bool:
    """Whether a negation of the anchor sentence governs one of the claim's negated words
    (stemmed), or governs nothing it can read, so may govern them: "not finished in 1931"
    is denied by "finished in 1931, though she did not win a medal" only where "not"
    governs neither "finished" nor "1931"."""
    language = anchor.language
    for cue in sentence_cues(anchor):
        scope = _anchor_scope(anchor, cue)
        if not scope or _held(governed, _stems(scope, language), language):
            return True
    return False


def _denied_by(
    anchor: Sentence, claim: Sentence, context: frozenset[str], least: int
) -> list[Reason] | None:
    """The negation of an anchor sentence that governs ``least`` words of the affirmed
    claim or more; None where it has none. A sentence as near the claim as the first anchor
    is asked too, for ``MIN_SHARED`` words: "It is not the longest bridge in Riga." holds
    as much of the claim as "The Kellan Bridge crosses the river in Riga." before it."""
    language = claim.language
    if ranked_by_comparison(claim, anchor):
        return []  # "no bridge is longer than A" against "A is the longest bridge"
    for cue in sentence_cues(anchor):
        clause = _clause_of(anchor, cue)
        scope = governed_words(clause.words, cue, language=language)
        if not scope and not negation_governs_before(language):
            scope = _closing_scope(clause, claim, cue, context)
        closed = None if negation_governs_before(language) else _closed_clause(anchor, cue)
        for each in (scope, _closing_scope(closed, claim, cue, context) if closed else []):
            governed = _stems(each, language)
            held = _held(governed, claim.content, language)
            if len(held) >= least and not holds_opposite(each[:1], claim):
                phrase = negated_phrase(anchor.words, cue, each, language)
                return [Reason("negation", "", phrase)]
    return None


def _antonym_findings(claim: Sentence, anchor: Sentence, claim_cues: list[int]) -> list[Reason]:
    """A claim word whose opposite the anchor sentence says, neither negated."""
    claim_words, anchor_words, language = claim.word_set, anchor.word_set, claim.language
    negated = {
        w
        for cue in sentence_cues(anchor)
        for w in governed_words(anchor.words, cue, language=language)[:1]
    }
    denied = {
        w for cue in claim_cues for w in governed_words(claim.words, cue, language=language)[:1]
    }
    if compared_conversely(claim, anchor):
        return []
    for word in claim.words:
        if word in anchor_words or word in denied:
            continue
        for opposite in sorted(opposites_of(word, language), key=len):
            known = opposite in anchor_words and opposite not in claim_words | negated
            if (
                known
                and stands_alone(anchor.text, opposite)
                and _same_object(claim, word, anchor, opposite)
            ):
                return [Reason("negation", word, opposite)]
    return []


def _same_object(claim: Sentence, word: str, anchor: Sentence, opposite: str) -> bool:
    """Whether two opposite function words ("after" and "before", "above" and "below") govern
    the same thing: one of the content words after each (``words.objects_after``) is one
    word ("after three days" against "before the three days"; not "filmed after the first
    film" against "before his time"). Opposite content words need no object."""
    stops = stopwords_of(claim.language)
    if word not in stops or opposite not in stops:
        return True
    mine = objects_after(claim.words, word, stops, claim.language)
    return bool(mine & objects_after(anchor.words, opposite, stops, anchor.language))
