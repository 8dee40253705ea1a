"""``ragguard serve`` fed by clients no one here wrote: LangChain instrumented by
OpenInference and by OpenLLMetry, a LlamaIndex query engine instrumented by OpenInference
(each a separate Python process), and a Node.js app with the OpenTelemetry JS SDK sending
OTLP/JSON. The apps are in tests/support/serve_apps; their generators are scripted (FakeListLLM,
MockLLM) and their retriever ranks by shared words."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.serve_clients import logged, records, running_app, wait_for

APPS = Path(__file__).parents[1] / "support" / "serve_apps"
sys.path.insert(0, str(APPS))
from corpus import ANSWER, DOCS, QUERY  # noqa: E402


def run_app(*args: str, cwd: Path = APPS) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip()


def only_record(app) -> dict:
    (record,) = wait_for(lambda: records(app))
    return record


@pytest.mark.parametrize(
    ("dialect", "ids", "dialects"),
    [
        ("openinference", None, ["openinference"]),
        ("openllmetry", None, ["genai", "openllmetry"]),
    ],
)
def test_langchain_instrumented_by_openinference_and_openllmetry(
    tmp_path, guard, dialect, ids, dialects
) -> None:
    with running_app(tmp_path, guard) as app:
        endpoint = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
        run_app(sys.executable, "langchain_app.py", dialect, endpoint)
        record = only_record(app)
    assert (record["query"], record["response"]) == (QUERY, ANSWER)
    # LangChain's instrumentations send no document ids or scores: ids are span:position
    retriever = record["otel"]["retrieval_span_ids"][0]
    assert [i["id"] for i in record["items"]] == [f"{retriever}:0", f"{retriever}:1"]
    assert [i["text"] for i in record["items"]] == [DOCS["eiffel"], DOCS["louvre"]]
    assert [i["metadata"]["source"] for i in record["items"]] == ["eiffel", "louvre"]
    assert record["otel"]["dialects"] == dialects
    assert record["otel"]["service"] == f"lc-{dialect}"
    evaluation = record["evaluation"]
    assert evaluation["trace_id"] == record["trace_id"]
    assert evaluation["items"][0]["relevant"] is True
    assert evaluation["metrics"]["support_rate"] == 1.0


def test_llamaindex_query_engine_instrumented_by_openinference(tmp_path, guard) -> None:
    with running_app(tmp_path, guard) as app:
        endpoint = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
        run_app(sys.executable, "llamaindex_app.py", endpoint)
        record = only_record(app)
    assert (record["query"], record["response"]) == (QUERY, ANSWER)
    # the query engine's retrieve span carries ids and scores; its inner _retrieve span
    # carries none (nothing duplicated)
    assert [(i["id"], float(i["score"])) for i in record["items"]] == [
        ("eiffel", 0.8),
        ("louvre", 0.4),
    ]
    evaluation = record["evaluation"]
    assert [i["relevant"] for i in evaluation["items"]] == [True, False]
    assert evaluation["metrics"]["support_rate"] == 1.0


@pytest.fixture(scope="module")
def node_app() -> Path:
    """The Node.js client with its npm packages (installed on first use, pinned by the
    lock file, into the gitignored node_modules)."""
    folder = APPS / "node"
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.fail("node and npm are needed (Debian: apt-get install nodejs npm)")
    if not (folder / "node_modules" / "@opentelemetry" / "sdk-trace-node").is_dir():
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=folder,
            check=True,
            timeout=600,
        )
    return folder


def test_a_node_app_sending_otlp_json(tmp_path, guard, node_app) -> None:
    with running_app(tmp_path, guard) as app:
        endpoint = f"http://127.0.0.1:{app.ports['http']}/v1/traces"
        trace_id = run_app("node", "app.js", endpoint, cwd=node_app)
        (record,) = logged(app, trace_id)
    assert len(trace_id) == 32 and record["evaluation"]["trace_id"] == trace_id
    assert [(i["id"], i["score"]) for i in record["items"]] == [("eiffel", 0.8), ("banana", 0.1)]
    assert record["otel"]["dialects"] == ["genai"] and record["otel"]["service"] == "node-rag"
    evaluation = record["evaluation"]
    assert [i["relevant"] for i in evaluation["items"]] == [True, False]
    assert evaluation["metrics"]["support_rate"] == 1.0
