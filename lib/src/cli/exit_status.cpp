// The one place where femc's exceptions become exit statuses (commands.hpp).
#include <iostream>

#include "commands.hpp"
#include "femc/errors.hpp"

namespace femc::cli {

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
