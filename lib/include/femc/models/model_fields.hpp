#pragma once
// What the planar and the spatial model layers (planar.hpp, spatial.hpp)
// share: the ground's index, the names of a model's items in messages, the
// check that a joint or force joins two bodies, and which of φ, A, b a
// constraint evaluation fills.
#include <Eigen/SparseCore>
#include <string>
#include <vector>

#include "femc/errors.hpp"
#include "femc/linalg.hpp"

namespace femc::models {

inline constexpr int kGround = -1;

namespace model_detail {

// "joints[2] (hinge B)", or "joints[2]" when unnamed.
inline std::string item_field(const char* list, std::size_t i, const std::string& name) {
  return std::string(list) + "[" + std::to_string(i) + "]" + (name.empty() ? "" : " (" + name + ")");
}

// InputError naming `field` unless b1 and b2 are bodies (< bodies) or the
// ground, and differ.
inline void check_joined_bodies(const std::string& field, int b1, int b2, int bodies) {
  for (int b : {b1, b2})
    if (b < kGround || b >= bodies) throw InputError(field, "body " + std::to_string(b) + " does not exist");
  if (b1 == b2)
    throw InputError(field, "joins " + (b1 == kGround ? std::string("the ground") : "body " + std::to_string(b1)) +
                                " to itself");
}

// Which of φ, A, b to fill (one loop over the joints for all three); A
// dense, or as the (row, column, value) triplets of a sparse A (duplicates
// summed) for a large mechanism.
template <class S>
struct ConstraintParts {
  Vector<S>* phi = nullptr;
  Matrix<S>* A = nullptr;
  Vector<S>* b = nullptr;
  std::vector<Eigen::Triplet<S, int>>* A_triplets = nullptr;
};

// Where A's entries go: the dense A or the triplets of ConstraintParts.
template <class S>
struct JacobianEntries {
  Matrix<S>* dense = nullptr;
  std::vector<Eigen::Triplet<S, int>>* triplets = nullptr;
  explicit operator bool() const { return dense || triplets; }
  void add(Index row, Index col, const S& value) const {
    if (dense) (*dense)(row, col) += value;
    else if (triplets) triplets->emplace_back(int(row), int(col), value);
  }
};

}  // namespace model_detail
}  // namespace femc::models
