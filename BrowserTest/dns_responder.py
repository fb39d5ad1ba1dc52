"""A tiny DNS server on 127.0.0.1 for the browser test: answers TXT questions from a table (RFC 1035
§4.1), NXDOMAIN for every other name. `siwa serve --dns-resolver 127.0.0.1:PORT` asks it for the
SPF records of the console's e-mail sources."""
import socket
import struct
import threading


class DNSResponder:
    def __init__(self, port, records):
        """records: name -> list of TXT strings (one record each)."""
        self.records = {name.lower(): texts for name, texts in records.items()}
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", port))
        self.socket.settimeout(0.5)
        self.running = True
        self.questions = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while self.running:
            try:
                query, sender = self.socket.recvfrom(512)
            except socket.timeout:
                continue
            except OSError:
                return
            reply = self.answer(query)
            if reply:
                self.socket.sendto(reply, sender)

    def answer(self, query):
        if len(query) < 17:
            return None
        labels, index = [], 12
        while index < len(query) and query[index] != 0:
            length = query[index]
            labels.append(query[index + 1:index + 1 + length].decode("ascii", "replace"))
            index += 1 + length
        question = query[12:index + 5]
        name = ".".join(labels).lower()
        self.questions.append(name)
        texts = self.records.get(name)
        code = 0 if texts is not None else 3
        answers = b""
        for text in texts or []:
            data = bytes([len(text)]) + text.encode()
            answers += b"\xc0\x0c" + struct.pack(">HHIH", 16, 1, 3600, len(data)) + data
        header = query[:2] + struct.pack(">BBHHHH", 0x81, 0x80 | code, 1, len(texts or []), 0, 0)
        return header + question + answers

    def close(self):
        self.running = False
        self.socket.close()
