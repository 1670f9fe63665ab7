"""A local commit's switch of one partition directory (``location.exchange_directories``): the new version in place
and the old one in the staging folder, by ``renameat2`` where the system has it and by two renames
where it has not (macOS, a file system that refuses the exchange)."""

from __future__ import annotations

import pytest

from kafkaspec.logdir.store import location


@pytest.mark.parametrize("native", [True, False])
def test_exchange_puts_the_new_version_in_place_and_the_old_one_aside(tmp_path, monkeypatch, native):
    if not native:
        monkeypatch.setattr(location, "_renameat2", lambda a, b: False)
    final, new = tmp_path / "t-0", tmp_path / "_ready" / "t-0"
    final.mkdir()
    (final / "old.log").write_text("old")
    new.mkdir(parents=True)
    (new / "new.log").write_text("new")
    (tmp_path / "canary").write_text("keep")
    location.exchange_directories(new, final)
    assert [p.name for p in final.iterdir()] == ["new.log"]
    assert [p.name for p in new.iterdir()] == ["old.log"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_ready", "canary", "t-0"]
    assert sorted(p.name for p in (tmp_path / "_ready").iterdir()) == ["t-0"]


@pytest.mark.parametrize("native", [True, False])
def test_an_exchange_that_fails_is_an_error_naming_it_and_leaves_the_old_version(
    tmp_path, monkeypatch, native
):
    if not native:
        monkeypatch.setattr(location, "_renameat2", lambda a, b: False)
    missing, final = tmp_path / "_ready" / "t-0", tmp_path / "t-0"
    (tmp_path / "_ready").mkdir()
    final.mkdir()
    (final / "old.log").write_text("old")
    with pytest.raises(OSError) as exc:
        location.exchange_directories(missing, final)
    assert str(missing) in str(exc.value)
    assert [p.name for p in final.iterdir()] == ["old.log"]
