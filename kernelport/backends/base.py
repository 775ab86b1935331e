"""What a backend is: one target's spellings, wave widths, lowering, toolchain and lint targets.

A backend is a subclass of `Backend` holding data as class attributes; defining it registers one
instance (sqlglot's dialects work the same way).  Consumers (translate, lint, verify, the
emulator, the CLI) ask the registry (`kernelport.backends`) instead of comparing names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, ClassVar

from .kernel_heads import KernelHeads

if TYPE_CHECKING:
    from ..toolchains import CompileResult
    from .api_table import Table
    from .lacked_types import LackedType

REGISTRY: dict[str, "Backend"] = {}


@dataclass(frozen=True)
class Run:
    """One way a backend's code runs: a wave width on an architecture, linted as `target`."""
    backend: str
    wave: int
    arch: str
    target: str  # lint target name (`--targets`, `[tool.kernelport] targets`)
    hardware: str  # how diagnostics name the hardware
    # The backend whose dialect this run's text is read as, where it differs (a source built as
    # CUDA on NVIDIA and as HIP on AMD is emulated and compiled as each).
    reads_as: str | None = None

    @property
    def dialect(self) -> str:
        return self.reads_as or self.backend


@dataclass(frozen=True)
class Lowering:
    """How the emulator's C99 front end reads this backend's text."""
    # dialect concept key -> how its spelling is lowered:
    #   "kernel" (marks a kernel, removed), "drop" (removed), "shared" (-> _Thread_local),
    #   "drop_call" (removed with its parenthesised arguments), "const" (-> const)
    qualifier_concepts: dict[str, str]
    extra_drop: tuple[str, ...] = ()  # C++/vendor words with no concept (not GPU spellings)
    address_spaces: dict[str, str] = field(default_factory=dict)  # Metal: device -> "", threadgroup -> shared
    attributes: bool = False  # `[[...]]` attributes are recorded and removed
    defines: dict[str, str] = field(default_factory=dict)
    # namespaces of cooperative groups (their thread block and static tiles: frontend/groups.py)
    group_namespaces: tuple[str, ...] = ()
    # namespaces of cub's block collectives (cub::BlockReduce: frontend/blockreduce.py)
    cub_namespaces: tuple[str, ...] = ()
    # suffixes of an atomic's scoped forms (`atomicAdd_system`, `atomicAdd_block`) the emulator runs as
    # the atomic's concept: it runs one device whose memory every block sees at once, so the widest and
    # the narrowest scope of one operation read and write the same memory in the same order
    atomic_scopes: tuple[str, ...] = ()
    # spellings of this backend's ports the emulator does not lower yet (a regex, what it is): their numeric checks
    # are "not yet" (verify's skip, a failure under --require), never a failed port
    unlowered: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class HostBuild:
    """How `kernelport bind` builds a launcher for this backend's host runtime (what the
    spellings do not say: file extension, compiler, link line)."""
    name: str  # the dialect backend
    title: str
    extension: str  # of the launcher source
    compiler: str  # executable, also the cargo feature's compiler
    compiler_env: str  # environment variable that overrides it (build.rs)
    compile_args: tuple[str, ...]  # before the source file
    pic_args: tuple[str, ...]  # position-independent host code (a Rust binary is a PIE)
    env: tuple[tuple[str, str], ...]  # the compiler needs these
    arch_env: str  # environment variable with the target architectures (build.rs)
    arch_flag: str  # one architecture as a flag
    default_archs: tuple[str, ...]  # built when arch_env is unset (none: the compiler's default)
    runtime_lib: str  # the runtime library the launcher links
    home_envs: tuple[str, ...]  # environment variables naming the toolkit's install prefix
    lib_dirs: tuple[str, ...]  # where to look for it: relative to the install prefix, or absolute

    def build_command(self, path: str) -> str:
        env = " ".join(f"{k}={v}" for k, v in self.env)
        archs = " ".join(self.arch_flag.format(a) for a in self.default_archs)
        return " ".join(x for x in (env, self.compiler, *self.compile_args, archs, "-c", path) if x)



@dataclass(frozen=True)
class LaunchForm:
    """A runtime call that launches a kernel: the position of each of its arguments (None: not
    passed).  `config`: a launch-configuration struct whose fields give the geometry; `args`: the
    first kernel argument passed one by one (None: an array of pointers, or none); `arg_array`: the
    `void **args` array of the arguments' addresses (`void *args[] = {&a, &n};`, kernelport.launchforms)."""
    kernel: int
    grid: int | None = None
    block: int | None = None
    shared: int | None = None
    stream: int | None = None
    config: int | None = None
    args: int | None = None
    arg_array: int | None = None


class Backend(KernelHeads):
    name: ClassVar[str]
    # Suffix of the port file `translate --to NAME` writes; None: not a translation target.
    extension: ClassVar[str | None] = None
    # Suffix of the port of a header (`common.cuh` -> `common` + this): a header port must not look
    # like a translation unit of its own to build systems that glob `*.hip` or `*.portable.cu`.
    # None: a port is one self-contained file (the headers it needs spliced in), headers are not ported.
    header_extension: ClassVar[str | None] = None
    # The dialect kernels are written in (CUDA): linted for every target, run as the original.
    is_source: ClassVar[bool] = False
    # File suffixes whose text is written in this dialect (lint reads them as this backend).
    source_extensions: ClassVar[tuple[str, ...]] = ()
    runs: ClassVar[tuple[Run, ...]] = ()
    spellings: ClassVar[dict[str, str | None]] = {}
    aliases: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Warp helpers of libraries that projects include from outside their tree (PyTorch's
    # `WARP_SHFL`): concept key -> call templates in the library's own argument order.  Only the
    # analyses read them (a lane or a width reaching one is a warp-level use); translate leaves the
    # call alone, the library has its own port.
    library_spellings: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Library warp collectives whose logical warp defaults to the hardware warp (cub's
    # `WarpReduce<T>`): class name -> position of its logical-width template argument.
    warp_collectives: ClassVar[dict[str, int]] = {}
    # The logical width this backend's library gives such a collective left at its default ("" where
    # it has none): where the target's differs from the source's, a port writes the source's into
    # its template arguments (kernelport/collective_widths.py).
    warp_collective_default: ClassVar[str] = ""
    # Cooperative groups' members as the backend's library has them: (group type, member) -> an
    # expression that means the same with no object (`blockDim` for thread_block::group_dim()), or
    # None; `cg_members_present`: per group type, the members the library has as CUDA's. A member
    # in neither is refused at its line (KP210). Empty: the backend's library is CUDA's, or none.
    # Whether device code may launch a kernel (CUDA's dynamic parallelism); False: KP210 at the launch.
    launches_from_device: ClassVar[bool] = True
    # Runtime calls of this dialect that launch a kernel besides `k<<<...>>>` (the model reads
    # every backend's: a CUDA project's HIP build path uses hipLaunchKernelGGL): name -> LaunchForm;
    # launch-configuration structs: type -> its fields that hold grid, block, dynamic shared memory
    # and stream, in the order an aggregate initialiser gives them.
    launch_forms: ClassVar[dict[str, LaunchForm]] = {}
    launch_configs: ClassVar[dict[str, tuple[str, str, str, str]]] = {}
    # The source dialect's launch calls and configuration types this backend's checked toolchain
    # (api_checked_with) lacks: CUDA name -> the name it would have (a test compiles each with that
    # toolchain and sees it refused); translate refuses them at their line, naming the launch call
    # to use instead (one of `launch_forms` that takes the kernel's arguments one by one).
    launch_forms_absent: ClassVar[dict[str, str]] = {}
    # CUDA types that are integer byte addresses (the driver's `CUdeviceptr`: `unsigned long long`) this backend spells
    # as a pointer (HIP's `hipDeviceptr_t` is `void *`, no arithmetic): name -> the byte pointer `(T)x +/- n` go through.
    address_types: ClassVar[dict[str, str]] = {}
    # Whether CUDA's vector types (uint2, float4, ...) are classes with constructors here, not aggregates: an array of
    # them takes no `= {0}` (HIP_vector_type: "no viable conversion from 'int' to 'uint2'"), so the port writes `= {}`.
    vector_types_are_classes: ClassVar[bool] = False
    # Whether `float2(a)`, `float4(a, b)` are aggregates' (C++20: the rest 0), no broadcasting constructor's (emulator)
    vector_casts_are_aggregates: ClassVar[bool] = False
    # Whether `float4 v = {x}` (CUDA zeroes the rest) is written with 0s (vector_short_lists.py): hipcc broadcasts x
    completes_short_vector_lists: ClassVar[bool] = False
    # Whether the target's collectives (hipCUB over rocPRIM) call a reduction operator on temporaries,
    # where CUB calls it on lvalues: an operator taking `T&` then matches no call (reduce_operands.py).
    reduce_operands_are_temporaries: ClassVar[bool] = False
    # Device functions the target's runtime declares that CUDA lacks, by name and parameter types as
    # written with blanks collapsed (`float*`): a project's own definition of one (a CAS-loop
    # `atomicMax(float*, float)`) is a redefinition there, so it goes from the port and calls reach
    # the target's, which means the same (soundness.drop_target_overloads).
    own_overloads: ClassVar[frozenset[tuple[str, tuple[str, ...]]]] = frozenset()
    # Function templates the target's device headers define at file scope that CUDA's lack, name -> the
    # comparison of `template <class T> T name(T a, T b) { return (a OP b) ? a : b; }` (target_templates.py)
    own_templates: ClassVar[dict[str, str]] = {}
    # spellings of one type on the target (`uint64_t`, `std::size_t` -> `unsigned long` on LP64):
    # a parameter is compared with own_overloads as the type it names, however written
    same_types: ClassVar[dict[str, str]] = {}
    # Device functions CUDA declares once that the target overloads (name -> CUDA's parameter
    # types): a call whose argument converts to more than one of the target's (`__ffsll(uint64_t)`:
    # `long long` and `unsigned long long` on HIP) is ambiguous there, so the port converts each
    # argument to CUDA's type, as CUDA's call does (soundness.cast_overloaded_arguments).
    argument_types: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Functions CUDA overloads for (int, unsigned int) and (unsigned int, int), taking the unsigned
    # one, that the target declares only for equal types (`min`, `max`): a call with one int and one
    # unsigned argument gets the int converted, as CUDA's does (mixed_sign.cast_mixed_sign_arguments).
    mixed_sign_calls: ClassVar[frozenset[str]] = frozenset()
    # Functions CUDA overloads for a pointer type the target lacks, where the target's overload for
    # another pointer type computes the same bits (`atomicOr(long long*, long long)`: through
    # `unsigned long long`): name -> (CUDA's pointee type, the target's); the pointer, the value and
    # the result are converted (retyped_calls.cast_retyped_pointer_arguments).
    retyped_pointer_calls: ClassVar[dict[str, tuple[str, str]]] = {}
    # Functions CUDA overloads for float pointers (`sincos(float, float*, float*)`) that the target
    # declares only for double ones, with the float function's name: name -> (the float form, the
    # arity: a value, then pointers, whether host code has the float form too); a call whose every
    # pointer plainly points to float is renamed (retyped_calls.rename_float_pointer_calls).
    float_pointer_calls: ClassVar[dict[str, tuple[str, int, bool]]] = {}
    # CUDA handle types that are one integer type there (`unsigned long long`: cudaTextureObject_t and
    # cudaSurfaceObject_t), which the target spells as distinct types: CUDA name -> the target's, and the
    # target's calls that take one (name -> the handle type they take). A cast to any of them in such a
    # call's arguments (cuOSD's `surf2Dread<T>((cudaTextureObject_t)p, x, y)`, the same conversion in
    # CUDA) is a cast to the type the call takes (soundness.cast_handle_arguments).
    handle_types: ClassVar[dict[str, str]] = {}
    handle_calls: ClassVar[dict[str, str]] = {}
    # CUDA vector types the target has built in under the same name, with component-wise operators:
    # binary (vector with vector, or with its element type either side; and the compound `OP=`) and
    # unary. A project's operator that only restates one of them is left out of the port
    # (vector_operators.py). Empty: the target's vector types are CUDA's structs.
    vector_types: ClassVar[frozenset[str]] = frozenset()
    vector_operators: ClassVar[frozenset[str]] = frozenset()
    vector_unary_operators: ClassVar[frozenset[str]] = frozenset()
    # What a project's class deriving from one of those vector types derives from instead (`{vector}`:
    # its name): the prologue's plain struct of the same lanes and layout, with no operators, that
    # converts to the vector type by value (vector_operators.rewrite_vector_bases). None: the base stays.
    vector_base: ClassVar[str | None] = None
    # The type an `auto` variable initialised with a built-in coordinate itself (`auto i =
    # threadIdx.x`) is given, where the backend's coordinates are objects of their own type that
    # only convert to an integer (None: they are integers already).
    auto_coordinate_type: ClassVar[str | None] = None
    # A built-in coordinate read whole (`const uint3 b = blockIdx;`) where the coordinates are objects
    # that do not convert to the vector type: its spelling, `{c}` the coordinate (None: as written).
    whole_coordinate: ClassVar[str | None] = None
    # ... per type it goes to where that differs (kernelport/coordinate_targets.py): type -> spelling.
    whole_coordinate_as: ClassVar[dict[str, str]] = {}
    # CUDA's own attribute spellings (host_defines.h) the target spells otherwise or lacks: name ->
    # the target's spelling ("" where it has none and needs none); the parse sees them as blanks.
    attribute_spellings: ClassVar[dict[str, str]] = {}
    # Whether the target's compiler takes a C++11 attribute list only before a declaration's specifiers
    # (clang: `__host__ [[nodiscard]] int f()` is "an attribute list cannot appear here"; nvcc takes it)
    attributes_lead_specifiers: ClassVar[bool] = False
    # Whether the compiler refuses `__restrict__` on a scalar among a declaration's specifiers
    # (`const __restrict__ uint32_t *p`, which nvcc takes): attribute_order.drop_scalar_restricts
    restrict_needs_pointer: ClassVar[bool] = False
    # Whether the compiler refuses a pointer to a variable-length array declared with the type of the cast
    # that initialises it (`double (*a)[n] = (double (*)[n]) v;`, which nvcc takes; clang: "cannot
    # initialize a variable of type 'double (*)[n]' with an rvalue of type 'double (*)[n]'"):
    # attribute_order.auto_vla_pointers declares it `auto`
    vla_pointers_need_auto: ClassVar[bool] = False
    # C++ keywords CUDA's compiler still takes where the target's refuses them: keyword -> why it goes
    # from the port (a specifier with no meaning left, so the port means what the source did).
    dropped_keywords: ClassVar[dict[str, str]] = {}
    # Names the target reserves that C++ leaves free (its language's words, its headers' macros): a name the
    # CUDA file declares with one of these spellings is renamed in the port (reserved_names.py), the note
    # saying why ({name}); and the target's own scalar types, as the C type each is (a CUDA typedef of the
    # same is left out, not renamed)
    reserved_words: ClassVar[frozenset[str]] = frozenset()
    reserved_why: ClassVar[str] = "'{name}' is reserved by the target: renamed everywhere in the port"
    # Names of namespace std that the target's runtime header declares and CUDA's does not (the standard headers
    # it includes): with `using namespace std;`, a file-scope enumerator of one is ambiguous there (std_clashes.py)
    std_names_added: ClassVar[frozenset[str]] = frozenset()
    builtin_typedefs: ClassVar[dict[str, str]] = {}
    # A dropped keyword kept where the text after it matches (a regex): GNU's explicit register
    # variable `register int v asm("eax")` needs its `register`, which hipcc takes under C++17 too.
    kept_keywords: ClassVar[dict[str, str]] = {}

    @classmethod
    def keeps_word(cls, word: str, data: bytes, end: int) -> bool:
        pat = cls.kept_keywords.get(word)
        return pat is not None and re.match(pat.encode(), data[end:end + 400]) is not None

    @classmethod
    def word_spellings(cls) -> tuple[dict[str, str], dict[str, str]]:
        """The attribute spellings and dropped keywords as one table (word -> spelling, "" for none) and why."""
        why = {**{w: f"{w} is CUDA's own attribute" for w in cls.attribute_spellings}, **cls.dropped_keywords}
        return {**cls.attribute_spellings, **dict.fromkeys(cls.dropped_keywords, "")}, why
    # Whether a member defined out of its class as `__device__` (or `__host__ __device__`) needs the
    # same words on its in-class declaration (clang's CUDA/HIP does; nvcc takes the definition's).
    member_spaces_in_class: ClassVar[bool] = False
    # Whether a function template's explicit specializations need the primary template's execution
    # spaces (clang's CUDA/HIP: "no function template matches function template specialization" for
    # `template<> __host__ __device__ T f(...)` of a `__device__` primary; nvcc takes each as written).
    specialization_spaces_match: ClassVar[bool] = False
    # Whether the compiler needs a function's execution space on its definition where an earlier declaration has it
    # (`int __device__ f(int);`, then `int f(int x) {...}`: nvcc takes the declaration's, clang sees a host overload).
    definition_spaces_declared: ClassVar[bool] = False
    # Whether the compiler refuses a braced initializer's element narrowed from a non-constant (`float a[] =
    # {x * 0.5}`: clang's error, g++'s warning), so the port writes the conversion (kernelport/braced_narrowing.py).
    braced_narrowing_refused: ClassVar[bool] = False
    # Whether the port writes an address space on every pointer of device code (Metal's device, threadgroup,
    # constant): code the parse saw as blanks gets none, so a pointer declared or cast there is reported
    # (KP230, kernelport/macros.masked_code_diagnostics) as a renamed word there is.
    pointers_spaced: ClassVar[bool] = False
    # Whether the compiler refuses a function's address held as `void *` without a cast (`void *t[] = {&f}`:
    # clang's error, nvcc's implicit conversion), so the port writes the cast (kernelport/function_addresses.py).
    function_to_void_refused: ClassVar[bool] = False
    # Where the compiler crashes on `alloca` in device code: the bug, in words (kernelport/device_allocas.py holds a
    # constant-size one as a local array, and names the bug where it keeps one); None where alloca compiles.
    device_alloca_crash: ClassVar[str | None] = None
    # Whether the compiler refuses a `__shared__` variable of a class with default member initializers, which nvcc takes
    # and never initialises (kernelport/shared_storage.py then declares the same bytes uninitialised).
    shared_initializers_refused: ClassVar[bool] = False
    # Whether it refuses `extern __shared__` of a complete type (nvcc defines it: kernelport/sized_extern_shared.py).
    extern_shared_definitions_refused: ClassVar[bool] = False
    # Where the compiler reads an array bound naming `const` floating-point locals as a variable-length array (C++; nvcc
    # folds it), none in device code: why, in words (kernelport/folded_bounds.py writes its value); None: it compiles.
    device_vla_refused: ClassVar[str | None] = None
    # Constructs nvcc accepts and the compiler rejects, with no respelling of the same meaning (undefined behaviour in the
    # source: `delete[]` of an array): keys of kernelport/nvcc_leniencies.LENIENCIES, each a located KP243 error.
    nvcc_leniencies_refused: ClassVar[frozenset[str]] = frozenset()
    # Where the compiler rejects an initialiser on a host variable-length array (`T a[n] = {}`, a GNU extension g++ takes):
    # why, in words (kernelport/vla_initializers.py writes a zero one as a loop, refuses others with KP252); None: taken.
    vla_initializer_refused: ClassVar[str | None] = None
    # The header its Thrust declares each algorithm in, `thrust::NAME` -> "thrust/H.h", where the library's headers do not
    # reach each other's algorithms as CUDA's Thrust does (kernelport/thrust_headers.py includes a missing one); {}: none.
    thrust_algorithm_headers: ClassVar[dict[str, str]] = {}
    # C99 classification functions its headers declare in the global namespace for the device only, which host code
    # calls unqualified as CUDA's headers allow (kernelport/host_classifiers.py writes `std::NAME` there): name ->
    # whether `std::NAME` also compiles on every device pass of a `__host__ __device__` function (else host-only ones).
    host_std_classifiers: ClassVar[dict[str, bool]] = {}
    # The most private (scratch) memory one wave of the hardware may use, in bytes: a run's lane holds this over its
    # wave width, and a thread's local object larger than that is KP239 (kernelport/private_memory.py); None: unchecked.
    scratch_wave_bytes: ClassVar[int | None] = None
    # The compiler, in words, where it wants `typename` before a dependent qualified type that C++20 lets a source leave
    # it out of (P0634; nvcc takes that): the port writes it (kernelport/implicit_typename.py); None: taken as written.
    typename_required: ClassVar[str | None] = None
    # The <stdint.h> names the runtime header declares before the user's code, with their integer types: a file's
    # own typedef of one as another type is renamed out of the way (kernelport/stdint_typedefs.py); {}: none.
    runtime_typedefs: ClassVar[dict[str, str]] = {}
    # Library entries whose functor's result type is computed in host code too, so that a `__device__`-only operator()
    # fails there (clang): name -> ("call", the functor's argument position, negative from the end) or ("template",
    # its template argument's); the port makes such a functor's operator() `__host__ __device__`
    # (kernelport/host_typed_functors.py).
    host_typed_functors: ClassVar[dict[str, tuple[str, int]]] = {}
    # Thrust algorithms that compare elements with `thrust::less` (their `operator<`) where called with a policy
    # and no comparator: name -> that call's argument count.  A host-only operator< they reach from a kernel:
    # nvcc accepts it and builds no comparison, clang refuses it: the port is refused at the operator, KP241
    # (kernelport/device_less_operators.py).
    device_less_algorithms: ClassVar[dict[str, int]] = {}
    # Thrust vectors the target's Thrust may build without a std::initializer_list constructor (name -> why): a braced
    # list becomes a std::vector of the elements (kernelport/vector_lists.py); empty: lists kept as written.
    vector_list_constructors: ClassVar[dict[str, str]] = {}
    cg_members: ClassVar[dict[tuple[str, str], str | None]] = {}
    cg_members_present: ClassVar[dict[str, tuple[str, ...]]] = {}
    # A tile's size read from the tile (`{group}`: the value) where its type is a template parameter bound
    # to tiles of different sizes (kernelport/tile_bindings.py); "": such a tile's vote is refused (KP210).
    cg_tile_size: ClassVar[str] = ""
    # The names the backend's cooperative_groups namespace declares (CUDA's: what a source may name);
    # a `cg::` name of a port outside the target's is KP210 at its line (kernelport/cg_names.py).
    # Empty: the target's namespace is not checked. `cg_call_arity`: factories' most arguments (an
    # overload the target lacks); `cg_tile_most`: the largest static tile every arch of the runs takes.
    cg_names_present: ClassVar[frozenset[str]] = frozenset()
    # The `__CUDA_ARCH__` values the source dialect's current toolkit builds device code for (kernelport/
    # ptx_branches.py reads an asm's `#if __CUDA_ARCH__ >= N` at each: the branch the original runs).
    device_archs: ClassVar[tuple[int, ...]] = ()
    # The version macros of that toolkit (`CUDART_VERSION`, `__CUDACC_VER_MAJOR__`): what a test beside
    # `__CUDA_ARCH__` reads (mfaktc: `#elif (__CUDA_ARCH__ >= FERMI) && (CUDART_VERSION >= 4010)`), settled
    # with the architecture (kernelport/arch_branches.py) and defined for the original in the emulator.
    toolkit_versions: ClassVar[dict[str, int]] = {}
    # The language macros every compile of the source defines, whatever the build (nvcc and hipcc compile
    # CUDA as C++: `__cplusplus`, with its default standard's value): what the parse reads a header's
    # `#ifdef __cplusplus` / `#if __cplusplus >= 201103L` with (kernelport/macro_groups.builtin_macros).
    language_macros: ClassVar[dict[str, int]] = {}
    cg_call_arity: ClassVar[dict[str, int]] = {}
    cg_tile_most: ClassVar[int] = 0
    # Runtime structs' fields (cudaDeviceProp's) as the backend's struct has them, in the same shape:
    # (CUDA type, field) -> the backend's field name; per CUDA type, the fields it has as CUDA's.
    struct_fields: ClassVar[dict[tuple[str, str], str]] = {}
    struct_fields_present: ClassVar[dict[str, tuple[str, ...]]] = {}
    # Device functions the backend's compiler refuses for some of its runs' archs: name -> (those
    # archs, what the function does, which compiler says what). A call is refused at its line naming
    # the arch (KP210), not left to a port that fails to compile there.
    arch_missing: ClassVar[dict[str, tuple[tuple[str, ...], str, str]]] = {}
    # Built-in inputs passed as attributed kernel parameters: concept key -> (type, attribute).
    attributes: ClassVar[dict[str, tuple[str, str]]] = {}
    lowering: ClassVar[Lowering]
    # Tool names `verify --require` accepts for this backend's toolchain (besides the backend's name).
    tools: ClassVar[tuple[str, ...]] = ()
    # The parts of a file's configuration its compile is given (kernelport.compile_flags.PARTS): a
    # port built by the project's own build in the original's place reads its forced includes too.
    build_reads: ClassVar[frozenset[str]] = frozenset({"defines", "include_dirs"})
    # What the backend's compile-time wave constant (concept wave_size_const) is: "exact" (the
    # width of the device pass: HIP's KP_WAVE_SIZE), "assumed" (the width every device of the
    # backend has in practice: Metal's 32), or "bound" (only an upper bound: translate refuses it
    # where a constant expression means the exact width).
    wave_constant: ClassVar[str] = "exact"
    # Whether a lane mask that names only some lanes keeps its meaning here (CUDA's _sync
    # operations); elsewhere translate refuses such a mask (KP203), whether or not the spelling
    # takes one.
    honours_partial_masks: ClassVar[bool] = False
    # dialect type concepts the backend has no spelling of, by key, where a code of their own says so
    # (else KP204)
    lacked_types: ClassVar[dict[str, LackedType]] = {}
    # "module:Class" of the Translator subclass that writes this backend's ports.
    translator_path: ClassVar[str | None] = None
    # How `kernelport bind` builds host launchers for this backend (None: no C host runtime).
    host_build: ClassVar[HostBuild | None] = None
    # "module:function" that runs this backend's original on a real GPU (`verify --device NAME`).
    device_runner: ClassVar[str | None] = None
    # The CUDA API table (runtime, driver, library and device names -> this backend's), a file
    # beside this module read on first use (`api()`); None: the backend has no such APIs.
    api_table: ClassVar[str | None] = None
    # The CUDA compiler's macros a directive tests (`#ifdef __CUDACC__`: "compiled by a GPU compiler"),
    # as this port spells that test where no API table renames them (HIP's table has `__HIPCC__`).
    compiler_macros: ClassVar[dict[str, str]] = {}
    # The source compiler's macro defined on its device pass alone, whose bare defined-test means "compiling
    # device code" (`#ifdef __CUDA_ARCH__`), as this port spells that test (kernelport/device_pass.py).
    device_pass_macros: ClassVar[dict[str, str]] = {}
    # (macro every pass of the target's GPU compiler defines, the attributes of a function both passes compile):
    # a macro the source defines `__device__` on nvcc's device pass alone is given these on the target's host pass
    # too (kernelport/pass_attributes.py); None: no such split of passes to mend.
    both_passes_space: ClassVar[tuple[str, str] | None] = None
    # Source headers the target lacks whose names the port defines itself: the include is replaced by
    # this text where the file uses them (header_uses; HIP: cg::reduce).
    header_polyfills: ClassVar[dict[str, str]] = {}
    # ... and those whose names the target's own header spells otherwise: header -> (its header, name -> name)
    header_counterparts: ClassVar[dict[str, tuple[str, dict[str, str]]]] = {}
    # libcu++'s cuda::atomic_ref written as the target's atomic builtins (kernelport/atomic_refs.py): member ->
    # spelling ({ref} the pointer, {scope}, {order} or {success}/{failure}, and the member's own arguments),
    # `cuda::memory_order_*` -> the target's order, `cuda::thread_scope_*` -> its scope; empty: not ported.
    atomic_ref_members: ClassVar[dict[str, str]] = {}
    atomic_ref_orders: ClassVar[dict[str, str]] = {}
    atomic_ref_scopes: ClassVar[dict[str, str]] = {}
    # Names qualified by a whole path (namespaces and the name) the target's library spells otherwise:
    # libcu++'s `cuda::std::numeric_limits` (kernelport/library_namespaces.rewrite_qualified).
    qualified_names: ClassVar[dict[str, str]] = {}
    # Of those, templates meaning another thing for some arguments (a regex over one): `numeric_limits<__half>` (KP209)
    qualified_name_arguments: ClassVar[dict[str, str]] = {}
    # Names so qualified that the target's library lacks, with the header they come from: refused at each
    # use (KP209), where the header itself is ported (libcu++'s `cuda::maximum` of <cuda/functional>).
    unported_qualified_names: ClassVar[dict[str, str]] = {}
    decomposer_tuple: ClassVar[str | None] = None  # a radix sort decomposer's tuple (kernelport/cub_decomposers.py)
    # Of such a header: the namespace its names are qualified by and the names the polyfill defines in
    # it; another name so qualified (`wmma::precision`) is refused at its use (KP209), not left to the compiler.
    header_polyfill_scopes: ClassVar[dict[str, tuple[str, frozenset[str]]]] = {}
    # ... and its fragment type, element array and count members (`fragment`, `x`, `num_elements`):
    # an element read other than element-wise over all of them is refused (kernelport/fragment_elements.py).
    header_polyfill_elements: ClassVar[dict[str, tuple[str, str, str]]] = {}
    # The source dialect: what a name of its API looks like (a regular expression over the whole
    # name), so a name no table knows is still recognised as API, never as the user's own.
    api_pattern: ClassVar[str | None] = None
    api_header_pattern: ClassVar[str | None] = None
    # Toolkit headers that only declare names of one shape (a regular expression over the whole name):
    # a port may leave such an include out where the file uses none of them (kernelport.header_uses).
    header_declares: ClassVar[dict[str, str]] = {}
    # A header's namespace and every name it declares there (<mma.h>: nvcuda::wmma's fragment, precision, ...)
    header_namespace_names: ClassVar[dict[str, tuple[str, frozenset[str]]]] = {}
    # Calls that act on one whole warp of 32 lanes by the source dialect's definition, whatever the
    # target's wave (a regular expression over the called name, unqualified): a warp-level group that
    # calls one keeps 32-lane warps (kernelport/warpwidth.py); CUDA: <mma.h>'s warp matrix operations.
    warp32_calls: ClassVar[str | None] = None
    # The same for inline assembly: instructions (a regular expression over an asm statement's instruction
    # names, from their start) that act on a whole 32-lane warp; CUDA: PTX's mma.sync and ldmatrix.
    warp32_asm: ClassVar[str | None] = None
    # Macros the source dialect's compiler or headers define (their include guards): what a file
    # declares under `#ifndef` one of them stands in for the toolkit's own declaration.
    toolkit_macros: ClassVar[tuple[str, ...]] = ()
    # Object-like macros the source dialect's headers define that user code writes where the grammar
    # needs their expansion (an asm operand's constraint): name -> replacement list, read by the
    # parse's macro repair only (kernelport/macro_repair.py), never by the analyses.
    toolkit_definitions: ClassVar[dict[str, str]] = {}
    # Libraries the backend's toolchain install may lack, which ports include: header folder ->
    # (library, how to install it); a compile stopped at one is skipped, not failed (absent_libraries).
    optional_libraries: ClassVar[dict[str, tuple[str, str]]] = {}
    # A header under a library folder that the table lacks -> the header that provides the library,
    # or (a value ending in `/`) the folder whose header of the same name does.
    api_header_folders: ClassVar[dict[str, str]] = {}
    # A namespace inside a library's namespace that the backend's library names otherwise, by the
    # path that qualifies it (kernelport/library_namespaces.py): "thrust::cuda" -> "hip".
    nested_namespaces: ClassVar[dict[str, str]] = {}
    # The toolchain the table's `hipcc` column was checked with (a name absent there is a warning).
    api_checked_with: ClassVar[str] = ""
    # Headers of the table that toolchain lacks, whose definitions a port carries instead (name <TAB>
    # C text, a file beside the table; kernelport/api_fallbacks.py): target header -> that file.
    absent_header_fallbacks: ClassVar[dict[str, str]] = {}
    # A system header whose target compiler provides less than the CUDA host compiler's: what the port
    # writes after its include (<stdbool.h> -> C++'s `_Bool`, kernelport/translate.py).
    include_supplements: ClassVar[dict[str, str]] = {}
    # A library folder whose CUDA headers bring in a standard header the backend's counterparts do not
    # (CCCL's thrust/ and cub/ include <cfloat>): folder prefix -> the line the port writes before the file's
    # first include of that folder (kernelport/include_lines.py).
    include_folder_supplements: ClassVar[dict[str, str]] = {}
    # A backend with no API table whose translator refuses, at its use, any name device code calls
    # that nothing defines (Metal's KP223): CUDA library API is left to that check, not renamed.
    refuses_undefined_names: ClassVar[bool] = False
    # CUDA's device-side assert(e) / __trap() where the backend cannot stop a kernel: the calls (name ->
    # arguments), the check a port calls instead ({condition}, {number}, {flag}) and the flag argument it
    # writes (name, parameter text) for the host to read (kernelport/backends/metal/assertions.py)
    assertion_calls: ClassVar[dict[str, int]] = {}
    assertion_call: ClassVar[str] = ""
    assertion_flag: ClassVar[tuple[str, str]] = ("", "")

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            REGISTRY[cls.name] = cls()

    # -- behaviour a backend may override -------------------------------------------------------
    def wave_defines(self, wave: int) -> dict[str, str]:
        """Predefined macros a real compiler sets for a target of this wave width."""
        return {}

    def prologue(self, body: str, **context) -> str:
        """What a port starts with after the generated-file header (the backend's includes and
        helpers), from templates/<name>_prologue.j2; `body` is the translated text."""
        from .. import templates
        return templates.render(f"{self.name}_prologue.j2", body=body, **context)

    def extra_files(self) -> dict[str, str]:
        """Files every port of this backend needs beside it: name -> content."""
        return {}

    def folder_header(self, inner: str) -> str | None:
        """The header `api_header_folders` gives an include of `inner` (`cub/block/block_reduce.cuh`):
        the library's, or a folder's header of the same name (`thrust/system/cuda/vector.h`); None."""
        return next((h + inner[len(f):] if h.endswith("/") else h for f, h in self.api_header_folders.items()
                     if inner.startswith(f)), None)

    def translator(self):
        if self.translator_path is None:
            raise LookupError(f"kernelport cannot translate to {self.name}")
        module, cls = self.translator_path.split(":")
        return getattr(import_module(module), cls)

    def run_on_device(self):
        """The function that runs a kernel of this dialect on a real GPU."""
        if self.device_runner is None:
            raise LookupError(f"kernelport cannot run {self.name} kernels on a device")
        module, fn = self.device_runner.split(":")
        return getattr(import_module(module), fn)

    def api(self) -> "Table | None":
        """This backend's API table, loaded the first time it is asked for."""
        if self.api_table is None:
            return None
        if "_api" not in self.__dict__:
            from pathlib import Path
            from .api_table import read
            self.__dict__["_api"] = read(Path(__file__).with_name(self.api_table))
        return self.__dict__["_api"]

    def fallback_definitions(self, header: str) -> "dict[str, str] | None":
        """What a port carries for `header` where the compiler lacks it (absent_header_fallbacks)."""
        file = self.absent_header_fallbacks.get(header)
        if not file:  # "": the older toolchain declares the header's names elsewhere, nothing to define
            return None if file is None else {}
        cache = self.__dict__.setdefault("_fallbacks", {})
        if file not in cache:
            from pathlib import Path
            text = Path(__file__).with_name(file).read_text(encoding="utf-8")
            cache[file] = dict(line.split("\t", 1) for line in text.splitlines() if line and not line.startswith("#"))
        return cache[file]

    def compile(self, path, run: Run, config=None) -> "CompileResult":
        """Compile (or type-check) a file of this backend's text for one run; `config`: the
        configuration of the file it ports (kernelport.compile_flags.configured), of which it reads
        `build_reads`."""
        raise NotImplementedError(f"{self.name}: no toolchain")

    def compile_all(self, path, runs, config=None) -> list["CompileResult"]:
        """compile() for each run, in order: a backend whose compiler builds several architectures
        in one invocation overrides this."""
        return [self.compile(path, r, config) for r in runs]

    def compile_runs(self) -> tuple[Run, ...]:
        """The runs that need a compile of their own (one per architecture)."""
        seen, out = set(), []
        for r in self.runs:
            if r.arch not in seen:
                seen.add(r.arch)
                out.append(r)
        return tuple(out)

    @property
    def lint_targets(self) -> frozenset[str]:
        """The targets code in this dialect runs on: the original runs on all of them."""
        if self.is_source:
            return frozenset(r.target for b in REGISTRY.values() for r in b.runs)
        return frozenset(r.target for r in self.runs)

    def __repr__(self) -> str:
        return f"<backend {self.name}>"

    # -- emulator --
    # C type of the wave-width built-in (CUDA's `int warpSize`; MSL's `uint` attribute).
    warp_size_type: ClassVar[str] = "int"
    # Math concepts compute in their argument's float type (MSL overloads `exp`, `fma`, ...)
    # rather than in float (CUDA's `expf`, `__expf`, `fmaf`).
    math_overloaded: ClassVar[bool] = False
    # Namespaces of the library's math functions (MSL's `precise::fmod`, `fast::atan2`, `metal::fmod`):
    # the emulator runs one as the C library's float function of that name (`fmodf`)
    math_scopes: ClassVar[tuple[str, ...]] = ()
    # Bit concepts take an integer of any type (MSL's `popcount`, `clz`, ...) rather than their
    # fixed parameter types (CUDA's `__popc(unsigned)`, `__popcll(unsigned long long)`).
    bitops_overloaded: ClassVar[bool] = False
    # Explicit atomics that are no concept of the dialect table (the CAS loops of Metal's
    # kp_atomic_* helpers use them): name -> (operation "load" | "store" | "cas", argument count).
    explicit_atomics: ClassVar[dict[str, tuple[str, int]]] = {}
    # What every atomic call of the dialect's names starts with (concepts, scoped forms, compiler builtins)
    atomic_prefixes: ClassVar[tuple[str, ...]] = ()
    # the backend's own functions its ports' prologue overloads for types the target lacks (Metal's 64-bit
    # shuffles): the emulator's concept takes every type, so a call of one by that name is the concept
    builtin_overloads: ClassVar[frozenset[str]] = frozenset()
    # (a kernel's head: kernel_heads.KernelHeads)

    # -- lint --
    # "module:function(backend, path, text) -> Unit" reading this dialect's text as the CUDA-shaped
    # text the rules analyse (positions mapped back; not fixable); None: read as written.
    lint_reader: ClassVar[str | None] = None
    # What a hard 32-lane assumption breaks on, per lint target of this backend (absent: nothing).
    lint_breaks: ClassVar[dict[str, str]] = {}
    # ... when only this backend's 32-wide targets are on (its wider hardware still exists).
    lint_breaks_otherwise: ClassVar[str | None] = None
    # ... in a file of this dialect itself (the hardware is then this backend's own).
    lint_breaks_own: ClassVar[str | None] = None
    # Whether a file of this dialect holds host code beside kernels (Metal: every function is GPU code).
    lint_host_code: ClassVar[bool] = True
    # Width of the lane mask CUDA's `_sync` warp intrinsics take here (None: no such intrinsics).
    lint_sync_mask_bits: ClassVar[int | None] = None
    # The source dialect's 64-bit spellings of lane-mask concepts whose own spelling is 32-bit:
    # `lint --unsafe-fixes` writes them (right on every wave, but a type change on this hardware).
    lint_unsafe_spellings: ClassVar[dict[str, str]] = {}
    # Code-fence language of this dialect's examples in docs/rules.md.
    lint_docs_fence: ClassVar[str] = "cuda"

    @property
    def display_name(self) -> str:
        """The backend as prose names it ("HIP", "Metal")."""
        return self.name.capitalize()

    # -- plan --
    # What `kernelport plan` checks a kernel for when this backend is in scope (beyond lint).
    plan_risks: ClassVar[tuple[str, ...]] = ()
    # Weighed by every plan whatever the kernel's targets (an alternative to the per-backend ports).
    plan_always: ClassVar[bool] = False
