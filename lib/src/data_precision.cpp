#include "femc/data_precision.hpp"

#include <cctype>

#include "femc/errors.hpp"

namespace femc {
namespace {

struct Named {
  const char* name;
  long bits;
};
constexpr Named kNamed[] = {{"exact", 0}, {"double", 53}, {"long-double", 64}, {"float128", 113}};
constexpr long kMaxDataBits = 65536;

}  // namespace

std::string to_string(const DataPrecision& p) {
  for (const Named& n : kNamed)
    if (n.bits == p.bits) return n.name;
  return std::to_string(p.bits) + " bits";
}

DataPrecision parse_data_precision(const std::string& text, const std::string& field) {
  for (const Named& n : kNamed)
    if (text == n.name) return DataPrecision{n.bits};
  bool digits = !text.empty() && text.size() <= 6;
  for (char c : text) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) {
    const long bits = std::stol(text);
    if (bits >= 2 && bits <= kMaxDataBits) return DataPrecision{bits};
  }
  throw InputError(field, "unknown data precision '" + text.substr(0, 40) +
                              "' (exact, double, long-double, float128, or significand bits 2..65536)");
}

}  // namespace femc
