"""cuRAND's XORWOW device API in the emulator: `curandState` and `curand_init`, `curand`,
`curand_uniform`, `curand_normal`, `curand_uniform_double`, `curand_normal_double` as C the front
end adds to a file that names them, in the spellings of the backend being read (a HIP port's
`hiprandState`, `hiprand_uniform`: its API table, kernelport/backends/hip_api.tsv, says which
name is which of cuRAND's; a backend without such names, Metal, gets none).

The definitions follow cuRAND's (curand_kernel.h, curand_uniform.h, curand_normal.h): a draw is
XORWOW's xorshift of five words plus the Weyl counter; uniform floats are x * 2^-32 + 2^-33 (never 0,
at most 1); uniform doubles join two draws into 53 bits, z * 2^-53 + 2^-54; normals are Box-Muller of
two draws, the sine returned and the cosine kept for the next call (float and double each have
their own flag and kept value), the float's angle through the fast `__sinf`/`__cosf` cuRAND's device
code uses (the emulator's bounds carry their error).  `curand_init`'s state, with its jumps of
`subsequence` * 2^67 and `offset` draws, comes from emulator.xorwow through `__kp_xorwow_init`
(one word per call: the counter, then the five words).  The state's words are named d, v0..v4 here
(cuRAND: `unsigned d, v[5]`): the same bytes (an array of states in memory has cuRAND's 48-byte
layout), and a kernel never names them.

A HIP port's hiprand_* run this same model: it checks the port's translation on the stream the
original draws.  On AMD, hipRAND is rocRAND, whose XORWOW salts the seed otherwise (and offsets its
uniform floats by 2^-32): the same seed draws other numbers there (README, "Random numbers").
"""
from __future__ import annotations

from ... import lazy_re

INIT_WORD = "__kp_xorwow_init"  # (seed, subsequence, offset, k): word k of the state (0: d, 1..5: v0..v4)

# cuRAND's names the model defines: the state's type names, then the functions
TYPES = ("curandStateXORWOW", "curandStateXORWOW_t", "curandState", "curandState_t")
FUNCTIONS = ("curand_init", "curand", "curand_uniform", "curand_normal", "curand_uniform_double",
             "curand_normal_double")

STATE = ("struct __kp_curand_xorwow { unsigned int d, v0, v1, v2, v3, v4; int boxmuller_flag; "
         "int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };\n")
# the model's fields as cuRAND's curandStateXORWOW spells them (`unsigned int d, v[5];`, the rest alike): the
# GPU driver checks a buffer of states against the compiled type by these (kernelport.device_inputs)
REAL_FIELDS = {f"v{i}": f"v[{i}]" for i in range(5)}
_MODEL = STATE + r"""@TYPEDEFS@
unsigned int @curand@(struct __kp_curand_xorwow *s) {
    unsigned int t = s->v0 ^ (s->v0 >> 2);
    s->v0 = s->v1; s->v1 = s->v2; s->v2 = s->v3; s->v3 = s->v4;
    s->v4 = (s->v4 ^ (s->v4 << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v4 + s->d;
}
void @curand_init@(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                              struct __kp_curand_xorwow *s) {
    s->d = @INIT@(seed, subsequence, offset, 0); s->v0 = @INIT@(seed, subsequence, offset, 1);
    s->v1 = @INIT@(seed, subsequence, offset, 2); s->v2 = @INIT@(seed, subsequence, offset, 3);
    s->v3 = @INIT@(seed, subsequence, offset, 4); s->v4 = @INIT@(seed, subsequence, offset, 5);
    s->boxmuller_flag = 0; s->boxmuller_flag_double = 0; s->boxmuller_extra = 0.0f; s->boxmuller_extra_double = 0.0;
}
float @curand_uniform@(struct __kp_curand_xorwow *s) {
    return @curand@(s) * 2.3283064365386962890625e-10f + 1.16415321826934814453125e-10f;
}
double @curand_uniform_double@(struct __kp_curand_xorwow *s) {
    unsigned int x = @curand@(s);
    unsigned int y = @curand@(s);
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
    return z * 1.1102230246251565404236316680908203125e-16 + 5.5511151231257827021181583404541015625e-17;
}
float @curand_normal@(struct __kp_curand_xorwow *s) {
    if (s->boxmuller_flag != 1) {
        unsigned int x = @curand@(s);
        unsigned int y = @curand@(s);
        float u = x * 2.3283064365386962890625e-10f + 1.16415321826934814453125e-10f;
        float v = y * (2.3283064e-10f * 6.2831855f) + (2.3283064e-10f * 6.2831855f) / 2;
        float r = @sqrtf@(-2.0f * @logf@(u));
        s->boxmuller_extra = @cosf@(v) * r;
        s->boxmuller_flag = 1;
        return @sinf@(v) * r;
    }
    s->boxmuller_flag = 0;
    return s->boxmuller_extra;
}
double @curand_normal_double@(struct __kp_curand_xorwow *s) {
    if (s->boxmuller_flag_double != 1) {
        unsigned int x0 = @curand@(s);
        unsigned int x1 = @curand@(s);
        unsigned int y0 = @curand@(s);
        unsigned int y1 = @curand@(s);
        unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
        double u = zx * 1.1102230246251565404236316680908203125e-16 + 5.5511151231257827021181583404541015625e-17;
        unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
        double v = zy * 2.220446049250313080847263336181640625e-16 + 1.1102230246251565404236316680908203125e-16;
        double r = sqrt(-2.0 * log(u));
        s->boxmuller_extra_double = cos(v * 3.1415926535897932) * r;
        s->boxmuller_flag_double = 1;
        return sin(v * 3.1415926535897932) * r;
    }
    s->boxmuller_flag_double = 0;
    return s->boxmuller_extra_double;
}
"""

_USE = lazy_re.compile(r"\b(\w+)\b")
_HOST: list = []  # (the parsed STATE, its struct node): host inference's view of a state type


def names(backend: str | None) -> dict[str, str] | None:
    """cuRAND's name -> this backend's spelling of it (the source dialect: cuRAND's own), or None
    where the backend spells none of them."""
    from ... import backends
    be = backends.get(backend) if backend else backends.source()
    if be is backends.source():
        return {n: n for n in TYPES + FUNCTIONS}
    table = be.api()
    if table is None:
        return None
    got = {n: table.spelling(n) for n in TYPES + FUNCTIONS}
    return got if all(got.values()) else None


def model_text(backend: str | None, body: str) -> str:
    """The model's C, in the backend's spellings, where `body` (the file after its includes) names
    one of them; else ""."""
    spelled = names(backend)
    if spelled is None or not (set(spelled.values()) & set(_USE.findall(body))):
        return ""
    from ... import backends, dialect
    b = backend or backends.source().name
    text = _MODEL.replace("@TYPEDEFS@", "".join(f"typedef struct __kp_curand_xorwow {spelled[t]};\n" for t in TYPES))
    for key, fn in (("sinf", "fast_sin"), ("cosf", "fast_cos"), ("sqrtf", "math_sqrt"), ("logf", "math_log")):
        text = text.replace(f"@{key}@", dialect.concept(fn).spelling(b).split("(")[0])
    for f in sorted(FUNCTIONS, key=len, reverse=True):
        text = text.replace(f"@{f}@", spelled[f])
    return text.replace("@INIT@", INIT_WORD)


def stream_note(text: str, backend: str) -> str:
    """What a port's passing numeric check adds where its text draws through this model under names
    that are not cuRAND's own (a HIP port's hiprand_*): the comparison holds on cuRAND's stream."""
    from ... import backends
    spelled = names(backend)
    if backends.get(backend).is_source or spelled is None or not (set(spelled.values()) & set(_USE.findall(text))):
        return ""
    return ("; its random draws are cuRAND's XORWOW stream, as the original's (the translation is checked); "
            "the port's own library may seed otherwise on its GPU (on AMD, hipRAND's XORWOW is rocRAND's: the "
            "same seed draws other numbers there)")


def host_struct(name: str):
    """The state's struct (a tree-sitter node) where host code names one of cuRAND's state types
    (`cudaMalloc(&states, n * sizeof(curandState))`, a kernel's `curandState* states`): its fields
    and 48-byte layout, for infer_types.resolve; else None."""
    if name not in TYPES:
        return None
    if not _HOST:
        from ...source import SourceFile
        src = SourceFile.from_text(STATE, "<cuRAND's XORWOW state>")
        items = [c.child_by_field_name("type") or c for c in src.root.named_children]
        _HOST.extend((src, next(c for c in items if c.type == "struct_specifier")))
    return _HOST[1]
