"""What the Avro batch path cannot drop: for a writer schema with a union, every datum is written back and
compared with its bytes (fastavro takes a negative branch index as Python does; an overlong varint
decodes too). fastavro's read alone (the floor of ``bench.values``) against read + write back, the
same values. ``python -m bench.values_check``.
"""

import io
import tempfile
import time

import fastavro

from bench.values import _write

with tempfile.TemporaryDirectory() as root:
    values, parsed = _write(root, 50_000)
r = parsed[2]
bodies = [(v[5:], parsed[v[4]]) for v in values]


def floor():
    read = fastavro.schemaless_reader
    return [read(io.BytesIO(b), w, None if w is r else r) for b, w in bodies]


def checked():
    read, write, B = fastavro.schemaless_reader, fastavro.schemaless_writer, io.BytesIO
    out = []
    for b, w in bodies:
        d = read(B(b), w, None)
        o = B()
        write(o, w, d)
        assert o.getvalue() == b
        out.append(d)
    return out


best = {"floor": 9e9, "read+union check": 9e9}
for _ in range(3):
    for name, fn in (("floor", floor), ("read+union check", checked)):
        t = time.perf_counter()
        fn()
        best[name] = min(best[name], time.perf_counter() - t)
for k, v in best.items():
    print(f"{k:20s} {len(bodies) / v / 1e3:8.1f}k rec/s  {v / best['floor']:.2f}x floor")
