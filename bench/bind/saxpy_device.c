/* Runs the generated CUDA launcher of examples/saxpy.cu on a real GPU against the C reference.
 * Build (bench/bind/run_device.sh does it): kernelport bind examples/saxpy.cu -o OUT, then
 * nvcc -c OUT/saxpy_launch.cu, g++ -x c++ this file, link with -lcudart. */
#include "saxpy_launch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* From examples/saxpy.cu, compiled into the launcher object as C++: this driver is built as C++ too. */
void saxpy_ref(int n, float a, const float* x, float* y);

#define TRY(call)                                                                                   \
    do {                                                                                            \
        int s_ = (call);                                                                            \
        if (s_) {                                                                                   \
            printf("%s -> %d (%s), check %d\n", #call, s_, kp_saxpy_error_string(s_), kp_saxpy_last_check()); \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

int main(void)
{
    const int n = 1 << 18;
    const float a = 2.5f;
    float* hx = (float*)malloc(n * sizeof *hx);
    float* hy = (float*)malloc(n * sizeof *hy);
    float* ref = (float*)malloc(n * sizeof *ref);
    for (int i = 0; i < n; ++i) {
        hx[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
        hy[i] = (float)((i * 53) % 97) / 48.0f - 1.0f;
        ref[i] = hy[i];
    }
    saxpy_ref(n, a, hx, ref);
    float *dx, *dy;
    TRY(kp_saxpy_malloc((void**)&dx, n * sizeof *hx));
    TRY(kp_saxpy_malloc((void**)&dy, n * sizeof *hy));
    TRY(kp_saxpy_copy_to_device(dx, hx, n * sizeof *hx));
    TRY(kp_saxpy_copy_to_device(dy, hy, n * sizeof *hy));
    kp_launch_config c = kp_saxpy_config(n, a);
    printf("annotated geometry: grid %u x %u x %u, block %u x %u x %u\n", c.grid.x, c.grid.y, c.grid.z, c.block.x,
           c.block.y, c.block.z);
    TRY(kp_saxpy(NULL, n, a, dx, dy));
    float* out = (float*)malloc(n * sizeof *out);
    TRY(kp_saxpy_copy_to_host(out, dy, n * sizeof *out));
    double worst = 0;
    int exact = 0;
    for (int i = 0; i < n; ++i) {
        double d = fabs((double)out[i] - (double)ref[i]);
        worst = d > worst ? d : worst;
        exact += out[i] == ref[i];
    }
    printf("saxpy n=%d: %d/%d elements bit-exact vs saxpy_ref, max |diff| %.3g (fma contraction)\n", n, exact, n,
           worst);
    printf("y[0..3] = %.6f %.6f %.6f %.6f; ref = %.6f %.6f %.6f %.6f\n", out[0], out[1], out[2], out[3], ref[0],
           ref[1], ref[2], ref[3]);
    /* A bad geometry: the launch check reports it, nothing runs. */
    kp_launch_config bad = c;
    bad.block.x = 2048;
    int s = kp_saxpy(&bad, n, a, dx, dy);
    printf("block 2048: status %d (%s), check %d (2 = launch)\n", s, kp_saxpy_error_string(s), kp_saxpy_last_check());
    s = kp_saxpy(NULL, n, a, dx, dy);
    printf("next launch: status %d (the launch error was reported once)\n", s);
    TRY(kp_saxpy_free(dx));
    TRY(kp_saxpy_free(dy));
    int ok = worst <= 1e-5;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
