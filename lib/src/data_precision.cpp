#include "femc/data_precision.hpp"

#include <cctype>
#include <string_view>

#include "femc/errors.hpp"
#include "femc/scalar/precisions.hpp"  // the table alone: this unit names none of its types

namespace femc {
namespace {

// The precisions data can be said to be rounded to, by the precision table's
// names (scalar/precisions.hpp), so that a data precision is spelled as the
// working precision of the same format is: the exact row, and the rows whose
// type is a binary format of one significand width, a floating type of the
// language (header builtin) or binary128 (header float128). Not dd and qd: an
// unevaluated sum of doubles has no one width (1 + 2⁻²⁰⁰ is a double-double),
// so data are not rounded to it; not MPFR, whose name is its bits. Any other
// width is accepted by its bits. Read by the row's header, not its type, so
// that this unit includes no scalar type (the fuzz target compiles it with
// clang, which has no quadmath.h).
struct Named {
  const char* name;
  long bits;
  bool names_data;
};
#define FEMC_DATA_PRECISION_ROW(Type, tag, header, spelling, kind, models, bits, what)                 \
  Named{spelling, bits,                                                                                \
        std::string_view(#kind) == "Exact" || std::string_view(#header) == "builtin" ||                \
            std::string_view(#header) == "float128"},
constexpr Named kRows[] = {FEMC_PRECISIONS(FEMC_DATA_PRECISION_ROW)};
#undef FEMC_DATA_PRECISION_ROW
constexpr long kMaxDataBits = 65536;

}  // namespace

std::string data_precision_names() {
  std::string names;
  for (const Named& n : kRows)
    if (n.names_data) names += std::string(names.empty() ? "" : ", ") + n.name;
  return names;
}

std::string to_string(const DataPrecision& p) {
  for (const Named& n : kRows)
    if (n.names_data && n.bits == p.bits) return n.name;
  return std::to_string(p.bits) + " bits";
}

DataPrecision parse_data_precision(const std::string& text, const std::string& field) {
  for (const Named& n : kRows)
    if (n.names_data && text == n.name) return DataPrecision{n.bits};
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
                              "' (" + data_precision_names() + ", or significand bits 2.." +
                              std::to_string(kMaxDataBits) + ")");
}

}  // namespace femc
