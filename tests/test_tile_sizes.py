"""Cooperative-groups tile sizes written as names (kernelport/tile_sizes.py): `tiled_partition<TILE>(block)` with
`#define TILE 16`, `constexpr int kTile = 16;`, a namespace's constant, a template parameter bound at the launch
(`k<16><<<...>>>`) or by its default.  On main a tile's members ROCm 5.2 lacks (`meta_group_rank()`,
`meta_group_size()`) were KP210 at every named size, and a named size past the wave (`kTile = 64`) was written
silently (a vote's `1ull << 64`; gfx1030's static_assert): a name is now its value where the file's constants or
template calls decide it, the port writes the name as written (each template instance its own), a size past 32 is
KP210 at the tile, and a size nothing decides stays KP210 at the member (no width is guessed).  Each port is the
literal-size port with the name for its value; that one runs on the emulator at wave 32 and 64 against CUDA's tile
numbering, the macro form against the original too; hipcc compiles each for gfx90a and gfx1030."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import backends
from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

BODY = """\
__global__ void k(const int* x, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<SIZE> t = cg::tiled_partition<SIZE>(block);
  int v = x[block.thread_rank()];
  for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_down(v, o);
  if (t.thread_rank() == 0) { out[t.meta_group_rank()] = v; out[256 + t.meta_group_rank()] = t.meta_group_size(); }
}
"""
HEAD = "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
FORMS = {
    "macro": (HEAD + "#define TILE 16\n" + BODY.replace("SIZE", "TILE"), "TILE"),
    "constexpr": (HEAD + "constexpr int kTile = 16;\n" + BODY.replace("SIZE", "kTile"), "kTile"),
    "namespace": (HEAD + "namespace cfg { constexpr int tile = 16; }\n" + BODY.replace("SIZE", "cfg::tile"),
                  "cfg::tile"),
    "expression": (HEAD + "#define WARP 32\n" + BODY.replace("SIZE", "WARP / 2"), "WARP / 2"),
    "template": (HEAD + "template <int TILE>\n" + BODY.replace("SIZE", "TILE") +
                 "void run(const int* x, int* o) { k<16><<<1, 128>>>(x, o); }\n", "TILE"),
    "default": (HEAD + "template <int TILE = 16>\n" + BODY.replace("SIZE", "TILE") +
                "void run(const int* x, int* o) { k<><<<1, 128>>>(x, o); }\n", "TILE"),
}
LITERAL = HEAD + BODY.replace("SIZE", "16")


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")


def _cuda(x: np.ndarray, n: int, block: int) -> np.ndarray:
    """CUDA's tiles of n threads of one block: tile i's lane 0 holds its sum at out[i], the tile count at 256 + i."""
    out = np.zeros(512, np.int32)
    for i in range(block // n):
        out[i], out[256 + i] = x[i * n:(i + 1) * n].sum(), block // n
    return out


def _body(port_body: str, name: str) -> str:
    """The port's kernel, the name written as 16 (the literal port's text)."""
    kernel = port_body[port_body.index("__global__"):]
    kernel = kernel.split("\nvoid run(")[0]
    return kernel.replace(f"({name})", "16").replace(name, "16").strip()


def test_the_literal_port_computes_cudas_tiles_at_wave_32_and_64():
    port, text = _port(LITERAL)
    assert port.ok, [d.format() for d in port.diagnostics]
    x = np.random.default_rng(5).integers(0, 9, 512).astype(np.int32)
    for wave in (32, 64):
        got = run_kernel(text, "k", args={"x": x, "out": np.zeros(512, np.int32)}, grid=(1, 1, 1),
                         block=(128, 1, 1), wave=wave, backend="hip").outputs["out"]
        assert np.array_equal(got, _cuda(x, 16, 128)), (wave, got[:10])


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_named_size_ports_as_the_literal_does(form):
    """Main: KP210 at `t.meta_group_rank()` (ROCm 5.2 lacks it; its formula needs the size's value)."""
    text, name = FORMS[form]
    port, _ = _port(text)
    assert port.ok, (form, [d.format() for d in port.diagnostics])
    assert "meta_group_rank" not in port.body and "meta_group_size" not in port.body
    lit, _ = _port(LITERAL)
    assert _body(port.body, name) == _body(lit.body, "16"), (form, port.body)


def test_the_macro_form_runs_against_the_original_at_wave_32_and_64():
    text, _ = FORMS["macro"]
    port, ported = _port(text)
    x = np.random.default_rng(7).integers(0, 9, 512).astype(np.int32)
    want = run_kernel(text, "k", args={"x": x, "out": np.zeros(512, np.int32)}, grid=(1, 1, 1), block=(128, 1, 1),
                      wave=32).outputs["out"]
    assert np.array_equal(want, _cuda(x, 16, 128))
    for wave in (32, 64):
        got = run_kernel(ported, "k", args={"x": x, "out": np.zeros(512, np.int32)}, grid=(1, 1, 1),
                         block=(128, 1, 1), wave=wave, backend="hip").outputs["out"]
        assert np.array_equal(got, want), wave


@pytest.mark.parametrize("text", [
    HEAD + "constexpr int kTile = 64;\n" + BODY.replace("SIZE", "kTile").replace(
        "out[256 + t.meta_group_rank()] = t.meta_group_size();", ""),
    HEAD + "template <int TILE>\n" + BODY.replace("SIZE", "TILE") +
    "void run(const int* x, int* o) { k<16><<<1, 128>>>(x, o); k<64><<<1, 128>>>(x, o); }\n",
    HEAD + "#define TILE (2 * 32)\n" + BODY.replace("SIZE", "TILE"),
])
def test_a_named_size_past_the_wave_is_kp210_at_the_tile(text):
    """Main wrote the first silently (a tile of 64: gfx1030's static_assert, a vote's `1ull << 64`)."""
    port, _ = _port(text)
    hits = [d for d in port.diagnostics if d.code == "KP210" and "a tile of 64 threads" in d.message]
    assert not port.ok and hits and all(d.line == 6 for d in hits), [d.format() for d in port.diagnostics]
    assert "what its size's name comes to here" in hits[0].message


@pytest.mark.parametrize("text", [
    HEAD + '#include "tile_config.h"\n' + BODY.replace("SIZE", "kTile"),  # a header the run does not have
    HEAD + "int kTile = 16;\n" + BODY.replace("SIZE", "kTile"),  # no constant (nvcc refuses it too)
    HEAD + "namespace a { constexpr int w = 8; }\nnamespace b { constexpr int w = 16; }\n" +
    BODY.replace("SIZE", "b::w"),  # two `w`s: which one is not read
])
def test_a_size_nothing_decides_stays_kp210_at_the_member(text):
    port, _ = _port(text)
    assert not port.ok and {d.line for d in port.diagnostics if d.code == "KP210"} == {text.count("\n", 0, text.index(
        "if (t.thread_rank()")) + 1}, [d.format() for d in port.diagnostics]


def test_hipcc_compiles_the_named_ports(tmp_path):
    require_tool("hipcc")
    for form, (text, _) in sorted(FORMS.items()):
        port, out = _port(text)
        path = tmp_path / f"{form}.hip"
        path.write_text(out)
        # gfx90a (wave 64) and gfx1030 (wave 32)
        assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))


def test_a_class_template_bound_through_another_alias_with_a_named_size_is_the_waves_ballot():
    """kernelport/tile_bindings.py read a class template's argument through `cg::`/`cooperative_groups::` only: a
    tile named `grp::thread_block_tile<W>` (another alias of the namespace) was a type that is no group, and the
    vote KP210, on main."""
    from test_tile_bindings import MEMBER
    kernel = MEMBER[MEMBER.index("__global__"):]
    text = MEMBER[:MEMBER.index("template <typename tile_type>\n__device__ unsigned find")].replace(
        "namespace cg = cooperative_groups;", "namespace grp = cooperative_groups;\nconstexpr int W = 16;") + \
        kernel.replace("cg::", "grp::").replace("<16>", "<W>").replace(
            "out[i] = find(tile, ", "node<int, grp::thread_block_tile<W>, 16> n(tile);\n  out[i] = n.match(")
    port, _ = _port(text)
    assert port.ok and ".ballot(" not in port.body, ([d.format() for d in port.diagnostics], text)


def test_a_template_typed_tile_bound_to_a_named_size_past_the_wave_is_kp210_at_the_vote():
    """The binding's size read through its name: 64 is past every tile a wave-32 arch takes (and the vote's
    shift would be `1ull << 64`): KP210 at the vote names `thread_block_tile<64>`, beside cg_names' KP210."""
    from test_tile_bindings import FUNCTION
    text = FUNCTION.replace("namespace cg = cooperative_groups;", "namespace cg = cooperative_groups;\n"
                            "constexpr int W = 64;").replace("<16>", "<W>")
    port, _ = _port(text)
    votes = [d for d in port.diagnostics if d.code == "KP210" and "thread_block_tile<64>" in d.message]
    assert not port.ok and votes and votes[0].line == 7, [d.format() for d in port.diagnostics]
