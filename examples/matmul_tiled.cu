// matmul_tiled.cu - C = A * B for row-major A (M x K), B (K x N), C (M x N), tiled in shared
// memory.
//
// Each 16 x 16 block computes one 16 x 16 tile of C. It walks along K one tile at a time:
// the block cooperatively loads a tile of A and a tile of B into shared memory (zero-filling
// outside the matrices, so M, N and K need not be multiples of 16), waits at a barrier,
// accumulates the 16 products per thread from shared memory, and waits again before the
// tiles are overwritten. Every global element is loaded once per tile instead of once per
// product. No warp-size assumptions: the 16s are the tile edge.

#define TILE 16

// @kp kernel     matmul_tiled
// @kp grid       ceil_div(N, 16), ceil_div(M, 16)
// @kp block      16, 16
// @kp why        16 x 16 = 256 threads, one per element of a 16 x 16 output tile: two 1 KiB
// @kp why        tiles of shared memory per block and 16 reuses of every loaded value
// @kp arg        A  in   float[M * K]   uniform(-1, 1)
// @kp arg        B  in   float[K * N]   uniform(-1, 1)
// @kp arg        C  out  float[M * N]
// @kp scalar     M = 100
// @kp scalar     N = 90
// @kp scalar     K = 70
// @kp reference  matmul_tiled_ref(A, B, C, M, N, K)
// @kp tolerance  auto
// @kp targets    hip, metal
__global__ void matmul_tiled(const float* __restrict__ A,
                             const float* __restrict__ B,
                             float* __restrict__ C,
                             int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;   // row of C (and of A)
    int col = blockIdx.x * TILE + tx;   // column of C (and of B)

    float acc = 0.0f;
    int ntiles = (K + TILE - 1) / TILE;

    for (int t = 0; t < ntiles; ++t) {
        int a_col = t * TILE + tx;      // column of A this thread loads
        int b_row = t * TILE + ty;      // row of B this thread loads

        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();                // tiles complete before anyone reads them

#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();                // everyone done reading before the next load
    }

    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}

// Scalar CPU reference (plain C99): the textbook triple loop, accumulated in double.
void matmul_tiled_ref(const float* A, const float* B, float* C, int M, int N, int K)
{
    int i, j, k;
    for (i = 0; i < M; ++i) {
        for (j = 0; j < N; ++j) {
            double acc = 0.0;
            for (k = 0; k < K; ++k) {
                acc += (double)A[i * K + k] * (double)B[k * N + j];
            }
            C[i * N + j] = (float)acc;
        }
    }
}
