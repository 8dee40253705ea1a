"""Assertions for a test suite: ``assert_supported`` (every claim of an answer is supported
by its contexts) and ``assert_relevant`` (the answer addresses the question), each raising
an ``AssertionError`` that lists what failed and why; with the pytest plugin
(``ragguard.testing.plugin``): a session-wide ``ragguard_guard`` fixture and
``--ragguard-report FILE``.

Importing this package loads no model and imports no evaluator: the plugin is loaded in
every pytest run where ragguard is installed, and must cost nothing to a run that does not
use it. The models load on the first assertion, once per config.
"""

from ragguard.testing.asserts import assert_relevant, assert_supported, session_guard

__all__ = ["assert_relevant", "assert_supported", "session_guard"]
