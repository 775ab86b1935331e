// Drives the generated saxpy launcher against the fake runtime (tests/test_bind_behaviour.py).
// Each scenario prints "<name>: ok" or "<name>: FAIL ..." and the exit status counts failures.
#include "cuda_runtime.h"
#include "saxpy_launch.h"

#include <stdio.h>
#include <string.h>

void saxpy(int n, float a, const float* x, float* y);  // from the kernel source the launcher includes

static dim3 seen_grid, seen_block;
static int failures = 0;

// The launch hook: run the kernel over the grid, one thread at a time (saxpy needs no barrier).
static void run_saxpy(const void* func, dim3 grid, dim3 block, size_t, void** args)
{
    typedef void (*Kernel)(int, float, const float*, float*);
    Kernel k = (Kernel)func;
    seen_grid = grid;
    seen_block = block;
    gridDim = grid;
    blockDim = block;
    for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tx = 0; tx < block.x; ++tx) {
            blockIdx.x = bx; blockIdx.y = blockIdx.z = 0;
            threadIdx.x = tx; threadIdx.y = threadIdx.z = 0;
            k(*(int*)args[0], *(float*)args[1], *(const float**)args[2], *(float**)args[3]);
        }
}

#define CHECK(name, cond)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            printf("%s: FAIL %s (log: %s)\n", name, #cond, fake_log());                       \
            ++failures;                                                                       \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static const int N = 1000;
static float hx[N], hy[N], expect[N];
static float *dx, *dy;

static void setup(void)
{
    fake_reset();
    for (int i = 0; i < N; ++i) {
        hx[i] = (float)(i % 17) - 8.0f;
        hy[i] = 0.25f * (float)(i % 5);
        expect[i] = 2.5f * hx[i] + hy[i];
    }
    kp_saxpy_malloc((void**)&dx, sizeof hx);
    kp_saxpy_malloc((void**)&dy, sizeof hy);
    kp_saxpy_copy_to_device(dx, hx, sizeof hx);
    kp_saxpy_copy_to_device(dy, hy, sizeof hy);
    fake_on_launch(run_saxpy);
}

static void ok_run(void)
{
    const char* name = "ok_run";
    setup();
    const char* before = fake_log();
    size_t skip = strlen(before);
    int s = kp_saxpy(NULL, N, 2.5f, dx, dy);
    CHECK(name, s == 0);
    CHECK(name, kp_saxpy_last_check() == KP_CHECK_NONE);
    CHECK(name, strcmp(fake_log() + skip, ",GetLastError,LaunchKernel,GetLastError,DeviceSynchronize") == 0);
    kp_launch_config d = kp_saxpy_config(N, 2.5f);  // min(ceil_div(1000, 256), 256) = 4 blocks of 256
    CHECK(name, d.grid.x == 4 && d.grid.y == 1 && d.block.x == 256 && d.block.y == 1 && d.shared_bytes == 0);
    CHECK(name, seen_grid.x == 4 && seen_block.x == 256);
    float out[N];
    kp_saxpy_copy_to_host(out, dy, sizeof out);
    CHECK(name, memcmp(out, expect, sizeof out) == 0);
    printf("%s: ok\n", name);
}

static void override_geometry(void)
{
    const char* name = "override_geometry";
    setup();
    kp_launch_config c = kp_saxpy_config(N, 2.5f);
    c.grid.x = 2;
    c.block.x = 64;  // a grid-stride loop: any geometry covers n
    CHECK(name, kp_saxpy(&c, N, 2.5f, dx, dy) == 0);
    CHECK(name, seen_grid.x == 2 && seen_block.x == 64);
    float out[N];
    kp_saxpy_copy_to_host(out, dy, sizeof out);
    CHECK(name, memcmp(out, expect, sizeof out) == 0);
    printf("%s: ok\n", name);
}

static void bad_geometry(void)
{
    const char* name = "bad_geometry";
    setup();
    kp_launch_config c = kp_saxpy_config(N, 2.5f);
    c.block.x = 2048;  // more than 1024 threads per block
    int s = kp_saxpy(&c, N, 2.5f, dx, dy);
    CHECK(name, s == cudaErrorInvalidConfiguration);
    CHECK(name, kp_saxpy_last_check() == KP_CHECK_LAUNCH);
    CHECK(name, strstr(fake_log(), "DeviceSynchronize") == NULL);
    CHECK(name, strcmp(kp_saxpy_error_string(s), "invalid configuration argument") == 0);
    // Reported once: the next launch is not blamed for it.
    CHECK(name, kp_saxpy(NULL, N, 2.5f, dx, dy) == 0);
    printf("%s: ok\n", name);
}

static void sync_fault(void)
{
    const char* name = "sync_fault";
    setup();
    fake_fail_next_sync(cudaErrorIllegalAddress);  // the launch succeeds; the kernel faults
    int s = kp_saxpy(NULL, N, 2.5f, dx, dy);
    CHECK(name, s == cudaErrorIllegalAddress);
    CHECK(name, kp_saxpy_last_check() == KP_CHECK_SYNC);
    CHECK(name, strcmp(kp_saxpy_error_string(s), "an illegal memory access was encountered") == 0);
    printf("%s: ok\n", name);
}

static void pending_error(void)
{
    const char* name = "pending_error";
    setup();
    fake_set_pending(cudaErrorLaunchFailure);  // left by an earlier, unchecked call
    int s = kp_saxpy(NULL, N, 2.5f, dx, dy);
    CHECK(name, s == cudaErrorLaunchFailure);
    CHECK(name, kp_saxpy_last_check() == KP_CHECK_PENDING);
    CHECK(name, strstr(fake_log(), "LaunchKernel") == NULL);
    printf("%s: ok\n", name);
}

static void free_once(void)
{
    const char* name = "free_once";
    setup();
    CHECK(name, kp_saxpy_free(dx) == 0);
    CHECK(name, fake_free_count(dx) == 1);
    CHECK(name, kp_saxpy_free(dx) == cudaErrorInvalidValue);  // the fake catches a double free
    CHECK(name, kp_saxpy_last_check() == KP_CHECK_MEMORY);
    printf("%s: ok\n", name);
}

int main(int argc, char** argv)
{
    struct { const char* name; void (*run)(void); } all[] = {
        {"ok_run", ok_run}, {"override_geometry", override_geometry}, {"bad_geometry", bad_geometry},
        {"sync_fault", sync_fault}, {"pending_error", pending_error}, {"free_once", free_once}};
    for (unsigned i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (argc < 2 || strcmp(argv[1], all[i].name) == 0) all[i].run();
    return failures;
}
