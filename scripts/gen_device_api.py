#!/usr/bin/env python3
"""Generates device/api_generated.hpp: every device RMA and point-to-point-sync binding, from
one table of types (OpenSHMEM 1.5 tables 5 and 10), operations and cooperation scopes.

Each binding is a one-line forward to the implementation in device/rma_core.hpp or
device/wait_core.hpp that names the call (for error messages). Nothing is written by hand per
type. Usage:  gen_device_api.py [--check] [OUTPUT]   (--check: exit 1 if OUTPUT is stale)
"""
import pathlib
import sys

# OpenSHMEM 1.5 Table 5 (standard RMA types), less long double (no GPU support).
RMA_TYPES = [
    ("float", "float"), ("double", "double"), ("char", "char"), ("schar", "signed char"),
    ("short", "short"), ("int", "int"), ("long", "long"), ("longlong", "long long"),
    ("uchar", "unsigned char"), ("ushort", "unsigned short"), ("uint", "unsigned int"),
    ("ulong", "unsigned long"), ("ulonglong", "unsigned long long"),
    ("int8", "std::int8_t"), ("int16", "std::int16_t"), ("int32", "std::int32_t"), ("int64", "std::int64_t"),
    ("uint8", "std::uint8_t"), ("uint16", "std::uint16_t"), ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"),
    ("size", "std::size_t"), ("ptrdiff", "std::ptrdiff_t"),
]

# OpenSHMEM 1.5 Table 10 (point-to-point synchronization types).
SYNC_TYPES = [
    ("short", "short"), ("int", "int"), ("long", "long"), ("longlong", "long long"),
    ("ushort", "unsigned short"), ("uint", "unsigned int"), ("ulong", "unsigned long"),
    ("ulonglong", "unsigned long long"), ("int32", "std::int32_t"), ("int64", "std::int64_t"),
    ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"), ("size", "std::size_t"),
    ("ptrdiff", "std::ptrdiff_t"),
]

SCOPES = [("", "coop::thread"), ("_wave", "coop::wave"), ("_wg", "coop::wg")]
LOC = "source_location loc = source_location::current()"

# Block RMA: (op, pointer types (dest, source) as format strings over T).
BLOCK_OPS = [("put", "{T}* dest, const {T}* source"), ("get", "{T}* dest, const {T}* source")]


def block_rma(name, T, op, elem_size, coop, template=""):
    args = BLOCK_OPS[0][1] if op == "put" else BLOCK_OPS[1][1]
    return (f"{template}GIO_DEVICE void {name}(const ctx& c, {args.format(T=T)}, std::size_t nelems, int pe, {LOC}) "
            f"{{ detail::{op}<{coop}>(c, dest, source, nelems, {elem_size}, pe, \"{name}\", loc); }}")


def rma_bindings():
    out = []
    for op, _ in BLOCK_OPS:
        for nbi in ("", "_nbi"):
            for suffix, coop in SCOPES:
                out.append(block_rma(f"shmem_{op}{nbi}{suffix}", "T", op, "sizeof(T)", coop, "template <class T> "))
                mem = block_rma(f"shmem_ctx_{op}mem{nbi}{suffix}", "void", op, "1", coop)
                out.append(mem)
                for tname, T in RMA_TYPES:
                    out.append(block_rma(f"shmem_ctx_{tname}_{op}{nbi}{suffix}", T, op, f"sizeof({T})", coop))
    out.append(f"template <class T> GIO_DEVICE void shmem_p(const ctx& c, T* dest, T value, int pe, {LOC}) "
               f"{{ detail::p(c, dest, value, pe, \"shmem_p\", loc); }}")
    out.append(f"template <class T> GIO_DEVICE T shmem_g(const ctx& c, const T* source, int pe, {LOC}) "
               f"{{ return detail::g(c, source, pe, \"shmem_g\", loc); }}")
    for tname, T in RMA_TYPES:
        out.append(f"GIO_DEVICE void shmem_ctx_{tname}_p(const ctx& c, {T}* dest, {T} value, int pe, {LOC}) "
                   f"{{ detail::p(c, dest, value, pe, \"shmem_ctx_{tname}_p\", loc); }}")
        out.append(f"GIO_DEVICE {T} shmem_ctx_{tname}_g(const ctx& c, const {T}* source, int pe, {LOC}) "
                   f"{{ return detail::g(c, source, pe, \"shmem_ctx_{tname}_g\", loc); }}")
    return out


# Point-to-point sync: (suffix, return type, parameters after ivar(s), arguments forwarded).
SYNC_OPS = [
    ("wait_until", "void", "{T}* ivar, int cmp, {T} value", "ivar, cmp, value"),
    ("test", "int", "{T}* ivar, int cmp, {T} value", "ivar, cmp, value"),
    ("wait_until_all", "void", "{T}* ivars, std::size_t nelems, const int* status, int cmp, {T} value",
     "ivars, nelems, status, cmp, value"),
    ("wait_until_any", "std::size_t", "{T}* ivars, std::size_t nelems, const int* status, int cmp, {T} value",
     "ivars, nelems, status, cmp, value"),
    ("wait_until_some", "std::size_t",
     "{T}* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp, {T} value",
     "ivars, nelems, indices, status, cmp, value"),
    ("test_all", "int", "{T}* ivars, std::size_t nelems, const int* status, int cmp, {T} value",
     "ivars, nelems, status, cmp, value"),
    ("test_any", "std::size_t", "{T}* ivars, std::size_t nelems, const int* status, int cmp, {T} value",
     "ivars, nelems, status, cmp, value"),
    ("test_some", "std::size_t",
     "{T}* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp, {T} value",
     "ivars, nelems, indices, status, cmp, value"),
]


def sync_bindings():
    out = []
    for op, ret, params, fwd in SYNC_OPS:
        ret_kw = "" if ret == "void" else "return "
        out.append(f"template <class T> GIO_DEVICE {ret} shmem_{op}(const ctx& c, {params.format(T='T')}, {LOC}) "
                   f"{{ {ret_kw}detail::{op}(c, {fwd}, \"shmem_{op}\", loc); }}")
        for tname, T in SYNC_TYPES:
            name = f"shmem_{tname}_{op}"
            out.append(f"GIO_DEVICE {ret} {name}(const ctx& c, {params.format(T=T)}, {LOC}) "
                       f"{{ {ret_kw}detail::{op}(c, {fwd}, \"{name}\", loc); }}")
    return out


def typed_structs():
    """One struct per table row holding that row's typed bindings under fixed member names
    (rma_int::put_wg forwards to shmem_ctx_int_put_wg), so that code iterating rma_types or
    sync_types reaches every typed name without spelling the type."""
    out = []
    for tname, T in RMA_TYPES:
        out.append(f"struct rma_{tname} {{")
        for op, args in BLOCK_OPS:
            for nbi in ("", "_nbi"):
                for suffix, _ in SCOPES:
                    out.append(f"  static GIO_DEVICE void {op}{nbi}{suffix}(const ctx& c, {args.format(T=T)}, std::size_t nelems, "
                               f"int pe, {LOC}) {{ shmem_ctx_{tname}_{op}{nbi}{suffix}(c, dest, source, nelems, pe, loc); }}")
        out.append(f"  static GIO_DEVICE void p(const ctx& c, {T}* dest, {T} value, int pe, {LOC}) "
                   f"{{ shmem_ctx_{tname}_p(c, dest, value, pe, loc); }}")
        out.append(f"  static GIO_DEVICE {T} g(const ctx& c, const {T}* source, int pe, {LOC}) "
                   f"{{ return shmem_ctx_{tname}_g(c, source, pe, loc); }}")
        out.append("};")
    for tname, T in SYNC_TYPES:
        out.append(f"struct sync_{tname} {{")
        for op, ret, params, fwd in SYNC_OPS:
            ret_kw = "" if ret == "void" else "return "
            out.append(f"  static GIO_DEVICE {ret} {op}(const ctx& c, {params.format(T=T)}, {LOC}) "
                       f"{{ {ret_kw}shmem_{tname}_{op}(c, {fwd}, loc); }}")
        out.append("};")
    return out


def type_lists():
    def entries(table, kind):
        return ",\n    ".join(f'type_entry<{T}, {kind}_{n}>{{"{n}"}}' for n, T in table)
    return [
        "// The tables above, for tests and benchmarks that iterate over every type: each entry has the",
        "// type, its name, and `typed`, the struct of its typed bindings.",
        *typed_structs(),
        "template <class T, class Typed> struct type_entry { const char* name; using type = T; using typed = Typed; };",
        f"inline constexpr auto rma_types = std::make_tuple(\n    {entries(RMA_TYPES, 'rma')});",
        f"inline constexpr auto sync_types = std::make_tuple(\n    {entries(SYNC_TYPES, 'sync')});",
    ]


def render():
    lines = [
        "// GENERATED by scripts/gen_device_api.py from its type/operation table. Do not edit:",
        "// change the table and run the script (a CPU test fails when this file is stale).",
        "// Contracts (who participates, what holds on return) are in gio/device.hpp.",
        "#pragma once",
        "#include <cstddef>",
        "#include <cstdint>",
        "#include <tuple>",
        "",
        '#include "gio/device/rma_core.hpp"',
        '#include "gio/device/wait_core.hpp"',
        "",
        "// clang-format off",
        "namespace gio {",
        "",
        *rma_bindings(),
        "",
        *sync_bindings(),
        "",
        "namespace types {",
        *type_lists(),
        "}  // namespace types",
        "",
        "}  // namespace gio",
        "// clang-format on",
        "",
    ]
    return "\n".join(lines)


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if not a.startswith("--")]
    out = pathlib.Path(paths[0]) if paths else pathlib.Path(__file__).resolve().parent.parent / "device/api_generated.hpp"
    text = render()
    if check:
        if not out.exists() or out.read_text() != text:
            print(f"{out} is stale: run scripts/gen_device_api.py", file=sys.stderr)
            return 1
        print(f"{out} is up to date")
        return 0
    out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
