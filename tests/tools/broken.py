#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Make broken and hostile trace files from good ones, for tests/cli/0095-broken.sh.

    tests/tools/broken.py V6.dat V7-ZSTD.dat OUTDIR

V6.dat: an uncompressed little-endian version 6 trace (traces/overload-v6.dat);
V7-ZSTD.dat: a zstd-compressed version 7 trace (traces/overload.dat).  Writes
OUTDIR/NAME.dat for every fixture and prints one line per fixture: NAME EXPECT
WHAT, where EXPECT is 0 (a picture, maybe with a warning), 1 (one error line)
or any.
"""
import os
import struct
import sys


def v6_layout(d):
    """Offsets of a v6 file: header_page, formats, CPU count, flyrecord table, pages."""
    assert d[3:10] == b"tracing" and d[10:12] == b"6\0", "not a v6 trace"
    assert d[12] == 0, "big-endian v6 traces are not handled here"
    lay = {"long_size": d[13], "page_size_off": 14}
    lay["page_size"] = struct.unpack_from("<I", d, 14)[0]
    off = 18
    lay["header_page"] = off
    for tag in (b"header_page\0", b"header_event\0"):
        assert d[off:off + len(tag)] == tag
        off += len(tag)
        (n,) = struct.unpack_from("<Q", d, off)
        off += 8 + n
    lay["ftrace_formats"] = off
    (n,) = struct.unpack_from("<I", d, off)
    off += 4
    for _ in range(n):
        (sz,) = struct.unpack_from("<Q", d, off)
        off += 8 + sz
    lay["event_formats"] = off
    formats = {}
    (nsys,) = struct.unpack_from("<I", d, off)
    off += 4
    for _ in range(nsys):
        end = d.index(b"\0", off)
        sysname = d[off:end].decode()
        off = end + 1
        (n,) = struct.unpack_from("<I", d, off)
        off += 4
        for _ in range(n):
            (sz,) = struct.unpack_from("<Q", d, off)
            text = d[off + 8:off + 8 + sz]
            name = text.split(b"\n", 1)[0].split(b":", 1)[1].strip().decode()
            formats[(sysname, name)] = (off + 8, sz)
            off += 8 + sz
    lay["formats"] = formats
    lay["kallsyms"] = off
    (n,) = struct.unpack_from("<I", d, off)
    off += 4 + n
    lay["printk"] = off
    (n,) = struct.unpack_from("<I", d, off)
    off += 4 + n
    lay["cmdlines"] = off
    (n,) = struct.unpack_from("<Q", d, off)
    off += 8 + n
    lay["cpu_count_off"] = off
    (ncpus,) = struct.unpack_from("<I", d, off)
    lay["nr_cpus"] = ncpus
    off += 4
    tag = d[off:off + 10]
    if tag.startswith(b"options"):
        off += 10
        while True:
            (oid,) = struct.unpack_from("<H", d, off)
            off += 2
            if oid == 0:
                break
            (olen,) = struct.unpack_from("<I", d, off)
            off += 4 + olen
        tag = d[off:off + 10]
    assert tag == b"flyrecord\0", tag
    lay["flyrecord"] = off
    off += 10
    lay["cpu_table"] = off
    lay["cpus"] = [struct.unpack_from("<QQ", d, off + 16 * i) for i in range(ncpus)]
    return lay


def event_format(d, lay, name):
    """(id, {field: (offset, size)}) of a sched event's format."""
    off, sz = lay["formats"][("sched", name)]
    text = d[off:off + sz].decode()
    fields = {}
    eid = None
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("ID:"):
            eid = int(line[3:])
        if line.startswith("field:"):
            parts = dict(p.strip().split(":", 1) for p in line.split(";") if ":" in p)
            decl = parts["field"].split()[-1]
            fname = decl.split("[")[0]
            fields[fname] = (int(parts["offset"]), int(parts["size"]))
    return eid, fields


def records(d, lay, cpu):
    """Yield the file offset of every data record of a CPU (ring-buffer pages)."""
    off, size = lay["cpus"][cpu]
    ps = lay["page_size"]
    hdr = 8 + lay["long_size"]
    for page in range(off, off + size, ps):
        (commit,) = struct.unpack_from("<Q" if lay["long_size"] == 8 else "<I", d, page + 8)
        commit &= (1 << 27) - 1
        p = page + hdr
        end = p + commit
        while p < end:
            (h,) = struct.unpack_from("<I", d, p)
            type_len = h & 31
            if type_len == 29:		# padding
                (n,) = struct.unpack_from("<I", d, p + 4)
                p += 4 + n
            elif type_len in (30, 31):	# time extend / absolute timestamp
                p += 8
            elif type_len == 0:
                (n,) = struct.unpack_from("<I", d, p + 4)
                yield p + 8
                p += 4 + n
            else:
                yield p + 4
                p += 4 + 4 * type_len


def patch_records(d, lay, event, fn):
    """Call fn(buf, record_offset, fields) for every record of a sched event."""
    eid, fields = event_format(d, lay, event)
    n = 0
    for cpu in range(lay["nr_cpus"]):
        for r in records(d, lay, cpu):
            (t,) = struct.unpack_from("<H", d, r)
            if t == eid:
                fn(d, r, fields)
                n += 1
    return n


def rename_in_format(d, lay, event, old, new):
    """Same-length rename inside one event format (sizes stay right)."""
    assert len(old) == len(new)
    off, sz = lay["formats"][("sched", event)]
    text = bytes(d[off:off + sz])
    assert old in text, (event, old)
    d[off:off + sz] = text.replace(old, new)


# v7 option ids whose body starts with the file offset of a section
V7_SECTION_OPTIONS = (16, 17, 18, 19, 20, 21)	# header info .. cmdlines


def v7_layout(d):
    """Sections, options and per-CPU chunks of a little-endian v7 file.

    Keeps where every file offset is stored (the header's options offset,
    section options, buffer options and DONE links) and where every size
    covers, so v7_splice() can move the bytes behind a change.
    """
    assert d[3:10] == b"tracing" and d[10:12] == b"7\0", "not a v7 trace"
    assert d[12] == 0, "big-endian v7 traces are not handled here"
    off = 18
    for _ in range(2):			# compression name and version
        off = d.index(b"\0", off) + 1
    lay = {"pointers": [off], "sections": {}, "cpus": []}
    (opt,) = struct.unpack_from("<Q", d, off)
    off += 8
    while off < len(d):
        sid, flags, desc, size = struct.unpack_from("<HHIQ", d, off)
        lay["sections"].setdefault(sid, []).append((off, flags, size))
        off += 16 + size
    while opt:			# the chain of options sections
        sid, flags, desc, size = struct.unpack_from("<HHIQ", d, opt)
        assert sid == 0 and not flags & 1, "not an uncompressed options section"
        p, end, opt = opt + 16, opt + 16 + size, 0
        while p < end:
            oid, olen = struct.unpack_from("<HI", d, p)
            body = p + 6
            if oid == 0:
                lay.setdefault("done", p)	# where to insert an option
                lay["pointers"].append(body)
                (opt,) = struct.unpack_from("<Q", d, body)
                break
            if oid in V7_SECTION_OPTIONS:
                lay["pointers"].append(body)
            elif oid == 3:		# buffer: section, name, clock, page size, CPUs
                lay["pointers"].append(body)
                q = d.index(b"\0", body + 8) + 1
                q = d.index(b"\0", q) + 1
                (ncpus,) = struct.unpack_from("<I", d, q + 4)
                q += 8
                for _ in range(ncpus):
                    cpu, doff, dsize = struct.unpack_from("<IQQ", d, q)
                    lay["pointers"].append(q + 4)
                    chunks = []
                    if dsize:
                        (n,) = struct.unpack_from("<I", d, doff)
                        c = doff + 4
                        for _ in range(n):
                            zsize, rsize = struct.unpack_from("<II", d, c)
                            chunks.append((c, zsize, rsize))
                            c += 8 + zsize
                    lay["cpus"].append({"cpu": cpu, "entry": q, "offset": doff,
                                        "size": dsize, "chunks": chunks})
                    q += 20
            p += 6 + olen
    return lay


def v7_splice(d, lay, at, length, new):
    """Replace d[at:at + length] by new (no offset or size is stored in the
    bytes replaced); the sections, the CPU data and the offsets that hold or
    follow them grow or shrink with it."""
    delta = len(new) - length
    for p in lay["pointers"]:
        (v,) = struct.unpack_from("<Q", d, p)
        if v > at:
            struct.pack_into("<Q", d, p, v + delta)
    for secs in lay["sections"].values():
        for off, flags, size in secs:
            if off + 16 <= at < off + 16 + size:
                struct.pack_into("<Q", d, off + 8, size + delta)
    for c in lay["cpus"]:
        # the size leaves out the chunk count (trace-cmd before 3.2)
        if c["size"] and c["offset"] <= at < c["offset"] + c["size"] + 4:
            struct.pack_into("<Q", d, c["entry"] + 12, c["size"] + delta)
    d[at:at + length] = new


def zstd_zeros(n):
    """A zstd frame of n zero bytes, made by hand: no content size in its
    header (a reader learns how much it holds only by decompressing), a
    128 KiB window, then RLE blocks of up to 128 KiB, 4 bytes each, so 1 GiB
    takes 32 KiB."""
    block = 128 << 10
    frame = bytearray(b"\x28\xb5\x2f\xfd\x00\x38")	# magic, descriptor, window
    while n:
        k = min(n, block)
        n -= k
        # block header: size, type 1 (RLE), last-block flag; then the byte
        frame += struct.pack("<I", k << 3 | 1 << 1 | (n == 0))[:3] + b"\0"
    return bytes(frame)


def main():
    v6_path, v7_path, out = sys.argv[1:4]
    v6 = open(v6_path, "rb").read()
    v7 = open(v7_path, "rb").read()
    lay = v6_layout(v6)
    os.makedirs(out, exist_ok=True)
    made = []

    def put(name, data, expect, what):
        with open(os.path.join(out, name + ".dat"), "wb") as f:
            f.write(bytes(data))
        made.append("%s %s %s" % (name, expect, what))

    def edit(base, name, expect, what, fn):
        d = bytearray(base)
        fn(d)
        put(name, d, expect, what)

    # empty, zeros, magic, version
    put("zero-length", b"", 1, "an empty file")
    put("all-zero", bytes(65536), 1, "64 KiB of zero bytes")
    edit(v6, "wrong-magic", 1, "the magic number's first byte changed",
         lambda d: d.__setitem__(0, 0x18))
    edit(v6, "future-version", 1, "file version 9",
         lambda d: d.__setitem__(10, ord("9")))
    edit(v7, "future-version-v7", 1, "file version 8 on a v7 file",
         lambda d: d.__setitem__(10, ord("8")))

    # truncated at each section boundary, mid-page and one byte short
    cpu0_off = lay["cpus"][0][0]
    cuts = {
        "magic": 3,
        "header-page": lay["header_page"],
        "ftrace-formats": lay["ftrace_formats"],
        "event-formats": lay["event_formats"],
        "mid-format": lay["event_formats"] + 300,
        "kallsyms": lay["kallsyms"],
        "cmdlines": lay["cmdlines"],
        "cpu-count": lay["cpu_count_off"],
        "flyrecord": lay["flyrecord"],
        "cpu-table": lay["cpu_table"] + 8,
        "cpu0-data": cpu0_off,
        "mid-page": cpu0_off + lay["page_size"] // 2 + 3,
        "last-byte": len(v6) - 1,
    }
    for what, at in cuts.items():
        put("cut-" + what, v6[:at], 1, "v6 cut at %s (offset %d)" % (what, at))
    for frac in (0.3, 0.7):
        at = int(len(v7) * frac)
        put("cut-v7-%d" % int(frac * 100), v7[:at], 1, "v7 cut at %d%%" % int(frac * 100))

    # absurd page sizes and CPU counts
    for n, val in (("0", 0), ("2g", 1 << 31), ("odd", 4097)):
        edit(v6, "page-size-" + n, 1, "page size %d" % val,
             lambda d, val=val: struct.pack_into("<I", d, lay["page_size_off"], val))
    for n, val in (("0", 0), ("2g", 1 << 31)):
        edit(v6, "cpu-count-" + n, 1, "CPU count %d" % val,
             lambda d, val=val: struct.pack_into("<I", d, lay["cpu_count_off"], val))

    # CPU data offsets past the end, backwards, overlapping, sizes past the end
    t = lay["cpu_table"]
    edit(v6, "cpu-offset-past-end", 1, "CPU 0 data starts past the end",
         lambda d: struct.pack_into("<Q", d, t, len(v6) + 4096))
    edit(v6, "cpu-offset-backwards", 1, "CPU 1 data points back into the header",
         lambda d: struct.pack_into("<Q", d, t + 16, 0))
    edit(v6, "cpu-size-past-end", 1, "CPU 0 data size runs past the end",
         lambda d: struct.pack_into("<Q", d, t + 8, 1 << 40))
    edit(v6, "cpu-overlap", "any", "CPU 1 data is CPU 0's",
         lambda d: struct.pack_into("<QQ", d, t + 16, *lay["cpus"][0]))

    # compressed chunks that claim more than they hold (v7 zstd): rsize of
    # the first data chunk raised to the container's limit, and past it
    lay7 = v7_layout(v7)
    data_chunk = lay7["cpus"][0]["chunks"][0][0] + 8	# CPU 0's first zstd frame
    assert v7[data_chunk:data_chunk + 4] == b"\x28\xb5\x2f\xfd"
    for n, val in (("256m", (256 << 20)), ("4g", 0xffffffff), ("small", 16)):
        edit(v7, "zstd-claims-" + n, 1, "a zstd chunk claims %d bytes" % val,
             lambda d, val=val: struct.pack_into("<I", d, data_chunk - 4, val))
    edit(v7, "zstd-zsize-past-end", 1, "a zstd chunk's size runs past the end",
         lambda d: struct.pack_into("<I", d, data_chunk - 8, 0x7fffffff))
    edit(v7, "zstd-garbage", "any", "a zstd chunk's data overwritten",
         lambda d: d.__setitem__(slice(data_chunk + 4, data_chunk + 68), bytes(range(64))))

    # decompression bombs: real zstd frames of zeros that expand far past
    # what their headers claim, or claim it and so exceed the container's
    # limits (SP_CONTAINER_MAX_CHUNK 256 MiB, SP_CONTAINER_MAX_RATIO 1024,
    # SP_CONTAINER_MAX_DATA_CHUNK 4 MiB).
    # "-libtracecmd": the file has a ts-offset option, which hands the data
    # and the metadata to libtracecmd and its own decompression
    gib = zstd_zeros(1 << 30)

    def chunk_bomb(base, name, frame, claim, what):
        """CPU 0's first chunk replaced; claim None keeps its size."""
        bl = v7_layout(base)
        c, zsize, rsize = bl["cpus"][0]["chunks"][0]
        block = struct.pack("<II", len(frame), rsize if claim is None else claim) + frame
        edit(base, name, 1, "CPU 0's first zstd chunk " + what,
             lambda d: v7_splice(d, bl, c, 8 + zsize, block))

    def section_bomb(base, name, sid, claim, what):
        """A compressed metadata section's block replaced by gib."""
        bl = v7_layout(base)
        off, flags, size = bl["sections"][sid][0]
        assert flags & 1, "section %d is not compressed" % sid
        (rsize,) = struct.unpack_from("<I", base, off + 20)
        block = struct.pack("<II", len(gib), rsize if claim is None else claim) + gib
        edit(base, name, 1, what, lambda d: v7_splice(d, bl, off + 16, size, block))

    ts = bytearray(v7)
    v7_splice(ts, lay7, lay7["done"], 0, struct.pack("<HIq", 7, 8, 1000))
    for base, sfx, via in ((v7, "", ""), (bytes(ts), "-libtracecmd", ", via libtracecmd")):
        chunk_bomb(base, "zstd-bomb-chunk" + sfx, gib, None,
                   "expands to 1 GiB, claims its own size" + via)
        section_bomb(base, "zstd-bomb-formats" + sfx, 18, None,
                     "the event formats expand to 1 GiB, claim their own size" + via)
        section_bomb(base, "zstd-bomb-cmdlines" + sfx, 21, None,
                     "the cmdlines expand to 1 GiB, claim their own size" + via)
    chunk_bomb(v7, "zstd-bomb-chunk-claims-1g", gib, 1 << 30,
               "expands to 1 GiB and claims it (past the chunk limit)")
    chunk_bomb(v7, "zstd-bomb-chunk-claims-256m", zstd_zeros(256 << 20), 256 << 20,
               "expands to 256 MiB and claims it (a ratio of 32768)")
    # honest and within the ratio (a skippable frame pads the compressed
    # size): refused by the data chunk limit (SP_CONTAINER_MAX_DATA_CHUNK)
    pad = struct.pack("<II", 0x184D2A50, 96 << 10) + bytes(96 << 10)
    chunk_bomb(v7, "zstd-bomb-chunk-64m-in-ratio", zstd_zeros(64 << 20) + pad, 64 << 20,
               "expands to 64 MiB and claims it, at a ratio under 1024")
    section_bomb(v7, "zstd-bomb-formats-claims-1g", 18, 1 << 30,
                 "the event formats expand to 1 GiB and claim it")

    # event formats without the fields the views need
    edit(v6, "switch-no-next-pid", "any", "sched_switch without next_pid",
         lambda d: rename_in_format(d, lay, "sched_switch", b"next_pid", b"next_pxd"))
    edit(v6, "switch-no-prev-state", "any", "sched_switch without prev_state",
         lambda d: rename_in_format(d, lay, "sched_switch", b"prev_state", b"prev_statx"))
    edit(v6, "wakeup-no-pid", "any", "sched_wakeup without pid",
         lambda d: rename_in_format(d, lay, "sched_wakeup", b" pid;", b" pxd;"))
    edit(v6, "no-sched-switch", "any", "no sched_switch format (renamed)",
         lambda d: rename_in_format(d, lay, "sched_switch", b"name: sched_switch",
                                    b"name: sched_swotch"))

    # timestamps going backwards on one CPU: the second page starts before the first
    def backwards(d):
        off, size = lay["cpus"][0]
        ps = lay["page_size"]
        (ts0,) = struct.unpack_from("<Q", d, off)
        for page in range(off + ps, off + size, 2 * ps):
            struct.pack_into("<Q", d, page, max(ts0 - 10**9, 0))
    edit(v6, "time-backwards", 0, "CPU 0's timestamps go back by 1 s every other page",
         backwards)

    # huge pids and CPU numbers in the records
    def huge(d):
        def sw(d, r, f):
            for name, val in (("prev_pid", 0x7fffffff), ("next_pid", -2)):
                o, s = f[name]
                struct.pack_into("<i", d, r + o, val)
            struct.pack_into("<i", d, r + 4, 0x7fffffff)	# common_pid
        def wk(d, r, f):
            o, s = f["target_cpu"]
            struct.pack_into("<i", d, r + o, 0x7fffffff)
            o, s = f["pid"]
            struct.pack_into("<i", d, r + o, -0x80000000)
        n = patch_records(d, lay, "sched_switch", sw)
        n += patch_records(d, lay, "sched_wakeup", wk)
        assert n > 0
    edit(v6, "huge-pids-cpus", "any", "pids of 2^31-1, -2 and -2^31, target CPU 2^31-1", huge)

    def some_huge(d):
        k = [0]
        def sw(d, r, f):
            k[0] += 1
            if k[0] % 7 == 0:
                o, s = f["next_pid"]
                struct.pack_into("<i", d, r + o, 0x7ffffff0 + k[0] % 5)
        patch_records(d, lay, "sched_switch", sw)
    edit(v6, "some-huge-pids", 0, "every 7th switch to a pid near 2^31", some_huge)

    # comm strings with control characters, markup and invalid UTF-8
    nasty = [b"\x1b[31m<b>&\"'\xff\xfe\x01", b"]]><!--\x7f\xc3\x28\x0a\x0d\x09x",
             b"\xed\xa0\x80\xf4\x90\x80\x80<svg", b"%s%n%x\\\x00hidden"]

    def comms(d):
        k = [0]
        def sw(d, r, f):
            for name in ("prev_comm", "next_comm"):
                o, s = f[name]
                v = nasty[k[0] % len(nasty)][:s - 1]
                d[r + o:r + o + s] = v + bytes(s - len(v))
                k[0] += 1
        assert patch_records(d, lay, "sched_switch", sw) > 0
        # and the saved cmdlines: "pid comm" lines
        off = lay["cmdlines"]
        (n,) = struct.unpack_from("<Q", d, off)
        text = bytes(d[off + 8:off + 8 + n])
        lines = text.split(b"\n")
        for i in range(0, len(lines), 3):
            if b" " in lines[i]:
                pid, comm = lines[i].split(b" ", 1)
                bad = (b"\x1b<&\xff\x01" * 4)[:len(comm)]
                lines[i] = pid + b" " + bad
        d[off + 8:off + 8 + n] = b"\n".join(lines)
    edit(v6, "nasty-comms", 0, "comms with control characters, markup and invalid UTF-8",
         comms)

    for line in made:
        print(line)


if __name__ == "__main__":
    main()
