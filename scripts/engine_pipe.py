"""An engine of protocol.md driven through pipes, for the measuring scripts of this folder."""
import subprocess
import sys


class Engine:
    """The engine process `command`, with lines sent to its input and read from its output."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix):
        """The first line that starts with `prefix`; the lines before it are skipped."""
        return self.read_lines_until(prefix)[-1]

    def read_lines_until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine closed its output")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self):
        """Sends `quit`; an engine still running 10 s later is killed."""
        self.send("quit")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
