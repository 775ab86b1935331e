// cuRAND XORWOW reference values recorded on an NVIDIA GPU, for the emulator's model of curand
// (kernelport verify): for each (seed, subsequence, offset) below, one thread calls curand_init and
// prints the first outputs of curand(), curand_uniform(), curand_normal(), curand_uniform_double(),
// curand_normal_double() and curand_poisson-free forms, each from a fresh state.
//     nvcc -O2 -o /tmp/curand_reference bench/device/curand_reference.cu && /tmp/curand_reference
#include <cstdio>
#include <curand_kernel.h>

struct Case { unsigned long long seed, subsequence, offset; };

__global__ void draw(Case c, unsigned *u32, float *uf, float *nf, double *ud, double *nd, float2 *n2, int n) {
    curandState s;
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n; ++i) u32[i] = curand(&s);
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n; ++i) uf[i] = curand_uniform(&s);
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n; ++i) nf[i] = curand_normal(&s);
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n; ++i) ud[i] = curand_uniform_double(&s);
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n; ++i) nd[i] = curand_normal_double(&s);
    curand_init(c.seed, c.subsequence, c.offset, &s);
    for (int i = 0; i < n / 2; ++i) n2[i] = curand_normal2(&s);
}

int main() {
    const int n = 8;
    Case cases[] = {{0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 7, 3}, {42, 1000, 0},
                    {42, 0, 1000}, {0xdeadbeefcafeULL, 123456, 789}, {7, (1ULL << 20) + 5, 0}};
    unsigned *u32; float *uf, *nf; double *ud, *nd; float2 *n2;
    cudaMallocManaged(&u32, n * 4); cudaMallocManaged(&uf, n * 4); cudaMallocManaged(&nf, n * 4);
    cudaMallocManaged(&ud, n * 8); cudaMallocManaged(&nd, n * 8); cudaMallocManaged(&n2, n * 8);
    for (const Case &c : cases) {
        draw<<<1, 1>>>(c, u32, uf, nf, ud, nd, n2, n);
        if (cudaDeviceSynchronize() != cudaSuccess) { printf("error\n"); return 1; }
        printf("case seed=%llu subsequence=%llu offset=%llu\n", c.seed, c.subsequence, c.offset);
        printf("curand"); for (int i = 0; i < n; ++i) printf(" %u", u32[i]); printf("\n");
        printf("curand_uniform"); for (int i = 0; i < n; ++i) printf(" %.9e", uf[i]); printf("\n");
        printf("curand_normal"); for (int i = 0; i < n; ++i) printf(" %.9e", nf[i]); printf("\n");
        printf("curand_uniform_double"); for (int i = 0; i < n; ++i) printf(" %.17e", ud[i]); printf("\n");
        printf("curand_normal_double"); for (int i = 0; i < n; ++i) printf(" %.17e", nd[i]); printf("\n");
        printf("curand_normal2"); for (int i = 0; i < n / 2; ++i) printf(" %.9e %.9e", n2[i].x, n2[i].y); printf("\n");
    }
    return 0;
}
