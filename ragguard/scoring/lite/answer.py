"""Answer relevance, the lite tier: does the answer address the question?

Support says whether each sentence is grounded; it cannot see an answer that is grounded
and beside the point ("Where is the Eiffel Tower?" answered with facts about Rome). A small
logistic head reads, from the MiniLM vectors the evaluator already computes (the query's, for
relevance; the spans', for abstention), how close the answer and its sentences are to the
question, and, from the rules in ``data/answer_types.json``, whether the answer gives the
kind of thing asked for: a date for "when", a number for "how many", a place for "where",
a person for "who". Each span is scored alone with the same head (``addresses_query``).

The answer types also decide: an answer to a "when", "who", "how many/much/tall/long" or
"where" question that gives no date, person, quantity or place is off-question whatever the
head says (its score is capped ``TYPE_MISSING_MARGIN`` below the threshold, out of the
judge's default answer band: the rule is sure, the judge is not asked). Abstentions are never
scored (``ragguard.metrics.answer_relevance``). English answers are read by the MiniLM head;
German, French, Spanish and Hindi ones, with the ``ragguard-eval[multilingual]`` extra, by a
head of the same features over multilingual-E5 vectors (``answer_relevance_multilingual``),
with each language's question words and cues from the same data file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

import numpy as np

from ragguard.language import decade_words_pattern, normalized, spelled_numbers
from ragguard.runtime import memoized
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.lexical import text as tx
from ragguard.scoring.lite.heads import Head
from ragguard.scoring.lite.scorers import HeadScorer, select_sentences

ANSWER_FEATURES = [
    "sim_answer",
    "sim_span_max",
    "sim_span_mean",
    "query_overlap",
    "type_asked",
    "type_missing",
    "items_given",
    "items_closer",
]
ITEM_FEATURES = ("items_given", "items_closer")
"""The features read from the trace's items: whether any were given, and the share of their
sentences closer to the question than the answer's best sentence. A sentence of the
question's own passages that does not answer it usually has a sibling there that answers
better. With no items both are 0, as in the share of training rows given none."""
CLOSER_BY = 0.02
"""How much closer to the question an item's sentence must be than the answer's best one to
count as closer: a sentence quoted from an item (its normalization aside) is not."""
ANSWER_HEAD_NAME = "answer_relevance_lite"
TYPE_MISSING_MARGIN = 0.2
"""How far below the threshold an answer that lacks the asked type is put: more than the
judge's default answer band (``judge.cascade.ANSWER_BAND_HALF_WIDTH``), so no call is spent."""


@dataclass(frozen=True, slots=True)
class _Rules:
    asks: tuple[tuple[str, re.Pattern[str]], ...]
    gives: dict[str, re.Pattern[str]]
    decides: tuple[tuple[str, re.Pattern[str]], ...]
    decided_gives: dict[str, re.Pattern[str]]
    names_by_capitals: bool
    polar: tuple[re.Pattern[str], re.Pattern[str]] | None = None
    """A yes/no question, and a yes or a no that answers it (``_comment_polar``)."""
    with_number: tuple[re.Pattern[str], ...] = ()
    """The words before and after a number that a fragment counts with it
    (``_comment_with_number``: "More than four million euros.")."""


ENGLISH = "en"
"""The language whose table reads a pair by default: the English head's, as trained."""


@memoized(entries=1)
def _tables() -> dict[str, object]:
    path = resources.files("ragguard.scoring.lite").joinpath("data", "answer_types.json")
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@memoized(entries=8)
def _rules(language: str = ENGLISH) -> _Rules:
    """A language's table of ``data/answer_types.json`` (English for a language without
    one: its question words are the ones a reader of another language is least likely to
    miss)."""
    tables = _tables()
    data = cast(dict[str, Any], tables.get(language) or tables[ENGLISH])
    asks = tuple((r["kind"], re.compile(r["pattern"], re.IGNORECASE)) for r in data["asks"])
    gives = {kind: re.compile(p, re.IGNORECASE) for kind, p in data["gives"].items()}
    decides = tuple((k, re.compile(p, re.IGNORECASE)) for k, p in data["decides"].items())
    more = {kind: re.compile(p, re.IGNORECASE) for kind, p in data["decided_gives"].items()}
    polar = data.get("polar")
    yes_no = (
        (re.compile(polar["question"], re.IGNORECASE), re.compile(polar["answer"], re.IGNORECASE))
        if polar
        else None
    )
    capitals = bool(data.get("names_by_capitals", True))
    beside = data.get("with_number", {})
    with_number = tuple(
        re.compile(beside[k], re.IGNORECASE) for k in ("before", "after") if k in beside
    )
    return _Rules(asks, gives, decides, more, capitals, yes_no, with_number)


def asked_kind(question: str, language: str = ENGLISH) -> str | None:
    """The kind of thing a question asks for ("date", "number", "place", "person"), by the
    rule of its language that matches earliest in it; None for other questions (what,
    why, how...)."""
    found = [(m.start(), k) for k, p in _rules(language).asks if (m := p.search(question))]
    return min(found)[1] if found else None


def gives_kind(text: str, kind: str, language: str = ENGLISH) -> bool:
    """Whether a text carries a cue of that kind (a year or month for a date...)."""
    return _rules(language).gives[kind].search(text) is not None


_CAPITALIZED = re.compile(r"[A-Z][\w'’-]+")


def lacks_asked_type(
    question: str, answer: str, asked_in: str = ENGLISH, answered_in: str | None = None
) -> bool:
    """Whether a question that opens with its question word ("When ...", "Who ...", "How
    many ...", "Where ...") gets an answer with nothing of the kind asked: off-question. A
    name the question holds is its subject, not an answer ("Who designed the Eiffel Tower?"
    is not answered by "The Eiffel Tower is a lattice tower"). The question is read with
    the rules of ``asked_in``, the answer with those of ``answered_in`` (default the same)."""
    kind = next((k for k, p in _rules(asked_in).decides if p.search(question)), None)
    rules = _rules(answered_in or asked_in)
    if kind is None or (kind in _NAMED_KINDS and _case_blind(answer, rules)):
        return False
    asked = set(_CAPITALIZED.findall(question))
    answer = _CAPITALIZED.sub(
        lambda m: m.group().lower() if m.group() in asked else m.group(), answer
    )
    more = rules.decided_gives.get(kind)
    gives = rules.gives[kind].search(answer) or (more is not None and more.search(answer))
    spoken = _in_words(answer, kind, answered_in or asked_in)
    return not (gives or spoken or _names_without_capitals(answer, kind, rules))


def _in_words(answer: str, kind: str, language: str) -> bool:
    """Whether the answer says the date or number asked for in words ("In nineteen
    fifty-two.", "Mil novecientos cincuenta y dos."), which the patterns of digits miss."""
    if kind not in ("date", "number"):
        return False
    found = spelled_numbers(answer, language)
    if kind == "date":
        decade = decade_words_pattern(language)  # "the sixties", "les années soixante"
        return any(n.year for n in found) or bool(decade and decade.search(answer))
    return bool(found)


def _names_without_capitals(answer: str, kind: str, rules: _Rules) -> bool:
    """A fragment answering "who" or "where" in a script without capitals ("डेविड ओकोये।"):
    nothing marks its name, so a fragment that gives no other kind (no date, no number)
    is read as one."""
    if rules.names_by_capitals or kind not in _NAMED_KINDS or not is_fragment(answer):
        return False
    return not any(rules.gives[k].search(answer) for k in ("date", "number") if k in rules.gives)


_DIGIT_GROUP = re.compile(r"(?<=\d)[ \u00a0\u202f](?=\d{3}(?!\d))")
"""A space that groups digits ("1 800 000"): the number is one word."""


def _words(answer: str, language: str = ENGLISH) -> list[str]:
    """The words of an answer, a number whether in digits ("1 800 000") or words ("one
    hundred and forty-two") one word, with the words its language counts with it ("more
    than", "the year", "million": ``with_number``), and a name after a word in lower case
    one word (``_in_a_name``)."""
    text = _DIGIT_GROUP.sub("", answer)
    for number in reversed(spelled_numbers(text, language)):
        text = f"{text[: number.start]}0{text[number.end :]}"
    rules = _rules(language)
    for beside in rules.with_number:
        text = beside.sub("", text)
    words = text.split()
    if not rules.names_by_capitals:
        return words
    return [w for i, w in enumerate(words) if not _in_a_name(words, i, language)]


def _in_a_name(words: list[str], at: int, language: str) -> bool:
    """Whether the word at ``at`` continues a name of two capitalized words or more that
    follows a word in lower case or an opening function word ("The engineer Nora Quist.",
    "La ingeniera Nora Quist.", "Die Ingenieurin Nora Quist."): the name counts as one word.
    A name opening the answer, or after another capitalized word, does not ("Julius Caesar
    was Roman.", "Featuring Happy Days.")."""
    stop = tx.stopwords_of(language)
    start = at
    while start > 1 and words[start - 1][:1].isupper():
        start -= 1
    if start == 1 and words[0][:1].isupper() and words[0].lower() not in stop:
        return False  # the name opens the answer
    if start == at or not words[at][:1].isupper():
        return False
    before = words[start - 1]
    return before.islower() or (start == 1 and before.lower() in stop)


def is_fragment(answer: str, language: str = ENGLISH) -> bool:
    """Whether an answer is a fragment the question completes ("Paris.", "In 1889.", "En
    mil novecientos cincuenta y dos."): at most ``FRAGMENT_WORDS`` words, a number one."""
    return len(_words(answer, language)) <= FRAGMENT_WORDS


def answers_yes_or_no(
    question: str, answer: str, asked_in: str = ENGLISH, answered_in: str | None = None
) -> bool:
    """Whether a fragment opening with a yes or a no ("No.") answers a yes/no question
    ("Did the bridge open in 1870?"): rightly or not, support says."""
    asked, answered = _rules(asked_in).polar, _rules(answered_in or asked_in).polar
    if asked is None or answered is None or not is_fragment(answer, answered_in or asked_in):
        return False
    return bool(asked[0].search(question) and answered[1].search(answer))


_NAMED_KINDS = frozenset({"place", "person"})
"""The kinds whose cues are names, found by their capitals."""

FRAGMENT_WORDS = 3
"""An answer of at most this many words is a fragment ("Paris.", "In 1889."): the question
completes it, so it is read by its type, not by its closeness to the question. Counting
function words apart made "Bananas grow in the tropics." one."""


def _case_blind(text: str, rules: _Rules) -> bool:
    """All lower case or all capitals, in a language that writes names with capitals:
    capitals say nothing of names in it."""
    return rules.names_by_capitals and (text == text.lower() or text == text.upper())


def answers_by_fragment(
    question: str, answer: str, asked_in: str = ENGLISH, answered_in: str | None = None
) -> bool:
    """Whether a fragment answer ("Paris." to "Where is the Eiffel Tower?") gives the kind
    of thing a question that opens with its question word asks for: it answers the question
    (rightly or not: support says which), however far its vector is from the question's."""
    kind = next((k for k, p in _rules(asked_in).decides if p.search(question)), None)
    if kind is None or not is_fragment(answer, answered_in or asked_in):
        return False
    if kind in _NAMED_KINDS and _case_blind(answer, _rules(answered_in or asked_in)):
        return False
    return not lacks_asked_type(question, answer, asked_in, answered_in)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (float(np.linalg.norm(vector)) + 1e-12)


Languages = tuple[str, str]
"""The question's language and the answer's, for a pair not read as English."""


def item_sentences(query: str, items: Sequence[str]) -> list[str]:
    """The sentences of the items that the item features read: those of each item that
    relevance reads for the question (``select_sentences``, the same probe), so their
    vectors are already in the embedder's cache when relevance has run."""
    probe = tx.content_tokens(normalized(query))
    out: list[str] = []
    for text in dict.fromkeys(normalized(t) for t in items if t.strip()):
        split = tx.evidence_sentences(text)
        out += [split[i] for i in select_sentences(split, probe)]
    return list(dict.fromkeys(out))


def answer_features(
    query: str,
    query_vector: np.ndarray,
    sentences: Sequence[str],
    vectors: np.ndarray,
    languages: Languages | None = None,
    item_vectors: np.ndarray | None = None,
) -> np.ndarray:
    """The head's features (``ANSWER_FEATURES``) for an answer given as its sentences and
    their unit vectors; the answer as a whole is the normalized sum of its sentences (no
    second encoding). A single span is scored as a one-sentence answer. ``languages``
    names the rules and word lists each side is read with (None: English, as trained).
    ``item_vectors`` are those of ``item_sentences`` (None or empty: no items, both item
    features 0)."""
    sims = vectors @ query_vector
    read = item_vectors is not None and len(item_vectors) > 0
    closer = float(np.mean(item_vectors @ query_vector > sims.max() + CLOSER_BY)) if read else 0.0
    asked_in, answered_in = languages or (ENGLISH, ENGLISH)
    kind = asked_kind(query, asked_in)
    whole = " ".join(sentences)
    if languages is None:
        asked, given = tx.content_tokens(query), tx.content_tokens(whole)
    else:
        asked, given = tx.content_tokens(query, asked_in), tx.content_tokens(whole, answered_in)
    return np.array(
        [
            float(_unit(vectors.sum(axis=0)) @ query_vector),
            float(sims.max()),
            float(sims.mean()),
            tx.recall(asked, given) if asked else 0.0,
            float(kind is not None),
            float(kind is not None and not gives_kind(whole, kind, answered_in)),
            float(read),
            closer,
        ],
        dtype=np.float32,
    )


@dataclass(frozen=True, slots=True)
class AnswerScore:
    """One answer's relevance to its question, and each of its sentences' (in the order
    given)."""

    score: float
    spans: list[float]


class AnswerRelevanceScorer(HeadScorer):
    """A head over ``answer_features``; one embedding call for a whole batch (the
    embedder's content-hash cache makes the query, span and item-sentence vectors free when
    relevance and the span analyzer have encoded them already). ``rescale`` moves the head's
    scores onto another head's scale, whose eta is then ``threshold`` (the multilingual head
    on the English one's, so that one eta and one judge band decide answers in every
    language). A head reads the features it names: one without the item features (the
    multilingual head) never has the items encoded."""

    def __init__(
        self,
        embedder: TextEmbedder,
        head: Head | None = None,
        *,
        threshold: float | None = None,
        rescale: Callable[[float], float] | None = None,
    ) -> None:
        super().__init__(embedder, head or Head.bundled(ANSWER_HEAD_NAME), ANSWER_FEATURES)
        self.reads_items = bool(set(ITEM_FEATURES) & set(self.head.features))
        if threshold is not None:  # below it an answer, or a sentence, does not address it
            self.threshold = threshold
        self.rescale = rescale

    def score(
        self,
        answers: Sequence[tuple[str, Sequence[str]]],
        languages: Sequence[Languages | None] | None = None,
        items: Sequence[Sequence[str]] | None = None,
    ) -> list[AnswerScore | None]:
        """Per (query, sentences) pair its score; None where there is no query or no
        sentence to score. ``languages``, aligned with ``answers``, names the question's
        and the answer's language of a pair not read as English; ``items``, aligned too,
        the texts of the trace's retrieved items (None or empty: none given)."""
        tongues = list(languages) if languages is not None else [None] * len(answers)
        given = list(items) if items is not None and self.reads_items else [()] * len(answers)
        wanted = [
            (q, list(s), t, item_sentences(q, i) if i else [])
            for (q, s), t, i in zip(answers, tongues, given, strict=True)
            if q.strip() and s
        ]
        texts = list(dict.fromkeys(x for q, s, _, i in wanted for x in (q, *s, *i)))
        vectors = dict(zip(texts, self.embedder.encode(texts), strict=True)) if texts else {}
        rows: list[np.ndarray] = []
        missing: list[bool | None] = []
        for query, sentences, tongue, read in wanted:
            qv = vectors[query]
            matrix = np.stack([vectors[s] for s in sentences])
            around = np.stack([vectors[s] for s in read]) if read else None
            rows.append(answer_features(query, qv, sentences, matrix, tongue, around))
            missing.append(_type_rule(query, " ".join(sentences), tongue))
            rows.extend(
                answer_features(query, qv, [s], matrix[i : i + 1], tongue, around)
                for i, s in enumerate(sentences)
            )
        features = np.stack(rows)[:, self.columns] if rows else None
        scored = self.head.predict(features).tolist() if features is not None else []
        predicted = iter([self.rescale(p) for p in scored] if self.rescale else scored)
        out: list[AnswerScore | None] = []
        lacking = iter(missing)
        for (query, spoken), tongue in zip(answers, tongues, strict=True):
            if not (query.strip() and spoken):
                out.append(None)
                continue
            score, spans = next(predicted), [next(predicted) for _ in spoken]
            decided = next(lacking)
            if decided is not None:
                score = self._decided(score, decided)
                spans = [
                    self._decided(s, _type_rule(query, t, tongue))
                    for s, t in zip(spans, spoken, strict=True)
                ]
            out.append(AnswerScore(score, spans))
        return out

    def _decided(self, score: float, answers: bool | None) -> float:
        """A score the answer-type rule decides: capped below the threshold when the asked
        type is missing, raised above it for a fragment that gives it."""
        if answers is None:
            return score
        if answers:
            return max(score, self.threshold + TYPE_MISSING_MARGIN)
        return min(score, self.threshold - TYPE_MISSING_MARGIN)


def _type_rule(question: str, answer: str, languages: Languages | None = None) -> bool | None:
    """What the answer-type rule decides: False (the asked type is missing), True (a
    fragment that gives it), None (it leaves the score to the head)."""
    asked_in, answered_in = languages or (ENGLISH, ENGLISH)
    if lacks_asked_type(question, answer, asked_in, answered_in):
        return False
    if answers_by_fragment(question, answer, asked_in, answered_in):
        return True
    return True if answers_yes_or_no(question, answer, asked_in, answered_in) else None
