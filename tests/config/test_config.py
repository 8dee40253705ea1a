"""Configuration: one coercion (a TOML path works wherever a config is taken), relative
paths resolved against the config file's folder, and every configured model checked before
any loads, failing in one line that names the config key."""

import textwrap
from importlib import resources

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate

import ragguard
from ragguard.cli import main
from ragguard.config import Config
from ragguard.evaluation.evaluator import Evaluator
from ragguard.scoring.encoders.embeddings import TextEmbedder
from ragguard.scoring.lite.heads import Head

TRACE = {
    "trace_id": "t1",
    "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": "The Eiffel Tower is a lattice tower in Paris, France."}],
    "response": "The Eiffel Tower is in Paris [1].",
}


def write(path, text):
    path.write_text(textwrap.dedent(text))
    return path


@pytest.fixture
def project(tmp_path):
    """A config folder holding ragguard.toml and the support head it names by a relative path."""
    folder = tmp_path / "project"
    folder.mkdir()
    bundled = resources.files("ragguard.scoring.lite").joinpath("bundled", "support_lite.json")
    head = Head.load(str(bundled))
    head.threshold = 0.4321
    head.save(folder / "my_head.json")
    write(
        folder / "ragguard.toml",
        """
        [support]
        model = "my_head.json"

        [relevance]
        backend = "cross-encoder"
        model = "cross-encoder/ms-marco-MiniLM-L-6-v2"

        [spans]
        abstention_examples = "abstentions.json"

        [live]
        mode = "guard"
        sample_rate = 0.5

        [exporters]
        pipeline = "qa"
        otel = false
        prometheus = false
        trace_log = "logs/ragguard.jsonl"
        """,
    )
    return folder


def test_relative_paths_are_relative_to_the_config_file(project, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not the config's folder
    config = Config.from_file("project/ragguard.toml")
    assert config.support.model == str(project / "my_head.json")
    assert config.spans.abstention_examples == project / "abstentions.json"
    assert config.exporters.trace_log == project / "logs" / "ragguard.jsonl"
    # a hub id stays a hub id where no such path exists beside the config
    assert config.relevance.model == "cross-encoder/ms-marco-MiniLM-L-6-v2"


def test_a_head_named_by_a_relative_path_is_the_one_used(project, embedder, monkeypatch):
    monkeypatch.chdir(project.parent)
    config = Config.from_file(project / "ragguard.toml")
    evaluator = Evaluator(Config(support=config.support), embedder=embedder)
    (evaluation,) = evaluator.evaluate_batch([ragguard.Trace.parse(TRACE)])
    assert evaluation.thresholds.support == pytest.approx(0.4321)


def test_wrap_takes_a_config_file_path(project, guard):
    chain = ChatPromptTemplate.from_template("{question}") | FakeListChatModel(responses=["Paris."])
    path = str(project / "ragguard.toml")
    wrapped = ragguard.wrap(chain, config=path, guard=guard)
    assert wrapped.invoke({"question": "Where is the Eiffel Tower?"}).content == "Paris."
    monitor = ragguard.Monitor.shared(path, guard=guard)  # the one wrap() created
    assert (monitor.live.mode, monitor.live.sample_rate) == ("guard", 0.5)
    (trace_log,) = monitor.exporters  # otel and prometheus switched off
    assert trace_log.path == project / "logs" / "ragguard.jsonl"
    from_guard = ragguard.Guard(path, evaluator=guard.evaluator).config
    assert monitor.config == Config.coerce(path) == from_guard


@pytest.fixture
def no_model_loads(monkeypatch):
    """Loading the embedder fails the test: a bad config must be caught before any load."""

    def load(self):
        raise AssertionError("a model was loaded before the config was checked")

    monkeypatch.setattr(TextEmbedder, "_load", load)


@pytest.mark.parametrize(
    ("config", "key", "message"),
    [
        ({"support": {"backend": "nli", "model": "org/not-cached"}}, "support.model", "not cached"),
        (
            {"image": {"backend": "clip", "model": "openai/clip-not-cached"}},
            "image.model",
            "not cached",
        ),
        ({"embedding_model": "org/no-embedder"}, "embedding_model", "not cached"),
        ({"multilingual": {"model": "org/no-e5"}}, "multilingual.model", "not cached"),
        ({"relevance": {"model": "missing_head.json"}}, "relevance.model", "no such file"),
        ({"image": {"backend": "vlm"}}, "image.model", "needs a model"),
    ],
)
def test_every_configured_model_is_checked_before_any_loads(no_model_loads, config, key, message):
    with pytest.raises(ragguard.ModelLoadError) as raised:
        ragguard.Guard(config)
    text = str(raised.value)
    assert text.startswith(key) and message in text and "\n" not in text


def test_the_cli_says_it_in_one_line(no_model_loads, tmp_path, capsys):
    config = write(
        tmp_path / "hub.toml",
        """
        [relevance]
        backend = "lite"
        [support]
        backend = "nli"
        model = "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli"
        """,
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_text("")
    assert main(["evaluate", str(traces), "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert "support.model = 'MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli'" in err
    assert "cannot download" in err


def test_a_local_model_directory_passes_the_check(tmp_path, no_model_loads):
    (tmp_path / "clip").mkdir()
    config = Config.model_validate({"image": {"backend": "clip", "model": str(tmp_path / "clip")}})
    assert ragguard.Guard(config).config.image.model == str(tmp_path / "clip")


def test_a_config_dict_typo_names_the_nearest_setting_as_a_file_does():
    from ragguard.errors import ConfigError

    with pytest.raises(
        ConfigError,
        match=r"config dict: unknown setting `support.treshold`; "
        r"did you mean `support.threshold`\?",
    ):
        Config.coerce({"support": {"treshold": 0.5}})


def test_a_wrap_keyword_typo_names_the_nearest_option():
    from langchain_core.runnables import RunnableLambda

    import ragguard
    from ragguard.errors import ConfigError

    with pytest.raises(
        ConfigError,
        match=r"keyword argument: unknown setting `mdoe`; did you "
        r"mean `mode`\?",
    ):
        ragguard.wrap(RunnableLambda(lambda x: x), mdoe="guard")
