"""The process femc verify starts as its solver when femc.verify checks a Python function: it relays the
protocol's lines between its stdin/stdout (femc) and a Unix socket (the Python process that called
femc.verify, where the function runs). It imports nothing of femc. Usage: _relay.py SOCKET"""
import socket
import sys
import threading


def main(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)

    def to_socket():  # femc's requests
        for line in sys.stdin.buffer:
            s.sendall(line)
        s.shutdown(socket.SHUT_WR)

    threading.Thread(target=to_socket, daemon=True).start()
    out = sys.stdout.buffer
    for line in s.makefile("rb"):  # the answers; the connection's end (a fault) ends the relay
        out.write(line)
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1])
