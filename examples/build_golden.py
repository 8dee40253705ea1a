"""Build ``examples/golden.jsonl``: a small golden set for ``ragguard benchmark``.

Nine questions from CLAPNQ dev (primeqa/clapnq, Apache-2.0; passages and answers are Natural
Questions / Wikipedia text, CC BY-SA 3.0), each answered by two simulated pipelines:

* ``hybrid-rerank`` retrieves the gold passage first and answers with CLAPNQ's human-written
  grounded answer, every sentence citing the gold passage;
* ``bm25`` retrieves a passage of another question of the same category first and fails in one
  of three ways per category: a partial answer citing a distractor beside a chunk of the gold
  passage (with the full passage retrieved too: redundancy), an abstention, or a wrong answer.

The reference of each question (claims, FATHOMS phrases, CRUX sub-questions, claim weights,
category, and the gold passage as CRUX's oracle context) and the bm25 answers are hand-written
below. Run: python examples/build_golden.py [../shared/data]
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
CREDIT = (
    "CLAPNQ dev (github.com/primeqa/clapnq, Apache-2.0); passage and answer text from "
    "Wikipedia via Natural Questions, CC BY-SA 3.0"
)
ABSTENTION = "The provided documents do not answer this question."

# Per category, in order: the bm25 pipeline's failure for the 1st, 2nd and 3rd question.
FAILURES = ("partial", "abstain", "wrong")

QUESTIONS = [
    {
        "clapnq_id": "1952549940748890096",
        "category": "geography",
        "claims": [
            "Mount Logan is the highest mountain in Canada.",
            "Mount Logan is in Kluane National Park Reserve.",
            "Mount Logan is in southwestern Yukon.",
            "Mount Logan is less than 40 kilometres north of the Yukon-Alaska border.",
        ],
        "claim_weights": [1, 2, 2, 1],
        "phrases": [["Yukon", "Kluane"], ["Yukon", "Alaska border"]],
        "subquestions": [
            "Which national park contains Mount Logan?",
            "In which territory of Canada is Mount Logan?",
            "How far is Mount Logan from the Alaska border?",
        ],
        "bm25": "Mount Logan is the highest mountain in Canada [{distractor}][{chunk}].",
    },
    {
        "clapnq_id": "-1232889570494423885",
        "category": "geography",
        "claims": [
            "The Cedar River begins in Dodge County, Minnesota.",
            "The Cedar River ends in Louisa County, Iowa.",
            "The Cedar River joins the Iowa River at Columbus Junction.",
        ],
        "claim_weights": [2, 2, 1],
        "phrases": [["Dodge County", "Columbus Junction"], ["Minnesota", "Iowa River"]],
        "subquestions": [
            "Where are the headwaters of the Cedar River?",
            "Where does the Cedar River end?",
            "Which river does the Cedar River join?",
        ],
    },
    {
        "clapnq_id": "-8799334786135262985",
        "category": "geography",
        "claims": [
            "The Penobscot River arises in lakes in north-central Maine.",
            "The Penobscot River flows past the city of Bangor.",
            "The Penobscot River empties into the Atlantic Ocean in Penobscot Bay.",
        ],
        "claim_weights": [2, 1, 2],
        "phrases": [["north-central Maine", "Penobscot Bay"], ["Maine", "Atlantic Ocean"]],
        "subquestions": [
            "Where does the Penobscot River arise?",
            "Which city does the Penobscot River flow past?",
            "Where does the Penobscot River empty into the ocean?",
        ],
        "bm25": "The Penobscot River starts on Mount Logan and ends in the Pacific Ocean "
        "[{distractor}].",
    },
    {
        "clapnq_id": "7321027163416439028",
        "category": "music",
        "claims": [
            "The Kingston Trio recorded The Reverend Mr. Black in 1963.",
            "Johnny Cash covered The Reverend Mr. Black for his album The Baron.",
        ],
        "claim_weights": [2, 1],
        "phrases": [["Kingston Trio"]],
        "subquestions": [
            "Who recorded The Reverend Mr. Black in 1963?",
            "Who covered The Reverend Mr. Black in 1981?",
            "Who wrote The Reverend Mr. Black?",
        ],
        "bm25": "The Reverend Mr. Black is a 1963 song by Billy Edd Wheeler, Mike Stoller and "
        "Jerry Leiber [{distractor}][{chunk}].",
    },
    {
        "clapnq_id": "2960221046363328616",
        "category": "music",
        "claims": [
            "Can't Get You Out of My Head was written by Cathy Dennis and Rob Davis.",
            "Cathy Dennis and Rob Davis also composed and produced the song.",
            "Kylie Minogue recorded Can't Get You Out of My Head.",
        ],
        "claim_weights": [2, 1, 1],
        "phrases": [["Cathy Dennis", "Rob Davis"]],
        "subquestions": [
            "Who wrote Can't Get You Out of My Head?",
            "Who recorded Can't Get You Out of My Head?",
            "On which album was Can't Get You Out of My Head released?",
        ],
    },
    {
        "clapnq_id": "-5722275223041982351",
        "category": "music",
        "claims": [
            "Nice for What is a song recorded by Drake.",
            "Nice for What features additional vocals by Big Freedia.",
            "Nice for What features additional vocals by 5th Ward Weebie.",
        ],
        "claim_weights": [1, 2, 1],
        "phrases": [["Big Freedia"]],
        "subquestions": [
            "Who recorded Nice for What?",
            "Who provides additional vocals on Nice for What?",
            "Who produced Nice for What?",
        ],
        "bm25": "The opening vocals of Nice for What are sung by Drake himself [{distractor}].",
    },
    {
        "clapnq_id": "-1253276861661765206",
        "category": "history",
        "claims": [
            "Government officials opened the Berlin Wall in November 1989.",
            "The demolition of the Berlin Wall officially began on 13 June 1990.",
            "The demolition of the Berlin Wall finished in 1992.",
        ],
        "claim_weights": [2, 1, 1],
        "phrases": [["November 1989"], ["1990", "1992"]],
        "subquestions": [
            "When was the Berlin Wall opened?",
            "When did the demolition of the Berlin Wall begin?",
            "When was the demolition of the Berlin Wall finished?",
        ],
        "bm25": "The Berlin Wall divided Berlin from 1961 to 1989 [{distractor}][{chunk}].",
    },
    {
        "clapnq_id": "147778680095892610",
        "category": "history",
        "claims": [
            "Robert P. McCulloch bought the old London Bridge.",
            "The old London Bridge is now in Lake Havasu City, Arizona.",
            "The bridge links an island in the Colorado River with Lake Havasu City.",
        ],
        "claim_weights": [2, 2, 1],
        "phrases": [["McCulloch", "Lake Havasu City"], ["McCulloch", "Arizona"]],
        "subquestions": [
            "Who bought the old London Bridge?",
            "Where is the old London Bridge now?",
            "When was the rebuilt London Bridge completed?",
        ],
    },
    {
        "clapnq_id": "-8368989478366410036",
        "category": "history",
        "claims": [
            "The Union, the North, won the American Civil War.",
            "The war ended when Robert E. Lee surrendered to Ulysses S. Grant at Appomattox.",
        ],
        "claim_weights": [2, 1],
        "phrases": [["Union"], ["North"]],
        "subquestions": [
            "Which side won the American Civil War?",
            "Who surrendered at Appomattox Court House?",
            "How many people died in the American Civil War?",
        ],
        "bm25": "The South won the American Civil War after the surrender at Appomattox "
        "[{distractor}].",
    },
]

_DETOKENIZE = [
    (r"`` | ''", '"'),
    (r" ([,.;:?!)])", r"\1"),
    (r"\( ", "("),
    (r" - ", "-"),
    (r" -- ", " - "),
    (r" (n't|'s)\b", r"\1"),
    (r"\s+", " "),
]


def detokenize(text: str) -> str:
    """Undo Natural Questions' tokenization ("Denali ." -> "Denali.", "Ca n't" -> "Can't")."""
    for pattern, replacement in _DETOKENIZE:
        text = re.sub(pattern, replacement, text)
    return text.strip()


_SENTENCE_END = re.compile(r"(?<!Mr\.)(?<!\s[A-Z]\.)(?<=[.!?])\s+(?=[A-Z\"])|\n+")
"""A sentence ends at . ! ? before a capital, except after "Mr." or an initial ("Robert E.")."""


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def cite(text: str, item_id: str) -> str:
    """Each sentence of ``text`` with a citation marker before its final period."""
    return " ".join(f"{s.strip().rstrip('.')} [{item_id}]." for s in sentences(text))


def build(data_dir: Path) -> list[dict]:
    path = data_dir / "clapnq-dev" / "dev_answerable.jsonl"
    rows = {row["id"]: row for row in map(json.loads, path.open(encoding="utf-8"))}
    passages = [detokenize(rows[q["clapnq_id"]]["passages"][0]["text"]) for q in QUESTIONS]
    traces = []
    for k, question in enumerate(QUESTIONS):
        row = rows[question["clapnq_id"]]
        gold = {"id": f"w{k + 1}", "text": passages[k], "metadata": {"credit": CREDIT}}
        group = k - k % 3  # the question's category occupies QUESTIONS[group : group + 3]
        other = group + (k + 1) % 3
        distractor = {
            "id": f"w{other + 1}",
            "text": passages[other],
            "metadata": {"credit": CREDIT},
        }
        answer = detokenize(row["output"][0]["answer"])
        claims = question["claims"]
        reference = {
            "answer": answer,
            "claims": claims,
            "phrases": question["phrases"],
            "subquestions": question["subquestions"],
            "claim_sources": {str(c): [gold["id"]] for c in range(len(claims))},
            "claim_weights": question["claim_weights"],
            "category": question["category"],
            "oracle_items": [gold],
        }
        common = {"query": row["input"], "reference": reference, "metadata": {"credit": CREDIT}}
        traces.append(
            {
                "trace_id": f"hybrid-rerank-{k + 1}",
                "pipeline": "hybrid-rerank",
                "items": [gold, distractor],
                "response": cite(answer, gold["id"]),
                **common,
            }
        )
        failure = FAILURES[k % 3]
        items = [distractor]
        if failure == "partial":
            half = sentences(passages[k])
            chunk = {"id": f"w{k + 1}a", "text": " ".join(half[: (len(half) + 1) // 2])}
            items += [{**chunk, "metadata": {"credit": CREDIT}}, gold]
        response = (
            ABSTENTION
            if failure == "abstain"
            else question["bm25"].format(distractor=distractor["id"], chunk=f"w{k + 1}a")
        )
        traces.append(
            {
                "trace_id": f"bm25-{k + 1}",
                "pipeline": "bm25",
                "items": items,
                "response": response,
                **common,
            }
        )
    return traces


if __name__ == "__main__":
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "data"
    out = HERE / "golden.jsonl"
    lines = [json.dumps(trace, ensure_ascii=False) + "\n" for trace in build(data)]
    out.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {len(lines)} traces to {out}")
