#!/usr/bin/env python3
"""Run the README's quick-start commands, verbatim, in a fresh clone.

The commands come from README.md itself: every code block right after a line
``<!-- readme-check -->`` (indented or fenced), one command per line (a line
ending in a backslash goes on with the next one). Editing such a block in the
README changes what this check runs.

- ``make run`` starts in the background, as written, with PORT set to a free
  port in its environment (the Makefile's ``PORT ?= 8000`` takes it). The check
  waits until /healthz answers (the first run installs the virtualenv), then
  goes on; a later ``make run`` in another block is that same server.
- Every other command runs as written, with bash, in a pseudo-terminal: the
  prompts it knows (createsuperuser's username, email and password) get
  answers typed into it, as a reader would. Nothing is added to the command
  (no --noinput).
- Every link a command prints (make run's banner, creategame's players'
  links) must be on the port make run serves and answer 200.
- At the end the dev mailbox must answer 200 and list mail to the players the
  commands printed links for; then make run gets SIGINT (Ctrl-C) and must stop
  within a minute, leaving no process behind.

The clone is of the committed HEAD of the repository this script is in (the
working tree's changes are not checked). DATABASE_URL, REDIS_URL,
CELERY_BROKER_URL and the other settings variables are removed from the
commands' environment: the quick start is the path that needs no server.

    python3 scripts/check_readme.py [--port N] [--keep]

Standard library only (Python 3.11+), POSIX only. Prints PASS or FAIL per
command and check; exits 1 on any failure.
"""

import argparse
import contextlib
import os
import pty
import re
import secrets
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

MARKER = "<!-- readme-check -->"
ROOT = Path(__file__).resolve().parent.parent
# The settings of the reader's checkout come from the README's commands, not from
# whatever this process's environment holds (CI points these at its servers).
UNSET = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "VAR_DIR",
    "DEBUG",
    "SECRET_KEY",
    "SITE_URL",
    "ALLOWED_HOSTS",
    "EMAIL_BACKEND",
    "DEV_MAILBOX",
    "DJANGO_SETTINGS_MODULE",
    "PORT",
    "PY",
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
)
PASSWORD = "readme-" + secrets.token_hex(8)
# (prompt at the end of the output so far, what to type): createsuperuser's prompts.
ANSWERS = (
    (re.compile(r"Username(?: \(leave blank to use '[^']*'\))?: $"), "admin"),
    (re.compile(r"Email address: $"), "admin@example.org"),
    (re.compile(r"Password(?: \(again\))?: $"), PASSWORD),
    (re.compile(r"\[y/N\]: $"), "N"),
)
LOCAL = ("127.0.0.1", "localhost", "::1", "0.0.0.0")
URL = re.compile(r"https?://[^\s'\"<>)]+")
SERVICE_LINE = re.compile(r"^(\d\d:\d\d:\d\d )?(web|worker|deadlines|beat|system)(\.\d+)?\s*\|")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
SERVER_START_TIMEOUT = 900  # make run installs the virtualenv first
COMMAND_TIMEOUT = 300
STOP_TIMEOUT = 60

failures = 0


def report(ok: bool, what: str, detail: str = "", output: str = "") -> bool:
    global failures
    print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"  -- {detail}" if detail else ""), flush=True)
    if not ok:
        failures += 1
        if output:
            tail = output.strip().splitlines()[-40:]
            print("\n".join(f"      | {line}" for line in tail), flush=True)
    return ok


def say(text: str) -> None:
    print(f"readme-check: {text}", flush=True)


def short(command: str) -> str:
    one_line = " ".join(command.replace("\\\n", " ").split())
    return one_line if len(one_line) <= 72 else one_line[:69] + "..."


# --- the README's commands ---------------------------------------------------------------


def marked_blocks(readme: str) -> list[list[str]]:
    """The code blocks that follow a MARKER line, each as a list of commands."""
    lines = readme.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        body = []
        if j < len(lines) and lines[j].lstrip().startswith("```"):
            j += 1
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                body.append(lines[j])
                j += 1
        else:
            indent = len(line) - len(line.lstrip()) + 4
            while j < len(lines) and (
                not lines[j].strip() or (lines[j][:indent].isspace() and len(lines[j]) > indent)
            ):
                body.append(lines[j])
                j += 1
        blocks.append(commands_of(body))
    return blocks


def commands_of(body: list[str]) -> list[str]:
    margin = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
    commands, current = [], ""
    for raw in body:
        line = raw[margin:].rstrip()
        if not current and (not line.strip() or line.lstrip().startswith("#")):
            continue
        current += line
        if line.endswith("\\"):
            current += "\n"
        else:
            commands.append(current)
            current = ""
    if current:
        commands.append(current)
    return commands


def is_make_run(command: str) -> bool:
    try:
        return shlex.split(command, comments=True)[:2] == ["make", "run"]
    except ValueError:
        return False


# --- running things ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(url: str, timeout: float = 10) -> tuple[int, str]:
    """(status, body) after redirects; status 0 when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except (OSError, ValueError):
        return 0, ""


def run_in_pty(command: str, cwd: Path, env: dict, timeout: float) -> tuple[int, str, list]:
    """Run `bash -c command` on a pseudo-terminal, typing the ANSWERS to its prompts.

    Returns (exit status, output, prompts answered)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: its own session, the pty its controlling terminal
        try:
            os.chdir(cwd)
            os.execvpe("bash", ["bash", "-c", command], env)
        finally:
            os._exit(127)
    output, pending, answered = [], "", []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            os.killpg(pid, signal.SIGKILL)  # the child's own session and group
            output.append(f"\n[timed out after {timeout:.0f} s]")
            break
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096).decode("utf-8", "replace")
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output.append(chunk)
        pending += chunk
        for prompt, answer in ANSWERS:
            if prompt.search(pending):
                os.write(fd, answer.encode() + b"\n")
                answered.append(prompt.search(pending).group(0).split("(leave")[0].strip(" :"))
                pending = ""
                break
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    text = ANSI.sub("", "".join(output)).replace("\r\n", "\n").replace("\r", "\n")
    return os.waitstatus_to_exitcode(status), text, answered


def check_links(text: str, port: int) -> tuple[bool, str, list]:
    """Every link to this machine in text is on make run's port and answers 200.

    (Links elsewhere, pip's index or Django's docs, are not the site's.)"""
    links = [u.rstrip(".,;") for u in URL.findall(text)]
    links = list(dict.fromkeys(u for u in links if urlsplit(u).hostname in LOCAL))
    if not links:
        return True, "no links", links
    wrong = [u for u in links if urlsplit(u).port != port]
    if wrong:
        return False, f"links not on port {port}: {', '.join(wrong)}", links
    bad = [f"{u} -> {status or 'no answer'}" for u in links if (status := get(u)[0]) != 200]
    if bad:
        return False, "links that do not answer 200: " + "; ".join(bad), links
    return True, f"{len(links)} links, all on port {port}, all 200", links


def leftovers(directory: Path) -> list[str]:
    """Processes (Linux /proc) whose working directory is in directory."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            cwd = os.readlink(proc / "cwd")
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        if cwd == str(directory) or cwd.startswith(f"{directory}/"):
            found.append(f"{proc.name} {cmdline}")
    return found


class Server:
    """`make run`, in the background, in its own process group."""

    def __init__(self, command: str, cwd: Path, env: dict, port: int, log: Path):
        self.command, self.port, self.log_path = command, port, log
        self.base = f"http://127.0.0.1:{port}"
        self.log = open(log, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            ["bash", "-c", command],
            cwd=cwd,
            env={**env, "PORT": str(port)},
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return ANSI.sub("", self.log_path.read_text(errors="replace"))

    def own_output(self) -> str:
        """What make run itself prints (its banner), not the lines of web, worker, beat."""
        return "\n".join(
            line for line in self.output().splitlines() if not SERVICE_LINE.match(line)
        )

    def wait_until_up(self, timeout: float) -> tuple[bool, str]:
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if self.process.poll() is not None:
                return False, f"exited with {self.process.returncode} before /healthz answered"
            if get(f"{self.base}/healthz", timeout=2)[0] == 200:
                waited = time.monotonic() - start
                # The banner with the links follows once the workers and beat are ready
                # too (scripts/dev-run.sh waits for them, at most 30 s).
                for _ in range(120):
                    if "is running" in self.output():
                        break
                    time.sleep(0.25)
                return True, f"{self.base}/healthz answered after {waited:.0f} s"
            time.sleep(1)
        return False, f"{self.base}/healthz did not answer within {timeout:.0f} s"

    def stop(self) -> tuple[bool, str]:
        """SIGINT to the process group, as Ctrl-C in its terminal."""
        if self.process.poll() is not None:
            self.log.close()
            return False, f"had already exited with {self.process.returncode}"
        start = time.monotonic()
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            status = self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.log.close()
            return False, f"still running {STOP_TIMEOUT} s after SIGINT; killed"
        self.log.close()
        took = time.monotonic() - start
        # make exits as interrupted (SIGINT, or 130 from dev-run.sh) after Ctrl-C.
        if status not in (0, 130, -signal.SIGINT, 2):
            return False, f"exited with {status} after SIGINT"
        if "stopped." not in self.output():
            return False, "exited without saying 'stopped.'"
        if get(f"{self.base}/healthz", timeout=2)[0]:
            return False, f"{self.base} still answers after make run exited"
        return True, f"exited ({status}) {took:.1f} s after SIGINT"


# --- the check -------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, help="port for make run (default: a free one)")
    parser.add_argument("--keep", action="store_true", help="keep the clone afterwards")
    args = parser.parse_args()

    started = time.monotonic()
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="readme-check-"))
    clone = tmp / "clone"
    say(f"cloning {ROOT} at {head[:12]} into {clone}")
    if dirty:
        say("(the working tree has uncommitted changes: they are not what is checked)")
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", "--detach", head], check=True)

    blocks = marked_blocks((clone / "README.md").read_text())
    commands = [command for block in blocks for command in block]
    if not commands:
        report(False, f"README.md has no commands in blocks marked {MARKER}")
        return 1
    say(f"{len(commands)} commands in {len(blocks)} blocks of README.md marked {MARKER}")

    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    port = args.port or free_port()
    server = None
    printed = ""  # everything the commands printed: their links and players
    try:
        for command in commands:
            if is_make_run(command):
                if server is not None:
                    report(True, short(command), "already running (the same server)")
                    continue
                say(f"$ {short(command)}   (in the background, PORT={port})")
                server = Server(command, clone, env, port, tmp / "make-run.log")
                up, detail = server.wait_until_up(SERVER_START_TIMEOUT)
                if not up:
                    report(False, short(command), detail, server.output())
                    break
                ok, links_detail, _ = check_links(server.own_output(), port)
                report(
                    ok, short(command), f"{detail}; {links_detail}", "" if ok else server.output()
                )
                printed += server.own_output()
                continue
            if server is None:
                report(False, short(command), "comes before any make run")
                continue
            say(f"$ {short(command)}")
            start = time.monotonic()
            status, output, answered = run_in_pty(command, clone, env, COMMAND_TIMEOUT)
            detail = f"{time.monotonic() - start:.1f} s"
            if answered:
                detail += f", in a pty, typed answers to: {', '.join(answered)}"
            if status != 0:
                report(False, short(command), f"exit status {status}; {detail}", output)
                continue
            ok, links_detail, _ = check_links(output, port)
            report(ok, short(command), f"{detail}; {links_detail}", "" if ok else output)
            printed += output

        if server is not None and server.process.poll() is None:
            check_pages(server.base, port, printed)
    finally:
        if server is not None:
            ok, detail = server.stop()
            left = leftovers(clone)
            if left:
                ok, detail = False, f"{detail}; still running: {'; '.join(left)}"
                for entry in left:  # started (indirectly) by this check
                    with contextlib.suppress(OSError):
                        os.kill(int(entry.split()[0]), signal.SIGKILL)
            elif ok:
                detail += ", nothing left running"
            report(ok, "make run stops on Ctrl-C (SIGINT)", detail, "" if ok else server.output())
        if args.keep:
            say(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)

    verdict = "PASS" if failures == 0 else f"FAIL ({failures} failed)"
    say(f"{verdict} in {time.monotonic() - started:.0f} s")
    return 1 if failures else 0


def check_pages(base: str, port: int, printed: str) -> None:
    """The dev mailbox answers and, within a minute, lists mail to the players a
    command printed a link for (those who have a move to make get an email, sent
    by the worker); a player's link answers."""
    players = sorted(set(re.findall(r"<([^<>@\s]+@[^<>\s]+)>: https?://", printed)))
    inbox = f"{base}/dev/mail/"
    deadline = time.monotonic() + 60
    while True:
        status, page = get(inbox)
        mailed = [p for p in players if p in page]
        if (status == 200 and (mailed or not players)) or time.monotonic() > deadline:
            break
        time.sleep(1)
    if status != 200:
        report(False, f"dev mailbox {inbox}", f"status {status or 'no answer'}")
    elif players and not mailed:
        report(False, f"dev mailbox {inbox}", f"no mail to {', '.join(players)} after 60 s")
    else:
        report(True, f"dev mailbox {inbox}", "200, with mail to " + (", ".join(mailed) or "-"))

    # A player's link, the last one printed (creategame's last player), once more.
    links = [u for u in URL.findall(printed) if "/play/" in u and urlsplit(u).port == port]
    if not links:
        report(False, "a player's link", f"no command printed one on port {port}")
    else:
        status = get(links[-1])[0]
        report(status == 200, f"a player's link {links[-1][:60]}...", f"status {status}")


if __name__ == "__main__":
    sys.exit(main())
