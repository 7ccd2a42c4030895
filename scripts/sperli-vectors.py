#!/usr/bin/env python3
"""Write and check docs/sperli-vectors.txt, the SPERLI v1 test vectors.

  --write   regenerate the file deterministically (same bytes every run)
  --check   (the default) parse the file, recompute every record from its inputs and
            fail naming each record that differs, a missing record or kind, and any
            difference from what --write would produce

The codec, the receiver checks and the reduce arithmetic below were written from the
protocol's original text and tables alone (docs/sperli-protocol.md restates them),
independent of the Java implementation, so that the vectors cross-check it. Python 3.11 standard library only.
"""
import argparse
import base64
import hashlib
import math
import struct
import sys
from pathlib import Path

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "docs" / "sperli-vectors.txt"

# Limits and sizes (tables sections 1, 2, 3, 6 and 7).
MAX_PAYLOAD = 16 * 1024 * 1024
MAX_USER_TAG = 2**31 - 1
MAX_TOKEN = 8192
MAX_ABORT_MESSAGE = 1024
MAX_CHUNK = 1024 * 1024
MAX_SIZE = 4096
MAX_HOST = 253
SIG_LEN = 2484
PUBLIC_KEY_LEN = 1344
SIGNING_KEY_LEN = 64
COMMIT_FIXED = 36 + 2 + SIG_LEN  # 2522: a COMMIT file without its hash list
RANKFILE_MAGIC = b"SPRLCKPT"
COMMIT_MAGIC = b"SPRLCMIT"
PLACEHOLDER_SIG = b"\xaa" * SIG_LEN

HELLO, DATA, COLLECTIVE, HEARTBEAT, ABORT, CKPT_BEGIN, CKPT_DATA, CKPT_ACK, CKPT_COMMIT, RESUME, BYE = range(1, 12)


class Layout:
    """A fixed little-endian layout: (field, struct code) pairs in wire order, as in the tables."""

    def __init__(self, *fields):
        self.fields = fields
        self.names = [name for name, _ in fields]
        self.struct = struct.Struct("<" + "".join(code for _, code in fields))
        self.size = self.struct.size

    def pack(self, values):
        for name, code in self.fields:  # struct pads or cuts byte strings silently; we do not
            if code.endswith("s") and len(values[name]) != int(code[:-1]):
                raise ValueError(f"{name} must be {code[:-1]} bytes, got {len(values[name])}")
        return self.struct.pack(*(values[name] for name in self.names))

    def unpack(self, data, offset=0):
        return dict(zip(self.names, self.struct.unpack_from(data, offset)))


# Tables section 1: the frame header.
HEADER = Layout(("length", "I"), ("type", "B"), ("flags", "B"), ("service", "H"), ("membership_epoch", "Q"),
                ("job_id", "16s"), ("source", "I"), ("target", "I"), ("incarnation", "I"), ("tag", "I"),
                ("epoch", "I"))
# Tables section 2 and 4: per type the fixed part of the payload and the name of the variable tail (or None).
PAYLOADS = {
    HELLO: (Layout(("version", "I"), ("features", "Q"), ("token_length", "I")), "token"),
    DATA: (Layout(), "message"),
    COLLECTIVE: (Layout(("operation", "B"), ("element_type", "B"), ("reduce_op", "B"), ("phase", "B"),
                        ("root", "I"), ("sequence", "Q")), "data"),
    HEARTBEAT: (Layout(("counter", "Q")), None),
    ABORT: (Layout(("reason", "I"), ("code", "I"), ("message_length", "H")), "message"),
    CKPT_BEGIN: (Layout(("version", "I"), ("size", "I")), None),
    CKPT_DATA: (Layout(("chunk_kind", "B"), ("reserved", "3s"), ("file_rank", "I"), ("offset", "Q"),
                       ("total", "Q")), "chunk"),
    CKPT_ACK: (Layout(("sha256", "32s")), None),
    CKPT_COMMIT: (Layout(), "commit"),
    RESUME: (Layout(("status", "I")), "commit"),
    BYE: (Layout(), None),
}
# Tables section 3: the signed message of a join token, then the host.
TOKEN_HEAD = Layout(("job_id", "16s"), ("rank", "I"), ("size", "I"), ("incarnation", "I"), ("expiry_ms", "Q"),
                    ("host_length", "H"))
# Tables section 6: the rank file header and the fixed head of a COMMIT file.
RANKFILE = Layout(("magic", "8s"), ("version", "I"), ("epoch", "I"), ("job_id", "16s"), ("rank", "I"),
                  ("size", "I"), ("state_length", "Q"), ("state_sha256", "32s"))
COMMIT_HEAD = Layout(("magic", "8s"), ("version", "I"), ("epoch", "I"), ("job_id", "16s"), ("size", "I"))
# Tables section 7: the job description up to the host list, and one host list entry.
JOBDESC_HEAD = Layout(("format_version", "H"), ("job_id", "16s"), ("size", "I"), ("rank", "I"),
                      ("incarnation", "I"), ("silence_ms", "I"))
HOST_ENTRY = Layout(("port", "H"), ("host_length", "B"))
assert (HEADER.size, RANKFILE.size, COMMIT_HEAD.size, TOKEN_HEAD.size) == (52, 80, 36, 38)


def sha256(data):
    return hashlib.sha256(data).digest()


# ---------------------------------------------------------------- receiver checks

class Refused(Exception):
    """A refusal with its H code."""

    def __init__(self, code, reason):
        super().__init__(f"{code} {reason}")
        self.code, self.reason = code, reason


def need(ok, code, reason):
    if not ok:
        raise Refused(code, reason)


class Reader:
    """Reads a byte string front to back; any read past the end is a refusal with `code` (a cut field)."""

    def __init__(self, data, code):
        self.data, self.pos, self.code = data, 0, code

    def take(self, n):
        need(self.pos + n <= len(self.data), self.code, f"cut: {n} bytes wanted, {len(self.data) - self.pos} left")
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def fields(self, layout):
        return layout.unpack(self.take(layout.size))

    def prefixed(self, code):
        """A byte string behind a little-endian length of struct code `code` (H or I)."""
        (n,) = struct.unpack("<" + code, self.take(struct.calcsize(code)))
        return self.take(n)

    def end(self):
        need(self.pos == len(self.data), self.code, f"{len(self.data) - self.pos} bytes after the last field")

    def signature(self):
        """The u16 signature length (2484) and the signature, last in a token or COMMIT file."""
        (n,) = struct.unpack("<H", self.take(2))
        need(n == SIG_LEN, self.code, f"signature length {n}")
        self.take(SIG_LEN)
        self.end()


def length_fits(ftype, length, size):
    """Tables section 2: whether a payload length fits the type, for a job of `size` ranks."""
    commit = COMMIT_FIXED + 32 * size
    return {
        HELLO: 16 <= length <= 16 + MAX_TOKEN, DATA: True, COLLECTIVE: length >= 16,
        HEARTBEAT: length == 8, ABORT: 10 <= length <= 10 + MAX_ABORT_MESSAGE, CKPT_BEGIN: length == 8,
        CKPT_DATA: 24 <= length <= 24 + MAX_CHUNK, CKPT_ACK: length == 32, CKPT_COMMIT: length == commit,
        RESUME: length in (4, 4 + commit), BYE: length == 0,
    }[ftype]


def judge_header(raw, ctx):
    """Tables section 1 in check order. Returns "accept" or "drop <n>"; raises Refused (H1610)."""
    h = HEADER.unpack(raw)
    ftype, length = h["type"], h["length"]

    def check(ok, reason):
        need(ok, "H1610", reason)

    check(length <= MAX_PAYLOAD, f"length={length} over {MAX_PAYLOAD}")
    check(1 <= ftype <= 11, f"type={ftype}")
    check(h["flags"] == 0, f"flags={h['flags']}")
    check(h["service"] == 0, f"service={h['service']}")
    check(h["membership_epoch"] == 0, f"membership epoch={h['membership_epoch']}")
    check(h["job_id"] == ctx["job_id"], "job id is not the receiver's job")
    check(h["source"] == ctx["peer_rank"], f"source={h['source']}, peer is {ctx['peer_rank']}")
    check(h["target"] == ctx["own_rank"], f"target={h['target']}, own rank is {ctx['own_rank']}")
    if h["incarnation"] < ctx["incarnation"]:
        return f"drop {length}"  # the tag and everything after it are not judged
    check(h["incarnation"] == ctx["incarnation"], f"incarnation={h['incarnation']} is in the future")
    if not CKPT_BEGIN <= ftype <= RESUME:
        check(h["epoch"] == 0, f"epoch={h['epoch']}, must be 0 for type {ftype}")
    check(length_fits(ftype, length, ctx["size"]), f"length={length} does not fit type {ftype}")
    # The original text: the tag checks come last, after everything else.
    if ftype == DATA:
        check(h["tag"] <= MAX_USER_TAG, f"tag={h['tag']} is reserved")
    else:
        check(h["tag"] == 0, f"tag={h['tag']}, must be 0 for type {ftype}")
    return "accept"


def parse_token(data, code):
    """Tables section 3: the join token's layout. Returns the message fields and the host."""
    r = Reader(data, code)
    t = r.fields(TOKEN_HEAD)
    need(1 <= t["host_length"] <= MAX_HOST, code, f"host length {t['host_length']}")
    t["host"] = r.take(t["host_length"])
    r.signature()
    return t


def judge_commit(data, job_id, epoch, size):
    """Tables section 6 and the original's resume rules. The placeholder signature is taken as valid."""
    r = Reader(data, "H1621")
    c = r.fields(COMMIT_HEAD)
    need(c["magic"] == COMMIT_MAGIC, "H1621", f"magic {c['magic']!r}")
    need(c["version"] == 1, "H1621", f"version {c['version']}")
    need(1 <= c["size"] <= MAX_SIZE, "H1621", f"size {c['size']}")
    r.take(32 * c["size"])
    r.signature()
    need(c["job_id"] == job_id and c["epoch"] == epoch, "H1621", "another job or epoch")
    need(c["size"] == size, "H1623", f"size {c['size']}, the job has {size}")


def judge_rankfile(data, job_id, epoch, rank, size):
    """Tables section 6 and the original's reader rules for a rank file."""
    h = Reader(data, "H1619").fields(RANKFILE)
    need(h["magic"] == RANKFILE_MAGIC, "H1619", f"magic {h['magic']!r}")
    need(h["version"] == 1, "H1619", f"version {h['version']}")
    need((h["job_id"], h["epoch"], h["rank"]) == (job_id, epoch, rank), "H1619", "another job, epoch or rank")
    need(h["size"] == size, "H1623", f"size {h['size']}, the job has {size}")
    need(len(data) == RANKFILE.size + h["state_length"], "H1619", f"file length {len(data)}")
    need(sha256(data[RANKFILE.size:]) == h["state_sha256"], "H1620", "state does not hash to the stored SHA-256")


def judge_payload(h, payload, ctx):
    """Tables section 2: the payload rules of a frame whose header was accepted."""
    ftype = h["type"]
    layout, _ = PAYLOADS[ftype]
    p, rest = layout.unpack(payload), payload[layout.size:]  # the header's length rule covers the fixed part
    if ftype == HELLO:
        need(p["version"] == 1, "H1614", f"protocol version {p['version']}")
        need(p["features"] & 1, "H1614", "feature bit 0 (v1 base) not set")
        need(p["token_length"] == len(payload) - 16, "H1614", f"token length {p['token_length']}")
        t = parse_token(rest, "H1614")
        need((t["job_id"], t["rank"], t["size"], t["incarnation"])
             == (ctx["job_id"], h["source"], ctx["size"], ctx["incarnation"]), "H1614", "token is for another rank")
    elif ftype == ABORT:
        need(p["message_length"] == len(payload) - 10, "H1610", f"message length {p['message_length']}")
    elif ftype == CKPT_BEGIN:
        need(p["version"] == 1, "H1619", f"checkpoint version {p['version']}")
        need(p["size"] == ctx["size"], "H1623", f"size {p['size']}")
    elif ftype == CKPT_DATA:
        need(p["reserved"] == bytes(3), "H1610", "reserved bytes are not zero")
        need(p["chunk_kind"] <= 4, "H1610", f"kind {p['chunk_kind']}")
        if p["chunk_kind"] in (1, 3, 4):
            need(not rest and p["offset"] == p["total"] == 0, "H1610", "kind 1, 3 or 4 with a chunk or offsets")
        need(p["offset"] + len(rest) <= p["total"], "H1610", "offset + chunk is past the total")
    elif ftype == CKPT_COMMIT:
        judge_commit(rest, ctx["job_id"], h["epoch"], ctx["size"])
    elif ftype == RESUME:
        need(p["status"] <= 3, "H1610", f"status {p['status']}")
        if rest:
            judge_commit(rest, ctx["job_id"], h["epoch"], ctx["size"])


def judge_frame(raw, ctx):
    verdict = judge_header(raw[:HEADER.size], ctx)
    if verdict == "accept":
        h = HEADER.unpack(raw)
        need(len(raw) - HEADER.size == h["length"], "H1610", "payload is not `length` bytes")
        judge_payload(h, raw[HEADER.size:], ctx)
    return verdict


def host_ok(host):
    """Tables section 7, host syntax: dotted IPv4 without leading zeros, or lower-case LDH labels."""
    if not host.isascii() or ":" in host or "[" in host:
        return False
    if all(c.isdigit() or c == "." for c in host):
        octets = host.split(".")
        return len(octets) == 4 and all(o.isdigit() and str(int(o)) == o and int(o) <= 255 for o in octets)
    ldh = set("abcdefghijklmnopqrstuvwxyz0123456789-")
    return len(host) <= MAX_HOST and all(
        1 <= len(label) <= 63 and set(label) <= ldh and label[0] != "-" and label[-1] != "-"
        for label in host.split("."))


def judge_jobdesc(line):
    """Tables section 7, structurally: PEM texts are not parsed, hosts are not held against the policy."""
    code = "H1616"
    need(line != "", code, "empty line")
    need(len(line) % 2 == 0, code, "odd digit count")
    need(set(line) <= set("0123456789abcdef"), code, "a character outside 0-9a-f")
    r = Reader(bytes.fromhex(line), code)
    d = r.fields(JOBDESC_HEAD)
    need(d["format_version"] == 1, code, f"format version {d['format_version']}")
    need(d["job_id"] != bytes(16), code, "all-zero job id")
    need(1 <= d["size"] <= MAX_SIZE, code, f"size {d['size']}")
    need(d["rank"] < d["size"], code, f"rank {d['rank']}")
    need(d["incarnation"] >= 1, code, "incarnation 0")
    need(2000 <= d["silence_ms"] <= 3_600_000, code, f"silence {d['silence_ms']} ms")
    hosts = []
    for _ in range(d["size"]):
        e = r.fields(HOST_ENTRY)
        need(e["port"] >= 1 and e["host_length"] >= 1, code, "port 0 or empty host")
        hosts.append(r.take(e["host_length"]))
        need(host_ok(hosts[-1].decode("latin-1")), code, f"host {hosts[-1]!r}")
    for _pem in ("job CA certificate", "rank certificate", "rank private key"):
        r.prefixed("I")
    token = r.prefixed("H")
    signing_key = r.prefixed("I")
    r.take(PUBLIC_KEY_LEN)
    r.end()
    t = parse_token(token, code)
    need((t["job_id"], t["rank"], t["size"], t["incarnation"], t["host"])
         == (d["job_id"], d["rank"], d["size"], d["incarnation"], hosts[d["rank"]]), code, "token does not match")
    need(len(signing_key) == (SIGNING_KEY_LEN if d["rank"] == 0 else 0), code,
         f"signing key of {len(signing_key)} bytes at rank {d['rank']}")


# ---------------------------------------------------------------- reduce (tables section 5)

TYPE_NAMES = ["bytes", "i32", "u32", "i64", "u64", "f32", "f64"]
WIDTHS = [1, 4, 4, 8, 8, 4, 8]
OP_NAMES = ["op0", "sum", "prod", "min", "max", "land", "lor", "lxor", "band", "bor", "bxor", "op11"]
SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR = range(1, 11)
F32, F64 = 5, 6
CANONICAL_NAN = {F32: 0x7fc00000, F64: 0x7ff8000000000000}
FLOAT_FORMAT = {F32: "<f", F64: "<d"}


def allowed(etype, op):
    if etype > 6 or not SUM <= op <= BXOR:
        return False
    if etype == 0:
        return op >= BAND
    if etype in (F32, F64):
        return op <= MAX
    return True


def float_is_nan(etype, bits):
    exp, mant = (0x7f800000, 0x007fffff) if etype == F32 else (0x7ff0000000000000, 0x000fffffffffffff)
    return bits & exp == exp and bits & mant != 0


def float_value(etype, bits):
    return struct.unpack(FLOAT_FORMAT[etype], bits.to_bytes(WIDTHS[etype], "little"))[0]


def float_bits(etype, value):
    """The element's bits for a double `value`, rounded once to the element's precision; NaN is canonical.

    f32: the operands are exact in double, a product of two is exact (48 <= 53 bits), and a sum is rounded to
    double and then to binary32. That double rounding is harmless: binary64 has 53 >= 2 * 24 + 2 bits, so for +
    and * the result equals a single round-to-nearest-even to binary32 (Figueroa 1995), subnormals included.
    struct.pack rounds to nearest even and refuses a finite value that rounds past the largest binary32: that is
    an overflow to infinity of the same sign.
    """
    if math.isnan(value):
        return CANONICAL_NAN[etype]
    try:
        packed = struct.pack(FLOAT_FORMAT[etype], value)
    except OverflowError:
        packed = struct.pack(FLOAT_FORMAT[etype], math.copysign(math.inf, value))
    return int.from_bytes(packed, "little")


def combine_float(etype, op, x, y):
    if float_is_nan(etype, x) or float_is_nan(etype, y):
        return CANONICAL_NAN[etype]  # sum, prod, min and max are NaN when either operand is
    fx, fy = float_value(etype, x), float_value(etype, y)
    if op in (SUM, PROD):
        return float_bits(etype, fx + fy if op == SUM else fx * fy)
    x_negative = x >> (8 * WIDTHS[etype] - 1) == 1
    if fx == fy:  # equal values differ at most in the sign of zero: -0.0 < +0.0
        return x if x_negative == (op == MIN) else y
    return x if (fx < fy) == (op == MIN) else y


def combine_int(etype, op, x, y):
    bits = 8 * WIDTHS[etype]
    mask = (1 << bits) - 1
    if op in (MIN, MAX):
        key = (lambda v: v - (v >> (bits - 1) << bits)) if etype in (1, 3) else (lambda v: v)
        return x if (key(x) <= key(y)) == (op == MIN) else y
    return {
        SUM: lambda: (x + y) & mask, PROD: lambda: (x * y) & mask,
        LAND: lambda: int(x != 0 and y != 0), LOR: lambda: int(x != 0 or y != 0),
        LXOR: lambda: int((x != 0) != (y != 0)),
        BAND: lambda: x & y, BOR: lambda: x | y, BXOR: lambda: x ^ y,
    }[op]()


def reduce_arrays(etype, op, a, b):
    """a op b element by element, the first as the left operand. Refusals are H1618, made before anything is sent."""
    need(allowed(etype, op), "H1618", f"operation {op} is not defined for element type {etype}")
    width = WIDTHS[etype]
    need(len(a) == len(b), "H1618", f"contributions of {len(a)} and {len(b)} bytes")
    need(len(a) % width == 0, "H1618", f"{len(a)} bytes are not whole elements of {width}")
    combine = combine_float if etype in (F32, F64) else combine_int
    out = bytearray()
    for i in range(0, len(a), width):
        x, y = (int.from_bytes(v[i:i + width], "little") for v in (a, b))
        out += combine(etype, op, x, y).to_bytes(width, "little")
    return bytes(out)


# ---------------------------------------------------------------- records: inputs to derived fields

def judged(judge, args, **derived):
    """The derived fields and the verdict of `judge(*args)`; _reason (not written) explains a refusal."""
    try:
        return derived | {"verdict": judge(*args) or "accept", "_reason": ""}
    except Refused as e:
        return derived | {"verdict": f"refuse {e.code}", "_reason": e.reason}


def context(f):
    return {k[4:]: v for k, v in f.items() if k.startswith("ctx_")}


def encode_payload(f):
    layout, tail = PAYLOADS[f["type"]]
    return layout.pack(f) + (f[tail] if tail else b"")


def build_frame(f):  # kinds frame and payload
    raw = HEADER.pack(f) + encode_payload(f)
    return judged(judge_frame, (raw, context(f)), bytes=raw)


def build_header(f):
    raw = HEADER.pack(f)
    return judged(judge_header, (raw, context(f)), bytes=raw)


def build_rankfile(f):
    raw = RANKFILE.pack(f) + f["state"]
    expect = (f["expect_job_id"], f["expect_epoch"], f["expect_rank"], f["expect_size"])
    return judged(judge_rankfile, (raw, *expect), bytes=raw)


def build_commit(f):
    signed = COMMIT_HEAD.pack(f) + b"".join(f[f"hash_{i}"] for i in range(f["size"]))
    raw = signed + struct.pack("<H", f["sig_length"]) + f["signature"]
    expect = (f["expect_job_id"], f["expect_epoch"], f["expect_size"])
    return judged(judge_commit, (raw, *expect), signed_part=signed, bytes=raw)


def build_token(f):
    signed = TOKEN_HEAD.pack(f) + f["host"].encode("ascii")
    raw = signed + struct.pack("<H", f["sig_length"]) + f["signature"]
    parse_token(raw, "H1614")  # a record whose token does not parse fails the check
    return {"signed_part": signed, "bytes": raw}


def encode_jobdesc(f):
    out = JOBDESC_HEAD.pack(f)
    for i in range(f["size"]):
        host = f[f"host_{i}_name"].encode("ascii")
        out += HOST_ENTRY.pack({"port": f[f"host_{i}_port"], "host_length": len(host)}) + host
    for name, code in (("ca_pem", "I"), ("cert_pem", "I"), ("key_pem", "I"), ("token", "H"), ("signing_key", "I")):
        out += struct.pack("<" + code, len(f[name])) + f[name]
    return out + f["public_key"]


def build_jobdesc(f):
    if "format_version" not in f:  # a damaged line given as it is
        return judged(judge_jobdesc, (f["line"],))
    line = encode_jobdesc(f).hex()
    return judged(judge_jobdesc, (line,), line=line)


def build_reduce(f):
    try:
        return {"result": reduce_arrays(f["type"], f["op"], f["a"], f["b"])}
    except Refused as e:
        return {"refuse": e.code, "_reason": e.reason}


# Section 7.4.1: the mesh schedules (feature bit 1), a fixed function of size, bytes, element width and operation.
SEGMENTS_AT = PIECES_AT = 65536
MESH_BARRIER, MESH_BCAST, MESH_REDUCE, MESH_ALLREDUCE = 1, 2, 3, 4
TOWARD_ROOT, FROM_ROOT, TO_OWNER, FROM_OWNER, FROM_PARENT, DISSEMINATION, PIECE_FROM_ROOT, PIECE_FROM_HOLDER = range(8)


def segment_start(k, n, width, size):
    return (k * (n // width) // size) * width


def piece_start(i, n, holders):
    return i * n // holders


def tree_children(rank, root, size):
    """Binomial tree: children of relative rank v are v + m for m below v's lowest set bit, largest first."""
    v = (rank - root) % size
    mask = (1 << (size - 1).bit_length()) if v == 0 else v & -v
    m, out = mask >> 1, []
    while m:
        if v + m < size:
            out.append((v + m + root) % size)
        m >>= 1
    return out


def mesh_schedule(operation, etype, size, root, n):
    """The schedule's name, its bounds (segments or pieces) and every rank's sends in order: (to, phase, length)."""
    sends = {r: [] for r in range(size)}
    if operation == MESH_BARRIER:
        d = 1
        while d < size:
            for r in range(size):
                sends[r].append(((r + d) % size, DISSEMINATION, 0))
            d <<= 1
        return "dissemination", [], sends
    if operation == MESH_BCAST:
        if size <= 2 or n < PIECES_AT:
            sends[root] = [(r, FROM_ROOT, n) for r in range(size) if r != root]
            return "from-root", [], sends
        holders = [r for r in range(size) if r != root]
        bounds = [piece_start(i, n, len(holders)) for i in range(len(holders) + 1)]
        sends[root] = [(h, PIECE_FROM_ROOT, bounds[i + 1] - bounds[i]) for i, h in enumerate(holders)]
        for i, h in enumerate(holders):
            sends[h] = [(g, PIECE_FROM_HOLDER, bounds[i + 1] - bounds[i]) for g in holders if g != h]
        return "pieces", bounds, sends
    owner = root if operation == MESH_REDUCE else 0
    if n < SEGMENTS_AT:
        for r in range(size):
            if r != owner:
                sends[r].append((owner, TOWARD_ROOT, n))
        if operation == MESH_ALLREDUCE:
            for r in range(size):
                sends[r] += [(c, FROM_PARENT, n) for c in tree_children(r, 0, size)]
        return "owner" if operation == MESH_REDUCE else "owner-tree", [], sends
    bounds = [segment_start(k, n, WIDTHS[etype], size) for k in range(size + 1)]
    for r in range(size):
        sends[r] += [(k, TO_OWNER, bounds[k + 1] - bounds[k]) for k in range(size) if k != r]
        own = bounds[r + 1] - bounds[r]
        if operation == MESH_ALLREDUCE:
            sends[r] += [(k, FROM_OWNER, own) for k in range(size) if k != r]
        elif r != root:
            sends[r].append((root, FROM_OWNER, own))
    return "segments", bounds, sends


def build_schedule(f):
    name, bounds, sends = mesh_schedule(f["operation"], f["type"], f["size"], f["root"], f["data_length"])
    frames_text = " ".join(f"{r}>{to}:{phase}:{length}" for r in range(f["size"]) for to, phase, length in sends[r])
    return {"schedule": name, "bounds": " ".join(str(b) for b in bounds), "frames": frames_text}


BUILD = {"frame": build_frame, "header": build_header, "payload": build_frame, "rankfile": build_rankfile,
         "commit": build_commit, "token": build_token, "jobdesc": build_jobdesc, "reduce": build_reduce,
         "schedule": build_schedule}

# How a value is written: byte strings as lower-case hex, text as is, everything else a decimal integer.
HEX_FIELDS = {"job_id", "ctx_job_id", "expect_job_id", "token", "message", "data", "chunk", "reserved", "sha256",
              "commit", "bytes", "magic", "state", "state_sha256", "signature", "signed_part", "ca_pem", "cert_pem",
              "key_pem", "signing_key", "public_key", "a", "b", "result"}
TEXT_FIELDS = {"kind", "name", "why", "verdict", "refuse", "line", "host", "schedule", "bounds", "frames"}


def field_class(key):
    if key in HEX_FIELDS or key.startswith("hash_"):
        return "hex"
    if key in TEXT_FIELDS or (key.startswith("host_") and key.endswith("_name")):
        return "text"
    return "int"


def render(value):
    return value.hex() if isinstance(value, bytes) else str(value)


def convert(key, text):
    cls = field_class(key)
    if cls == "hex":
        if text != text.lower():
            raise ValueError(f"{key}: hex must be lower case")
        return bytes.fromhex(text)
    if cls == "int":
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"{key}: not a decimal integer: {text[:40]!r}")
        return int(text)
    return text


# ---------------------------------------------------------------- the vectors

JOB_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
OTHER_JOB_ID = bytes.fromhex("ffeeddccbbaa99887766554433221100")
SIZE = 2
EPOCH = 3
HOSTS = [(7100, "node0.example.org"), (7101, "192.0.2.1")]
EXPIRY_MS = 4102444800000  # 2100-01-01T00:00:00Z


def pseudo(label, n):
    """Fixed pseudo-bytes: SHA-256 in counter mode over a label."""
    return b"".join(sha256(label.encode() + i.to_bytes(4, "little")) for i in range(n // 32 + 1))[:n]


def pem(kind, text):
    body = base64.b64encode(text.encode()).decode()
    return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----\n".encode()


PUBLIC_KEY = pseudo("sperli vectors: job public key", PUBLIC_KEY_LEN)
SIGNING_KEY = pseudo("sperli vectors: job signing key", SIGNING_KEY_LEN)


class Record:
    """A record to write: its inputs in order; the derived fields come from BUILD."""

    def __init__(self, kind, name, why, inputs, expect=None):
        self.kind, self.name, self.why, self.inputs = kind, name, why, list(inputs)
        self.derived = BUILD[kind](dict(self.inputs))
        got = self.derived.get("verdict", self.derived.get("refuse", "result"))
        if expect is not None and got != expect:  # the table states the spec's answer; the code must agree
            raise AssertionError(f"{name}: computed {got} ({self.derived.get('_reason')}), table says {expect}")

    def lines(self):
        fields = [("kind", self.kind), ("name", self.name), ("why", self.why)] + self.inputs
        fields += [(k, v) for k, v in self.derived.items() if not k.startswith("_")]
        return [f"{k}: {render(v)}".rstrip(" ") for k, v in fields]


def state_of(rank):
    return f"state of rank {rank}: ".encode() + pseudo(f"sperli vectors: state {rank}", 24 + 8 * rank)


def rankfile_inputs(rank, size=SIZE, **over):
    state = state_of(rank)
    f = dict(expect_job_id=JOB_ID, expect_epoch=EPOCH, expect_rank=rank, expect_size=SIZE, magic=RANKFILE_MAGIC,
             version=1, epoch=EPOCH, job_id=JOB_ID, rank=rank, size=size, state_length=len(state),
             state_sha256=sha256(state), state=state)
    return list((f | over).items())


def rankfile_bytes(rank, size=SIZE):
    return build_rankfile(dict(rankfile_inputs(rank, size)))["bytes"]


def commit_inputs(size=SIZE, **over):
    f = dict(expect_job_id=JOB_ID, expect_epoch=EPOCH, expect_size=SIZE, magic=COMMIT_MAGIC, version=1,
             epoch=EPOCH, job_id=JOB_ID, size=size)
    f |= {f"hash_{r}": sha256(rankfile_bytes(r, size)) for r in range(size)}
    f |= dict(sig_length=SIG_LEN, signature=PLACEHOLDER_SIG)
    return list((f | over).items())


def token_inputs(rank):
    host = HOSTS[rank][1]
    return [("job_id", JOB_ID), ("rank", rank), ("size", SIZE), ("incarnation", 1), ("expiry_ms", EXPIRY_MS),
            ("host_length", len(host)), ("host", host), ("sig_length", SIG_LEN), ("signature", PLACEHOLDER_SIG)]


def jobdesc_inputs(rank, signing_key):
    f = [("format_version", 1), ("job_id", JOB_ID), ("size", SIZE), ("rank", rank), ("incarnation", 1),
         ("silence_ms", 5000)]
    for i, (port, host) in enumerate(HOSTS):
        f += [(f"host_{i}_port", port), (f"host_{i}_name", host)]
    token = build_token(dict(token_inputs(rank)))["bytes"]
    return f + [("ca_pem", pem("CERTIFICATE", "SPERLI vectors: example job CA, not a certificate")),
                ("cert_pem", pem("CERTIFICATE", f"SPERLI vectors: example certificate of rank {rank}")),
                ("key_pem", pem("PRIVATE KEY", f"SPERLI vectors: example private key of rank {rank}")),
                ("token", token), ("signing_key", signing_key), ("public_key", PUBLIC_KEY)]


def frame_inputs(ftype, length, *, src=0, dst=1, inc=1, ctx_inc=None, **over):
    """Receiver context and header fields of a frame from `src` to `dst`; `over` changes header fields only."""
    ctx = [("ctx_job_id", JOB_ID), ("ctx_size", SIZE), ("ctx_own_rank", dst), ("ctx_peer_rank", src),
           ("ctx_incarnation", inc if ctx_inc is None else ctx_inc)]
    h = dict(length=length, type=ftype, flags=0, service=0, membership_epoch=0, job_id=JOB_ID, source=src,
             target=dst, incarnation=inc, tag=0, epoch=0)
    return ctx + list((h | over).items())


def frame(name, why, ftype, payload, expect="accept", kind="frame", **hdr):
    layout, tail = PAYLOADS[ftype]
    fields = [(n, payload[n]) for n in layout.names] + ([(tail, payload.get(tail, b""))] if tail else [])
    length = len(encode_payload(dict(fields, type=ftype)))
    return Record(kind, name, why, frame_inputs(ftype, length, **hdr) + fields, expect)


def header(name, why, ftype, length, expect, **header_fields):
    return Record("header", name, why, frame_inputs(ftype, length, **header_fields), expect)


def hello(token, **over):
    return dict(version=1, features=1, token_length=len(token), token=token) | over


def abort(reason, code, message, **over):
    m = message.encode("utf-8")
    return dict(reason=reason, code=code, message_length=len(m), message=m) | over


def ckpt_data(kind, file_rank, offset, total, chunk=b"", reserved=bytes(3)):
    return dict(chunk_kind=kind, reserved=reserved, file_rank=file_rank, offset=offset, total=total, chunk=chunk)


def frames():
    tok0 = build_token(dict(token_inputs(0)))["bytes"]
    rf0, rf1 = rankfile_bytes(0), rankfile_bytes(1)
    commit = build_commit(dict(commit_inputs()))["bytes"]
    i32s = b"".join(struct.pack("<i", v) for v in (1, -2, 2**31 - 1))
    message = "Rang 1 gescheitert: Division durch Null \u2013 Gr\u00f6\u00dfe \u2260 0"
    return [
        frame("frame-hello", "HELLO from rank 0: version 1, feature bit 0, rank 0's join token", HELLO, hello(tok0)),
        frame("frame-hello-mesh", "HELLO from rank 0 announcing feature bit 1 (mesh collectives) besides bit 0",
              HELLO, hello(tok0, features=3)),
        frame("frame-data", "DATA with user tag 7", DATA, {"message": b"hello, rank 1"}, tag=7),
        frame("frame-data-empty", "DATA of length 0: an empty message is valid", DATA, {"message": b""}),
        frame("frame-collective", "COLLECTIVE: allreduce (4) of i32 (1) sum (1), phase 0 toward root 0, sequence 1,"
              " three elements", COLLECTIVE, dict(operation=4, element_type=1, reduce_op=1, phase=0, root=0,
                                                  sequence=1, data=i32s), src=1, dst=0),
        frame("frame-collective-mesh", "COLLECTIVE of the mesh: allreduce (4) of i32 (1) sum (1), phase 2 (a"
              " segment to its owner, rank 0), sequence 1, three elements", COLLECTIVE,
              dict(operation=4, element_type=1, reduce_op=1, phase=2, root=0, sequence=1, data=i32s), src=1, dst=0),
        frame("frame-heartbeat", "HEARTBEAT with counter 1", HEARTBEAT, {"counter": 1}),
        frame("frame-abort", "ABORT reason 7 (the program failed), code 0, a UTF-8 message", ABORT,
              abort(7, 0, message), src=1, dst=0),
        frame("frame-ckpt-begin", "CKPT_BEGIN of epoch 3: version 1, size 2", CKPT_BEGIN, dict(version=1, size=SIZE),
              epoch=EPOCH),
        frame("frame-ckpt-data-chunk", "CKPT_DATA kind 0: rank 0's whole rank file (rankfile-rank0) as one chunk"
              " to its buddy rank 1", CKPT_DATA, ckpt_data(0, 0, 0, len(rf0), rf0), epoch=EPOCH),
        frame("frame-ckpt-data-request", "CKPT_DATA kind 1 at resume (incarnation 2): rank 0 asks its buddy for"
              " its own file; offset and total 0, no chunk", CKPT_DATA, ckpt_data(1, 0, 0, 0), epoch=EPOCH, inc=2),
        frame("frame-ckpt-ack", "CKPT_ACK of epoch 3: SHA-256 of rank 1's whole file (rankfile-rank1)", CKPT_ACK,
              {"sha256": sha256(rf1)}, src=1, dst=0, epoch=EPOCH),
        frame("frame-ckpt-commit", "CKPT_COMMIT of epoch 3 carrying the COMMIT file of commit-size2 (size 2)",
              CKPT_COMMIT, {"commit": commit}, epoch=EPOCH),
        frame("frame-resume-offer", "RESUME status 3 (offer) without a COMMIT: header epoch 0, incarnation 2",
              RESUME, {"status": 3, "commit": b""}, src=1, dst=0, inc=2),
        frame("frame-resume-commit", "RESUME status 0 from rank 0 with the chosen epoch 3 and its COMMIT file",
              RESUME, {"status": 0, "commit": commit}, inc=2, epoch=EPOCH),
        frame("frame-bye", "BYE: empty payload", BYE, {}, src=1, dst=0),
        frame("payload-hello-version-2", "HELLO with protocol version 2", HELLO, hello(tok0, version=2),
              "refuse H1614", "payload"),
        frame("payload-hello-no-base-feature", "HELLO without feature bit 0", HELLO, hello(tok0, features=2),
              "refuse H1614", "payload"),
        frame("payload-hello-token-length", "HELLO whose token length is length - 17, not length - 16", HELLO,
              hello(tok0, token_length=len(tok0) - 1), "refuse H1614", "payload"),
        frame("payload-abort-message-length", "ABORT whose message length is length - 11, not length - 10", ABORT,
              abort(7, 0, message, message_length=len(message.encode()) - 1), "refuse H1610", "payload", src=1, dst=0),
        frame("payload-ckpt-data-reserved", "CKPT_DATA kind 0 with a nonzero byte in the three zero bytes",
              CKPT_DATA, ckpt_data(0, 0, 0, len(rf0), rf0, reserved=b"\x00\x01\x00"), "refuse H1610", "payload",
              epoch=EPOCH),
        frame("payload-ckpt-data-past-total", "CKPT_DATA kind 0 whose offset + chunk is one byte past the total",
              CKPT_DATA, ckpt_data(0, 0, 0, len(rf0) - 1, rf0), "refuse H1610", "payload", epoch=EPOCH),
        frame("payload-ckpt-begin-other-size", "CKPT_BEGIN naming size 3 in a job of size 2", CKPT_BEGIN,
              dict(version=1, size=3), "refuse H1623", "payload", epoch=EPOCH),
    ]


def headers():
    commit3 = COMMIT_FIXED + 32 * 3
    return [
        header("header-length-max", "DATA of length 16777216, the maximum payload", DATA, MAX_PAYLOAD, "accept"),
        header("header-length-over-max", "length 16777217: refused before any payload byte is read", DATA,
               MAX_PAYLOAD + 1, "refuse H1610"),
        header("header-old-incarnation", "incarnation 1 at a receiver of incarnation 2: read and discard 100 bytes",
               DATA, 100, "drop 100", inc=1, ctx_inc=2),
        header("header-old-incarnation-reserved-tag", "old incarnation with reserved tag 2147483648: still dropped,"
               " the tag is checked after the incarnation", DATA, 100, "drop 100", inc=1, ctx_inc=2, tag=2**31),
        header("header-old-incarnation-over-max", "old incarnation but length 16777217: the length comes first",
               DATA, MAX_PAYLOAD + 1, "refuse H1610", inc=1, ctx_inc=2),
        header("header-future-incarnation", "incarnation 3 at a receiver of incarnation 2", DATA, 100,
               "refuse H1610", inc=3, ctx_inc=2),
        header("header-type-0", "type 0 is invalid", 0, 0, "refuse H1610"),
        header("header-type-12", "type 12 is invalid", 12, 0, "refuse H1610"),
        header("header-flags", "flags 1: must be 0 in v1", DATA, 4, "refuse H1610", flags=1),
        header("header-service", "service 1 (reserved for Raft): must be 0 in v1", DATA, 4, "refuse H1610", service=1),
        header("header-membership-epoch", "membership epoch 1: must be 0 in v1", DATA, 4, "refuse H1610",
               membership_epoch=1),
        header("header-job-id", "another job id", DATA, 4, "refuse H1610", job_id=OTHER_JOB_ID),
        header("header-source", "source rank 1 on the connection authenticated as rank 0", DATA, 4, "refuse H1610",
               source=1),
        header("header-target", "target rank 0 at the receiver of rank 1", DATA, 4, "refuse H1610", target=0),
        header("header-data-tag-reserved", "DATA with reserved tag 2147483648", DATA, 4, "refuse H1610", tag=2**31),
        header("header-data-tag-max", "DATA with tag 2147483647, the largest user tag", DATA, 4, "accept",
               tag=2**31 - 1),
        header("header-collective-tag", "COLLECTIVE with tag 1: every type but DATA has tag 0", COLLECTIVE, 28,
               "refuse H1610", tag=1),
        header("header-collective-length-15", "COLLECTIVE of length 15, shorter than its 16-byte header",
               COLLECTIVE, 15, "refuse H1610"),
        header("header-data-epoch", "DATA with epoch 1: only types 6..10 carry an epoch", DATA, 4, "refuse H1610",
               epoch=1),
        header("header-heartbeat-length-9", "HEARTBEAT of length 9, not 8", HEARTBEAT, 9, "refuse H1610"),
        header("header-ckpt-commit-length", f"CKPT_COMMIT of length {commit3} (a size-3 COMMIT) in a job of size 2"
               f" (needs {COMMIT_FIXED + 32 * SIZE})", CKPT_COMMIT, commit3, "refuse H1610", epoch=EPOCH),
    ]


def files():
    state0 = state_of(0)
    bad_hash = bytes([sha256(state0)[0] ^ 1]) + sha256(state0)[1:]
    return [
        Record("rankfile", "rankfile-rank0", "rank 0's file of epoch 3", rankfile_inputs(0), "accept"),
        Record("rankfile", "rankfile-rank1", "rank 1's file of epoch 3", rankfile_inputs(1), "accept"),
        Record("rankfile", "rankfile-bad-sha256", "stored SHA-256 with its first byte changed",
               rankfile_inputs(0, state_sha256=bad_hash), "refuse H1620"),
        Record("rankfile", "rankfile-bad-magic", "magic SPRLCKPX", rankfile_inputs(0, magic=b"SPRLCKPX"),
               "refuse H1619"),
        Record("rankfile", "rankfile-other-size", "a file of a size-3 job where size 2 is expected",
               rankfile_inputs(0, size=3), "refuse H1623"),
        Record("rankfile", "rankfile-length", "state length one more than the bytes after the header (which hash"
               " correctly): the file is not 80 + state length bytes", rankfile_inputs(0, state_length=len(state0) + 1),
               "refuse H1619"),
        Record("commit", "commit-size2", "COMMIT of epoch 3, size 2, listing the hashes of rankfile-rank0 and"
               " rankfile-rank1", commit_inputs(), "accept"),
        Record("commit", "commit-bad-magic", "magic SPRLCMIX", commit_inputs(magic=b"SPRLCMIX"), "refuse H1621"),
        Record("commit", "commit-other-size", "a well-formed COMMIT of size 3 where the job has size 2",
               commit_inputs(size=3), "refuse H1623"),
        Record("token", "token-rank0", "join token of rank 0 (the one in frame-hello and jobdesc-rank0)",
               token_inputs(0)),
        Record("token", "token-rank1", "join token of rank 1 (the one in jobdesc-rank1)", token_inputs(1)),
    ]


def jobdescs():
    line = encode_jobdesc(dict(jobdesc_inputs(0, SIGNING_KEY))).hex()
    letter = next(i for i, c in enumerate(line) if c in "abcdef")
    damaged = [
        ("jobdesc-cut-short", "rank 0's line without its last byte: the public key is cut", line[:-2]),
        ("jobdesc-trailing-bytes", "rank 0's line with one byte 00 after the public key", line + "00"),
        ("jobdesc-upper-case", f"rank 0's line with the digit at index {letter} ({line[letter]}) in upper case",
         line[:letter] + line[letter].upper() + line[letter + 1:]),
        ("jobdesc-odd-digits", "rank 0's line without its last digit: an odd digit count", line[:-1]),
    ]
    return [
        Record("jobdesc", "jobdesc-rank0", "rank 0 of 2 with the 64-byte job signing key",
               jobdesc_inputs(0, SIGNING_KEY), "accept"),
        Record("jobdesc", "jobdesc-rank1", "rank 1 of 2 without a signing key", jobdesc_inputs(1, b""), "accept"),
        Record("jobdesc", "jobdesc-rank1-signing-key", "rank 1 carrying a job signing key",
               jobdesc_inputs(1, SIGNING_KEY), "refuse H1616"),
    ] + [Record("jobdesc", name, why, [("line", text)], "refuse H1616") for name, why, text in damaged]


def int_cases(etype):
    """Integer cases of table 5 for one type: (ops, a, b, one expected result per op, why)."""
    bits = 8 * WIDTHS[etype]
    top, full, half = 2 ** (bits - 1), 2**bits - 1, 2 ** (bits // 2)
    if etype in (1, 3):  # signed: hi + 1 wraps to lo
        hi, lo = top - 1, -top
        cases = [((SUM,), [hi, -1, lo, 5], [1, 1, -1, -7], [[lo, 0, hi, -2]], f"wraps: {hi} + 1 = {lo}"),
                 ((PROD,), [half, -3, hi, lo], [half, 7, 2, -1], [[0, -21, -2, lo]], "wraps modulo 2^bits"),
                 ((MIN, MAX), [-5, 3, lo, 0], [2, -4, hi, -1], [[-5, -4, lo, -1], [2, 3, hi, 0]],
                  "signed order with negatives")]
    else:
        cases = [((SUM,), [full, top, 1], [1, top, 2], [[0, 0, 3]], f"wraps: {full} + 1 = 0"),
                 ((PROD,), [full, half, 3], [2, half, 5], [[full - 1, 0, 15]], "overflow wraps modulo 2^bits"),
                 ((MIN, MAX), [top, 1, full], [1, top - 1, 0], [[1, 1, 0], [top, top - 1, full]],
                  "unsigned order: the high bit is large")]
    p, q, r = (int(h * (bits // 8), 16) for h in ("0f", "00ff", "f0"))
    return cases + [
        ((LAND, LOR, LXOR), [0, 0, 5, full], [0, 3, 0, top], [[0, 0, 0, 1], [0, 1, 1, 1], [0, 1, 1, 0]],
         "1 or 0 in the element's width"),
        ((BAND, BOR, BXOR), [p, full, top], [q, r, full], [[p & q, r, top], [p | q, full, full],
                                                           [p ^ q, r ^ full, top ^ full]], "bitwise")]


# Float inputs are Python floats, or ints for exact bit patterns (NaN payloads, extremes, exact results).
INF, NINF = math.inf, -math.inf
NAN32, NAN64 = CANONICAL_NAN[F32], CANONICAL_NAN[F64]
MAX32, MAX64 = 0x7f7fffff, 0x7fefffffffffffff
ORDER_WHY = "min and max: -0 < +0 either way; NaN (of any payload) in gives the canonical NaN"
SUM_WHY = ("inf + -inf and NaN payloads give the canonical NaN; -0 + -0 = -0, -0 + +0 = +0; ties to even;"
           " overflow to inf; subnormals kept; 0.1 + 0.2")
PROD_WHY = "inf * 0 = canonical NaN; signed zero; overflow to inf; subnormal results; ties to even at the bottom"
# (type, ops, a, b, one expected result per op, why): every allowed pair of table 5 appears once.
REDUCE = [
    (0, (BAND, BOR, BXOR), [0x0f, 0xff, 0xaa, 0x00], [0xf0, 0x0f, 0x55, 0xff],
     [[0x00, 0x0f, 0x00, 0x00], [0xff, 0xff, 0xff, 0xff], [0xff, 0xf0, 0xff, 0xff]], "bitwise on bytes"),
    *((etype, *case) for etype in (1, 2, 3, 4) for case in int_cases(etype)),
    (F32, (SUM,), [INF, 1.0, 0x7fc00001, -0.0, -0.0, 16777216.0, 16777218.0, MAX32, 1, 0.1, 0x7f800001, 0xffc00000],
     [NINF, 2.0, 1.0, -0.0, 0.0, 1.0, 1.0, MAX32, 1, 0.2, 1.0, INF],
     [[NAN32, 3.0, NAN32, -0.0, 0.0, 16777216.0, 16777220.0, INF, 2, 0x3e99999a, NAN32, NAN32]], SUM_WHY),
    (F32, (PROD,), [INF, -0.0, -2.0, MAX32, 0xffc00000, 0x00800000, 1.5, 1, 3, 3.0],
     [0.0, 5.0, INF, 2.0, 2.0, 0.5, 1.5, 0.5, 0.5, 0.1],
     [[NAN32, -0.0, NINF, INF, NAN32, 0x00400000, 2.25, 0, 2, 0x3e99999a]], PROD_WHY),
    (F32, (MIN, MAX), [-0.0, 0.0, 0x7fc00001, 1.0, NINF, 3.0, 0x7f800001, -1.0],
     [0.0, -0.0, 2.0, 0xffffffff, 5.0, INF, 1.0, -2.0],
     [[-0.0, -0.0, NAN32, NAN32, NINF, 3.0, NAN32, -2.0], [0.0, 0.0, NAN32, NAN32, 5.0, INF, NAN32, -1.0]],
     ORDER_WHY),
    (F64, (SUM,), [INF, 1.0, 0x7ff8000000000001, -0.0, -0.0, 2.0**53, 2.0**53 + 2, MAX64, 1, 0.1,
                   0x7ff0000000000001, 0xfff8000000000000],
     [NINF, 2.0, 1.0, -0.0, 0.0, 1.0, 1.0, MAX64, 1, 0.2, 1.0, INF],
     [[NAN64, 3.0, NAN64, -0.0, 0.0, 2.0**53, 2.0**53 + 4, INF, 2, 0x3fd3333333333334, NAN64, NAN64]], SUM_WHY),
    (F64, (PROD,), [INF, -0.0, -2.0, MAX64, 0xfff8000000000000, 0x0010000000000000, 1.5, 1, 3],
     [0.0, 5.0, INF, 2.0, 2.0, 0.5, 1.5, 0.5, 0.5],
     [[NAN64, -0.0, NINF, INF, NAN64, 0x0008000000000000, 2.25, 0, 2]], PROD_WHY),
    (F64, (MIN, MAX), [-0.0, 0.0, 0x7ff8000000000001, 1.0, NINF, 3.0, 0x7ff0000000000001, -1.0],
     [0.0, -0.0, 2.0, 0xffffffffffffffff, 5.0, INF, 1.0, -2.0],
     [[-0.0, -0.0, NAN64, NAN64, NINF, 3.0, NAN64, -2.0], [0.0, 0.0, NAN64, NAN64, 5.0, INF, NAN64, -1.0]],
     ORDER_WHY),
]
# Inputs of the refused pairs: any whole elements do.
REFUSED_INPUTS = {0: ([1, 2, 3], [4, 5, 6]), 5: ([1.0, -0.0], [2.0, 0.0]), 6: ([1.0, -0.0], [2.0, 0.0])}


def elements(etype, values):
    width = WIDTHS[etype]
    if etype in (F32, F64):
        return b"".join(struct.pack(FLOAT_FORMAT[etype], v) if isinstance(v, float) else v.to_bytes(width, "little")
                        for v in values)
    return b"".join((v & (1 << 8 * width) - 1).to_bytes(width, "little") for v in values)


def refusal_why(etype, op):
    if op in (0, 11):
        return f"operation {op} is refused"
    return {0: "bytes allow only band, bor and bxor", 5: "floats allow only sum, prod, min and max",
            6: "floats allow only sum, prod, min and max"}[etype]


def reduces():
    cases = {(t, op): (a, b, result, why) for t, ops, a, b, results, why in REDUCE for op, result in zip(ops, results)}
    out = []
    for etype, tname in enumerate(TYPE_NAMES):
        for op, oname in enumerate(OP_NAMES):
            a, b, result, why = cases.get((etype, op), (*REFUSED_INPUTS.get(etype, ([1, 2], [3, 4])), None, None))
            inputs = [("type", etype), ("op", op), ("a", elements(etype, a)), ("b", elements(etype, b))]
            if result is None:
                out.append(Record("reduce", f"reduce-{tname}-{oname}", refusal_why(etype, op), inputs, "H1618"))
                continue
            out.append(Record("reduce", f"reduce-{tname}-{oname}", why, inputs))
            if out[-1].derived.get("result") != elements(etype, result):
                raise AssertionError(f"{out[-1].name}: computed {out[-1].derived}, table says {result}")
    odd = [("reduce-type7-sum", "element type 7 does not exist", 7, bytes(4), bytes(4)),
           ("reduce-i32-sum-partial-element", "6 bytes are not whole i32 elements", 1, bytes(6), bytes(6)),
           ("reduce-i32-sum-length-mismatch", "contributions of different length", 1, bytes(8), bytes(4))]
    return out + [Record("reduce", name, why, [("type", t), ("op", SUM), ("a", a), ("b", b)], "H1618")
                  for name, why, t, a, b in odd]


def schedule(name, why, operation, size, data_length, etype=0, op=0, root=0):
    return Record("schedule", name, why, [("operation", operation), ("type", etype), ("op", op), ("size", size),
                                          ("root", root), ("data_length", data_length)])


def schedules():
    big = SEGMENTS_AT
    return [
        schedule("schedule-barrier-5", "barrier of 5 ranks: dissemination, rounds to rank + 1, + 2, + 4", MESH_BARRIER, 5, 0),
        schedule("schedule-barrier-2", "barrier of 2 ranks: one round", MESH_BARRIER, 2, 0),
        schedule("schedule-allreduce-small-6", "allreduce of 800 bytes f64 sum on 6 ranks: every contribution to"
                 " rank 0 (phase 0), the result down the binomial tree from rank 0 (phase 4)", MESH_ALLREDUCE, 6, 800,
                 F64, SUM),
        schedule("schedule-allreduce-segments-3", "allreduce of 65536 bytes f64 sum on 3 ranks: segments of"
                 " 2730, 2731 and 2731 elements to their owners (phase 2), folded segments to every rank (phase 3)",
                 MESH_ALLREDUCE, 3, big, F64, SUM),
        schedule("schedule-allreduce-segments-5-f32", "allreduce of 65548 bytes f32 prod on 5 ranks: segment"
                 " bounds in whole elements", MESH_ALLREDUCE, 5, big + 12, F32, PROD),
        schedule("schedule-reduce-small-4", "reduce of 64 bytes i32 max at root 2 of 4 ranks: the star's phase 0",
                 MESH_REDUCE, 4, 64, 1, MAX, 2),
        schedule("schedule-reduce-segments-4", "reduce of 65544 bytes i64 sum at root 3 of 4 ranks: segments to"
                 " owners (phase 2), folded segments to the root (phase 3)", MESH_REDUCE, 4, big + 8, 3, SUM, 3),
        schedule("schedule-bcast-small-4", "bcast of 100 bytes from root 1 of 4 ranks: the star's phase 1",
                 MESH_BCAST, 4, 100, root=1),
        schedule("schedule-bcast-pieces-4", "bcast of 65539 bytes from root 1 of 4 ranks: pieces of 21846, 21846"
                 " and 21847 bytes to ranks 0, 2, 3 (phase 6), each passed on to the other two (phase 7)",
                 MESH_BCAST, 4, big + 3, root=1),
        schedule("schedule-bcast-2", "bcast of 65536 bytes on 2 ranks: phase 1, pieces need 3 ranks", MESH_BCAST, 2, big),
    ]


def all_records():
    return frames() + headers() + files() + jobdescs() + reduces() + schedules()


FORMAT_HEAD = """\
SPERLI v1 test vectors, written by `scripts/sperli-vectors.py --write` and checked by its --check, which
recomputes every record from its inputs. Do not edit by hand: change the script and regenerate.
Layouts and rules: docs/sperli-protocol.md. All integers in the bytes are little endian.

FORMAT
Lines starting with '#' are comments. Records are separated by one blank line. Every other line is
"key: value" (an empty value is written "key:"); keys are [a-z0-9_]+ and unique within a record.
Each record starts with "kind: <kind>", then "name: <unique name>", then "why: <text for people>".
Integers are decimal. Byte strings are lower-case hex on one line (possibly very long, possibly empty).
Text values (kind, name, why, verdict, refuse, host, host_<i>_name, line) are ASCII.
verdict is "accept", "drop <n>" (read and discard the n payload bytes, nothing else happens) or
"refuse H<code>". Job id everywhere: 00112233445566778899aabbccddeeff.
Signatures are placeholders of 2484 bytes 0xaa (ML-DSA signs with randomness). Records with one give
signed_part, the exact message M CompositeSig signs; verdicts take the placeholder as valid.

Receiver context (frame, header, payload): ctx_job_id ctx_size ctx_own_rank ctx_peer_rank
ctx_incarnation: the receiver's job, job size, own rank, the rank authenticated on the connection,
and own incarnation.
Header fields (the 52-byte frame header): length type flags service membership_epoch job_id source target
incarnation tag epoch.
Payload fields by type, the fixed part in wire order, then the variable tail:
  1 HELLO: version features token_length token
  2 DATA: message
  3 COLLECTIVE: operation element_type reduce_op phase root sequence data
  4 HEARTBEAT: counter
  5 ABORT: reason code message_length message (the UTF-8 bytes)
  6 CKPT_BEGIN: version size
  7 CKPT_DATA: chunk_kind (the "kind" byte) reserved file_rank offset total chunk
  8 CKPT_ACK: sha256
  9 CKPT_COMMIT: commit (the COMMIT file)
  10 RESUME: status commit (empty without a COMMIT file)
  11 BYE: no fields

KINDS
frame: a whole valid frame: context, header fields, payload fields, bytes (header + payload), verdict.
header: 52 header bytes judged before any payload byte is read: context, header fields, bytes, verdict.
  length is the declared payload length; no payload is given.
payload: a frame whose header passes and whose payload is refused; fields as for frame.
rankfile: expect_job_id expect_epoch expect_rank expect_size (what the reader expects), magic version
  epoch job_id rank size state_length state_sha256 (the 80-byte header), state (every byte after
  the header), bytes (the whole file), verdict.
commit: expect_job_id expect_epoch expect_size, magic version epoch job_id size hash_0 .. hash_<size-1>
  sig_length signature, signed_part (bytes 0 .. 36 + 32 x size, context SPERLI-COMMIT-1), bytes,
  verdict.
token: job_id rank size incarnation expiry_ms host_length host sig_length signature, signed_part
  (the message, context SPERLI-JOIN-1), bytes (the whole token).
jobdesc: format_version job_id size rank incarnation silence_ms, host_<i>_port host_<i>_name for each
  rank i, ca_pem cert_pem key_pem (the PEM text bytes) token signing_key (empty: none) public_key,
  line (the standard-input line without its line feed), verdict. A record that shows a damaged
  line has line and verdict only; its line is text and may hold upper case or an odd count on purpose.
reduce: type (element type), op (reduce operation), a and b (the left and right arrays, elements
  least significant byte first), then result (a op b, element by element) or refuse (H1618).
schedule: a collective of a mesh job (feature bit 1, protocol 7.4.1): operation, type and op (0 for
  barrier and bcast), size, root, data_length (bytes of each contribution, or of the root's bcast
  data); then schedule (its name), bounds (segment or piece starts, then the data length; empty
  when none) and frames: every frame of the call as from>to:phase:length, the ranks in ascending
  order, each rank's in the order it sends them.

SCOPE OF THE VERDICTS
Frames arrive on an established connection: HELLO first, every other frame after it. HELLO verdicts
check the token's layout and its job id, rank (= header source), size and incarnation, not its host
(needs the host list), expiry (needs a clock) or signature. A COLLECTIVE's 16-byte header is matched
against the call separately (H1617). CKPT_DATA vectors are the first chunk of their file (offset 0).
COMMIT verdicts check layout, job id, epoch and size, not the hashes against the rank files.
A negative record breaks one rule, except where it shows which check comes first. Rank files are
checked: magic, version, job id, epoch, rank (H1619), size (H1623), file length (H1619), SHA-256 of
the bytes after the header (H1620).
jobdesc verdicts are structural: the PEM texts are short fixed examples that a full receiver
refuses when it parses them (H1616), and hosts are checked for syntax, not against the refused-host
policy (H1615). The public and signing keys are fixed pseudo-bytes.
Floats: sum and prod round to nearest even in the element's precision, min and max are NaN when
either operand is, -0.0 < +0.0, and every NaN produced is f32 7fc00000 / f64 7ff8000000000000.
"""


def write_text(records):
    head = "".join(f"# {line}".rstrip() + "\n" for line in FORMAT_HEAD.splitlines())
    return head + "\n" + "\n\n".join("\n".join(r.lines()) for r in records) + "\n"


# ---------------------------------------------------------------- --check

def parse(text):
    """Records as (first line number, {key: raw value}) and the format problems found."""
    records, problems, current = [], [], None
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("#"):
            continue
        if line == "":
            current = None
            continue
        key, sep, value = line.partition(":")
        if not sep or not key or not set(key) <= set("abcdefghijklmnopqrstuvwxyz0123456789_"):
            problems.append(f"line {number}: not 'key: value'")
            continue
        if current is None:
            current = (number, {})
            records.append(current)
        if key in current[1]:
            problems.append(f"line {number}: {key} twice in one record")
        current[1][key] = value[1:] if value.startswith(" ") else value
    return records, problems


def short(text, at):
    start = max(0, at - 8)
    return ("..." if start else "") + text[start:start + 40] + ("..." if len(text) > start + 40 else "")


def check_record(fields):
    """The differences between a parsed record and what its inputs give."""
    inputs = {k: convert(k, v) for k, v in fields.items()}
    derived = BUILD[fields["kind"]](inputs)
    problems = []
    for key, value in derived.items():
        if key.startswith("_"):
            continue
        computed = render(value)
        if key not in fields:
            problems.append(f"missing {key} (computed {short(computed, 0)})")
        elif fields[key] != computed:
            at = next((i for i, (x, y) in enumerate(zip(fields[key], computed)) if x != y),
                      min(len(fields[key]), len(computed)))
            reason = f" ({derived['_reason']})" if derived.get("_reason") else ""
            problems.append(f"{key} differs at character {at}: file {short(fields[key], at)},"
                            f" computed {short(computed, at)}{reason}")
    return problems


def check(path):
    try:
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 1
    expected = all_records()
    records, problems = parse(text)
    seen = {}
    for line, fields in records:
        name = fields.get("name", f"<record at line {line}>")
        if name in seen:
            problems.append(f"{name}: name used twice (lines {seen[name]} and {line})")
        seen[name] = line
        if fields.get("kind") not in BUILD:
            problems.append(f"{name}: unknown kind {fields.get('kind')!r}")
            continue
        try:
            problems += [f"{name}: {p}" for p in check_record(fields)]
        except (KeyError, ValueError, TypeError, struct.error, UnicodeError) as e:
            problems.append(f"{name}: cannot recompute: {type(e).__name__}: {e}")
    kinds = {fields.get("kind") for _, fields in records}
    problems += [f"missing kind {k}" for k in BUILD if k not in kinds]
    problems += [f"{r.name}: record missing" for r in expected if r.name not in seen]
    wanted = write_text(expected)
    if text != wanted:
        got_lines, want_lines = text.split("\n"), wanted.split("\n")
        at = next((i for i, (x, y) in enumerate(zip(got_lines, want_lines)) if x != y),
                  min(len(got_lines), len(want_lines)))
        problems.append(f"file differs from what --write produces, first at line {at + 1}")
    for p in problems:
        print(f"{path}: {p}", file=sys.stderr)
    if not problems:
        print(f"{path}: {len(records)} records, all recomputed and equal")
    return 1 if problems else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description="Write or check the SPERLI v1 test vectors (default: --check).")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="regenerate the vectors file deterministically")
    mode.add_argument("--check", action="store_true", help="recompute every record and compare (the default)")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE, metavar="PATH",
                        help=f"the vectors file (default: {DEFAULT_FILE.relative_to(DEFAULT_FILE.parents[1])})")
    args = parser.parse_args(argv)
    if args.write:
        records = all_records()
        args.file.parent.mkdir(parents=True, exist_ok=True)
        args.file.write_bytes(write_text(records).encode("ascii"))
        print(f"{args.file}: wrote {len(records)} records")
        return 0
    return check(args.file)


if __name__ == "__main__":
    sys.exit(main())
