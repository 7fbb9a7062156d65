#include "femc/data_precision.hpp"

#include <cctype>

#include "femc/errors.hpp"

namespace femc {
namespace {

// The named rounding formats data come in. Not the precision table
// (scalar/precisions.hpp): a data precision is a significand width data were
// rounded to, which dd and qd do not have (an unevaluated sum of doubles),
// and any width is accepted by its bits; these names are the IEEE and x87
// formats of the table, by which femc writes them back.
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
  // "256", or "256 bits" as to_string writes it (femc's outputs read back).
  const std::string number = text.size() > 5 && text.compare(text.size() - 5, 5, " bits") == 0
                                 ? text.substr(0, text.size() - 5)
                                 : text;
  bool digits = !number.empty() && number.size() <= 6;
  for (char c : number) digits = digits && std::isdigit(static_cast<unsigned char>(c));
  if (digits) {
    const long bits = std::stol(number);
    if (bits >= 2 && bits <= kMaxDataBits) return DataPrecision{bits};
  }
  throw InputError(field, "unknown data precision '" + text.substr(0, 40) +
                              "' (exact, double, long-double, float128, or significand bits 2..65536)");
}

}  // namespace femc
