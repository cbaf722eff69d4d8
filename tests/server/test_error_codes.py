"""Every error code the server can send is listed, with its meaning, in ``qipai.server.protocol.ERROR_CODES``
(the browser words each one in Chinese and English; docs/protocol.md shows the list)."""

from __future__ import annotations

import ast
from pathlib import Path

import qipai
from qipai.server.protocol import ERROR_CODES, NOTICE_CODES

SRC = Path(qipai.__file__).parent
RAISERS = {"TableError", "ApiError", "ProtocolError", "AuthError", "_refusal", "_refuse"}


def codes_in_source() -> set[str]:
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                args = node.args[1:] if name == "_refuse" else node.args  # _refuse(ws, code, ...)
                if name in RAISERS | {"error"} and args and isinstance(args[0], ast.Constant):
                    v = args[0].value
                    if isinstance(v, str) and v.isidentifier():
                        found.add(v)
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "code" and isinstance(v, ast.Constant):
                        found.add(str(v.value))
    return found


def test_every_code_in_the_source_is_listed() -> None:
    found = codes_in_source()
    assert found, "the scan found no error codes at all"
    missing = sorted(found - set(ERROR_CODES) - set(NOTICE_CODES))
    assert not missing, f"codes sent but not in ERROR_CODES: {missing}"


def test_every_listed_code_is_sent_somewhere() -> None:
    unused = sorted(set(ERROR_CODES) - codes_in_source())
    assert not unused, f"ERROR_CODES lists codes nothing sends: {unused}"


def test_the_protocol_page_lists_every_code() -> None:
    page = (SRC.parent.parent / "docs" / "protocol.md").read_text()
    missing = [c for c in ERROR_CODES if f"| `{c}` |" not in page]
    assert not missing, f"docs/protocol.md §6 lacks {missing}"
