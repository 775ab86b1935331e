"""Sizes host code only knows when it runs (argv, a file, an option, a parameter no call gives):
inference chooses them, one value per name wherever it is used, small enough for the emulator,
and says what it chose (issue 18); index buffers get in-range contents."""
from __future__ import annotations

import re

from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile


def _infer(text: str, kernel: str):
    return infer(build(SourceFile.from_text(text, "k.cu")), kernel)


STENCIL = """
__global__ void blur(const float* in, float* out, int nx, int ny) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < nx && y < ny) out[y * nx + x] = 0.5f * in[y * nx + x];
}
int main(int argc, char** argv) {
    int nx = atoi(argv[1]);
    int ny = atoi(argv[2]);
    int t = atoi(argv[3]);
    size_t bytes = (size_t)nx * ny * sizeof(float);
    float *a, *b;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    dim3 block(t, t);
    dim3 grid((nx + t - 1) / t, (ny + t - 1) / t);
    blur<<<grid, block>>>(a, b, nx, ny);
}
"""


def test_one_choice_per_name_agrees_across_buffers_scalars_and_grid():
    got = _infer(STENCIL, "blur")
    assert isinstance(got, Inferred), got
    s = got.spec
    nx, ny = s.scalar_values()["nx"], s.scalar_values()["ny"]
    bx, by, _ = s.dims("block")
    assert s.length("in") == s.length("out") == nx * ny  # the buffers, the scalars...
    assert s.dims("grid")[:2] == (-(-nx // bx), -(-ny // by))  # ...and the grid read one nx and one ny
    assert nx * ny <= 1 << 16 and set(got.chosen) == {"nx", "ny", "t"}
    # The block's side was chosen small, then halved until the block holds at most 1024 threads.
    assert bx == by and bx * by <= 1024 and bx * by * 4 > 1024
    text = "\n".join(got.inferred)
    assert f"nx = {nx} chosen ('atoi(argv[1])' is computed when the program runs; chose 1024, scaled down" in text
    assert f"t = {bx} chosen ('atoi(argv[3])' is computed when the program runs; pass --arg t=VALUE" in text


def test_a_chosen_size_the_command_line_gives_is_not_chosen():
    from kernelport.infer_inputs import CommandLine
    got = infer(build(SourceFile.from_text(STENCIL, "k.cu")), "blur", given=CommandLine.parse(["nx=40", "t=8"]))
    assert isinstance(got, Inferred), got
    assert got.spec.scalar_values()["nx"] == 40 and got.spec.dims("block") == (8, 8, 1)
    assert set(got.chosen) == {"ny"}


SCALED = """
#define N (1 << 24)
__global__ void add(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] += a[i];
}
int main() {
    float *a, *b;
    cudaMalloc(&a, N * sizeof(float));
    cudaMalloc(&b, N * sizeof(float));
    cudaMemcpy(b, a, N * sizeof(float), cudaMemcpyHostToDevice);
    add<<<N / 256, 256>>>(a, b, N);
}
"""


def test_a_too_large_constant_expression_size_is_scaled_and_said():
    got = _infer(SCALED, "add")
    assert isinstance(got, Inferred), got
    n = got.spec.scalar_values()["n"]
    assert n <= 1 << 16 and got.spec.length("a") == got.spec.length("b") == n and got.spec.dims("grid")[0] == n // 256
    assert any(line.startswith(f"N = {1 << 24} scaled down to {n}") for line in got.inferred), got.inferred
    # The same size read by the kernel itself: scaled too, the macro redefined for every run.
    got = _infer(SCALED.replace("if (i < n)", "if (i < N)"), "add")
    assert isinstance(got, Inferred) and got.redefine == {"N": str(got.spec.scalar_values()["n"])}, got
    # As a file-scope variable the kernel reads it cannot be: not run, with the reason.
    got = _infer(SCALED.replace("#define N (1 << 24)", "const int N = 1 << 24;").replace("if (i < n)", "if (i < N)"),
                 "add")
    assert isinstance(got, NotRun) and "needs smaller sizes" in got.reason


def test_a_free_value_that_is_not_an_integer_variable_is_not_chosen():
    # nx comes from a field of a struct the run fills, a struct no file declares: its field's type is
    # unknown, so no size to choose; the hint names the field, which --arg can give.
    text = STENCIL.replace("int nx = atoi(argv[1]);", "Config cfg;\n    load(&cfg);\n    int nx = cfg.width;")
    got = _infer(text, "blur")
    assert isinstance(got, NotRun) and "needs sizes" in got.reason and "'cfg.width'" in got.reason
    assert got.hint == "pass it: --arg cfg.width=VALUE" and not any(n.startswith("cfg") for n in got.chosen)
    from kernelport.infer_inputs import CommandLine
    got = infer(build(SourceFile.from_text(text, "k.cu")), "blur", given=CommandLine.parse(["cfg.width=48"]))
    assert isinstance(got, Inferred) and got.spec.scalar_values()["nx"] == 48, got


def test_a_dim3_declared_from_variables_keeps_its_components():
    # `dim3 block(t, t)` parses as a function declaration; its "parameters" are the components.
    got = _infer(STENCIL.replace("int t = atoi(argv[3]);", "int t = 16;"), "blur")
    assert isinstance(got, Inferred) and got.spec.dims("block") == (16, 16, 1), got


CSR = """
__global__ void spmv(int rows, const int* ptr, const int* col, const float* val, const float* x, float* y) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int j = ptr[r]; j < ptr[r + 1]; ++j) s += val[j] * x[col[j]];
        y[r] = s;
    }
}
int main() {
    FILE* f = fopen("matrix.txt", "r");
    int rows, nnz;
    fscanf(f, "%d %d", &rows, &nnz);
    int *hp = (int*)malloc((rows + 1) * sizeof(int)), *hc = (int*)malloc(nnz * sizeof(int));
    float* hv = (float*)malloc(nnz * sizeof(float));
    fread(hp, sizeof(int), rows + 1, f); fread(hc, sizeof(int), nnz, f); fread(hv, sizeof(float), nnz, f);
    int *p, *c; float *v, *x, *y;
    cudaMalloc(&p, (rows + 1) * sizeof(int)); cudaMalloc(&c, nnz * sizeof(int));
    cudaMalloc(&v, nnz * sizeof(float)); cudaMalloc(&x, rows * sizeof(float)); cudaMalloc(&y, rows * sizeof(float));
    cudaMemcpy(p, hp, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(c, hc, nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(v, hv, nnz * sizeof(float), cudaMemcpyHostToDevice);
    spmv<<<(rows + 127) / 128, 128>>>(rows, p, c, v, x, y);
}
"""


def test_index_buffers_read_from_a_file_get_contents_in_range():
    got = _infer(CSR, "spmv")
    assert isinstance(got, Inferred), got
    s = got.spec
    rows, nnz = s.scalar_values()["rows"], s.length("val")
    assert s.length("ptr") == rows + 1 and s.length("col") == nnz and set(got.chosen) == {"rows", "nnz"}
    # Row pointers: read at [r] and [r + 1], so they grow, and end within val and col.
    g = s.args["ptr"].generator
    assert g.kind == "monotone" and (g.params[1] - 1) * rows <= nnz
    # Columns index x: integers below its length.
    assert (s.args["col"].generator.kind, s.args["col"].generator.params) == ("integers", (0, s.length("x")))
    assert any(line.startswith("col: integers(0, ") and "it indexes x" in line for line in got.inferred)
    # Plain integer data (never a subscript) keeps the small default.
    plain = _infer(CSR.replace("x[col[j]]", "x[r] * col[j]"), "spmv")
    assert isinstance(plain, Inferred) and plain.spec.args["col"].generator.params == (0, 8)


def test_the_index_use_reader_follows_locals_and_ignores_look_alikes():
    from kernelport.index_buffers import index_uses
    text = """
__global__ void g(const int* perm, const int* cnt, const float* a, float* out, int n) {
    int i = threadIdx.x;
    int k = perm[i];      // k carries perm's element
    int m = k + 1;        // and m carries it on
    out[i] = a[m] * cnt[i];  /* cnt[i] is data: it is never inside a subscript */
    out[i] += a[perm[n - 1]];
}
"""
    m = build(SourceFile.from_text(text, "k.cu"))
    uses = index_uses(m.functions["g"], m.source.text_of)
    assert set(uses) == {"perm"} and uses["perm"].targets == {"a"} and not uses["perm"].pairs


def test_an_index_multiplied_by_a_row_length_stays_below_the_row_count():
    # llm.c's encoder_backward: `int ix = inp[i]; dwte[ix * C + c]`: ix selects one of V rows of C
    text = """
__global__ void rows(float* dw, const int* inp, const int* sel, const float* g, int n, int C) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int ix = inp[i];
    for (int c = 0; c < C; c++) dw[ix * C + c] += g[c] + dw[4 * sel[i]];
}
void run() {
    float *dw, *g; int *inp, *sel;
    cudaMalloc(&dw, 1000 * 64 * sizeof(float)); cudaMalloc(&g, 64 * sizeof(float));
    cudaMalloc(&inp, 256 * sizeof(int)); cudaMalloc(&sel, 256 * sizeof(int));
    rows<<<1, 256>>>(dw, inp, sel, g, 256, 64);
}
"""
    got = _infer(text, "rows")
    assert isinstance(got, Inferred), got
    assert got.spec.args["inp"].generator.params == (0, 1000)  # rows of C = 64
    assert got.spec.args["sel"].generator.params == (0, 16000)  # 4 * sel[i]: a literal factor
    plain = _infer(text.replace("ix * C + c", "ix + c"), "rows")  # no factor: the buffer's length
    assert isinstance(plain, Inferred) and plain.spec.args["inp"].generator.params == (0, 64000)


def test_the_original_faulting_on_chosen_inputs_is_not_run_never_failed(tmp_path):
    from trust_support import kp_inproc
    f = tmp_path / "gather.cu"
    # idx + n indexes past x whatever in-range idx holds: the original itself faults.
    f.write_text("""
__global__ void gather(const int* idx, const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[idx[i] + n];
}
int main(int argc, char** argv) {
    int n = atoi(argv[1]);
    int *d_idx; float *d_x, *d_out;
    cudaMalloc(&d_idx, n * sizeof(int)); cudaMalloc(&d_x, n * sizeof(float)); cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_idx, 0, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, 0, n * sizeof(float), cudaMemcpyHostToDevice);
    gather<<<(n + 255) / 256, 256>>>(d_idx, d_x, d_out, n);
}
""")
    import json
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"]
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert len(oracle) == 1 and oracle[0]["status"] == "skip", oracle
    assert oracle[0]["detail"].startswith("not run: the original faults at wave 32 on chosen inputs (")
    assert "hint: pass other values: --arg n=VALUE" in oracle[0]["detail"]
    assert not [c for c in checks if c["status"] == "fail"]
    # Without the scaling the gather is in range, and it runs: every port against the original.
    f.write_text(f.read_text().replace("idx[i] + n", "idx[i]"))
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"]
    assert rc == 0 and [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], out + err


MEMBER = """
typedef unsigned char uchar;
#define HALO 1 // halo width: a comment after the value
struct Engine { int m_threads; void run(uchar* d, int n); };
__global__ void shift(uchar* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = d[i] + HALO;
}
void Engine::run(uchar* d, int n) {
    cudaMalloc(&d, n * sizeof(uchar));
    cudaMemcpy(d, 0, n * sizeof(uchar), cudaMemcpyHostToDevice);
    shift<<<(n + m_threads - 1) / m_threads, m_threads>>>(d, n + HALO - 1);
}
"""


def test_a_member_size_is_chosen_a_typedef_buffer_is_its_type_and_a_macro_comment_is_no_value():
    got = _infer(MEMBER, "shift")
    assert isinstance(got, Inferred), got
    s = got.spec
    assert s.args["d"].type == "unsigned char" and s.length("d") == s.scalar_values()["n"]  # sizeof(uchar) = 1
    assert s.dims("block") == (128, 1, 1) and "m_threads" in got.chosen  # read by the block: chosen small
    assert any(line.startswith("m_threads = 128 chosen ('m_threads' has no value") for line in got.inferred)


def test_a_name_the_file_uses_as_a_type_is_never_chosen():
    text = MEMBER.replace("(n + m_threads - 1) / m_threads, m_threads>>>", "n / sizeof(Vec), Vec::lanes>>>")
    got = _infer(text, "shift")
    assert isinstance(got, NotRun) and "'Vec'" in got.reason and "Vec" not in got.chosen


def test_a_buffer_of_unseen_allocation_is_as_long_as_the_scalar_that_bounds_it():
    text = """
__global__ void scale(int n, float a, float* x) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) x[i] *= a;
}
void run(float* x) { scale<<<4, 256>>>(5000, 2.0f, x); }
"""
    got = _infer(text, "scale")
    assert isinstance(got, Inferred), got
    assert got.spec.length("x") == 5000 and got.spec.args["x"].role == "inout" and list(got.chosen) == ["x[]"]
    assert any("(length chosen: no allocation of 'x' before the launch; 'x' is a parameter of run()" in line
               for line in got.inferred), got.inferred


SOA = """
__global__ void soa(const float* v, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = v[i] + v[i + n] + v[i + 2 * n] + v[i + 3 * n];
}
void run(const float* v, float* out) { soa<<<4, 256>>>(v, out, 1000); }
"""


def _oracle(tmp_path, text):
    import json
    from trust_support import kp_inproc
    f = tmp_path / "soa.cu"
    f.write_text(text)
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    return rc, [c for c in json.loads(out)[0]["checks"] if c["kind"] in ("oracle", "numeric")], out + err


def test_a_chosen_length_the_original_reads_past_is_grown_and_said(tmp_path):
    # v's allocation is nowhere in the file: its length is chosen (1024), and the kernel reads 4 n.
    rc, checks, log = _oracle(tmp_path, SOA)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert rc == 0 and [c["status"] for c in oracle] == ["pass"], log
    assert "v: in float[4096] uniform(-1, 1) (length chosen: grown to 4096 after the original accessed v[2048] " \
           "past 2048 elements, from 1024 chosen; no allocation of 'v'" in oracle[0]["detail"], oracle[0]["detail"]
    assert oracle[0]["detail"].count("grown to") == 1
    assert "out: inout float[1024]" in oracle[0]["detail"]  # only the buffer read past grows
    assert [c["status"] for c in checks if c["kind"] == "numeric"] and \
        all(c["status"] == "pass" for c in checks if c["kind"] == "numeric"), log


def test_each_chosen_buffer_grows_in_its_own_rounds(tmp_path):
    # cfd's flux kernel: seven chosen buffers each read at several times the thread count; eight
    # buffers read at 9 n to 16 n each need their rounds: more in all than one buffer may take
    names = "abcdefgh"
    text = SOA.replace("const float* v,", "".join(f"const float* {c}, " for c in names)) \
        .replace("v[i] + v[i + n] + v[i + 2 * n] + v[i + 3 * n]", " + ".join(f"{c}[i + {9 + k} * n]" for k, c in enumerate(names))) \
        .replace("void run(const float* v,", "void run(" + "".join(f"const float* {c}, " for c in names)) \
        .replace("(v, out, 1000)", "(" + "".join(f"{c}, " for c in names) + "out, 1000)")
    rc, checks, log = _oracle(tmp_path, text)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert [c["status"] for c in oracle] == ["pass"], log
    lengths = [int(re.search(rf"\b{c}: in float\[(\d+)\]", oracle[0]["detail"]).group(1)) for c in names]
    assert all(n > (10 + k) * 1000 for k, n in enumerate(lengths)), oracle[0]["detail"]


def test_a_length_host_code_allocates_is_never_grown(tmp_path):
    # The same reach past a buffer host code sizes: the original's own fault, not run.
    text = SOA.replace("void run(const float* v, float* out) {",
                       "void run() { float *v, *out; cudaMalloc(&v, 1000 * sizeof(float)); "
                       "cudaMalloc(&out, 1000 * sizeof(float));")
    rc, checks, log = _oracle(tmp_path, text)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert [c["status"] for c in oracle] == ["skip"], log
    assert oracle[0]["detail"].startswith("not run: the original faults at wave 32 on inferred inputs (") and \
        "v[1000]" in oracle[0]["detail"] and "grown" not in oracle[0]["detail"]
    # A negative index is no length to grow either.
    rc, checks, log = _oracle(tmp_path, SOA.replace("v[i] + v[i + n] + v[i + 2 * n] + v[i + 3 * n]", "v[i - 1]"))
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert [c["status"] for c in oracle] == ["skip"] and "on chosen inputs" in oracle[0]["detail"] and "v[-1]" in oracle[0]["detail"] and \
        "grown" not in oracle[0]["detail"], log


CONV = """
__global__ void fill(float* x, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) x[i] = 1.0f;
}
int main(int argc, char** argv) {
    int n = atoi(argv[1]), c = atoi(argv[2]), h = atoi(argv[3]), w = atoi(argv[4]);
    int total = n * c * h * w;
    float* x;
    cudaMalloc(&x, total * sizeof(float));
    fill<<<(total + 255) / 256, 256>>>(x, total);
}
"""


def test_chosen_sizes_whose_product_overflows_int_are_halved_together():
    got = _infer(CONV, "fill")
    assert isinstance(got, Inferred), got
    s = got.spec
    assert s.length("x") == s.scalar_values()["total"] <= 1 << 16
    assert set(got.chosen) == {"n", "c", "h", "w"}
    assert all(why.endswith("; halved until host code's arithmetic no longer overflows") for why in got.chosen.values())


def test_host_arithmetic_that_overflows_on_its_own_values_is_not_run():
    got = _infer(CONV.replace("int total = n * c * h * w;", "int total = 65536 * 65536 + n;"), "fill")
    assert isinstance(got, NotRun) and "overflows int" in got.reason, got


def test_a_functional_cast_is_a_cast_and_a_look_alike_call_is_not():
    text = """
__global__ void inc(float* x, int n) { int i = blockIdx.x * 32 + threadIdx.x; if (i < n) x[i] += 1.0f; }
void run(int n) {
    float* d; cudaMalloc(&d, 1000 * sizeof(float));
    dim3 grid(ceil(float(1000) / 32));
    inc<<<grid, 32>>>(d, 1000);
}
"""
    got = _infer(text, "inc")
    assert isinstance(got, Inferred) and got.spec.dims("grid") == (32, 1, 1), got  # ceil(31.25)
    got = _infer(text.replace("float(1000)", "to_float(1000)"), "inc")
    assert isinstance(got, NotRun) and "'to_float(1000)' is computed when the program runs" in got.reason, got


HOSTFORMS = """
typedef long ticks_t;
struct Model { int seg; int rows; };
__global__ void k(float* x, int n, ticks_t t) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = t; }
void run(Model* prob, double secs) {
    Model* model = new Model;
    model->seg = prob->rows / 4;
    size_t global[2];
    global[0] = 512;
    global[1] = model->seg;
    ticks_t t = (ticks_t)(secs * 1000);
    float* d;
    cudaMalloc(&d, global[0] * global[1] * sizeof(float));
    k<<<global[0] * global[1] / 128, 128>>>(d, global[0] * global[1], (ticks_t)(2 * sizeof(ticks_t)));
}
"""


def test_arrow_fields_assigned_elements_and_casts_to_a_typedef_reach_the_launch():
    got = _infer(HOSTFORMS, "k")
    assert isinstance(got, Inferred), got
    s = got.spec
    # prob->rows only the run gives: chosen as the int field it is declared; model->seg follows it.
    n = s.scalar_values()["n"]
    assert list(got.chosen) == ["prob.rows"] and n == s.length("x") and n % 512 == 0 and n >= 512 * 64
    assert any(line.startswith(f"prob.rows = {n // 512 * 4} chosen (") for line in got.inferred), got.inferred
    assert s.scalar_values()["t"] == 16 and s.dims("grid") == (n // 128, 1, 1)  # (ticks_t)(2 * sizeof(long))
    # An element assigned through a run-time index is no constant element.
    got = _infer(HOSTFORMS.replace("global[1] = model->seg;", "global[prob->rows] = model->seg;"), "k")
    assert isinstance(got, NotRun) and "'global[1]' is an element host code sets at run time" in got.reason, got


BRACED = """
__global__ void scale(float* x, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
int main() {
    constexpr unsigned int BLOCK{128U};
    const unsigned int n{BLOCK * 8U};
    float* d;
    cudaMalloc(&d, n * sizeof(float));
    scale<<<n / BLOCK, BLOCK>>>(d, n);
}
"""


def test_a_braced_initialiser_of_one_value_is_that_value():
    """`constexpr unsigned int BLOCK{128U};` (C++11 list-initialisation, cuda-gemm-optimization's
    tile sizes on the fourteenth held-out set): its value is 128, not the text `{128U}`."""
    got = _infer(BRACED, "scale")
    assert isinstance(got, Inferred), got
    assert got.spec.dims("block")[0] == 128 and got.spec.dims("grid")[0] == 8
    assert got.spec.scalar_values()["n"] == 1024 and got.spec.length("x") == 1024


NARROW = """
__global__ void fill(unsigned char* p, int n, unsigned char v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
struct Painter {
    unsigned char level;
    int n;
    void run(unsigned char* p);
};
void Painter::run(unsigned char* p) {
    fill<<<(n + 255) / 256, 256>>>(p, n, level);
}
"""


def test_a_chosen_value_fits_the_type_host_code_declares():
    """A value only the run gives, held in a narrow type (cuOSD's `unsigned char r`), is chosen within
    the parameter's type: SIZE_CHOICE (1024) does not fit an unsigned char, and was an error that
    stopped the whole file's verify (a class member's type is not read, so it was chosen as an int)."""
    got = _infer(NARROW, "fill")
    assert isinstance(got, Inferred), got
    vals = got.spec.scalar_values()
    assert vals["v"] == 255 and vals["n"] == 1024  # the int keeps the usual choice
    assert "v = 255 chosen ('level' was chosen 1024: the nearest value unsigned char holds)" in got.inferred


SAME_NAME = """
__global__ void mask(unsigned char* p, int w, int h, float r) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < w * h) p[i] = p[i] > r ? 0 : 255;
}
struct Image { unsigned char* data; int width, height; };
void mask(Image* image, float r) {
    mask<<<(image->width * image->height + 255) / 256, 256>>>(image->data, image->width, image->height, r);
}
"""


def test_a_launch_is_no_call_of_the_host_function_of_the_same_name():
    """A host wrapper named as its kernel: the launch inside it is not a call of the wrapper, whose
    parameters would then be bound to the launch's arguments (r = image->width)."""
    got = _infer(SAME_NAME, "mask")
    assert isinstance(got, Inferred), got
    assert not any(line.startswith("r = ") and "the launch passes" in line for line in got.inferred)
    assert any(line.startswith("r = ") and "generated" in line for line in got.inferred), got.inferred


TILED = """
#define N (1 << 24)
#define G (8)
__global__ void tiled(float* g) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float t[G];
    for (int j = 0; j < G; j++) t[j] = g[(i * G + j) % N];
    float s = 0.f;
    for (int j = 0; j < G; j += 2) s += t[j] * t[j + 1];
    g[i % N] = s;
}
int main() {
    float *g;
    cudaMalloc(&g, N * sizeof(float));
    tiled<<<N / G / 256, 256>>>(g);
}
"""


def test_a_macro_sizing_a_device_array_is_not_scaled():
    # G sizes the kernel's own register tile (mixbench's `float tmps[granularity]`): halved to 1, the
    # loop stepping by 2 reads t[1], a fault of the scaling; N, the problem size, is scaled as before.
    got = _infer(TILED, "tiled")
    assert isinstance(got, Inferred), got
    assert "G" not in got.redefine and int(got.redefine["N"]) < 1 << 24, got.redefine
    assert "G = 8 from macro" in got.inferred and not any("G = 8 scaled" in x for x in got.inferred), got.inferred
    # The look-alike: the same G read in a loop bound only (no array it sizes) is scaled with N.
    got = _infer(TILED.replace("float t[G];", "float t[8];"), "tiled")
    assert isinstance(got, Inferred) and "G" in got.redefine and int(got.redefine["G"]) < 8, got.redefine
