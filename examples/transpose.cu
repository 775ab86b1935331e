// transpose.cu - out-of-place matrix transpose through a padded shared-memory tile
// (the classic "transposeNoBankConflicts" from NVIDIA's transpose sample).
//
// idata is height x width (row-major), odata is width x height. Each block moves one
// TILE_DIM x TILE_DIM tile: a TILE_DIM x BLOCK_ROWS block of threads reads the tile row by
// row (coalesced), each thread handling TILE_DIM / BLOCK_ROWS rows, then writes the transposed
// tile row by row (coalesced again) by reading shared memory column-wise. The extra column of
// padding (TILE_DIM + 1) puts the elements of a tile column in different banks.
//
// LOOK-ALIKE: TILE_DIM = 32 and blockDim.x = 32 are the tile edge, not the warp size. Nothing
// here is a warp-level operation; a port must leave every 32 alone.

#define TILE_DIM   32
#define BLOCK_ROWS 8

// @kp kernel     transpose
// @kp grid       ceil_div(width, 32), ceil_div(height, 32)
// @kp block      32, 8
// @kp why        32 x 8 = 256 threads move a 32 x 32 tile, 4 rows per thread: 32 consecutive
// @kp why        floats per row keep the loads and stores coalesced, 8 rows keep the block small
// @kp arg        idata  in   float[width * height]   arange()
// @kp arg        odata  out  float[width * height]
// @kp scalar     width = 300
// @kp scalar     height = 200
// @kp reference  transpose_ref(odata, idata, width, height)
// @kp tolerance  exact
// @kp targets    hip, metal
__global__ void transpose(float* __restrict__ odata, const float* __restrict__ idata,
                          int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < width && (y + j) < height) {
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
        }
    }

    __syncthreads();

    // Swap the block offsets: this block writes tile (blockIdx.y, blockIdx.x) of the output.
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < height && (y + j) < width) {
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}

// Scalar CPU reference (plain C99): odata[c][r] = idata[r][c].
void transpose_ref(float* odata, const float* idata, int width, int height)
{
    int r, c;
    for (r = 0; r < height; ++r) {
        for (c = 0; c < width; ++c) {
            odata[c * height + r] = idata[r * width + c];
        }
    }
}
