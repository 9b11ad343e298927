"""The READMEs' Python examples (this client's, and the repository's "Use it from Python"), each
run in order as one program against the real server, with a key of a new account (so that its
first search finds the snapshot it made, not another test's)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server import Server

README = Path(__file__).resolve().parents[1] / "README.md"
ROOT_README = Path(__file__).resolve().parents[3] / "README.md"
SRC = Path(__file__).resolve().parents[1] / "src"


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)


def run_blocks(server: Server, tmp_path: Path, blocks: list[str]) -> str:
    key = server.make_key("enterprise")
    env = {**os.environ, "SNAPGRAPH_URL": server.url, "SNAPGRAPH_API_KEY": key.key, "PYTHONPATH": str(SRC)}
    script = tmp_path / "readme_examples.py"
    script.write_text("\n\n".join(blocks))
    done = subprocess.run(
        [sys.executable, str(script)], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_client_readme_examples_run(server: Server, tmp_path: Path) -> None:
    blocks = python_blocks(README.read_text())
    assert len(blocks) >= 5
    out = run_blocks(server, tmp_path, blocks)
    assert "NOT_FOUND" in out and "req_" in out


def test_the_repository_readme_python_example_runs(server: Server, tmp_path: Path) -> None:
    blocks = python_blocks(ROOT_README.read_text())
    if not blocks:
        pytest.skip("the repository's README has no Python example yet")
    out = run_blocks(server, tmp_path, blocks)
    assert "snap_" in out
