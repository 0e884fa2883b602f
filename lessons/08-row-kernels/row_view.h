#pragma once
// Lesson 08 (given): the types apply_rows() and the row functions share.
#include <cstddef>
#include <stdexcept>
#include <string>

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

// Throws std::invalid_argument, naming `what`, when rows or cols is negative.
inline void check_matrix_size(const char* what, int rows, int cols) {
  if (rows < 0 || cols < 0)
    throw std::invalid_argument(std::string(what) + ": rows and cols must be >= 0, got " + std::to_string(rows) +
                                " x " + std::to_string(cols));
}
