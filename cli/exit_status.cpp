// What every subcommand shares: reading an integer option (MPFR bits:
// scalar/visit_precision.hpp), and the one place where femc's exceptions become exit
// statuses (commands.hpp).
#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "femc/errors.hpp"

namespace femc::cli {

std::optional<long> decimal_integer(const std::string& text, std::size_t max_digits) {
  if (text.empty() || text.size() > std::min<std::size_t>(max_digits, 18) ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stol(text);
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
