#pragma once
// Lesson 06: C = A * B for float32 matrices, four ways: one thread per element reading global
// memory, tiles staged in shared memory, cuBLAS, and a register-blocked kernel (seed 000's
// cu_square_matrix_mul, for any shape).
//
// Every matrix is row-major and on the device: A is m x k (element (i, p) at a[i * k + p]), B is
// k x n (b[p * n + j]), C is m x n (c[i * n + j]). Each function launches its work on the default
// stream and returns without waiting for the GPU. m == 0 or n == 0 does nothing; k == 0 sets C
// to zero. A negative size throws std::invalid_argument before anything runs; a CUDA or cuBLAS
// failure throws. (cublas_handle(), step 3's handle, is declared in cublas_helpers.h with cuBLAS's
// header: the kernels' files, which do not call cuBLAS, compile without it.)
#include <stdexcept>
#include <string>

// Step 2's tile: each block computes a kTile x kTile tile of C from kTile x kTile tiles of A and
// B held in shared memory. The seed's tpb = 32.
constexpr int kTile = 32;

// Step 1: one thread per element of C, each reading its row of A and its column of B from
// global memory.
void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k);

// Step 2: tiles of A and B staged in shared memory, with a __syncthreads() after each tile is
// loaded and after it is used. Right for every m, n, k (zeros are loaded outside the matrices).
void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k);

// Step 3: cublasSgemm on the row-major matrices, through the one handle cublas_handle() keeps.
void matmul_cublas(const float* a, const float* b, float* c, int m, int n, int k);

// Step 4 (stretch): each thread computes a small tile of C in registers, from tiles of A and B in
// shared memory loaded with vector (float4) loads.
void matmul_register_blocked(const float* a, const float* b, float* c, int m, int n, int k);

// Given: every function calls this first.
inline void check_matmul_sizes(int m, int n, int k) {
  if (m < 0 || n < 0 || k < 0)
    throw std::invalid_argument("matmul: sizes must not be negative, got m = " + std::to_string(m) +
                                ", n = " + std::to_string(n) + ", k = " + std::to_string(k));
}
