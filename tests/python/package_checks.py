"""Checks of the Python package (scripts/python) run by tests/python_package.rs in the fresh
virtual environment it installs the package into.

    package_checks.py compare CASES.json   # answers and errors equal `gamedb query --json`'s
    package_checks.py views CASES.json     # values(): a view over the mapping, info's counts
    package_checks.py folder CASES.json    # TableDir, Board and solve_fifteen against the CLI
    package_checks.py stubs STUBS.pyi      # the stubs name exactly what the module has

Prints one summary line; any difference is an AssertionError naming the table and position.
"""
import json
import sys

import numpy as np

import gamedb


def compare(cases):
    answers = bulk = refusals = 0
    tables = 0
    for case in cases:
        if "unknown" in case:
            t = gamedb.open(case["unknown"])
            assert not t.known and t.game == case["game"], case
            assert t.value_at(0) == case["value0"] and len(t.values()) == case["payload_len"]
            for position in ("1", [1]):
                try:
                    t.query(position)
                except gamedb.UnknownGameError as e:
                    assert str(e) == case["cli_error"], (case["unknown"], str(e), case["cli_error"])
                    refusals += 1
                    continue
                raise AssertionError(f"{case['unknown']}: a position of an unknown game answered")
            continue
        if "damaged" in case:
            try:
                gamedb.open(case["damaged"])
            except gamedb.DamagedTableError as e:
                assert str(e) == case["cli_error"], (case["damaged"], str(e), case["cli_error"])
                refusals += 1
                continue
            raise AssertionError(f"{case['damaged']}: opened although damaged")
        tables += 1
        t = gamedb.open(case["path"])
        assert t.game == case["game"] and t.parameters == case["parameters"], case["path"]
        assert t.value_kind == case["value_kind"] and t.positions == case["positions"]
        rows, expected = [], []
        for line in case["lines"]:
            cli, text, numbers = line["cli"], line["text"], line["numbers"]
            asked = [text] if numbers is None else [text, numbers]
            for position in asked:
                if "error" in cli and set(cli) == {"position", "error"}:
                    try:
                        got = t.query(position)
                    except gamedb.Error as e:
                        assert str(e) == cli["error"], (case["path"], position, str(e), cli)
                        refusals += 1
                        continue
                    raise AssertionError(f"{case['path']}: {position!r} answered {got}, CLI: {cli}")
                got = t.query(position)
                assert got == cli and list(got) == list(cli), (case["path"], position, got, cli)
                answers += 1
            if numbers is None or "error" in cli:
                continue
            # query_many's value of the position (0 = P, 1 = N on outcome tables).
            if "outcome" in cli and t.value_kind in ("outcome", "extension"):
                want = 1 if cli["outcome"] == "N" else 0
            elif "grundy" in cli and cli["grundy"] is not None and t.value_kind == "grundy":
                want = cli["grundy"]
            elif cli.get("solvable") and "distance" in cli:
                want = cli["distance"]
            else:
                continue
            rows.append(numbers)
            expected.append(want)
        if rows:
            got = t.query_many(rows)
            assert got.dtype == np.uint32 and list(got) == expected, (case["path"], rows, got, expected)
            width = {len(r) for r in rows}
            if len(width) == 1:
                got = t.query_many(np.array(rows, dtype=np.int64))
                assert list(got) == expected, (case["path"], "as a numpy array")
            bulk += len(rows)
    assert answers > 0 and refusals > 0 and bulk > 0
    print(f"{tables} tables: {answers} answers and {refusals} refusals equal the CLI's, "
          f"{bulk} query_many values")


def statm_resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def rss_anon():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def mapped_ranges(path):
    out = []
    with open("/proc/self/maps") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == path:
                start, end = (int(x, 16) for x in parts[0].split("-"))
                out.append((start, end))
    return out


def views(cases):
    for case in cases:
        path = case["path"]
        t = gamedb.open(path, verify=False)
        payload = case["payload_len"]
        resident, anon = statm_resident(), rss_anon()
        v = t.values()
        grown = statm_resident() - resident
        assert grown < payload // 8, f"{path}: values() grew resident memory by {grown} bytes"
        assert v.nbytes == payload and not v.flags.writeable and not v.flags.owndata, path
        address = v.__array_interface__["data"][0]
        assert any(s <= address and address + payload <= e for s, e in mapped_ranges(path)), (
            f"{path}: the array's data at {address:#x} is not inside the file's mapping")
        # The histogram, a chunk at a time (np.unpackbits of the whole would be a copy).
        chunk = 1 << 20
        if t.encoding == "bits":
            n = 0
            for off in range(0, len(v), chunk):
                count = min(chunk * 8, t.positions - off * 8)
                n += int(np.unpackbits(v[off:off + chunk], bitorder="little", count=count).sum())
            histogram = {"p_positions": t.positions - n, "n_positions": n}
        else:
            counts = np.bincount(v)
            histogram = {"distribution": [int(c) for c in counts]}
        want = {k: case["info"][k] for k in histogram}
        assert histogram == want, (path, histogram, want)
        anon_grown = rss_anon() - anon
        assert anon_grown < payload // 4, f"{path}: anonymous memory grew by {anon_grown}"
        print(f"{path}: {t.positions} positions, payload {payload} bytes; values() added "
              f"{grown} bytes resident; after the histogram {anon_grown} bytes anonymous; "
              f"{histogram}")
        del v, t  # unmap before the next table's measurements


def folder(case):
    d = gamedb.TableDir(case["dir"])
    listed = sorted((x["name"], x["game"], x["parameters"], x["value_kind"]) for x in d.tables())
    assert listed == sorted(tuple(x) for x in case["listed"]), (listed, case["listed"])
    for found in case["found"]:
        assert d.find(found["game"], **found["params"]) == found["path"], found
        if found["path"] is not None:
            t = d.table(found["game"], **found["params"])
            assert t.path == found["path"] and t.game == found["game"], found
    answered = 0
    for ask in case["boards"]:
        rows, cols, position, cli = ask["rows"], ask["cols"], ask["position"], ask["cli"]
        if rows == 4 and cols == 4:
            call = lambda p: gamedb.solve_fifteen(p, tables=case["dir"], path=True)
        else:
            board = gamedb.Board(case["dir"], rows=rows, cols=cols)
            call = lambda p: board.query(p, path=True)
        numbers = [int(x) for x in position.split(",")] if "error" not in cli else None
        for p in [position] + ([numbers] if numbers else []):
            try:
                got = call(p)
            except gamedb.Error as e:
                assert "error" in cli and str(e) == cli["error"], (position, str(e), cli)
                answered += 1
                continue
            assert got == cli and list(got) == list(cli), (position, got, cli)
            answered += 1
    print(f"{len(listed)} tables listed, {len(case['found'])} found, {answered} board answers "
          "equal the CLI's")


def stubs(path):
    import ast

    import os

    installed = os.path.dirname(gamedb.__file__)
    for name in ("py.typed", "__init__.pyi"):
        assert os.path.exists(os.path.join(installed, name)), f"{installed} lacks {name}"
    assert open(os.path.join(installed, "__init__.pyi")).read() == open(path).read()
    tree = ast.parse(open(path).read())
    named = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    for n in tree.body:
        if isinstance(n, ast.AnnAssign):
            named.add(n.target.id)
        elif isinstance(n, ast.Assign):
            named.update(t.id for t in n.targets)
    aliases = {"Position", "Answer"}
    module = {n for n in vars(gamedb) if not n.startswith("_")} | {"__version__"}
    assert module == named - aliases, (sorted(module ^ (named - aliases)))
    assert set(gamedb.__all__) == module, sorted(set(gamedb.__all__) ^ module)
    methods = 0
    for s in tree.body:
        if not isinstance(s, ast.ClassDef):
            continue
        cls = getattr(gamedb, s.name)
        assert issubclass(cls, Exception) or cls.__module__ == "gamedb", s.name
        stubbed = {f.name for f in s.body if isinstance(f, ast.FunctionDef)}
        public = {n for n in vars(cls) if not n.startswith("_")}
        if not issubclass(cls, Exception):
            assert public == {n for n in stubbed if not n.startswith("_")}, (s.name, public, stubbed)
        methods += len(stubbed)
    print(f"the stubs name the module's {len(module)} names and {methods} methods")


if __name__ == "__main__":
    what, arg = sys.argv[1], sys.argv[2]
    if what == "stubs":
        stubs(arg)
    else:
        {"compare": compare, "views": views, "folder": folder}[what](json.load(open(arg)))
