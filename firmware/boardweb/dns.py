"""The board's own network's DNS responder: every A query is answered with the board's
address, so a phone that joins the network asks its captive-portal probe of the board
(boardweb.routes redirects it to the page) and shows the page by itself.

    reply = answer(query, address)             # bytes, or None: nothing to send
    await responder(sock, where)               # answer on a bound UDP socket for ever

A query for another type (AAAA, HTTPS...) gets a reply with no answer (NOERROR: the name
is there, not that type), so the phone asks for its A record and does not wait; one that
is not a standard query (another opcode) gets NOTIMP; a response, a truncated packet or a
name that does not parse gets nothing. where() is the address to answer with, or None
while the board is not on its own network (then nothing is answered).

One small non-blocking UDP socket polled every POLL_MS on the server's asyncio loop:
MicroPython's asyncio has no datagram endpoint, and a phone's DNS query waits a second or
more before it is sent again, so the poll costs nothing a player sees.
"""

import asyncio

TTL = 60  # seconds a phone may keep an answer (the board's address does not change)
POLL_MS = 20
MAX_QUERY = 512  # a DNS message over UDP is at most this


def answer(query, address):
    """The reply to the DNS query (bytes) with the A record address ("a.b.c.d"), or None
    when there is nothing to send (module docstring)."""
    if len(query) < 12 or query[2] & 0x80:  # too short, or a response
        return None
    if query[4] != 0 or query[5] != 1:  # one question, as every resolver sends
        return None
    i = 12
    while True:
        if i >= len(query):
            return None
        n = query[i]
        if n == 0:
            break
        if n & 0xC0:  # a pointer: never in a question's first name
            return None
        i += n + 1
    end = i + 5  # the name's end, its type and class
    if end > len(query):
        return None
    opcode = query[2] & 0x78
    qtype = (query[i + 1] << 8) | query[i + 2]
    rcode = 4 if opcode else 0  # NOTIMP for anything but a standard query
    found = not opcode and qtype in (1, 255)  # A, or ANY
    head = query[:2] + bytes((0x84 | opcode | (query[2] & 0x01), rcode, 0, 1, 0,
                              1 if found else 0, 0, 0, 0, 0))
    reply = head + query[12:end]
    if found:
        parts = [int(p) for p in address.split(".")]
        reply += bytes((0xC0, 12, 0, 1, 0, 1, (TTL >> 24) & 255, (TTL >> 16) & 255,
                        (TTL >> 8) & 255, TTL & 255, 0, 4)) + bytes(parts)
    return reply


async def responder(sock, where):
    """Answer the queries that come to sock (a bound UDP socket) for ever; where(): the
    address to answer with, or None to stay silent."""
    sock.setblocking(False)
    while True:
        try:
            query, peer = sock.recvfrom(MAX_QUERY)
        except OSError:  # nothing there (EAGAIN)
            await asyncio.sleep(POLL_MS / 1000)
            continue
        address = where()
        reply = answer(query, address) if address else None
        if reply is not None:
            try:
                sock.sendto(reply, peer)
            except OSError:  # the phone went away: its next query is answered
                pass


def listen(host, port):
    """A UDP socket bound to host:port."""
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(socket.getaddrinfo(host, port, 0, socket.SOCK_DGRAM)[0][-1])
    return sock
