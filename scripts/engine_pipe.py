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
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("the engine closed its output")
            if line.startswith(prefix):
                return line

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)
