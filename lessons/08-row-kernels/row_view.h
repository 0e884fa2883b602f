#pragma once
// Lesson 08 (given): the types apply_rows() and the row functions share.
#include <cstddef>

enum class Target { cpu, gpu };

// Where value k of row r lives in a rows x cols matrix.
//   row_major:    out[r * cols + k]  (the seed's NumPy layout: a row is contiguous)
//   column_major: out[k * rows + r]  (the transposed layout: a column is contiguous)
enum class Layout { row_major, column_major };

// One row of a matrix, whichever its layout: value k is data[k * stride]. A row function sees
// only this, so the same function serves both layouts.
// [docs:row-view]
template <typename T>
struct RowView {
  T* data;
  std::size_t stride;
  int size;
  __host__ __device__ T& operator[](int k) const { return data[k * stride]; }
};
// [docs:end]
