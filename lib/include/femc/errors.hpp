#pragma once
// The error types femc throws. Each names what it is about, so that a user
// reading one line of stderr knows which field or option to fix.
#include <stdexcept>
#include <string>

namespace femc {

// Bad input: a field of the system (or of the JSON document) is malformed.
// what() is "<field>: <what is wrong>".
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& message)
      : std::runtime_error(field + ": " + message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// A valid system that the chosen method cannot solve (e.g. `kkt` on a
// rank-deficient constraint matrix). Never a wrong answer instead.
class MethodError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace femc
