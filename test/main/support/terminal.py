"""A command run as an interactive shell runs a foreground job in a terminal (Linux only).

    python3 terminal.py COMMAND [ARG...]

Makes a pseudo-terminal whose session leader plays the shell: the command runs in a process
group of its own, made the terminal's foreground group, so a Ctrl-C typed into the terminal
(the byte 0x03) makes the kernel send SIGINT to every process of that group at once, as
a real terminal does. What the terminal shows is copied to stdout; each "c" read on stdin is
typed into the terminal as Ctrl-C. Like a shell, the leader outlives the command and keeps
the terminal open until every process of the job has ended (processes left behind when the
command's first process exits become its children: it is their subreaper), so their last
lines are seen and no SIGHUP cuts them short. Exits with the command's status (128 + the
signal's number when a signal ended it); EOF on stdin or SIGTERM kills the whole job.
"""
import ctypes
import os
import pty
import select
import signal
import sys

PR_SET_CHILD_SUBREAPER = 36


def status_code(status):
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


def leader(command, report):
    """The shell: starts the job in the foreground, waits for it and for what it left behind."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        os.tcsetpgrp(0, os.getpgrp())
        for number in (signal.SIGTTOU, signal.SIGINT):
            signal.signal(number, signal.SIG_DFL)
        os.close(report)
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    try:
        os.setpgid(job, job)
        os.tcsetpgrp(0, job)
    except OSError:
        pass  # the job did both itself already
    os.write(report, f"{job}\n".encode())
    os.close(report)
    code = status_code(os.waitpid(job, 0)[1])
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    os._exit(code)


def main():
    command = sys.argv[1:]
    read_end, write_end = os.pipe()
    pid, master = pty.fork()
    if pid == 0:
        os.close(read_end)
        leader(command, write_end)
    os.close(write_end)
    job = int(os.read(read_end, 64).decode().strip() or 0)
    os.close(read_end)

    def kill_job(*_):
        try:
            os.killpg(job, signal.SIGKILL)
        except OSError:
            pass
        sys.exit(1)

    signal.signal(signal.SIGTERM, kill_job)
    stdin = sys.stdin.fileno()
    watched = [master, stdin]
    while master in watched:
        ready, _, _ = select.select(watched, [], [])
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""  # EIO: no process holds the terminal any more
            if data:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()
            else:
                watched.remove(master)
        if stdin in ready:
            typed = os.read(stdin, 1024)
            if not typed:
                kill_job()
            if b"c" in typed:
                os.write(master, b"\x03" * typed.count(b"c"))
    sys.exit(status_code(os.waitpid(pid, 0)[1]))


main()
