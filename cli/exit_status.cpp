// What every subcommand shares: reading an MPFR --precision, and the one
// place where femc's exceptions become exit statuses (commands.hpp).
#include <iostream>

#include "commands.hpp"
#include "femc/errors.hpp"
#include "femc/scalar/mpfr.hpp"

namespace femc::cli {

std::optional<long> mpfr_bits(const std::string& p) {
  if (p.empty() || p.size() > 6 || p.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const long bits = std::stol(p);
  if (bits < kMinMpfrBits || bits > kMaxMpfrBits)
    throw InputError("precision", p + " bits is outside [" + std::to_string(kMinMpfrBits) + ", " +
                                      std::to_string(kMaxMpfrBits) + "]");
  return bits;
}

int with_exit_status(const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& e) {
    std::cerr << "femc: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const MethodError& e) {
    std::cerr << "femc: " << e.what() << "\n";
    return kExitMethod;
  } catch (const std::exception& e) {
    std::cerr << "femc: " << e.what() << "\n";
    return kExitIo;
  }
}

}  // namespace femc::cli
