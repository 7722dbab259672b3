#!/usr/bin/env python3
"""Generates every typed and generic binding of the API from one set of tables (OpenSHMEM 1.5
tables 5, 6-9, 10 and 11), operations and cooperation scopes:
  device/api_generated.hpp        device RMA, put_signal, AMO, point-to-point sync, team sync and
                                  collectives; each binding a one-line forward to the implementation
                                  (device/*_core.hpp) that names the call (for error messages);
  include/gio/host_generated.hpp  the host's typed RMA, atomics and collectives, forwarding to the
                                  type-erased entry points of gio/host.hpp;
  tests/gpu/api_types_generated.hpp  test-only: the type tables the GPU tests iterate over (kept out
                                  of the device API, which every user translation unit compiles).
Nothing is written by hand per type. Usage:  gen_device_api.py [--check]   (--check: exit 1 if
an output is stale)
"""
import pathlib
import re
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

# OpenSHMEM 1.5 Tables 6-9 (AMO types): standard (inc/add/compare_swap), extended (fetch/set/swap,
# adds float and double) and bitwise (and/or/xor).
STD_AMO_TYPES = [
    ("int", "int"), ("long", "long"), ("longlong", "long long"), ("uint", "unsigned int"), ("ulong", "unsigned long"),
    ("ulonglong", "unsigned long long"), ("int32", "std::int32_t"), ("int64", "std::int64_t"),
    ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"), ("size", "std::size_t"), ("ptrdiff", "std::ptrdiff_t"),
]
EXT_AMO_TYPES = [("float", "float"), ("double", "double")] + STD_AMO_TYPES
BIT_AMO_TYPES = [
    ("uint", "unsigned int"), ("ulong", "unsigned long"), ("ulonglong", "unsigned long long"),
    ("int32", "std::int32_t"), ("int64", "std::int64_t"), ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"),
]

# OpenSHMEM 1.5 Table 11 (reduction types), less complex and long double.
BIT_REDUCE_TYPES = [
    ("uchar", "unsigned char"), ("ushort", "unsigned short"), ("uint", "unsigned int"), ("ulong", "unsigned long"),
    ("ulonglong", "unsigned long long"), ("int8", "std::int8_t"), ("int16", "std::int16_t"),
    ("int32", "std::int32_t"), ("int64", "std::int64_t"), ("uint8", "std::uint8_t"), ("uint16", "std::uint16_t"),
    ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"), ("size", "std::size_t"),
]
ARITH_REDUCE_TYPES = [
    ("char", "char"), ("schar", "signed char"), ("short", "short"), ("int", "int"), ("long", "long"),
    ("longlong", "long long"), ("ptrdiff", "std::ptrdiff_t"), ("uchar", "unsigned char"),
    ("ushort", "unsigned short"), ("uint", "unsigned int"), ("ulong", "unsigned long"),
    ("ulonglong", "unsigned long long"), ("int8", "std::int8_t"), ("int16", "std::int16_t"),
    ("int32", "std::int32_t"), ("int64", "std::int64_t"), ("uint8", "std::uint8_t"), ("uint16", "std::uint16_t"),
    ("uint32", "std::uint32_t"), ("uint64", "std::uint64_t"), ("size", "std::size_t"), ("float", "float"),
    ("double", "double"),
]
REDUCE_OPS = [("and", "and_", BIT_REDUCE_TYPES), ("or", "or_", BIT_REDUCE_TYPES), ("xor", "xor_", BIT_REDUCE_TYPES),
              ("max", "max", ARITH_REDUCE_TYPES), ("min", "min", ARITH_REDUCE_TYPES),
              ("sum", "sum", ARITH_REDUCE_TYPES), ("prod", "prod", ARITH_REDUCE_TYPES)]

SCOPES = [("", "coop::thread"), ("_wave", "coop::wave"), ("_wg", "coop::wg")]
LOC = "source_location loc = source_location::current()"

# Block RMA: (op, pointer types (dest, source) as format strings over T).
BLOCK_OPS = [("put", "{T}* dest, const {T}* source"), ("get", "{T}* dest, const {T}* source")]


# _nbi forms complete by the next quiet, the others on return (rma_core.hpp, `completion`).
def completion(nbi):
    return "detail::completion::by_quiet" if nbi else "detail::completion::on_return"


def block_rma(name, T, op, elem_size, coop, nbi, template=""):
    args = BLOCK_OPS[0][1] if op == "put" else BLOCK_OPS[1][1]
    return (f"{template}GIO_DEVICE void {name}(const ctx& c, {args.format(T=T)}, std::size_t nelems, int pe, {LOC}) "
            f"{{ detail::{op}<{coop}>(c, dest, source, nelems, {elem_size}, pe, {completion(nbi)}, \"{name}\", loc); }}")


def rma_bindings():
    out = []
    for op, _ in BLOCK_OPS:
        for nbi in ("", "_nbi"):
            for suffix, coop in SCOPES:
                out.append(block_rma(f"shmem_{op}{nbi}{suffix}", "T", op, "sizeof(T)", coop, nbi, "template <class T> "))
                mem = block_rma(f"shmem_ctx_{op}mem{nbi}{suffix}", "void", op, "1", coop, nbi)
                out.append(mem)
                for tname, T in RMA_TYPES:
                    out.append(block_rma(f"shmem_ctx_{tname}_{op}{nbi}{suffix}", T, op, f"sizeof({T})", coop, nbi))
    # Strided: typed, generic and sized (shmem_ctx_iput8 ... 128: void*, element of bits / 8 bytes).
    strided = "{P}* dest, const {P}* source, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems, int pe"
    def strided_one(name, P, size, put, coop, template=""):
        return (f"{template}GIO_DEVICE void {name}(const ctx& c, {strided.format(P=P)}, {LOC}) "
                f"{{ detail::strided<{coop}>(c, {put}, dest, source, dst, sst, nelems, {size}, pe, \"{name}\", loc); }}")
    for op, put in (("iput", "true"), ("iget", "false")):
        for suffix, coop in SCOPES:
            out.append(strided_one(f"shmem_{op}{suffix}", "T", "sizeof(T)", put, coop, "template <class T> "))
            for tname, T in RMA_TYPES:
                out.append(strided_one(f"shmem_ctx_{tname}_{op}{suffix}", T, f"sizeof({T})", put, coop))
            for bits in (8, 16, 32, 64, 128):
                out.append(strided_one(f"shmem_ctx_{op}{bits}{suffix}", "void", str(bits // 8), put, coop))
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
    # The _vector forms compare element i with values[i].
    ("wait_until_all_vector", "void", "{T}* ivars, std::size_t nelems, const int* status, int cmp, const {T}* values",
     "ivars, nelems, status, cmp, values"),
    ("wait_until_any_vector", "std::size_t",
     "{T}* ivars, std::size_t nelems, const int* status, int cmp, const {T}* values", "ivars, nelems, status, cmp, values"),
    ("wait_until_some_vector", "std::size_t",
     "{T}* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp, const {T}* values",
     "ivars, nelems, indices, status, cmp, values"),
    ("test_all_vector", "int", "{T}* ivars, std::size_t nelems, const int* status, int cmp, const {T}* values",
     "ivars, nelems, status, cmp, values"),
    ("test_any_vector", "std::size_t", "{T}* ivars, std::size_t nelems, const int* status, int cmp, const {T}* values",
     "ivars, nelems, status, cmp, values"),
    ("test_some_vector", "std::size_t",
     "{T}* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp, const {T}* values",
     "ivars, nelems, indices, status, cmp, values"),
]


def sync_core(op, fwd, T):
    """The implementation a sync binding forwards to: wait_until/test directly; the array forms
    through wait_core.hpp's <form>_of with one comparison value or (the _vector forms) one each."""
    if op in ("wait_until", "test"):
        return op, fwd
    if op.endswith("_vector"):
        return op[: -len("_vector")] + "_of", fwd.replace("values", f"detail::value_per_element<{T}>{{values}}")
    return op + "_of", fwd.replace("value", f"detail::same_value<{T}>{{value}}")


def sync_bindings():
    out = []
    for op, ret, params, fwd in SYNC_OPS:
        ret_kw = "" if ret == "void" else "return "
        core, args = sync_core(op, fwd, "T")
        out.append(f"template <class T> GIO_DEVICE {ret} shmem_{op}(const ctx& c, {params.format(T='T')}, {LOC}) "
                   f"{{ {ret_kw}detail::{core}(c, {args}, \"shmem_{op}\", loc); }}")
        for tname, T in SYNC_TYPES:
            name = f"shmem_{tname}_{op}"
            core, args = sync_core(op, fwd, T)
            out.append(f"GIO_DEVICE {ret} {name}(const ctx& c, {params.format(T=T)}, {LOC}) "
                       f"{{ {ret_kw}detail::{core}(c, {args}, \"{name}\", loc); }}")
    return out


# put-with-signal: the block put's parameters plus the signal word, value and operation.
SIGNAL_ARGS = "std::uint64_t* sig_addr, std::uint64_t signal, int sig_op"


def put_signal(name, T, elem_size, coop, nbi, template=""):
    return (f"{template}GIO_DEVICE void {name}(const ctx& c, {T}* dest, const {T}* source, std::size_t nelems, "
            f"{SIGNAL_ARGS}, int pe, {LOC}) {{ detail::put_signal<{coop}>(c, dest, source, nelems, {elem_size}, "
            f"sig_addr, signal, sig_op, pe, {completion(nbi)}, \"{name}\", loc); }}")


def signal_bindings():
    out = []
    for nbi in ("", "_nbi"):
        for suffix, coop in SCOPES:
            out.append(put_signal(f"shmem_put_signal{nbi}{suffix}", "T", "sizeof(T)", coop, nbi, "template <class T> "))
            out.append(put_signal(f"shmem_ctx_putmem_signal{nbi}{suffix}", "void", "1", coop, nbi))
            for tname, T in RMA_TYPES:
                out.append(put_signal(f"shmem_ctx_{tname}_put_signal{nbi}{suffix}", T, f"sizeof({T})", coop, nbi))
    out.append(f"GIO_DEVICE void* shmem_ptr(const ctx& c, const void* dest, int pe, {LOC}) "
               f"{{ return detail::peer_pointer(c, dest, pe, \"shmem_ptr\", loc); }}")
    out.append(f"GIO_DEVICE void shmem_signal_op(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, "
               f"int pe, {LOC}) {{ detail::signal_op(c, sig_addr, signal, sig_op, pe, \"shmem_signal_op\", loc); }}")
    for name, op in (("set", "SHMEM_SIGNAL_SET"), ("add", "SHMEM_SIGNAL_ADD")):
        out.append(f"GIO_DEVICE void shmem_signal_{name}(const ctx& c, std::uint64_t* sig_addr, std::uint64_t signal, "
                   f"int pe, {LOC}) {{ detail::signal_op(c, sig_addr, signal, {op}, pe, \"shmem_signal_{name}\", loc); }}")
    out.append(f"GIO_DEVICE std::uint64_t shmem_signal_fetch(const ctx& c, const std::uint64_t* sig_addr, {LOC}) "
               f"{{ return detail::signal_fetch(c, sig_addr, \"shmem_signal_fetch\", loc); }}")
    out.append(f"GIO_DEVICE std::uint64_t shmem_signal_wait_until(const ctx& c, std::uint64_t* sig_addr, int cmp, "
               f"std::uint64_t value, {LOC}) {{ return detail::signal_wait_until(c, sig_addr, cmp, value, "
               f"\"shmem_signal_wait_until\", loc); }}")
    return out


# Atomics: (name, amo_op, type table, fetches, parameters, dest, value, cond) over T.
AMO_OPS = [
    ("fetch", "fetch", EXT_AMO_TYPES, True, "const {T}* source", "const_cast<{T}*>(source)", "static_cast<{T}>(0)", "static_cast<{T}>(0)"),
    ("set", "set", EXT_AMO_TYPES, False, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("swap", "swap", EXT_AMO_TYPES, True, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("compare_swap", "compare_swap", STD_AMO_TYPES, True, "{T}* dest, {T} cond, {T} value", "dest", "value", "cond"),
    ("fetch_inc", "fetch_inc", STD_AMO_TYPES, True, "{T}* dest", "dest", "static_cast<{T}>(1)", "static_cast<{T}>(0)"),
    ("inc", "inc", STD_AMO_TYPES, False, "{T}* dest", "dest", "static_cast<{T}>(1)", "static_cast<{T}>(0)"),
    ("fetch_add", "fetch_add", STD_AMO_TYPES, True, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("add", "add", STD_AMO_TYPES, False, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("fetch_and", "fetch_and", BIT_AMO_TYPES, True, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("and", "and_", BIT_AMO_TYPES, False, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("fetch_or", "fetch_or", BIT_AMO_TYPES, True, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("or", "or_", BIT_AMO_TYPES, False, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("fetch_xor", "fetch_xor", BIT_AMO_TYPES, True, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
    ("xor", "xor_", BIT_AMO_TYPES, False, "{T}* dest, {T} value", "dest", "value", "static_cast<{T}>(0)"),
]


def amo_binding(name, T, op, fetches, params, dest, value, cond, nbi, template=""):
    f = lambda x: x.format(T=T)
    call = f"detail::amo<{T}>(c, amo_op::{op}, {f(dest)}, {f(value)}, {f(cond)}, pe, \"{name}\", loc)"
    if nbi:
        return (f"{template}GIO_DEVICE void {name}(const ctx& c, {T}* fetch, {f(params)}, int pe, {LOC}) "
                f"{{ *fetch = {call}; }}")
    if fetches:
        return f"{template}GIO_DEVICE {T} {name}(const ctx& c, {f(params)}, int pe, {LOC}) {{ return {call}; }}"
    return f"{template}GIO_DEVICE void {name}(const ctx& c, {f(params)}, int pe, {LOC}) {{ {call}; }}"


def amo_forms(fetches):
    return ("", "_nbi") if fetches else ("",)


def amo_bindings():
    out = []
    for name, op, types, fetches, params, dest, value, cond in AMO_OPS:
        for nbi in amo_forms(fetches):
            out.append(amo_binding(f"shmem_atomic_{name}{nbi}", "T", op, fetches, params, dest, value, cond, nbi,
                                   "template <class T> "))
            for tname, T in types:
                out.append(amo_binding(f"shmem_ctx_{tname}_atomic_{name}{nbi}", T, op, fetches, params, dest, value,
                                       cond, nbi))
    return out


# Team synchronisation and collectives: (name, team parameter, core call, quiet).
SYNC_COLLECTIVES = [
    ("barrier_all", "", "SHMEM_TEAM_WORLD", "true"),
    ("sync_all", "", "SHMEM_TEAM_WORLD", "false"),
    ("team_sync", ", shmem_team_t team", "team", "false"),
    ("barrier", ", shmem_team_t team", "team", "true"),
]
# Data collectives: (name, extra parameters, core, arguments forwarded after the element size).
DATA_COLLECTIVES = [
    ("broadcast", ", int PE_root", "broadcast", "PE_root, "),
    ("fcollect", "", "fcollect", ""),
    ("alltoall", "", "alltoall", ""),
]
# On the device shmem_collect takes fcollect's arguments (the counts may differ per PE); the host's
# has its own path (host_collect_bindings), and so has shmem_alltoalls (strided blocks).
DEVICE_DATA_COLLECTIVES = DATA_COLLECTIVES + [("collect", "", "collect", "")]


def device_data_families():
    """(name, parameters after source, core, arguments after source with {size}) of every device
    data collective: the table's, then shmem_alltoalls."""
    out = [(name, f"std::size_t nelems{extra}", core, "nelems, {size}" + (", " + fwd.rstrip(", ") if fwd else ""))
           for name, extra, core, fwd in DEVICE_DATA_COLLECTIVES]
    out.append(("alltoalls", "std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems", "alltoalls",
                "dst, sst, nelems, {size}"))
    return out


def collective_bindings():
    out = []
    for suffix, coop in SCOPES:
        for name, team_param, team, quiet in SYNC_COLLECTIVES:
            out.append(f"GIO_DEVICE int shmem_{name}{suffix}(const ctx& c{team_param}, {LOC}) "
                       f"{{ detail::team_sync<{coop}>(c, {team}, {quiet}, \"shmem_{name}{suffix}\", loc); return 0; }}")
        for name, params, core, args in device_data_families():
            def one(fname, T, size, template=""):
                return (f"{template}GIO_DEVICE int {fname}(const ctx& c, shmem_team_t team, {T}* dest, const {T}* source, "
                        f"{params}, {LOC}) {{ detail::{core}<{coop}>(c, team, dest, source, {args.format(size=size)}, "
                        f"\"{fname}\", loc); return 0; }}")
            out.append(one(f"shmem_{name}{suffix}", "T", "sizeof(T)", "template <class T> "))
            out.append(one(f"shmem_{name}mem{suffix}", "void", "1"))
            for tname, T in RMA_TYPES:
                out.append(one(f"shmem_{tname}_{name}{suffix}", T, f"sizeof({T})"))
        for opname, op, types in REDUCE_OPS:
            def red(fname, T, template=""):
                return (f"{template}GIO_DEVICE int {fname}(const ctx& c, shmem_team_t team, {T}* dest, const {T}* source, "
                        f"std::size_t nreduce, {LOC}) {{ detail::reduce<{coop}>(c, team, reduce_op::{op}, dest, source, "
                        f"nreduce, \"{fname}\", loc); return 0; }}")
            out.append(red(f"shmem_{opname}_reduce{suffix}", "T", "template <class T> "))
            for tname, T in types:
                out.append(red(f"shmem_{tname}_{opname}_reduce{suffix}", T))
    return out


def amo_reduce_structs():
    """Typed structs for atomics and reductions, as for RMA: amo_<name> has the AMOs its type
    supports (flags say which groups), reduce_<name> the reductions."""
    out = []
    names = {}
    for tname, T in EXT_AMO_TYPES:
        std = any(n == tname for n, _ in STD_AMO_TYPES)
        bit = any(n == tname for n, _ in BIT_AMO_TYPES)
        out.append(f"struct amo_{tname} {{")
        out.append(f"  static constexpr bool standard = {str(std).lower()}, bitwise = {str(bit).lower()};")
        for name, op, types, fetches, params, dest, value, cond in AMO_OPS:
            if not any(n == tname for n, _ in types):
                continue
            member = name if name not in ("and", "or", "xor") else name + "_"
            for nbi in amo_forms(fetches):
                pr = params.format(T=T)
                args = ", ".join(a.split()[-1].lstrip("*") for a in pr.split(", "))
                ret = T if (fetches and not nbi) else "void"
                lead = f"{T}* fetch, " if nbi else ""
                fwd = ("fetch, " if nbi else "") + args
                rk = "return " if ret != "void" else ""
                out.append(f"  static GIO_DEVICE {ret} {member}{nbi}(const ctx& c, {lead}{pr}, int pe, {LOC}) "
                           f"{{ {rk}shmem_ctx_{tname}_atomic_{name}{nbi}(c, {fwd}, pe, loc); }}")
        out.append("};")
    all_reduce = []
    for n, T in ARITH_REDUCE_TYPES + BIT_REDUCE_TYPES:
        if n not in [a for a, _ in all_reduce]:
            all_reduce.append((n, T))
    for tname, T in all_reduce:
        bit = any(n == tname for n, _ in BIT_REDUCE_TYPES)
        arith = any(n == tname for n, _ in ARITH_REDUCE_TYPES)
        out.append(f"struct reduce_{tname} {{")
        out.append(f"  static constexpr bool arithmetic = {str(arith).lower()}, bitwise = {str(bit).lower()};")
        for opname, op, types in REDUCE_OPS:
            if not any(n == tname for n, _ in types):
                continue
            for suffix, _ in SCOPES:
                out.append(f"  static GIO_DEVICE int {opname}_reduce{suffix}(const ctx& c, shmem_team_t team, {T}* dest, "
                           f"const {T}* source, std::size_t nreduce, {LOC}) {{ return shmem_{tname}_{opname}_reduce{suffix}"
                           f"(c, team, dest, source, nreduce, loc); }}")
        out.append("};")
    return out, all_reduce


# --- host -------------------------------------------------------------------------------------

def generic_and_typed(make, stem, types):
    # The generic template (T deduced) and one typed form per type: shmem_<stem>, shmem_<type>_<stem>.
    return [make(f"shmem_{stem}", "T", "template <class T> ")] + [make(f"shmem_{tname}_{stem}", T) for tname, T in types]


def host_rma_bindings():
    # Host RMA on symmetric memory, typed and generic, over the byte forms of gio/host.hpp.
    forms = [
        ("put", "{T}* dest, const {T}* source, std::size_t nelems, int pe", "shmem_putmem{nbi}(dest, source, nelems * sizeof({T}), pe);", "void"),
        ("get", "{T}* dest, const {T}* source, std::size_t nelems, int pe", "shmem_getmem{nbi}(dest, source, nelems * sizeof({T}), pe);", "void"),
    ]
    out = []
    for name, params, body, ret in forms:
        for nbi in ("", "_nbi"):
            one = lambda fname, T, template="": (f"{template}inline {ret} {fname}({params.format(T=T)}) "
                                                 f"{{ {body.format(T=T, nbi=nbi)} }}")
            out += generic_and_typed(one, f"{name}{nbi}", RMA_TYPES)
    singles = [
        ("p", "{T}* dest, {T} value, int pe", "void", "shmem_putmem(dest, &value, sizeof({T}), pe);"),
        ("g", "const {T}* source, int pe", "{T}", "{T} value; shmem_getmem(&value, source, sizeof({T}), pe); return value;"),
    ]
    for name, params, ret, body in singles:
        one = lambda fname, T, template="": (f"{template}inline {ret.format(T=T)} {fname}({params.format(T=T)}) "
                                             f"{{ {body.format(T=T)} }}")
        out += generic_and_typed(one, name, RMA_TYPES)
    # Strided RMA over detail::host_strided: typed and generic, and the sized forms (void*, bits).
    strided = "{T}* dest, const {T}* source, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems, int pe"
    for name, put in (("iput", "true"), ("iget", "false")):
        one = lambda fname, T, template="": (f"{template}inline void {fname}({strided.format(T=T)}) "
                                             f"{{ detail::host_strided(\"{fname}\", {put}, dest, source, dst, sst, nelems, "
                                             f"sizeof({T}), pe); }}")
        out += generic_and_typed(one, name, RMA_TYPES)
        for bits in (8, 16, 32, 64, 128):
            fname = f"shmem_{name}{bits}"
            out.append(f"inline void {fname}({strided.format(T='void')}) {{ detail::host_strided(\"{fname}\", {put}, "
                       f"dest, source, dst, sst, nelems, {bits // 8}, pe); }}")
    return out


HOST_CALL = re.compile(r"^(template <class T> )?inline (.+?) (shmem_\w+)\((.*), int pe\) \{")


def host_ctx_forms(lines):
    # The context form of each host call that ends in `int pe` (OpenSHMEM 1.5 §9.5): the same call on
    # the context team's PE as a world PE (detail::ctx_world_pe). Typed and sized forms are named
    # shmem_ctx_<...>; generic ones keep their name and take the context first.
    out = []
    for line in lines:
        m = HOST_CALL.match(line)
        if not m:
            continue
        template, ret, name, params = m.groups()
        ctx_name = name if template else name.replace("shmem_", "shmem_ctx_", 1)
        args = ", ".join(p.split()[-1].lstrip("*") for p in params.split(", "))
        callee = f"{name}<T>" if template else name
        rk = "" if ret == "void" else "return "
        out.append(f"{template or ''}inline {ret} {ctx_name}(shmem_ctx_t ctx, {params}, int pe) "
                   f"{{ {rk}{callee}({args}, detail::ctx_world_pe(ctx, pe, \"{ctx_name}\")); }}")
    return out


def host_sync_bindings():
    # Host waits on this PE's symmetric words, over detail::host_wait.
    out = []
    for name, ret, once in (("wait_until", "void", "false"), ("test", "int", "true")):
        def one(fname, T, template=""):
            call = f"detail::host_wait(\"{fname}\", ivar, dtype_of<{T}>(), cmp, &value, {once})"
            body = f"{call};" if ret == "void" else f"return {call} ? 1 : 0;"
            return f"{template}inline {ret} {fname}({T}* ivar, int cmp, {T} value) {{ {body} }}"
        out += generic_and_typed(one, name, SYNC_TYPES)
    return out


def host_amo_bindings():
    out = ["namespace detail {",
           "template <class T> T host_amo(const char* call, amo_op op, T* dest, T value, T cond, int pe) {",
           "  T old{};",
           "  host_atomic(call, op, dtype_of<T>(), dest, &value, &cond, &old, pe);",
           "  return old;",
           "}",
           "}  // namespace detail"]
    for name, op, types, fetches, params, dest, value, cond in AMO_OPS:
        for nbi in amo_forms(fetches):
            def one(fname, T, template=""):
                f = lambda x: x.format(T=T)
                call = f"detail::host_amo<{T}>(\"{fname}\", amo_op::{op}, {f(dest)}, {f(value)}, {f(cond)}, pe)"
                if nbi:
                    return f"{template}inline void {fname}({T}* fetch, {f(params)}, int pe) {{ *fetch = {call}; }}"
                if fetches:
                    return f"{template}inline {T} {fname}({f(params)}, int pe) {{ return {call}; }}"
                return f"{template}inline void {fname}({f(params)}, int pe) {{ {call}; }}"
            out.append(one(f"shmem_atomic_{name}{nbi}", "T", "template <class T> "))
            for tname, T in types:
                out.append(one(f"shmem_{tname}_atomic_{name}{nbi}", T))
    return out


def host_collective_bindings():
    """Blocking and _on_stream forms of every host collective, forwarding to
    detail::host_collective: (name, count parameter, extra parameters, kind, count, dtype, op,
    root) per family, then the generic template and the typed names of its table."""
    families = []
    for name, extra, core, fwd in DATA_COLLECTIVES:
        families.append((name, "nelems", extra, name, "nelems * sizeof({T})", "dtype::u8", "sum",
                         "PE_root" if extra else "0", RMA_TYPES))
    for opname, op, types in REDUCE_OPS:
        families.append((f"{opname}_reduce", "nreduce", "", "reduce", "nreduce", "dtype_of<{T}>()", op, "0", types))
    out = []
    for name, count_param, extra, kind, count, dtype, op, root, types in families:
        for stream in ("", "_on_stream"):
            sp, sa = (", stream_t stream", "&stream") if stream else ("", "nullptr")
            ret, rk = ("void", "") if stream else ("int", "return ")
            def one(fname, T, template=""):
                return (f"{template}inline {ret} {fname}(shmem_team_t team, {T}* dest, const {T}* source, "
                        f"std::size_t {count_param}{extra}{sp}) {{ {rk}detail::host_collective(\"{fname}\", "
                        f"detail::collective_kind::{kind}, team, dest, source, {count.format(T=T)}, {dtype.format(T=T)}, "
                        f"reduce_op::{op}, {root}, {sa}); }}")
            out.append(one(f"shmem_{name}{stream}", "T", "template <class T> "))
            for tname, T in types:
                out.append(one(f"shmem_{tname}_{name}{stream}", T))
    return out


def host_collect_bindings():
    # shmem_collect (per-PE counts) and shmem_alltoalls (strided), over detail::host_collect /
    # host_alltoalls: the mem form (bytes), the generic template and the typed names.
    forms = [("collect", "std::size_t nelems", "detail::host_collect(\"{f}\", team, dest, source, nelems, {size})"),
             ("alltoalls", "std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems",
              "detail::host_alltoalls(\"{f}\", team, dest, source, dst, sst, nelems, {size})")]
    out = []
    for name, params, call in forms:
        def one(fname, T, template="", size=None):
            size = size or f"sizeof({T})"
            return (f"{template}inline int {fname}(shmem_team_t team, {T}* dest, const {T}* source, {params}) "
                    f"{{ return {call.format(f=fname, size=size)}; }}")
        out.append(one(f"shmem_{name}mem", "void", size="1"))
        out += generic_and_typed(one, name, RMA_TYPES)
    return out


def render_host():
    lines = [
        "// GENERATED by scripts/gen_device_api.py from its type/operation tables. Do not edit:",
        "// change the tables and run the script (a CPU test fails when this file is stale).",
        "// The host's typed RMA, waits, atomics and collectives; contracts in gio/host.hpp. Included by it.",
        "#pragma once",
        "#include <cstddef>",
        "#include <cstdint>",
        "",
        '#include "gio/host.hpp"',
        "",
        "// clang-format off",
        "namespace gio {",
        "",
        *host_rma_bindings(),
        "",
        *host_ctx_forms(host_rma_bindings()),
        "",
        *host_sync_bindings(),
        "",
        *host_amo_bindings(),
        "",
        *host_ctx_forms(host_amo_bindings()),
        "",
        *host_collective_bindings(),
        "",
        *host_collect_bindings(),
        "",
        "}  // namespace gio",
        "// clang-format on",
        "",
    ]
    return "\n".join(lines)


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
        for nbi in ("", "_nbi"):
            for suffix, _ in SCOPES:
                out.append(f"  static GIO_DEVICE void put_signal{nbi}{suffix}(const ctx& c, {T}* dest, const {T}* source, "
                           f"std::size_t nelems, {SIGNAL_ARGS}, int pe, {LOC}) {{ shmem_ctx_{tname}_put_signal{nbi}{suffix}"
                           f"(c, dest, source, nelems, sig_addr, signal, sig_op, pe, loc); }}")
        for name, extra, core, fwd in DEVICE_DATA_COLLECTIVES:
            args = "team, dest, source, nelems" + (", PE_root" if extra else "")
            for suffix, _ in SCOPES:
                out.append(f"  static GIO_DEVICE int {name}{suffix}(const ctx& c, shmem_team_t team, {T}* dest, const {T}* source, "
                           f"std::size_t nelems{extra}, {LOC}) {{ return shmem_{tname}_{name}{suffix}(c, {args}, loc); }}")
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
    amo_reduce, all_reduce = amo_reduce_structs()
    return [
        "// The device API's type tables, for tests that iterate over every type: each entry has the",
        "// type, its name, and `typed`, the struct of its typed bindings.",
        *typed_structs(),
        *amo_reduce,
        "template <class T, class Typed> struct type_entry { const char* name; using type = T; using typed = Typed; };",
        f"inline constexpr auto rma_types = std::make_tuple(\n    {entries(RMA_TYPES, 'rma')});",
        f"inline constexpr auto sync_types = std::make_tuple(\n    {entries(SYNC_TYPES, 'sync')});",
        f"inline constexpr auto amo_types = std::make_tuple(\n    {entries(EXT_AMO_TYPES, 'amo')});",
        f"inline constexpr auto reduce_types = std::make_tuple(\n    {entries(all_reduce, 'reduce')});",
    ]


def render():
    lines = [
        "// GENERATED by scripts/gen_device_api.py from its type/operation table. Do not edit:",
        "// change the table and run the script (a CPU test fails when this file is stale).",
        "// Contracts (who participates, what holds on return) are in gio/device.hpp.",
        "#pragma once",
        "#include <cstddef>",
        "#include <cstdint>",
        "",
        '#include "gio/device/amo_core.hpp"',
        '#include "gio/device/collectives.hpp"',
        '#include "gio/device/rma_core.hpp"',
        '#include "gio/device/signal_core.hpp"',
        '#include "gio/device/wait_core.hpp"',
        "",
        "// clang-format off",
        "namespace gio {",
        "",
        *rma_bindings(),
        "",
        *sync_bindings(),
        "",
        *signal_bindings(),
        "",
        *amo_bindings(),
        "",
        *collective_bindings(),
        "",
        "}  // namespace gio",
        "// clang-format on",
        "",
    ]
    return "\n".join(lines)


def render_types():
    lines = [
        "// GENERATED by scripts/gen_device_api.py from its type/operation table. Do not edit:",
        "// change the table and run the script (a CPU test fails when this file is stale).",
        "// Test-only: the GPU tests iterate over these tables; users' code never compiles them.",
        "#pragma once",
        "#include <cstddef>",
        "#include <tuple>",
        "",
        '#include "gio/device.hpp"',
        "",
        "// clang-format off",
        "namespace gio::types {",
        "",
        *type_lists(),
        "",
        "}  // namespace gio::types",
        "// clang-format on",
        "",
    ]
    return "\n".join(lines)


def main(argv):
    check = "--check" in argv
    root = pathlib.Path(__file__).resolve().parent.parent
    outputs = [(root / "device/api_generated.hpp", render()), (root / "include/gio/host_generated.hpp", render_host()),
               (root / "tests/gpu/api_types_generated.hpp", render_types())]
    stale = 0
    for out, text in outputs:
        if not check:
            out.write_text(text)
        elif not out.exists() or out.read_text() != text:
            print(f"{out} is stale: run scripts/gen_device_api.py", file=sys.stderr)
            stale = 1
        else:
            print(f"{out} is up to date")
    return stale


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
