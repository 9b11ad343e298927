"""The issue's "done when": from an empty folder, the wheel installs with ``pip install --no-index``
into a venv made with ``--system-site-packages`` (httpx from the system), and the documented lines
create a snapshot and find it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from server import Server

PROJECT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import sys
    from snapgraph import Snapgraph
    c = Snapgraph(base_url=sys.argv[1], api_key=sys.argv[2])
    s = c.snapshots.create(name="Wheel check", core="Installed from the wheel alone")
    found = c.snapshots.search("wheel installed")
    assert found.data[0].id == s.id and found.data[0].score > 0, found
    import snapgraph
    print(snapgraph.__file__)
    """
)


def run(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_INDEX_URL", "VIRTUAL_ENV")}
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_installs_offline_and_works(server: Server, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    pip_wheel = ("pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist), str(PROJECT))
    run(sys.executable, "-m", *pip_wheel, cwd=tmp_path)
    [wheel] = list(dist.glob("snapgraph-*-py3-none-any.whl"))

    empty = tmp_path / "empty"
    empty.mkdir()
    run(sys.executable, "-m", "venv", "--system-site-packages", "venv", cwd=empty)
    python = empty / "venv" / "bin" / "python"
    run(str(python), "-m", "pip", "install", "--no-index", str(wheel), cwd=empty)

    key = server.make_key("enterprise")
    (empty / "check.py").write_text(SCRIPT)
    where = run(str(python), "check.py", server.url, key.key, cwd=empty)
    # The package came from the venv, not from the source tree.
    assert str(empty / "venv") in where
