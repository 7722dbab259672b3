#!/usr/bin/env python3
"""Registers of every function in a CUDA cubin, as ptxas allocated them (issue 25's register work).

    nvcc -std=c++17 -arch=sm_90 -O3 -rdc=true -I include -cubin k.cu -o k.cubin
    function_registers.py k.cubin [--top N]

Prints one line per function, most registers first: the count and the demangled name. In a
relocatable cubin (-rdc=true) every out-of-line function (gda's entries, a __noinline__ helper)
has a count of its own, which `-Xptxas -v` does not print, so this shows which function is the
heavy one. A whole-program kernel's count is not the largest of them: ptxas allocates a callee's
registers on top of what the caller holds live at the call (docs/results.md, "Build and
registers"). Needs no CUDA tool: it reads the EIATTR_REGCOUNT attributes of the .nv.info sections.
"""
import argparse
import shutil
import struct
import subprocess
import sys

EIATTR_REGCOUNT = 0x2F
EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 1, 2, 3, 4


def sections(elf):
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        raise ValueError("not a 64-bit ELF file (a cubin: nvcc -cubin, or cuobjdump -xelf)")
    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    entsize, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * entsize) for i in range(count)]
    names_offset = headers[names_index][4]

    def name(offset):
        start = names_offset + offset
        return elf[start:elf.index(b"\0", start)].decode()

    return [(name(h[0]), h) for h in headers]


def symbol_names(elf, secs):
    symtab = next(h for _, h in secs if h[1] == 2)  # SHT_SYMTAB
    strings = secs[symtab[6]][1][4]
    names = []
    for i in range(symtab[5] // 24):
        st_name = struct.unpack_from("<I", elf, symtab[4] + i * 24)[0]
        start = strings + st_name
        names.append(elf[start:elf.index(b"\0", start)].decode())
    return names


def register_counts(elf):
    secs = sections(elf)
    symbols = symbol_names(elf, secs)
    counts = {}
    for name, h in secs:
        if not name.startswith(".nv.info"):
            continue
        at, end = h[4], h[4] + h[5]
        while at < end:
            fmt, attr = elf[at], elf[at + 1]
            if fmt in (EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL):  # the value, if any, in the entry's 4 bytes
                at += 4
            elif fmt == EIFMT_SVAL:
                size = struct.unpack_from("<H", elf, at + 2)[0]
                if attr == EIATTR_REGCOUNT:
                    symbol, registers = struct.unpack_from("<II", elf, at + 4)
                    counts[symbols[symbol]] = registers
                at += 4 + size
            else:
                raise ValueError(f"unknown .nv.info format {fmt:#x} in {name}")
    return counts


def demangled(names):
    if not shutil.which("c++filt"):
        return list(names)
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cubin")
    parser.add_argument("--top", type=int, default=0, help="only the N heaviest functions")
    args = parser.parse_args()
    with open(args.cubin, "rb") as f:
        counts = register_counts(f.read())
    if not counts:
        print(f"{args.cubin}: no register counts (a fatbinary? extract the cubin with cuobjdump -xelf)", file=sys.stderr)
        return 1
    rows = sorted(zip(counts.values(), demangled(counts.keys())), key=lambda r: -r[0])
    for registers, name in rows[: args.top or None]:
        print(f"{registers:4d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
