"""Property: whatever a dependency file or an index answer holds, `stack` and `index` end cleanly.

`python -m macros stack` on any text (requirement-like lines, TOML-like tables, random bytes) exits
0, 1 or 2, prints JSON that parses when it succeeds and one line when it does not, never a
traceback; the index's reading of an answer (`parse_project`) returns files or raises
IndexAnswerError, nothing else. Bounded (a few dozen examples, no deadline) to keep the suite fast.
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macros.__main__ import main
from macros.tools.eco_index import IndexAnswerError, parse_project

NAMES = st.sampled_from(["torchvision", "vllm", "xformers", "Flash_Attn", "accelerate", "numpy", "transformers[torch]"])
OPERATORS = st.sampled_from(["==", ">=", "<=", "~=", "!=", "===", "<", ">", "", " @ "])
VERSIONS = st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){0,3}(\.post[0-9]|rc[0-9]|\+cu[0-9]{3}|\.\*)?", fullmatch=True)
LINES = st.one_of(
    st.builds(lambda n, o, v: f"{n}{o}{v}", NAMES, OPERATORS, VERSIONS),
    st.sampled_from(["-r other.txt", "-e .", "# comment", "--hash=sha256:00", "\\", "[pip3] torch==2.7.1", ""]),
    st.text(max_size=40),
)
FILE_NAMES = st.sampled_from(["requirements.txt", "pyproject.toml", "uv.lock", "poetry.lock", "freeze.txt"])


def run_stack(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["stack", str(path), "--to", "2.12", "--format", "json"])
    return status, out.getvalue(), err.getvalue()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=FILE_NAMES, lines=st.lists(LINES, max_size=12), raw=st.binary(max_size=60))
def test_stack_ends_cleanly_on_any_file(name: str, lines: list[str], raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass") + raw)
        status, out, err = run_stack(path)
    assert status in {0, 1, 2}
    assert "Traceback" not in err
    if status == 2:
        assert out == "" and len(err.strip().splitlines()) == 1, err
    else:
        document = json.loads(out)
        assert document["target"] == "2.12"
        assert all(row["name"] == row["name"].lower() for row in document["packages"])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=20,
)
FILE_ENTRIES = st.fixed_dictionaries(
    {},
    optional={
        "filename": st.one_of(st.text(max_size=40), st.just("../x-1.0-py3-none-any.whl"), st.just("x-1.0.tar.gz")),
        "url": st.one_of(st.text(max_size=40), st.just("https://files.example/x-1.0.tar.gz"), st.just("file:///etc")),
        "upload-time": st.one_of(st.text(max_size=30), st.just("2024-01-01T00:00:00Z")),
        "size": JSON_VALUES,
        "yanked": JSON_VALUES,
        "requires-python": JSON_VALUES,
    },
)


@settings(max_examples=80, deadline=None)
@given(answer=st.one_of(JSON_VALUES, st.builds(lambda files: {"files": files}, st.lists(FILE_ENTRIES, max_size=4))))
def test_an_index_answer_is_read_or_refused_in_one_line(answer: object) -> None:
    body = json.dumps(answer).encode()
    try:
        files = parse_project(body, "https://pypi.example/simple/x/", "x")
    except IndexAnswerError as error:
        assert "\n" not in str(error)
        assert str(error).startswith("https://pypi.example/simple/x/")
    else:
        assert all(file.filename and "/" not in file.filename for file in files)
