"""``pipeline --decode-values`` goes with a full run: with ``--incremental`` or ``--follow`` (which do not
write typed datasets) it is refused in one line, exit 2, before Spark starts, never silently ignored."""

from __future__ import annotations

import pytest

from kafkaspec.cli import main


@pytest.mark.parametrize("flag", ["--incremental", "--follow"])
def test_decode_values_is_refused_with_an_incremental_run(tmp_path, capsys, flag):
    data = tmp_path / "logs"
    data.mkdir()
    canary = tmp_path / "canary"
    canary.write_text("keep")
    assert main(["pipeline", str(data), str(tmp_path / "out"), flag, "--decode-values"]) == 2
    err = capsys.readouterr().err
    assert (
        "--decode-values" in err
        and flag in err
        and "Traceback" not in err
        and len(err.strip().splitlines()) == 1
    )
    assert not (tmp_path / "out").exists() and canary.read_text() == "keep"
