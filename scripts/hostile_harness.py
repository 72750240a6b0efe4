"""Run the hostile-input harness and tally it: cases tried, clean, noisy, tracebacks, silent.

    python scripts/hostile_harness.py [--data-dir DIR] [--json OUT.json] [--write-docs]

Every case is a real `biasaudit` command (`biasaudit.cli.app`, in this process, stdout and
stderr captured; a pipe case runs a subprocess) on hostile input: the case tables of
tests/integration/test_hostile_*.py (data files, replay, cache and run.json files, damaged run
directories for every reader, shard sets, CLI refusals) plus the groups below (live-run
locks, partial inputs, outputs onto run files, secrets, endpoints, a closed pipe, a full
disk when a tmpfs can be mounted). Servers are loopback `FakeOpenAI`s.

A case is *clean* when the command ends as the case expects: a refusal with a non-zero exit
and at most three lines on stderr (a usage line, the error) and no traceback; an incomplete
input with exit 3; valid input with exit 0. It is *silent* when bad input exits 0 or a
check of what the command left fails (a file changed, an output directory left, a secret
written), *noisy* for a refusal of more than three lines, *traceback* when an exception
escaped. `--write-docs` puts the table into docs/reliability.md between its markers.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "integration")]

import test_hostile_cli as cli_cases  # noqa: E402
import test_hostile_data as data_cases  # noqa: E402
import test_hostile_files as file_cases  # noqa: E402
import test_hostile_merge as merge_cases  # noqa: E402
import test_hostile_runs as run_cases  # noqa: E402
from fake_openai import FakeOpenAI, free_port, stop_run  # noqa: E402

from biasaudit.cli.app import main  # noqa: E402
from biasaudit.results.lock import LOCK_FILE  # noqa: E402

START, END = "<!-- hostile-harness:start -->", "<!-- hostile-harness:end -->"
Check = Callable[[], str | None]


@dataclass
class Result:
    group: str
    name: str
    verdict: str
    rc: int
    message: str
    problem: str = ""


RESULTS: list[Result] = []


def invoke(argv: list[str]) -> tuple[int, str, bool]:
    """(exit status, stderr, whether an exception escaped) of `biasaudit ARGV`."""
    err, out = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException:  # the harness counts it
        return 1, err.getvalue() + traceback.format_exc(), True
    return code, err.getvalue(), False


def classify(rc: int, err: str, escaped: bool, expect: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    if escaped or "Traceback (most recent call last)" in err:
        return "traceback"
    if expect == "ok":
        return "clean" if rc == 0 else "refused valid input"
    if rc == 0:
        return "silent"
    if expect == "incomplete":
        return "clean" if rc == 3 and 1 <= len(lines) <= 3 else "noisy"
    return "clean" if 1 <= len(lines) <= 3 else "noisy"


def case(
    group: str, name: str, argv: list[str], expect: str = "error", check: Check | None = None
) -> None:
    rc, err, escaped = invoke(argv)
    verdict = classify(rc, err, escaped, expect)
    problem = (check() or "") if check is not None else ""
    if problem and verdict == "clean":
        verdict = "silent"
    last = (err.strip().splitlines() or [""])[-1][:200]
    RESULTS.append(Result(group, name, verdict, rc, last, problem))
    print(f"[{verdict:9}] {group} / {name}: rc={rc} {last[:120]} {problem}", flush=True)


def absent(path: Path) -> Check:
    return lambda: f"{path.name} was left behind" if path.exists() else None


def unchanged(folder: Path) -> Check:
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    return lambda: (
        None
        if {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
        else f"{folder.name} changed"
    )


def copy(run: Path, to: Path) -> Path:
    shutil.copytree(run, to, symlinks=True)
    return to


# -- groups -----------------------------------------------------------------------------


def data_files(tmp: Path, data_dir: Path) -> None:
    for target, case_name, content in data_cases.CLI_CASES:
        benchmark, options, name, _ = data_cases.TARGETS[target]
        where = Path(tempfile.mkdtemp(dir=tmp))
        path = data_cases.place(where / "bad", name, content)
        (where / "statements.csv").write_bytes(data_cases.STATEMENTS)
        (where / "contexts.jsonl").write_bytes(data_cases.CONTEXTS)
        values = {
            "FILE": str(path),
            "STATEMENTS": str(where / "statements.csv"),
            "CONTEXTS": str(where / "contexts.jsonl"),
            "ROOT": str(where / "bad" / "beads"),
        }
        argv = ["run", benchmark, "-m", data_cases.MODEL, "-o", str(where / "out"),
                "--data-dir", str(data_dir), "--no-cache", "-q"]  # fmt: skip
        for option in options:
            key, _, value = option.partition("=")
            argv += ["-O", f"{key}={values.get(value, value)}"]
        case("user data files", f"{target}: {case_name}", argv, check=absent(where / "out"))


def _replace(path: Path, make: Callable[[Path], None]) -> None:
    """`path` removed and made again by `make` (a directory, a symlink)."""
    path.unlink()
    make(path)


#: More damage for every reader, adapted from the audit's run-directory cases.
MORE_DAMAGE: dict[str, Callable[[Path], object]] = {
    "truncated line": lambda r: (r / "samples.jsonl").write_text(
        (r / "samples.jsonl").read_text()[:-40]
    ),
    "garbage line": lambda r: (r / "samples.jsonl").open("a").write("}{\n"),
    "bad UTF-8 in samples": lambda r: (r / "samples.jsonl").write_bytes(
        (r / "samples.jsonl").read_bytes().replace(b'"stop"', b'"st\xffop"', 1)
    ),
    "random bytes as results": lambda r: (r / "results.json").write_bytes(os.urandom(3000)),
    "results.json missing": lambda r: (r / "results.json").unlink(),
    "samples.jsonl missing": lambda r: (r / "samples.jsonl").unlink(),
    "results.json a directory": lambda r: _replace(r / "results.json", Path.mkdir),
    "deep JSON results": lambda r: (r / "results.json").write_bytes(b"[" * 10**5 + b"]" * 10**5),
    "results a JSON list": lambda r: (r / "results.json").write_text("[1]"),
    "status unknown word": lambda r: run_cases._edit_results(r, lambda d: d.update(status="done")),
    "groups not a dict": lambda r: run_cases._set_lines(
        r, [{**run_cases._lines(r)[0], "groups": [1, 2]}, *run_cases._lines(r)[1:]]
    ),
    "samples -> /etc/passwd": lambda r: _replace(
        r / "samples.jsonl", lambda p: p.symlink_to("/etc/passwd")
    ),
}  # fmt: skip


def damaged_runs(tmp: Path, good: Path) -> None:
    damage = {name: edit for name, (edit, _) in run_cases.DAMAGE.items()} | MORE_DAMAGE
    for name, edit in damage.items():
        for command in ("score", "report", "compare", "export"):
            where = Path(tempfile.mkdtemp(dir=tmp))
            run = copy(good, where / "run")
            edit(run)
            argv = run_cases._argv(command, run, good, where)
            case(f"damaged run: {command}", name, argv, check=unchanged(run))


def start_files(tmp: Path, good: Path) -> None:
    for name, content in file_cases.RUN_JSON.items():
        run = copy(good, Path(tempfile.mkdtemp(dir=tmp)) / "run")
        (run / "run.json").write_bytes(content)
        argv = file_cases.replay_run(good, run, "--resume", "--no-cache")
        case("run.json on --resume", name, argv)
    for name, content in file_cases.REPLAY.items():
        where = Path(tempfile.mkdtemp(dir=tmp))
        (where / "replay.jsonl").write_bytes(b"\n" + content)
        argv = ["run", "stop", "-m", f"replay:{where / 'replay.jsonl'}", "--limit", "1", "-q",
                "-o", str(where / "out"), "--no-cache"]  # fmt: skip
        case("replay files", name, argv, check=absent(where / "out"))
    for name, damage in file_cases.CACHE.items():
        where = Path(tempfile.mkdtemp(dir=tmp))
        damage(where / "cache.sqlite")
        argv = file_cases.replay_run(good, where / "out", "--cache", str(where / "cache.sqlite"))
        case("cache files", name, argv, check=absent(where / "out"))


#: Bad command lines from the audit (section 5) beyond test_hostile_cli's table.
MORE_CLI: dict[str, list[str]] = {
    "--limit -1": ["stop", "--limit", "-1"],
    "--limit 0": ["stop", "--limit", "0"],
    "--batch-size 0": ["stop", "--batch-size", "0"],
    "--shard 3/2": ["stop", "--shard", "3/2"],
    "--shard x": ["stop", "--shard", "x"],
    "-O =x": ["stop", "-O", "=x"],
    "-O unknown option": ["stop", "-O", "severty=low"],
    "unknown benchmark": ["stopp"],
    "max_tokens -5": ["stop", "-O", "max_tokens=-5"],
    "temperature -1": ["stop", "-O", "temperature=-1"],
    "-M api_key=": ["stop", "-M", "api_key=sk-abcdefghijklmnop"],
    "--max-failed-samples -1": ["stop", "--max-failed-samples", "-1"],
}
MORE_MODELS: dict[str, str] = {
    "port 0": "openai:m@http://127.0.0.1:0/v1",
    "port 99999": "openai:m@http://127.0.0.1:99999/v1",
    "ftp URL": "openai:m@ftp://127.0.0.1/v1",
    "URL listed twice": "openai:m@http://127.0.0.1:9/v1,http://127.0.0.1:9/v1",
    "key in the URL": "openai:m@http://u:sk-abcdefghij@127.0.0.1:9/v1",
    "key in the query": "openai:m@http://127.0.0.1:9/v1?api_key=abc",
    "unknown backend": "opnai:m@http://127.0.0.1:9/v1",
    "n_threads=abc": "embedded",
}


def command_lines(tmp: Path) -> None:
    tables = {name: (argv, "") for name, argv in MORE_CLI.items()} | cli_cases.REFUSED
    for name, (argv, _) in tables.items():
        out = Path(tempfile.mkdtemp(dir=tmp)) / "out"
        full = ["run", *argv, "-m", cli_cases.DEAD, "--limit", "1", "-q", "-o", str(out)]
        if "--limit" in argv:
            full = ["run", *argv, "-m", cli_cases.DEAD, "-q", "-o", str(out)]
        case("command line", name, full, check=absent(out))
    for name, model in MORE_MODELS.items():
        out = Path(tempfile.mkdtemp(dir=tmp)) / "out"
        extra = ["-M", "n_threads=abc"] if name == "n_threads=abc" else []
        case("command line", name, ["run", "stop", "-m", model, *extra, "-o", str(out)])
    run_file = tmp / "a-file"
    run_file.write_text("x")
    case("command line", "-o a file", ["run", "stop", "-m", cli_cases.DEAD, "-o", str(run_file)])


def merges(tmp: Path, data_dir: Path) -> None:
    shards = merge_cases.make_shards(tmp / "shards", data_dir)
    three = [str(shards[f"s{i}"]) for i in range(3)]
    for name, (names, _, _) in merge_cases.MIXTURES.items():
        out = tmp / f"m-{len(RESULTS)}"
        case("merge", name, ["merge", *map(str, (shards[n] for n in names)), "-o", str(out)])
    case("merge", "the whole set", ["merge", *three, "-o", str(tmp / "m-good")], "ok")
    case("merge", "a missing shard", ["merge", *three[:2], "-o", str(tmp / "m-miss")], "incomplete")
    lost = [*three[:2], str(shards["lost2"])]
    case(
        "merge",
        "a shard with lost samples",
        ["merge", *lost, "-o", str(tmp / "m-lost")],
        "incomplete",
    )
    case(
        "merge",
        "a missing folder",
        ["merge", *three[:2], str(tmp / "nope"), "-o", str(tmp / "m-x")],
    )
    a_file = tmp / "hostname"
    a_file.write_text("x\n")
    case("merge", "-o a file", ["merge", *three, "-o", str(a_file)], check=unchanged(tmp))
    check = unchanged(shards["s1"])
    case("merge", "-o one of its inputs", ["merge", *three, "-o", three[1]], check=check)
    other = copy(shards["whole"], tmp / "other-run")
    case("merge", "-o another run", ["merge", *three, "-o", str(other)], check=unchanged(other))


def live_and_partial(tmp: Path, data_dir: Path, good: Path) -> None:
    live = copy(good, tmp / "live")
    # held by another live process of this host (the harness's parent)
    (live / LOCK_FILE).write_text(json.dumps({"pid": os.getppid(), "host": socket.gethostname()}))
    for name, argv in {
        "score": ["score", str(live)],
        "report -o into it": ["report", str(good), "-o", str(live / "r.html")],
        "export into it": ["export", str(live)],
        "merge -o into it": ["merge", str(good), str(good), "-o", str(live)],
        "a second run": ["run", "stop", "-m", f"replay:{good / 'samples.jsonl'}", "--limit",
                         "1", "-q", "-o", str(live), "--resume", "--no-cache"],
    }.items():  # fmt: skip
        case("a live run's folder", name, argv, check=unchanged(live))
    partial = run_cases.make_partial_run(tmp / "partial", data_dir, good)
    case("partial input", "compare", ["compare", str(good), str(partial)], "incomplete")
    case(
        "partial input",
        "compare --json",
        ["compare", str(good), str(partial), "--json"],
        "incomplete",
    )
    case("partial input", "export", ["export", str(partial), "-o", str(tmp / "pe")], "incomplete")
    for target in ("results.json", "samples.jsonl", "run.json", "."):
        run = copy(good, Path(tempfile.mkdtemp(dir=tmp)) / "run")
        argv = ["report", str(run), "-o", str(run / target)]
        case("outputs onto a run", f"report -o RUN/{target}", argv, check=unchanged(run))
    run = copy(good, Path(tempfile.mkdtemp(dir=tmp)) / "run")
    case(
        "outputs onto a run",
        "export -o RUN",
        ["export", str(run), "-o", str(run)],
        check=unchanged(run),
    )


@contextlib.contextmanager
def key_in_env(key: str) -> Iterator[None]:
    old = os.environ.get("OPENAI_API_KEY")
    os.environ["OPENAI_API_KEY"] = key
    try:
        yield
    finally:
        if old is None:
            del os.environ["OPENAI_API_KEY"]
        else:
            os.environ["OPENAI_API_KEY"] = old


def secrets_and_servers(tmp: Path, data_dir: Path) -> None:
    marker = cli_cases.MARKER
    for name, body, fail_after in (
        ("500 quoting the key across the cut, start-up", run_cases_body("json"), 0),
        ("500 quoting the key across the cut, mid-run", run_cases_body("json"), 2),
        ("text 500 quoting the key across the cut, mid-run", run_cases_body("text"), 2),
    ):
        where = Path(tempfile.mkdtemp(dir=tmp))
        with key_in_env(marker), FakeOpenAI() as server:
            server.error_body, server.fail_after = body, fail_after
            argv = ["run", "stop", "-m", f"openai:m@{server.base_url}", "--limit", "2", "-q",
                    "--data-dir", str(data_dir), "-o", str(where / "run"), "--cache",
                    str(where / "c.sqlite"), "-M", "max_retries=0"]  # fmt: skip
            rc, err, escaped = invoke(argv)
        leaked = [
            p for p in where.rglob("*") if p.is_file() and marker[:8].encode() in p.read_bytes()
        ]
        problem = "key prefix written" if leaked or marker[:8] in err else ""
        expect = "error" if fail_after == 0 else "incomplete"
        verdict = classify(rc, err, escaped, expect)
        verdict = "silent" if problem and verdict == "clean" else verdict
        RESULTS.append(Result("secrets", name, verdict, rc, err.strip()[-200:], problem))
    dead = f"http://127.0.0.1:{free_port()}/v1"
    with FakeOpenAI() as live, FakeOpenAI() as limited:
        limited.retry_after = 600
        pairs = {
            "one of two endpoints dead": f"{dead},{live.base_url}",
            "one of two answering 429 Retry-After 600": f"{limited.base_url},{live.base_url}",
        }
        for name, urls in pairs.items():
            out = Path(tempfile.mkdtemp(dir=tmp)) / "out"
            argv = ["run", "stop", "-m", f"openai:m@{urls}", "--limit", "2", "-q",
                    "--data-dir", str(data_dir), "-o", str(out), "--no-cache"]  # fmt: skip
            case("endpoints", name, argv, "ok")
    for name, argv in (("schema", ["schema"]), ("list benchmarks", ["list", "benchmarks"])):
        read_end, write_end = os.pipe()
        os.close(read_end)
        done = subprocess.run([sys.executable, "-m", "biasaudit.cli", *argv], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, timeout=300)  # fmt: skip
        os.close(write_end)
        verdict = (
            "traceback" if "Traceback" in done.stderr else "clean" if not done.stderr else "noisy"
        )
        RESULTS.append(
            Result("closed stdout pipe", name, verdict, done.returncode, done.stderr[-200:])
        )


_LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
from biasaudit.cli.app import main
sys.exit(main(sys.argv[2:]))
"""


def round4(tmp: Path, data_dir: Path, good: Path) -> None:
    """Issue 33's cases (reliability-3.md), as commands: one benchmark's bad option in an
    audit, secrets in a URL, merging an incomplete shard set of an audit, and a resume of
    a complete run that cannot write."""
    replay = f"replay:{good / 'samples.jsonl'}"
    audit = ["audit", "-m", replay, "--suite", "demo", "--benchmarks", "stop", "-q",
             "--data-dir", str(data_dir), "--no-cache"]  # fmt: skip
    for option in ("stop.max_tokns=5", "stop.max_tokens=-5", "stop.temperature=nan"):
        out = Path(tempfile.mkdtemp(dir=tmp)) / "audit"
        case("audit options", f"-O {option}", [*audit, "-o", str(out), "-O", option],
             check=absent(out / "audit.json"))  # fmt: skip
    shards = Path(tempfile.mkdtemp(dir=tmp))
    with FakeOpenAI() as server:  # shards that answer every request; shard 2/3 missing
        served = [*audit[:2], f"openai:m@{server.base_url}", *audit[3:]]
        for index in (0, 1):
            out = str(shards / f"s{index}")
            rc, err, _ = invoke([*served, "-o", out, "--shard", f"{index}/3"])
            assert rc == 0, err
    merged = shards / "merged"
    argv = ["merge", str(shards / "s0"), str(shards / "s1"), "-o", str(merged)]
    case("audit shards", "merge of shards 0/3 and 1/3", argv, "incomplete")
    key = cli_cases.MARKER
    with key_in_env(key):
        for name, url in (
            ("in the path", f"http://127.0.0.1:9/{key}/v1"),
            ("in ?auth=", f"http://127.0.0.1:9/v1?auth={key}"),
            ("in ?password=", f"http://127.0.0.1:9/v1?password={key}"),
        ):
            out = Path(tempfile.mkdtemp(dir=tmp)) / "run"
            argv = ["run", "stop", "-m", f"openai:m@{url}", "--limit", "1", "-q", "-o", str(out),
                    "--data-dir", str(data_dir), "--no-cache"]  # fmt: skip
            case("secrets in a URL", f"the key {name}", argv, check=absent(out))
    pinned = Path(tempfile.mkdtemp(dir=tmp))
    (pinned / "x.csv").write_text("a,b\n")
    pin = ["data", "pin", str(pinned / "x.csv"), "--license", "MIT", "--citation", "c"]
    targets = {
        "not UTF-8": b'{"a": "\xff"}',
        "JSON nested 200,000 deep": b"[" * 200_000 + b"]" * 200_000,
        "a directory": None,
    }
    for name, content in targets.items():
        target = Path(tempfile.mkdtemp(dir=pinned)) / "sources.json"
        if content is None:
            target.mkdir()
        else:
            target.write_bytes(content)
        case("data pin", f"-o {name}", [*pin, "-o", str(target)], check=unchanged(target.parent))
    for value in ("inf", "nan", "0", "-1"):
        case("data pin", f"--timeout {value}", [*pin, "--timeout", value])
    run = copy(good, Path(tempfile.mkdtemp(dir=tmp)) / "run")
    check = unchanged(run)
    argv = ["run", "stop", "-m", replay, "--limit", "3", "-q", "-o", str(run), "--resume",
            "--no-cache", "--data-dir", str(data_dir)]  # fmt: skip
    limit = str((run / "samples.jsonl").stat().st_size // 2)  # the write fails half-way
    done = subprocess.run([sys.executable, "-c", _LIMITED, limit, *argv], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    verdict = classify(done.returncode, done.stderr, False, "error")
    problem = check() or ""
    verdict = "silent" if problem and verdict == "clean" else verdict
    name = "run --resume of a complete run, a file-size limit of half its samples.jsonl"
    RESULTS.append(Result("file-size limit", name, verdict, done.returncode,
                          done.stderr.strip()[-200:], problem))  # fmt: skip


def run_cases_body(kind: str) -> Callable[[str], bytes]:
    import test_secrets

    return test_secrets._json_error if kind == "json" else test_secrets._text_error


def disk_full(tmp: Path, good: Path) -> None:
    small = tmp / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(small)],
                             capture_output=True)  # fmt: skip
    if mounted.returncode != 0:
        print("disk full: cannot mount a tmpfs here; group skipped", flush=True)
        return
    try:
        for command, target in (("report", small / "r.html"), ("export", small / "export")):
            assert invoke([command, str(good), "-o", str(target)])[0] == 0
        with (small / "filler").open("wb", buffering=0) as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 512)
        for command, target in (("report", small / "r.html"), ("export", small / "export")):
            folder = target if target.is_dir() else small
            case(
                "disk full",
                command,
                [command, str(good), "-o", str(target)],
                check=unchanged(folder),
            )
        replay = f"replay:{good / 'samples.jsonl'}"
        argv = ["run", "stop", "-m", replay, "-q", "-o", str(small / "run"), "--no-cache"]
        case("disk full", "run", argv)
    finally:
        subprocess.run(["umount", "-l", str(small)], check=False)


def table() -> str:
    groups: dict[str, Counter[str]] = {}
    for result in RESULTS:
        groups.setdefault(result.group, Counter())[result.verdict] += 1
    rows = [
        "| group | tried | clean | noisy | tracebacks | silent | other |",
        "|---|---|---|---|---|---|---|",
    ]
    total: Counter[str] = Counter()
    for group, counts in groups.items():
        total += counts
        other = sum(
            v for k, v in counts.items() if k not in {"clean", "noisy", "traceback", "silent"}
        )
        rows.append(f"| {group} | {sum(counts.values())} | {counts['clean']} | {counts['noisy']} "
                    f"| {counts['traceback']} | {counts['silent']} | {other} |")  # fmt: skip
    other = sum(v for k, v in total.items() if k not in {"clean", "noisy", "traceback", "silent"})
    rows.append(
        f"| **total** | **{sum(total.values())}** | **{total['clean']}** | {total['noisy']} "
        f"| **{total['traceback']}** | **{total['silent']}** | {other} |"
    )
    return "\n".join(rows)


def main_harness() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=os.environ.get("BIASAUDIT_DATA_DIR"))
    parser.add_argument("--json", help="write every case's result here")
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    data_dir = Path(args.data_dir or ROOT.parent / "shared" / "datasets")
    with tempfile.TemporaryDirectory(prefix="biasaudit-harness-") as name:
        tmp = Path(name)
        os.environ["BIASAUDIT_CACHE_DIR"] = str(tmp / "cache")
        good = stop_run(tmp / "good", data_dir, limit=3)
        data_files(tmp, data_dir)
        damaged_runs(tmp, good)
        start_files(tmp, good)
        command_lines(tmp)
        merges(tmp, data_dir)
        live_and_partial(tmp, data_dir, good)
        secrets_and_servers(tmp, data_dir)
        disk_full(tmp, good)
        round4(tmp, data_dir, good)
    text = table()
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in RESULTS], indent=1))
    if args.write_docs:
        docs = ROOT / "docs" / "reliability.md"
        page = docs.read_text()
        head, _, rest = page.partition(START)
        _, _, tail = rest.partition(END)
        docs.write_text(f"{head}{START}\n{text}\n{END}{tail}")
    bad = [r for r in RESULTS if r.verdict != "clean"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main_harness())
